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
long uring_op_result(int op, const struct emul_atom *a, int res);
bool uring_op_nbfd(int op);
/* An open: 1 and its flags, 2 (openat2: flags in its struct), or 0. */
int uring_op_open(int op, const struct emul_atom *a, unsigned long *flags);
/* read or readv, at the file position. */
bool uring_op_reads(int op);
bool uring_op_filepos(int op, const struct emul_atom *a);
/* pread64 and the like, at an offset of their own. */
bool uring_op_positioned(int op, const struct emul_atom *a);
unsigned long uring_op_whole(int op, const struct emul_atom *a);
int uring_op_newfd(int op, const struct emul_atom *a, long ret, bool *nb);
const char *uring_op_name(int op);

#endif /* SYSLET_URING_H */
