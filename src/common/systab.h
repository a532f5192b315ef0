/* systab.h: syscall tables per ABI profile, the deny list and errno names. */
#ifndef SYSLET_SYSTAB_H
#define SYSLET_SYSTAB_H

#include <stdbool.h>
#include <stddef.h>

enum systab_profile {
	SYSTAB_I386_2007,	/* the seeds' 2.6.20 kernel: 0..319, syslet calls 320..324 */
	SYSTAB_I386,		/* today's i386, syslet calls at SYSLET_NR_BASE.. */
	SYSTAB_X86_64,		/* today's x86_64, syslet calls at SYSLET_NR_BASE.. */
	SYSTAB_NR_PROFILES,
};

/*
 * The names are held in the entries, not pointed to: a table of pointers
 * is relocated by the dynamic loader at every start of a PIE program,
 * each of its pages written, a page fault each (about 11 us on a VM that
 * shadows page tables); these tables were 4.5 of the 11 pages syslet-run
 * relocated.  Held, they are read-only data, paged in with the rest.
 * gen-tables.sh refuses a name too long for them.
 */
#define SYSTAB_NAME_MAX	32
/* Slots of each table's name hash (gen-tables.sh): a power of two, at
 * least twice the names; four times (2,048 for i386's 440) keeps every
 * name within a few slots of its hash's (tests/common/systab.sh). */
#define SYSTAB_HASH_SIZE	2048
#define ERRNO_NAME_MAX	16

struct systab_entry {
	char		name[SYSTAB_NAME_MAX];
	int		nr;
};

struct errno_entry {
	char		name[ERRNO_NAME_MAX];
	int		nr;
};

/* "i386-2007", "i386", "x86_64"; -1 from systab_profile_parse when unknown. */
const char *systab_profile_name(enum systab_profile p);
int systab_profile_parse(const char *name);
/* Word size in bytes of a profile's machine: 4 or 8. */
unsigned int systab_word_size(enum systab_profile p);
/* The profile this library was built for (x86_64 or i386). */
enum systab_profile systab_native_profile(void);

/*
 * Name <-> number, including the five syslet calls (async_register ..
 * umem_add) at the profile's numbers.  Lookups return -1 / NULL when
 * absent.
 */
int systab_lookup(enum systab_profile p, const char *name);
const char *systab_name(enum systab_profile p, long nr);
/* Highest number + 1 of the profile (its NR_syscalls). */
long systab_nr_syscalls(enum systab_profile p);
/* The profile's number of a syslet call (enum syslet_call). */
long systab_syslet_nr(enum systab_profile p, int call);
/* enum syslet_call of nr in profile p, or -1 if nr is not a syslet call. */
int systab_syslet_call(enum systab_profile p, long nr);

/*
 * Calls never allowed inside an atom: process creation and exit, exec,
 * sigreturn, the async_* calls, per-task state that a hand-off makes
 * ambiguous (seccomp, the setuid family, capset, unshare, setns,
 * landlock_restrict_self, set_tid_address, set_robust_list, rseq,
 * sigaltstack, the I/O port permissions of ioperm and iopl) and the runtime's own thread pointer (arch_prctl,
 * set_thread_area, vm86).  umem_add is allowed.
 */
bool systab_denied_name(const char *name);
/* The list's names one by one: NULL past the last. */
const char *systab_denied_nth(size_t i);
bool systab_denied(enum systab_profile p, long nr);
/*
 * The list by argument: a call allowed in atoms but not with this value
 * of its argument @i (0..5): prctl's operations (its first) that change
 * the thread's security state (PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS,
 * PR_CAPBSET_DROP...), close_range's flags (its third) with
 * CLOSE_RANGE_UNSHARE; the compiler asks when the argument is a
 * constant, the backends when the atom runs.  systab_denied_arg0_name()
 * asks of the first argument.  systab_denied_args() also answers true
 * for the calls denied whatever the arguments; @nargs arguments were
 * fetched, the rest are 0.
 */
bool systab_denied_arg_name(const char *name, unsigned int i, unsigned long v);
/* Which argument of @name has such a rule, or -1. */
int systab_denied_arg_index(const char *name);
bool systab_denied_arg0_name(const char *name, unsigned long arg0);
bool systab_denied_args(enum systab_profile p, long nr,
			const unsigned long *args, unsigned int nargs);

/*
 * Levenshtein distance of two names, for "did you mean" here and in the
 * compiler; names longer than SYSTAB_EDIT_MAX are 99 away from anything
 * (every syscall name is shorter, so no suggestion is lost).
 */
#define SYSTAB_EDIT_MAX	32
unsigned int systab_edit_distance(const char *a, const char *b);

/* Closest known name within a small edit distance, for "did you mean". */
const char *systab_suggest(enum systab_profile p, const char *name);

/* "ENOENT" for 2; NULL if unknown. errno_lookup("ENOENT") is 2, or -1. */
const char *errno_name(int err);
int errno_lookup(const char *name);

/* Iteration, for completion and listings. */
const struct systab_entry *systab_entries(enum systab_profile p, unsigned int *n);

#endif /* SYSLET_SYSTAB_H */
