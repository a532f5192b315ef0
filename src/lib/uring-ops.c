/* uring-ops.c: which atoms the uring engine sends through io_uring, and how each becomes an SQE (probed on the running kernel). */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/fs.h>
#include <liburing.h>
#include "emul-fault.h"
#include "uring.h"
#include "common/systab.h"

/* Calls with an io_uring opcode that does what the call does, with the
 * call's own argument layout translated below. */
enum uop {
	UOP_NONE = 0,
	UOP_READ, UOP_PREAD, UOP_READV, UOP_PREADV, UOP_PREADV2,
	UOP_WRITE, UOP_PWRITE, UOP_WRITEV, UOP_PWRITEV, UOP_PWRITEV2,
	UOP_OPEN, UOP_OPENAT, UOP_OPENAT2, UOP_CLOSE, UOP_STATX,
	UOP_FSYNC, UOP_FDATASYNC, UOP_FALLOCATE, UOP_SYNC_FILE_RANGE,
	UOP_ACCEPT, UOP_ACCEPT4, UOP_CONNECT, UOP_SENDTO, UOP_RECVFROM,
	UOP_SENDMSG, UOP_RECVMSG, UOP_SHUTDOWN, UOP_SOCKET,
	UOP_RENAME, UOP_RENAMEAT, UOP_RENAMEAT2, UOP_UNLINK, UOP_UNLINKAT,
	UOP_RMDIR, UOP_MKDIR, UOP_MKDIRAT, UOP_SYMLINK, UOP_SYMLINKAT,
	UOP_LINK, UOP_LINKAT, UOP_NANOSLEEP, UOP_TEE, UOP_FADVISE,
	UOP_MADVISE, UOP_EPOLL_CTL,
	UOP_COUNT
};

static const struct {
	const char	*name;
	unsigned char	opcode;
} uop_def[UOP_COUNT] = {
	[UOP_READ] = { "read", IORING_OP_READ },
	[UOP_PREAD] = { "pread64", IORING_OP_READ },
	[UOP_READV] = { "readv", IORING_OP_READV },
	[UOP_PREADV] = { "preadv", IORING_OP_READV },
	[UOP_PREADV2] = { "preadv2", IORING_OP_READV },
	[UOP_WRITE] = { "write", IORING_OP_WRITE },
	[UOP_PWRITE] = { "pwrite64", IORING_OP_WRITE },
	[UOP_WRITEV] = { "writev", IORING_OP_WRITEV },
	[UOP_PWRITEV] = { "pwritev", IORING_OP_WRITEV },
	[UOP_PWRITEV2] = { "pwritev2", IORING_OP_WRITEV },
	[UOP_OPEN] = { "open", IORING_OP_OPENAT },
	[UOP_OPENAT] = { "openat", IORING_OP_OPENAT },
	[UOP_OPENAT2] = { "openat2", IORING_OP_OPENAT2 },
	[UOP_CLOSE] = { "close", IORING_OP_CLOSE },
	[UOP_STATX] = { "statx", IORING_OP_STATX },
	[UOP_FSYNC] = { "fsync", IORING_OP_FSYNC },
	[UOP_FDATASYNC] = { "fdatasync", IORING_OP_FSYNC },
	[UOP_FALLOCATE] = { "fallocate", IORING_OP_FALLOCATE },
	[UOP_SYNC_FILE_RANGE] = { "sync_file_range",
				  IORING_OP_SYNC_FILE_RANGE },
	[UOP_ACCEPT] = { "accept", IORING_OP_ACCEPT },
	[UOP_ACCEPT4] = { "accept4", IORING_OP_ACCEPT },
	[UOP_CONNECT] = { "connect", IORING_OP_CONNECT },
	[UOP_SENDTO] = { "sendto", IORING_OP_SEND },
	[UOP_RECVFROM] = { "recvfrom", IORING_OP_RECV },
	[UOP_SENDMSG] = { "sendmsg", IORING_OP_SENDMSG },
	[UOP_RECVMSG] = { "recvmsg", IORING_OP_RECVMSG },
	[UOP_SHUTDOWN] = { "shutdown", IORING_OP_SHUTDOWN },
	[UOP_SOCKET] = { "socket", IORING_OP_SOCKET },
	[UOP_RENAME] = { "rename", IORING_OP_RENAMEAT },
	[UOP_RENAMEAT] = { "renameat", IORING_OP_RENAMEAT },
	[UOP_RENAMEAT2] = { "renameat2", IORING_OP_RENAMEAT },
	[UOP_UNLINK] = { "unlink", IORING_OP_UNLINKAT },
	[UOP_UNLINKAT] = { "unlinkat", IORING_OP_UNLINKAT },
	[UOP_RMDIR] = { "rmdir", IORING_OP_UNLINKAT },
	[UOP_MKDIR] = { "mkdir", IORING_OP_MKDIRAT },
	[UOP_MKDIRAT] = { "mkdirat", IORING_OP_MKDIRAT },
	[UOP_SYMLINK] = { "symlink", IORING_OP_SYMLINKAT },
	[UOP_SYMLINKAT] = { "symlinkat", IORING_OP_SYMLINKAT },
	[UOP_LINK] = { "link", IORING_OP_LINKAT },
	[UOP_LINKAT] = { "linkat", IORING_OP_LINKAT },
	[UOP_NANOSLEEP] = { "nanosleep", IORING_OP_TIMEOUT },
	[UOP_TEE] = { "tee", IORING_OP_TEE },
	[UOP_FADVISE] = { "fadvise64", IORING_OP_FADVISE },
	[UOP_MADVISE] = { "madvise", IORING_OP_MADVISE },
	[UOP_EPOLL_CTL] = { "epoll_ctl", IORING_OP_EPOLL_CTL },
};

/* What each op is, for the engine's tests at every atom and completion
 * (uring.h: UOPP_*): read at each, so a table and not a function. */
const unsigned short uring_op_props[UOP_COUNT] = {
	[UOP_READ] = UOPP_NBFD | UOPP_READS | UOPP_FILEPOS | UOPP_FIXRES,
	[UOP_READV] = UOPP_NBFD | UOPP_READS | UOPP_FILEPOS | UOPP_FIXRES,
	[UOP_WRITE] = UOPP_NBFD | UOPP_FILEPOS | UOPP_REDO | UOPP_SHORT |
		      UOPP_FIXRES,
	[UOP_WRITEV] = UOPP_NBFD | UOPP_FILEPOS | UOPP_REDO | UOPP_SHORT |
		      UOPP_FIXRES,
	[UOP_PREAD] = UOPP_NBFD | UOPP_POSITIONED | UOPP_FIXRES,
	[UOP_PREADV] = UOPP_NBFD | UOPP_POSITIONED | UOPP_FIXRES,
	[UOP_PWRITE] = UOPP_NBFD | UOPP_POSITIONED | UOPP_REDO | UOPP_SHORT |
		      UOPP_FIXRES,
	[UOP_PWRITEV] = UOPP_NBFD | UOPP_POSITIONED | UOPP_REDO |
			UOPP_SHORT | UOPP_FIXRES,
	/* Offset -1: the file position. */
	[UOP_PREADV2] = UOPP_NBFD | UOPP_POS_ARG3 | UOPP_FIXRES,
	[UOP_PWRITEV2] = UOPP_NBFD | UOPP_POS_ARG3 | UOPP_FIXRES,
	[UOP_OPEN] = UOPP_REDO | UOPP_NEWFD,
	[UOP_OPENAT] = UOPP_REDO | UOPP_NEWFD,
	[UOP_OPENAT2] = UOPP_REDO,
	[UOP_SOCKET] = UOPP_NEWFD,
	[UOP_ACCEPT] = UOPP_NBFD | UOPP_NEWFD,
	[UOP_ACCEPT4] = UOPP_NBFD | UOPP_NEWFD,
	[UOP_CONNECT] = UOPP_NBFD,
	[UOP_SENDTO] = UOPP_NBFD | UOPP_REDO | UOPP_SHORT,
	[UOP_RECVFROM] = UOPP_NBFD,
	[UOP_SENDMSG] = UOPP_NBFD | UOPP_REDO | UOPP_SHORT,
	[UOP_RECVMSG] = UOPP_NBFD,
	[UOP_TEE] = UOPP_NBFD,
	[UOP_NANOSLEEP] = UOPP_FIXRES,
};

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	1
#endif
#ifndef AT_REMOVEDIR
#define AT_REMOVEDIR		0x200
#endif

int uring_ops_map(int ring_fd, int profile, unsigned long nr_syscalls,
		  unsigned char **out)
{
	/* liburing's probe call reads only the descriptor of the ring; it
	 * is made here, not by io_uring_get_probe_ring(), whose NULL hides
	 * why the kernel refused (a filter's EPERM read as ENOMEM). */
	struct io_uring ring = { .ring_fd = ring_fd, .enter_ring_fd = ring_fd };
	size_t len = sizeof(struct io_uring_probe) +
		     256 * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *probe = calloc(1, len);
	unsigned char *map = calloc(nr_syscalls ? nr_syscalls : 1, 1);
	int r;

	if (!probe || !map) {
		free(map);
		free(probe);
		return -ENOMEM;
	}
	r = io_uring_register_probe(&ring, probe, 256);
	if (r < 0) {
		free(map);
		free(probe);
		return r;
	}
	for (int op = 1; op < UOP_COUNT; op++) {
		int nr = systab_lookup((enum systab_profile)profile,
				       uop_def[op].name);

		if (nr < 0 || (unsigned long)nr >= nr_syscalls)
			continue;
		if (!io_uring_opcode_supported(probe, uop_def[op].opcode))
			continue;
		map[nr] = (unsigned char)op;
	}
	free(probe);
	*out = map;
	return 0;
}

const char *uring_op_name(int op)
{
	return op > 0 && op < UOP_COUNT ? uop_def[op].name : NULL;
}

/* A 64-bit offset from argument @i. */
static inline uint64_t off_arg(const struct emul_atom *a, int i)
{
	return (uint64_t)a->args[i];
}

/* A positioned call with a negative offset: pread64() refuses it, while
 * io_uring takes -1 for "the file position". */
static inline bool bad_pos(const struct emul_atom *a, int i)
{
	return (int64_t)off_arg(a, i) < 0;
}

/*
 * The argument that goes into the SQE's 32-bit len field (a byte count,
 * a count of iovecs, openat2's size), or -1.  A value that does not fit
 * would reach io_uring cut to its low half (2^32 + 5 bytes: 5, 2^32: 0,
 * which reads as an end of file; -1: 2^32 - 1, where read() says
 * EFAULT), so such a call is the engine's own.
 */
static int len_arg(int op)
{
	switch (op) {
	case UOP_READ: case UOP_PREAD: case UOP_WRITE: case UOP_PWRITE:
	case UOP_READV: case UOP_WRITEV: case UOP_PREADV: case UOP_PWRITEV:
	case UOP_PREADV2: case UOP_PWRITEV2: case UOP_SYNC_FILE_RANGE:
	case UOP_SENDTO: case UOP_RECVFROM: case UOP_TEE: case UOP_FADVISE:
		return 2;
	case UOP_OPENAT2:
		return 3;
	case UOP_MADVISE:
		return 1;
	}
	return -1;
}

/*
 * nanosleep() refuses a time with a negative second or a nanosecond
 * count outside [0, 10^9) (timespec64_valid()); io_uring's timeout takes
 * any count that is not negative, so {0, 10^9} would sleep a second.
 * An unreadable time is io_uring's EFAULT, as it is the call's.
 */
static bool bad_time(const struct emul_atom *a)
{
	unsigned long sec, nsec;
	const unsigned long *ts = (const unsigned long *)a->args[0];

	if (emul_get(&sec, ts) || emul_get(&nsec, ts + 1))
		return false;
	return (long)sec < 0 || nsec >= 1000000000UL;
}

/*
 * Fill @sqe for atom @a (whose call maps to @op).  Returns 0 when the SQE
 * is ready, 1 when the answer is known without the kernel (*now: the
 * call's result), -1 when this particular call cannot go through io_uring
 * (an argument io_uring reads differently): the engine runs it itself.
 */
int uring_op_prep(struct io_uring_sqe *sqe, int op, const struct emul_atom *a,
		  long *now)
{
	const unsigned long *x = a->args;
	int fd = (int)x[0], la = len_arg(op);

	if (la >= 0 && x[la] > UINT32_MAX)
		return -1;
	/* sendto() and recvfrom() take more than INT_MAX as INT_MAX,
	 * io_uring's send and recv refuse it (EINVAL). */
	if ((op == UOP_SENDTO || op == UOP_RECVFROM) && x[2] > INT_MAX)
		return -1;
	switch (op) {
	case UOP_READ:
		io_uring_prep_read(sqe, fd, (void *)x[1], (unsigned)x[2],
				   (uint64_t)-1);
		break;
	case UOP_PREAD:
		if (bad_pos(a, 3))
			goto einval;
		io_uring_prep_read(sqe, fd, (void *)x[1], (unsigned)x[2],
				   off_arg(a, 3));
		break;
	case UOP_WRITE:
		io_uring_prep_write(sqe, fd, (const void *)x[1],
				    (unsigned)x[2], (uint64_t)-1);
		break;
	case UOP_PWRITE:
		if (bad_pos(a, 3))
			goto einval;
		io_uring_prep_write(sqe, fd, (const void *)x[1],
				    (unsigned)x[2], off_arg(a, 3));
		break;
	case UOP_READV:
	case UOP_WRITEV:
		io_uring_prep_rw(op == UOP_READV ? IORING_OP_READV :
						   IORING_OP_WRITEV,
				 sqe, fd, (const void *)x[1], (unsigned)x[2],
				 (uint64_t)-1);
		break;
	case UOP_PREADV:
	case UOP_PWRITEV:
		if (bad_pos(a, 3))
			goto einval;
		io_uring_prep_rw(op == UOP_PREADV ? IORING_OP_READV :
						    IORING_OP_WRITEV,
				 sqe, fd, (const void *)x[1], (unsigned)x[2],
				 off_arg(a, 3));
		break;
	case UOP_PREADV2:
	case UOP_PWRITEV2:
		/* -1 is the file position here too; flags in rw_flags. */
		if ((int64_t)off_arg(a, 3) < -1)
			goto einval;
		io_uring_prep_rw(op == UOP_PREADV2 ? IORING_OP_READV :
						     IORING_OP_WRITEV,
				 sqe, fd, (const void *)x[1], (unsigned)x[2],
				 off_arg(a, 3));
		/* The call takes RWF_HIPRI for a hint; io_uring refuses it
		 * (EINVAL) outside a ring set up for polling. */
		if (x[5] & RWF_HIPRI)
			return -1;
		sqe->rw_flags = (int)x[5];
		break;
	case UOP_OPEN:
		io_uring_prep_openat(sqe, AT_FDCWD, (const char *)x[0],
				     (int)x[1], (mode_t)x[2]);
		break;
	case UOP_OPENAT:
		io_uring_prep_openat(sqe, fd, (const char *)x[1], (int)x[2],
				     (mode_t)x[3]);
		break;
	case UOP_OPENAT2:
		io_uring_prep_rw(IORING_OP_OPENAT2, sqe, fd,
				 (const void *)x[1], (unsigned)x[3], x[2]);
		break;
	case UOP_CLOSE:
		io_uring_prep_close(sqe, fd);
		break;
	case UOP_STATX:
		/* statx() takes a NULL path with AT_EMPTY_PATH for the
		 * descriptor itself (Linux 6.11); io_uring says EFAULT. */
		if (!x[1])
			return -1;
		io_uring_prep_statx(sqe, fd, (const char *)x[1], (int)x[2],
				    (unsigned)x[3], (struct statx *)x[4]);
		break;
	case UOP_FSYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	case UOP_FDATASYNC:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	case UOP_FALLOCATE:
		io_uring_prep_fallocate(sqe, fd, (int)x[1], (off_t)x[2],
					(off_t)x[3]);
		break;
	case UOP_SYNC_FILE_RANGE:
		io_uring_prep_sync_file_range(sqe, fd, (unsigned)x[2],
					      (uint64_t)x[1], (int)x[3]);
		break;
	case UOP_ACCEPT:
		io_uring_prep_accept(sqe, fd, (struct sockaddr *)x[1],
				     (socklen_t *)x[2], 0);
		break;
	case UOP_ACCEPT4:
		io_uring_prep_accept(sqe, fd, (struct sockaddr *)x[1],
				     (socklen_t *)x[2], (int)x[3]);
		break;
	case UOP_CONNECT:
		io_uring_prep_connect(sqe, fd, (const struct sockaddr *)x[1],
				      (socklen_t)x[2]);
		break;
	case UOP_SENDTO:
		/* With a destination address, sendto() is not send(). */
		if (x[4])
			return -1;
		io_uring_prep_send(sqe, fd, (const void *)x[1], (size_t)x[2],
				   (int)x[3]);
		break;
	case UOP_RECVFROM:
		if (x[4])
			return -1;
		io_uring_prep_recv(sqe, fd, (void *)x[1], (size_t)x[2],
				   (int)x[3]);
		break;
	case UOP_SENDMSG:
		io_uring_prep_sendmsg(sqe, fd, (const struct msghdr *)x[1],
				      (unsigned)x[2]);
		break;
	case UOP_RECVMSG:
		io_uring_prep_recvmsg(sqe, fd, (struct msghdr *)x[1],
				      (unsigned)x[2]);
		break;
	case UOP_SHUTDOWN:
		io_uring_prep_shutdown(sqe, fd, (int)x[1]);
		break;
	case UOP_SOCKET:
		io_uring_prep_socket(sqe, (int)x[0], (int)x[1], (int)x[2], 0);
		break;
	case UOP_RENAME:
		io_uring_prep_renameat(sqe, AT_FDCWD, (const char *)x[0],
				       AT_FDCWD, (const char *)x[1], 0);
		break;
	case UOP_RENAMEAT:
		io_uring_prep_renameat(sqe, fd, (const char *)x[1], (int)x[2],
				       (const char *)x[3], 0);
		break;
	case UOP_RENAMEAT2:
		io_uring_prep_renameat(sqe, fd, (const char *)x[1], (int)x[2],
				       (const char *)x[3], (unsigned)x[4]);
		break;
	case UOP_UNLINK:
		io_uring_prep_unlinkat(sqe, AT_FDCWD, (const char *)x[0], 0);
		break;
	case UOP_RMDIR:
		io_uring_prep_unlinkat(sqe, AT_FDCWD, (const char *)x[0],
				       AT_REMOVEDIR);
		break;
	case UOP_UNLINKAT:
		io_uring_prep_unlinkat(sqe, fd, (const char *)x[1], (int)x[2]);
		break;
	case UOP_MKDIR:
		io_uring_prep_mkdirat(sqe, AT_FDCWD, (const char *)x[0],
				      (mode_t)x[1]);
		break;
	case UOP_MKDIRAT:
		io_uring_prep_mkdirat(sqe, fd, (const char *)x[1],
				      (mode_t)x[2]);
		break;
	case UOP_SYMLINK:
		io_uring_prep_symlinkat(sqe, (const char *)x[0], AT_FDCWD,
					(const char *)x[1]);
		break;
	case UOP_SYMLINKAT:
		io_uring_prep_symlinkat(sqe, (const char *)x[0], (int)x[1],
					(const char *)x[2]);
		break;
	case UOP_LINK:
		io_uring_prep_linkat(sqe, AT_FDCWD, (const char *)x[0],
				     AT_FDCWD, (const char *)x[1], 0);
		break;
	case UOP_LINKAT:
		io_uring_prep_linkat(sqe, fd, (const char *)x[1], (int)x[2],
				     (const char *)x[3], (int)x[4]);
		break;
	case UOP_NANOSLEEP:
		/* A pure timeout: -ETIME when it expires (0 below).  The
		 * remaining time is never written: nothing interrupts it. */
		if (bad_time(a))
			goto einval;
		io_uring_prep_timeout(sqe, (struct __kernel_timespec *)x[0],
				      0, 0);
		break;
	case UOP_TEE:
		io_uring_prep_tee(sqe, fd, (int)x[1], (unsigned)x[2],
				  (unsigned)x[3]);
		break;
	case UOP_FADVISE:
		io_uring_prep_fadvise(sqe, fd, (uint64_t)x[1], (off_t)x[2],
				      (int)x[3]);
		break;
	case UOP_MADVISE:
		io_uring_prep_madvise(sqe, (void *)x[0], (off_t)x[1],
				      (int)x[2]);
		break;
	case UOP_EPOLL_CTL:
		io_uring_prep_epoll_ctl(sqe, fd, (int)x[1], (int)x[2],
					(struct epoll_event *)x[3]);
		break;
	default:
		return -1;
	}
	return 0;
einval:
	*now = -EINVAL;
	return 1;
}

/*
 * io_uring waits on a descriptor opened O_NONBLOCK where the call would
 * fail with EAGAIN: for these calls the engine must know the flag.
 */
int uring_op_open(int op, const struct emul_atom *a, unsigned long *flags)
{
	switch (op) {
	case UOP_OPEN:
		*flags = a->args[1];
		return 1;
	case UOP_OPENAT:
		*flags = a->args[2];
		return 1;
	case UOP_OPENAT2:
		return 2;
	}
	return 0;
}

/* A descriptor the call returned and whether it is O_NONBLOCK; -1 when
 * it returns none. */
int uring_op_newfd(int op, const struct emul_atom *a, long ret, bool *nb)
{
	if (ret < 0)
		return -1;
	switch (op) {
	case UOP_OPEN:
		*nb = (a->args[1] & O_NONBLOCK) != 0;
		return (int)ret;
	case UOP_OPENAT:
		*nb = (a->args[2] & O_NONBLOCK) != 0;
		return (int)ret;
	case UOP_SOCKET:
		*nb = (a->args[1] & SOCK_NONBLOCK) != 0;
		return (int)ret;
	case UOP_ACCEPT:
		*nb = false;
		return (int)ret;
	case UOP_ACCEPT4:
		*nb = (a->args[3] & SOCK_NONBLOCK) != 0;
		return (int)ret;
	}
	return -1;
}

/* A transfer that the blocking call would have finished whole, and the
 * size it asked for (0: none such). */
unsigned long uring_op_whole(int op, const struct emul_atom *a)
{
	switch (op) {
	case UOP_WRITE: case UOP_PWRITE:
		return a->args[2];
	case UOP_WRITEV: case UOP_PWRITEV:
		/* As write: a blocking socket or pipe takes all. */
		return emul_iov_len(a->args[1], a->args[2]);
	case UOP_SENDTO:
		return a->args[3] & MSG_DONTWAIT ? 0 : a->args[2];
	case UOP_SENDMSG:
		/* io_uring's sendmsg returns what one try sent. */
		return a->args[2] & MSG_DONTWAIT ? 0 :
		       emul_msg_len(a->args[1]);
	}
	return 0;
}

/* What the call would have returned, from the CQE's result.  io_uring
 * checks a read's or write's buffer before its descriptor, the system
 * call the other way round: with both bad, the call says EBADF (a closed
 * descriptor, or one not open for that direction), io_uring EFAULT. */
long uring_op_result_fix(int op, const struct emul_atom *a, int res)
{
	if (op == UOP_NANOSLEEP && res == -ETIME)
		return 0;
	if (res == -EFAULT && op >= UOP_READ && op <= UOP_PWRITEV2) {
		long fl = emul_syscall6(__NR_fcntl, a->args[0], F_GETFL, 0, 0,
					0, 0);
		int acc = (int)fl & O_ACCMODE;

		if (fl < 0 || acc == (op >= UOP_WRITE ? O_RDONLY : O_WRONLY))
			return -EBADF;
	}
	return res;
}
