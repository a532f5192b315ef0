/* uring.h: internals of the uring backend shared by its two files (engine, opcode table). */
#ifndef SYSLET_URING_H
#define SYSLET_URING_H

#include <liburing.h>
#include "emul.h"

/* For each syscall number of @profile, the uring op that runs it (0: none
 * on this kernel), as probed on the ring of descriptor @ring_fd; malloc'd
 * into *out. */
int uring_ops_map(int ring_fd, int profile,
		  unsigned long nr_syscalls, unsigned char **out);
int uring_op_prep(struct io_uring_sqe *sqe, int op, const struct emul_atom *a,
		  long *now);
long uring_op_result_fix(int op, const struct emul_atom *a, int res);
/* An open: 1 and its flags, 2 (openat2: flags in its struct), or 0. */
int uring_op_open(int op, const struct emul_atom *a, unsigned long *flags);
unsigned long uring_op_whole(int op, const struct emul_atom *a);
int uring_op_newfd(int op, const struct emul_atom *a, long ret, bool *nb);
const char *uring_op_name(int op);

/*
 * What each op (uring_ops_map()'s values) is: the engine asks at every
 * atom it prepares and every completion it takes, so the answers are
 * bits of a table, and the functions above are called only for the ops
 * whose bit says the answer depends on the call.
 */
enum {
	/* On an O_NONBLOCK descriptor io_uring waits where the call says
	 * EAGAIN: the engine must know the flag. */
	UOPP_NBFD	= 0x01,
	/* read or readv, at the file position. */
	UOPP_READS	= 0x02,
	/* Reads or moves the file position (offset -1). */
	UOPP_FILEPOS	= 0x04,
	/* At an offset of its own (pread64 and the like). */
	UOPP_POSITIONED	= 0x08,
	/* preadv2, pwritev2: the file position where the offset is -1,
	 * else an offset of its own. */
	UOPP_POS_ARG3	= 0x10,
	/* io_uring's answer may not be the call's: a transfer it may end
	 * early (uring_op_whole()) or an open (uring_op_open()). */
	UOPP_REDO	= 0x20,
	/* Returns a descriptor (uring_op_newfd()). */
	UOPP_NEWFD	= 0x40,
	/* A negative result may need translating (uring_op_result_fix()). */
	UOPP_FIXRES	= 0x80,
	/* Of UOPP_REDO: a transfer io_uring may end early
	 * (uring_op_whole()); the others are opens. */
	UOPP_SHORT	= 0x100,
};

extern const unsigned short uring_op_props[];

static inline bool uring_op_nbfd(int op)
{
	return uring_op_props[op] & UOPP_NBFD;
}

static inline bool uring_op_reads(int op)
{
	return uring_op_props[op] & UOPP_READS;
}

static inline bool uring_op_filepos(int op, const struct emul_atom *a)
{
	unsigned int p = uring_op_props[op];

	return (p & UOPP_FILEPOS) ||
	       ((p & UOPP_POS_ARG3) && (int64_t)a->args[3] == -1);
}

static inline bool uring_op_positioned(int op, const struct emul_atom *a)
{
	unsigned int p = uring_op_props[op];

	return (p & UOPP_POSITIONED) ||
	       ((p & UOPP_POS_ARG3) && (int64_t)a->args[3] != -1);
}

/* What the call would have returned, from the CQE's result @res. */
static inline long uring_op_result(int op, const struct emul_atom *a,
				   int res)
{
	if (res < 0 && (uring_op_props[op] & UOPP_FIXRES))
		return uring_op_result_fix(op, a, res);
	return res;
}

#endif /* SYSLET_URING_H */
