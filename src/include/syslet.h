/* syslet.h: the syslet user ABI (atoms, flags, async head), as in the 2007 series. */
#ifndef SYSLET_H
#define SYSLET_H

/*
 * Every field is a machine word, so the layout is the same on i386 (44
 * bytes) and x86_64 (88 bytes) without packing attributes.  The kernel
 * never reads past the first NULL in arg_ptr[] and never touches private.
 */
struct syslet_uatom {
	unsigned long		flags;
	unsigned long		nr;
	long			*ret_ptr;
	struct syslet_uatom	*next;
	unsigned long		*arg_ptr[6];
#ifdef __cplusplus
	void			*private_;	/* "private" is a keyword */
#else
	void			*private;
#endif
};

#define SYSLET_ASYNC			0x00000001UL
#define SYSLET_SYNC			0x00000002UL
#define SYSLET_NO_COMPLETE		0x00000004UL
#define SYSLET_STOP_ON_NONZERO		0x00000008UL
#define SYSLET_STOP_ON_ZERO		0x00000010UL
#define SYSLET_STOP_ON_NEGATIVE		0x00000020UL
#define SYSLET_STOP_ON_NON_POSITIVE	0x00000040UL
#define SYSLET_SKIP_TO_NEXT_ON_STOP	0x00000080UL

#define SYSLET_STOP_MASK	(SYSLET_STOP_ON_NONZERO | SYSLET_STOP_ON_ZERO | \
				 SYSLET_STOP_ON_NEGATIVE | \
				 SYSLET_STOP_ON_NON_POSITIVE)
#define SYSLET_FLAGS_MASK	0x000000ffUL

struct async_head_user {
	struct syslet_uatom	**completion_ring;
	unsigned long		ring_size_bytes;
	unsigned long		max_nr_threads;
};

/*
 * Syscall numbers of the five syslet calls.  The 2007 i386 kernel had
 * them at 320..324; today's kernels use those numbers for other calls,
 * so our kernel port places them at SYSLET_NR_BASE.. on i386 and x86_64
 * (free in every kernel so far) and publishes the numbers it chose under
 * /sys/kernel/syslet/.  Programs should ask libsyslet (syslet_sysno())
 * rather than hard-code either set.
 */
enum syslet_call {
	SYSLET_CALL_ASYNC_REGISTER	= 0,
	SYSLET_CALL_ASYNC_EXEC		= 1,
	SYSLET_CALL_ASYNC_WAIT		= 2,
	SYSLET_CALL_ASYNC_UNREGISTER	= 3,
	SYSLET_CALL_UMEM_ADD		= 4,
	SYSLET_NR_CALLS			= 5,
};

#define SYSLET_NR_BASE_2007	320	/* i386-2007 profile */
#define SYSLET_NR_BASE		1000	/* i386 and x86_64 profiles */

#endif /* SYSLET_H */
