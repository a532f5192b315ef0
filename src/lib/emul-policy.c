/* emul-policy.c: per-syscall policy of the emul engine and its non-blocking attempts (RWF_NOWAIT, RESOLVE_CACHED, MSG_DONTWAIT, poll). */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/openat2.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "emul.h"
#include "emul-fault.h"
#include "common/systab.h"

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

struct emul_profile *emul_prof;

/* Calls that never wait for anything outside the process (or only for a
 * lock held briefly): run in place. */
static const char *const inline_names[] = {
	"getpid", "getppid", "gettid", "getuid", "geteuid", "getgid",
	"getegid", "getuid32", "geteuid32", "getgid32", "getegid32",
	"getresuid", "getresgid", "getresuid32", "getresgid32", "getgroups",
	"getgroups32", "getpgid", "getpgrp", "getsid", "setpgid", "setsid",
	"time", "gettimeofday", "clock_gettime", "clock_gettime64",
	"clock_getres", "clock_getres_time64", "times", "uname", "olduname",
	"oldolduname", "sysinfo", "getcpu", "getrlimit", "ugetrlimit",
	"prlimit64", "setrlimit", "getrusage", "umask", "getcwd",
	"close", "close_range", "dup", "dup2", "dup3", "lseek", "_llseek",
	"fstat", "fstat64", "fstatfs", "fstatfs64", "fchmod", "fchown",
	"fchown32", "fchdir", "fadvise64", "fadvise64_64",
	"kill", "tkill", "tgkill", "rt_sigpending", "sigpending",
	"alarm", "setitimer", "getitimer",
	"timer_create", "timer_settime", "timer_settime64", "timer_gettime",
	"timer_gettime64", "timer_getoverrun", "timer_delete",
	"brk", "mmap", "mmap2", "old_mmap", "munmap", "mprotect", "madvise",
	"mremap", "mlock", "munlock", "mincore", "memfd_create",
	"pipe", "pipe2", "socket", "socketpair", "bind", "listen",
	"getsockname", "getpeername", "setsockopt", "getsockopt",
	"shutdown", "eventfd", "eventfd2", "signalfd", "signalfd4",
	"timerfd_create", "timerfd_settime", "timerfd_settime64",
	"timerfd_gettime", "timerfd_gettime64", "epoll_create",
	"epoll_create1", "epoll_ctl", "inotify_init", "inotify_init1",
	"inotify_rm_watch", "pidfd_open", "sched_yield",
	"sched_getaffinity", "sched_setaffinity", "sched_getparam",
	"sched_getscheduler", "getpriority", "setpriority", "nice",
	"capget", "get_robust_list", "personality", "getrandom",
	"membarrier", "ioprio_get", "ioprio_set", "sethostname",
	"setdomainname", "fcntl", "fcntl64", "getdents", "getdents64",
	"readahead", "ftruncate", "ftruncate64",
	/* The calling thread's own scheduling and memory policy: 2007 ran
	 * them in the caller, which they change (they never block). */
	"sched_setscheduler", "sched_setparam", "sched_setattr",
	"sched_getattr", "sched_get_priority_max", "sched_get_priority_min",
	"sched_rr_get_interval", "sched_rr_get_interval_time64",
	"set_mempolicy",
};

struct named_policy {
	const char *name;
	enum emul_policy pol;
};

static const struct named_policy special[] = {
	{ "read", EMUL_P_READ }, { "pread64", EMUL_P_PREAD },
	{ "readv", EMUL_P_READV }, { "preadv", EMUL_P_PREADV },
	{ "write", EMUL_P_WRITE }, { "pwrite64", EMUL_P_PWRITE },
	{ "writev", EMUL_P_WRITEV }, { "pwritev", EMUL_P_PWRITEV },
	{ "open", EMUL_P_OPEN }, { "openat", EMUL_P_OPEN },
	{ "recvfrom", EMUL_P_RECVFROM }, { "recvmsg", EMUL_P_RECVMSG },
	{ "sendto", EMUL_P_SENDTO }, { "sendmsg", EMUL_P_SENDMSG },
	{ "accept", EMUL_P_POLLIN }, { "accept4", EMUL_P_POLLIN },
	{ "connect", EMUL_P_FDBLOCK },
	{ "poll", EMUL_P_POLLWAIT }, { "epoll_wait", EMUL_P_POLLWAIT },
	{ "socketcall", EMUL_P_SOCKETCALL },
	{ "rt_sigaction", EMUL_P_SIGACTION }, { "sigaction", EMUL_P_SIGACTION },
	{ "signal", EMUL_P_SIGACTION },
	{ "rt_sigprocmask", EMUL_P_SIGMASK }, { "sigprocmask", EMUL_P_SIGMASK },
	{ "prctl", EMUL_P_ARGS }, { "close_range", EMUL_P_ARGS },
	{ "futex", EMUL_P_FUTEX },	{ "ioctl", EMUL_P_IOCTL },
};

/*
 * Calls that install a signal mask for as long as they wait, all through
 * the kernel's set_current_blocked(), and where that mask is: a pointer
 * to it and its size in the next argument, a pointer to such a pair, or
 * (i386's old sigsuspend) the mask itself.  The kernel port keeps every
 * signal blocked in a worker whatever such a mask says (kernel-patch,
 * 0026): tmpmask_call() does the same on the engines' workers.
 */
enum tmpmask_kind { TM_PTR, TM_PAIR, TM_VAL };

static const struct {
	const char		*name;
	unsigned char		arg;
	enum tmpmask_kind	kind;
} tmpmask_calls[EMUL_TMPMASK_CALLS] = {
	{ "ppoll", 3, TM_PTR }, { "ppoll_time64", 3, TM_PTR },
	{ "pselect6", 5, TM_PAIR }, { "pselect6_time64", 5, TM_PAIR },
	{ "epoll_pwait", 4, TM_PTR }, { "epoll_pwait2", 4, TM_PTR },
	{ "io_pgetevents", 5, TM_PAIR }, { "io_pgetevents_time64", 5, TM_PAIR },
	{ "rt_sigsuspend", 0, TM_PTR },
	/* sigsuspend(unused, unused, mask): x86's OLD_SIGSUSPEND3. */
	{ "sigsuspend", 2, TM_VAL },
};

/* Calls that can raise a signal in the calling thread itself. */
static const char *const self_signal_names[] = {
	"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"pidfd_send_signal",
};

/* @pol for each of @names the profile has. */
static void set_names(struct emul_profile *np, const char *const *names,
		      size_t count, unsigned char pol)
{
	for (size_t i = 0; i < count; i++) {
		int nr = systab_lookup(np->profile, names[i]);

		if (nr >= 0 && (unsigned long)nr < np->nr_syscalls)
			np->policy[nr] = pol;
	}
}

/*
 * The table is built from the lists, each name looked up (a binary
 * search), not from each number against every list: that made a
 * tenth of a process's start-up.  Later steps win, in this order: a
 * call the profile has may block; the inline list; the special ones;
 * the deny list; the syslet calls (umem_add the engine's own).
 */
int emul_profile_set(int profile)
{
	struct emul_profile *np, *old;
	const struct systab_entry *t;
	unsigned int n;
	const char *name;

	if (systab_word_size(profile) != sizeof(long))
		return -ENOTSUP;
	if (emul_prof && emul_prof->profile == profile)
		return 0;
	np = calloc(1, sizeof(*np));
	if (!np)
		return -ENOMEM;
	np->profile = profile;
	np->nr_syscalls = (unsigned long)systab_nr_syscalls(profile);
	np->umem_nr = (unsigned long)systab_syslet_nr(profile,
						      SYSLET_CALL_UMEM_ADD);
	np->poll_nr = systab_lookup(profile, "poll");
	np->select_nr = systab_lookup(profile, "_newselect");
	if (np->select_nr < 0)
		np->select_nr = systab_lookup(profile, "select");
	np->open_nr = systab_lookup(profile, "open");
	np->policy = malloc(np->nr_syscalls);
	if (!np->policy) {
		free(np);
		return -ENOMEM;
	}
	memset(np->policy, EMUL_P_NONE, np->nr_syscalls);
	t = systab_entries(profile, &n);
	for (unsigned int i = 0; i < n; i++)
		if ((unsigned long)t[i].nr < np->nr_syscalls)
			np->policy[t[i].nr] = EMUL_P_BLOCK;
	set_names(np, inline_names,
		  sizeof(inline_names) / sizeof(inline_names[0]),
		  EMUL_P_INLINE);
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		set_names(np, &special[i].name, 1, special[i].pol);
	/* By number, not name: i386's select is old_select. */
	if (np->select_nr >= 0 &&
	    (unsigned long)np->select_nr < np->nr_syscalls)
		np->policy[np->select_nr] = EMUL_P_POLLWAIT;
	for (size_t i = 0; i < EMUL_TMPMASK_CALLS; i++) {
		int nr = systab_lookup(profile, tmpmask_calls[i].name);

		np->tmpmask_nr[i] = nr;
		if (nr >= 0 && (unsigned long)nr < np->nr_syscalls)
			np->policy[nr] = EMUL_P_TMPMASK;
	}
	for (size_t i = 0; (name = systab_denied_nth(i)); i++)
		set_names(np, &name, 1, EMUL_P_DENY);
	for (int call = 0; call < SYSLET_NR_CALLS; call++) {
		long nr = systab_syslet_nr(profile, call);

		if (nr >= 0 && (unsigned long)nr < np->nr_syscalls)
			np->policy[nr] = call == SYSLET_CALL_UMEM_ADD ?
					 EMUL_P_UMEM : EMUL_P_DENY;
	}
	for (size_t i = 0; i < sizeof(self_signal_names) /
			       sizeof(self_signal_names[0]); i++) {
		int nr = systab_lookup(profile, self_signal_names[i]);

		if (nr >= 0 && (unsigned long)nr < np->nr_syscalls)
			np->policy[nr] |= EMUL_P_SIGCHECK;
	}
	/* Old tables stay allocated: a running chain may still use them.
	 * Linked from the new one, they stay reachable (no leak to report). */
	old = emul_prof;
	np->older = old;
	__atomic_store_n(&emul_prof, np, __ATOMIC_RELEASE);
	return 0;
}

#if !defined(__x86_64__)
/* i386: libc's syscall() enters through the vDSO (sysenter), which beats
 * an int $0x80 of our own. */
long emul_syscall6(long nr, unsigned long a0, unsigned long a1,
		   unsigned long a2, unsigned long a3, unsigned long a4,
		   unsigned long a5)
{
	long r = syscall(nr, a0, a1, a2, a3, a4, a5);

	return r == -1 ? -errno : r;
}
#endif

#define raw6 emul_syscall6

/* A 64-bit file offset from argument @i (two words on i386). */
static int64_t arg_off(const struct emul_atom *a, int i)
{
	if (sizeof(long) == 8)
		return (int64_t)a->args[i];
	return (int64_t)((uint64_t)a->args[i] |
			 ((uint64_t)a->args[i + 1] << 32));
}

static long prw2(bool wr, int fd, const struct iovec *iov, unsigned long cnt,
		 int64_t off, int flags)
{
	unsigned long lo = (unsigned long)(uint64_t)off;
	unsigned long hi = sizeof(long) == 8 ? 0 :
			   (unsigned long)((uint64_t)off >> 32);

	return raw6(wr ? SYS_pwritev2 : SYS_preadv2, (unsigned long)fd,
		    (unsigned long)iov, cnt, lo, hi, (unsigned long)flags);
}

static bool fd_nonblocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_NONBLOCK);
}

static bool fd_ready(int fd, short ev)
{
	struct pollfd p = { .fd = fd, .events = ev };

	return poll(&p, 1, 0) == 1;
}

static bool fd_regular(int fd, struct stat *st)
{
	return fstat(fd, st) == 0 && S_ISREG(st->st_mode);
}

static long iov_total(const struct iovec *iov, unsigned long cnt)
{
	unsigned long v, t = 0;

	for (unsigned long i = 0; i < cnt && i < 1024; i++) {
		if (emul_get(&v, &iov[i].iov_len))
			return -1;
		t += v;
	}
	return (long)t;
}

/* The shape of a read/write atom as one iovec call. */
struct rw_shape {
	bool		wr;
	int		fd;
	struct iovec	one;
	const struct iovec *iov;
	unsigned long	cnt;
	int64_t		off;		/* -1: the file position */
};

static void rw_shape(const struct emul_atom *a, enum emul_policy pol,
		     struct rw_shape *s)
{
	s->fd = (int)a->args[0];
	s->wr = pol >= EMUL_P_WRITE;
	s->off = -1;
	switch (pol) {
	case EMUL_P_PREAD:
	case EMUL_P_PWRITE:
		s->off = arg_off(a, 3);
		/* fall through */
	case EMUL_P_READ:
	case EMUL_P_WRITE:
		s->one.iov_base = (void *)a->args[1];
		s->one.iov_len = a->args[2];
		s->iov = &s->one;
		s->cnt = 1;
		break;
	case EMUL_P_PREADV:
	case EMUL_P_PWRITEV:
		s->off = arg_off(a, 3);
		/* fall through */
	default:
		s->iov = (const struct iovec *)a->args[1];
		s->cnt = a->args[2];
		break;
	}
}

static struct iovec *iov_skip(const struct iovec *iov, unsigned long *cnt,
			      long skip);
static void short_read(const struct rw_shape *s, long total,
		       struct emul_try *t);

static bool tty_stops_open(const sigset_t *user, sigset_t *old);

/* A call on a character device (a terminal) made in place: with the stop
 * signals of its job control open as on a worker (tty_stops_open()). */
static long chr_call(const struct emul_atom *a, const sigset_t *mask)
{
	sigset_t old;
	long ret;

	if (!mask || !tty_stops_open(mask, &old))
		return emul_raw_syscall(a);
	ret = emul_raw_syscall(a);
	emul_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static void try_rw(const struct emul_atom *a, enum emul_policy pol,
		   struct emul_try *t)
{
	struct rw_shape s;
	struct stat st;
	long r, total;

	st.st_mode = 0;

	rw_shape(a, pol, &s);
	/* preadv2() rejects negative offsets that pread64() also rejects,
	 * but -1 means "file position" to it: keep pread64's answer. */
	if (s.off < 0 && (pol == EMUL_P_PREAD || pol == EMUL_P_PWRITE ||
			  pol == EMUL_P_PREADV || pol == EMUL_P_PWRITEV)) {
		t->ret = -EINVAL;
		return;
	}
	r = prw2(s.wr, s.fd, s.iov, s.cnt, s.off, RWF_NOWAIT);
	if (r == -EAGAIN) {
		if (fd_nonblocking(s.fd))
			t->ret = r;
		else
			t->blocked = true;
		return;
	}
	if (r == -EOPNOTSUPP || r == -EINVAL) {
		/* No per-I/O non-blocking mode here (tty, /proc, buffered
		 * writes on most file systems): a poll probe for streams.
		 * A buffered write to a regular file only copies into the
		 * page cache, so it runs in place; such a read may wait for
		 * the disk, so it goes to a worker. */
		if (fd_regular(s.fd, &st) ? s.wr :
		    fd_ready(s.fd, s.wr ? POLLOUT : POLLIN)) {
			t->ret = S_ISCHR(st.st_mode) ? chr_call(a, t->mask) :
						       emul_raw_syscall(a);
			return;
		}
		t->blocked = true;
		return;
	}
	t->ret = r;
	if (r <= 0)
		return;
	total = iov_total(s.iov, s.cnt);
	if (total < 0 || r >= total)
		return;
	/* Short: a blocking write would have gone on. */
	if (s.wr) {
		if (fd_nonblocking(s.fd))
			return;
		t->blocked = true;
		t->partial = r;
		return;
	}
	/* Cached pages end on a page boundary (sub-page blocks: 512
	 * bytes at least); a file ends anywhere.  A short read from a known
	 * position that ends off such a boundary met the end of the file. */
	if (t->pos >= 0 && s.off < 0 && ((t->pos + r) & 511) != 0)
		return;
	short_read(&s, total, t);
}

/*
 * A read that came back short.  A stream may do that; a regular file does
 * at its end, or, with RWF_NOWAIT, where its cached pages end.  Another
 * attempt at the rest tells which without fstat()+lseek() in the common
 * case: 0 is the end of the file (or stream), more bytes are part of the
 * same read, and only -EAGAIN needs a look at the file's type (a stream
 * with nothing more is done; a file whose rest is not cached blocks).
 */
static void short_read(const struct rw_shape *s, long total,
		       struct emul_try *t)
{
	struct stat st;
	long done = t->ret;

	while (done < total) {
		struct iovec one, *rest = NULL;
		const struct iovec *iov;
		unsigned long cnt = s->cnt;
		long r;

		if (s->iov == &s->one) {
			one.iov_base = (char *)s->one.iov_base + done;
			one.iov_len = s->one.iov_len - (size_t)done;
			iov = &one;
			cnt = 1;
		} else {
			rest = iov_skip(s->iov, &cnt, done);
			if (!rest)
				break;
			iov = rest;
		}
		r = prw2(false, s->fd, iov, cnt, s->off >= 0 ? s->off + done : -1,
			 RWF_NOWAIT);
		free(rest);
		if (r == -EAGAIN && fd_regular(s->fd, &st)) {
			t->blocked = true;
			t->partial = done;
			break;
		}
		if (r <= 0)
			break;
		done += r;
	}
	t->ret = done;
}

/* Copy of @iov with its first @skip bytes dropped (malloc'd, *cnt). */
static struct iovec *iov_skip(const struct iovec *iov, unsigned long *cnt,
			      long skip)
{
	struct iovec *n = calloc(*cnt ? *cnt : 1, sizeof(*n));
	unsigned long j = 0, base, len;

	if (!n)
		return NULL;
	for (unsigned long i = 0; i < *cnt; i++) {
		if (emul_get(&base, &iov[i].iov_base) ||
		    emul_get(&len, &iov[i].iov_len)) {
			free(n);
			return NULL;
		}
		if ((unsigned long)skip >= len) {
			skip -= (long)len;
			continue;
		}
		n[j].iov_base = (char *)base + skip;
		n[j].iov_len = len - (unsigned long)skip;
		skip = 0;
		j++;
	}
	*cnt = j;
	return n;
}

/* The rest of a transfer that moved @partial bytes before it would
 * block: what the blocking call would have returned in the first place. */
static long rw_rest(const struct emul_atom *a, enum emul_policy pol,
		    long partial)
{
	struct rw_shape s;
	struct iovec *rest;
	unsigned long cnt;
	long r;

	rw_shape(a, pol, &s);
	cnt = s.cnt;
	rest = iov_skip(s.iov, &cnt, partial);
	if (!rest)
		return partial;
	r = prw2(s.wr, s.fd, rest, cnt, s.off >= 0 ? s.off + partial : -1, 0);
	free(rest);
	return r > 0 ? partial + r : partial;
}

bool emul_open_waits(int fd, unsigned long flags)
{
	struct stat st;

	return emul_open_rdwait(flags) && !fstat(fd, &st) &&
	       S_ISFIFO(st.st_mode);
}

long emul_fifo_wait(int fd)
{
	char path[40];
	long w;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	w = raw6(SYS_openat, (unsigned long)AT_FDCWD, (unsigned long)path,
		 O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (w >= 0) {
		raw6(SYS_close, (unsigned long)w, 0, 0, 0, 0, 0);
		return fd;
	}
	if (w == -EINTR) {
		/* A signal ended the wait: the open fails, as open(2). */
		raw6(SYS_close, (unsigned long)fd, 0, 0, 0, 0, 0);
		return w;
	}
	return fd;	/* no /proc: open as the attempt left it */
}

static void try_open(const struct emul_atom *a, struct emul_try *t)
{
	struct open_how how;
	bool at = (long)a->nr != emul_prof->open_nr;
	int dfd = at ? (int)a->args[0] : AT_FDCWD;
	unsigned long path = a->args[at ? 1 : 0];
	unsigned int flags = (unsigned int)a->args[at ? 2 : 1];
	long r;

	memset(&how, 0, sizeof(how));
	/*
	 * Not blocking in the open itself either, as io_uring's own attempt
	 * does: a FIFO opened for reading would wait for a writer here, in
	 * the caller, where the kernel hands the syslet to a cachemiss
	 * thread.  For writing with no reader that says ENXIO: the call
	 * goes to a worker, which waits.  The flag is cleared once open.
	 */
	how.flags = flags | O_NONBLOCK;
	if (how.flags & (O_CREAT | __O_TMPFILE))
		how.mode = a->args[at ? 3 : 2] & 07777;
	how.resolve = RESOLVE_CACHED;
	/* open(2) ignores unknown flag bits, openat2(2) refuses them with
	 * EINVAL: such an open goes to a worker, which runs the real one. */
	r = raw6(SYS_openat2, (unsigned long)dfd, path, (unsigned long)&how,
		 sizeof(how), 0, 0);
	if (r == -EAGAIN || r == -EINVAL || r == -ENOSYS || r == -E2BIG ||
	    (r == -ENXIO && !(flags & O_NONBLOCK)))
		t->blocked = true;
	else
		t->ret = r;
	if (r < 0 || (flags & O_NONBLOCK))
		return;
	/* F_SETFL takes O_NONBLOCK off and sets again what open set. */
	raw6(SYS_fcntl, (unsigned long)r, F_SETFL, flags, 0, 0, 0);
	/* A FIFO for reading, with no writer yet: a worker waits for
	 * one (t->partial: the descriptor, plus one). */
	if (emul_open_waits((int)r, flags)) {
		t->blocked = true;
		t->partial = r + 1;
	}
}

/*
 * recvfrom() with MSG_WAITALL on a blocking stream waits for its whole
 * length (or the end, or an error), where MSG_DONTWAIT would take what
 * is there: true when a peek shows that much, so that the call itself
 * returns at once.  The peek writes into the call's buffer what the call
 * will write there.
 */
static bool waitall_ready(const struct emul_atom *a)
{
	long r;

	if (!a->args[2])
		return true;
	r = raw6(a->nr, a->args[0], a->args[1], a->args[2],
		 MSG_PEEK | MSG_DONTWAIT, 0, 0);
	return r == 0 || (r > 0 && (unsigned long)r >= a->args[2]);
}

static void try_sock(const struct emul_atom *a, enum emul_policy pol,
		     struct emul_try *t)
{
	struct emul_atom b = *a;
	int fd = (int)a->args[0];
	int fi = pol == EMUL_P_RECVMSG || pol == EMUL_P_SENDMSG ? 2 : 3;
	long r;

	/* MSG_WAITALL: recvmsg's length is its iovecs', so it goes to a
	 * worker unless a peek shows a recvfrom's whole length. */
	if ((pol == EMUL_P_RECVFROM || pol == EMUL_P_RECVMSG) &&
	    (a->args[fi] & MSG_WAITALL) && !(a->args[fi] & MSG_DONTWAIT) &&
	    !fd_nonblocking(fd)) {
		if (pol == EMUL_P_RECVFROM && waitall_ready(a))
			t->ret = emul_raw_syscall(a);
		else
			t->blocked = true;
		return;
	}
	b.args[fi] |= MSG_DONTWAIT;
	r = emul_raw_syscall(&b);
	if ((r == -EAGAIN || r == -EWOULDBLOCK) &&
	    !(a->args[fi] & MSG_DONTWAIT) && !fd_nonblocking(fd)) {
		t->blocked = true;
		return;
	}
	t->ret = r;
	/* A stream send that went out in part would have gone on. */
	if ((pol == EMUL_P_SENDTO || pol == EMUL_P_SENDMSG) && r > 0 &&
	    (unsigned long)r < (pol == EMUL_P_SENDTO ?
				a->args[2] : emul_msg_len(a->args[1])) &&
	    !(a->args[fi] & MSG_DONTWAIT) && !fd_nonblocking(fd)) {
		t->blocked = true;
		t->partial = r;
	}
}

/* The user's struct msghdr at @msg, word by word (it may be anywhere);
 * false when it cannot be read. */
static bool msg_get(unsigned long msg, struct msghdr *m)
{
	unsigned long w[sizeof(*m) / sizeof(long)];

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (emul_get(&w[i], (const unsigned long *)msg + i))
			return false;
	memcpy(m, w, sizeof(*m));
	return true;
}

unsigned long emul_iov_len(unsigned long iov, unsigned long cnt)
{
	long t = iov_total((const struct iovec *)iov, cnt);

	return t > 0 ? (unsigned long)t : 0;
}

unsigned long emul_msg_len(unsigned long msg)
{
	struct msghdr m;
	long t;

	if (!msg_get(msg, &m))
		return 0;
	t = iov_total(m.msg_iov, m.msg_iovlen);
	return t > 0 ? (unsigned long)t : 0;
}

/*
 * The rest of a stream sendmsg() that went out in part, as the blocking
 * call goes on: its iovecs past what went, without the ancillary data,
 * which went with the first part (SCM_RIGHTS twice would pass the
 * descriptors twice).
 */
static long sendmsg_rest(const struct emul_atom *a, long partial)
{
	struct msghdr m;
	struct iovec *iov;
	unsigned long cnt;
	long r;

	if (!msg_get(a->args[1], &m))
		return partial;
	cnt = m.msg_iovlen;
	iov = iov_skip(m.msg_iov, &cnt, partial);
	if (!iov)
		return partial;
	m.msg_iov = iov;
	m.msg_iovlen = cnt;
	m.msg_control = NULL;
	m.msg_controllen = 0;
	r = raw6(a->nr, a->args[0], (unsigned long)&m, a->args[2], 0, 0, 0);
	free(iov);
	return r > 0 ? partial + r : partial;
}

static long send_rest(const struct emul_atom *a, long partial)
{
	struct emul_atom b = *a;
	long r;

	b.args[1] += (unsigned long)partial;
	b.args[2] -= (unsigned long)partial;
	r = emul_raw_syscall(&b);
	return r > 0 ? partial + r : partial;
}

/* i386 socketcall(): sub-calls that never wait run in place. */
static bool socketcall_inline(unsigned long call)
{
	switch (call) {
	case 1: case 2: case 4: case 6: case 7: case 8: case 13: case 14:
	case 15:	/* socket bind listen getsockname getpeername
			 * socketpair shutdown setsockopt getsockopt */
		return true;
	}
	return false;
}

/* poll(fds, n, timeout) and epoll_wait(epfd, ev, max, timeout) with a
 * zero timeout only look. */
static bool pollwait_nowait(const struct emul_atom *a)
{
	unsigned long tv[2];

	if ((long)a->nr == emul_prof->poll_nr)
		return (int)a->args[2] == 0;
	/* select's struct timeval: a zero one only probes; none, or one
	 * that cannot be read, is the call's to wait on or fail with. */
	if ((long)a->nr == emul_prof->select_nr)
		return a->args[4] &&
		       !emul_get(&tv[0], (const unsigned long *)a->args[4]) &&
		       !emul_get(&tv[1], (const unsigned long *)a->args[4] + 1) &&
		       !tv[0] && !tv[1];
	return (int)a->args[3] == 0;
}

/*
 * poll() and epoll_wait() with a timeout, tried first with 0: what is
 * ready (or an error) is the call's answer at once, as 2007 ran in the
 * caller a call that did not sleep; with nothing ready (0) the call may
 * block.  The revents a poll() of nothing ready wrote are written again
 * by the call.  select() is not tried so: it clears the sets it was
 * given when nothing is ready.
 */
static bool pollwait_ready(const struct emul_atom *a, long *ret)
{
	struct emul_atom b = *a;

	if ((long)a->nr == emul_prof->poll_nr)
		b.args[2] = 0;
	else if ((long)a->nr != emul_prof->select_nr)
		b.args[3] = 0;
	else
		return false;
	*ret = emul_raw_syscall(&b);
	return *ret != 0;
}

/* @n words at @p, all zero (a timeout that only looks); false when
 * absent or unreadable: the call's to wait on or fail with. */
static bool words_zero(unsigned long p, size_t n)
{
	unsigned long w;

	if (!p)
		return false;
	for (size_t i = 0; i < n; i++)
		if (emul_get(&w, (const unsigned long *)p + i) || w)
			return false;
	return true;
}

/*
 * ppoll(), pselect6() and epoll_pwait() (and their time64 kin) with a
 * zero timeout only look, as poll() with 0 does: 2007 ran such an atom in
 * the caller, which it never put to sleep, and async_exec() returned the
 * syslet's last atom; handed to a worker, it went async.  Their
 * temporary mask is another matter (tmpmask_call()).
 */
static bool tmpmask_nowait(const struct emul_atom *a)
{
	/* A struct __kernel_timespec: 16 bytes, whatever the ABI. */
	const size_t ts64 = 16 / sizeof(long);
	const char *name = NULL;

	for (size_t i = 0; i < EMUL_TMPMASK_CALLS; i++)
		if ((long)a->nr == emul_prof->tmpmask_nr[i])
			name = tmpmask_calls[i].name;
	if (!name)
		return false;
	if (!strcmp(name, "ppoll"))
		return words_zero(a->args[2], 2);
	if (!strcmp(name, "ppoll_time64"))
		return words_zero(a->args[2], ts64);
	if (!strcmp(name, "pselect6"))
		return words_zero(a->args[4], 2);
	if (!strcmp(name, "pselect6_time64"))
		return words_zero(a->args[4], ts64);
	if (!strcmp(name, "epoll_pwait"))
		return (int)a->args[3] == 0;
	if (!strcmp(name, "epoll_pwait2"))
		return words_zero(a->args[3], ts64);
	return false;
}

/*
 * futex(): which thread makes the call matters for a PI futex, whose
 * word holds its owner's TID.  2007 ran every atom in the caller until
 * one slept, so an atom that does not sleep is the caller's: a
 * FUTEX_TRYLOCK_PI makes the program the owner, a FUTEX_UNLOCK_PI
 * releases the program's lock (on a worker it was EPERM), and a
 * FUTEX_LOCK_PI of a lock the program holds is EDEADLK (a worker, not
 * the owner, waited for it for ever).  The wakes and requeues never
 * sleep either.  A FUTEX_LOCK_PI or FUTEX_LOCK_PI2 is tried as
 * FUTEX_TRYLOCK_PI, which answers as the lock would (the same
 * futex_lock_pi()) but with EWOULDBLOCK where the lock would wait: then
 * a worker waits.  What the lock checks before (its timeout, a
 * FUTEX_CLOCK_REALTIME that FUTEX_LOCK_PI refuses) fails at once: such
 * an atom runs as it is.  The waits may block.
 */
static void try_futex(const struct emul_atom *a, struct emul_try *t)
{
	int op = (int)a->args[1], cmd = op & FUTEX_CMD_MASK;
	struct emul_atom b;
	unsigned long ts[2];

	switch (cmd) {
	case FUTEX_WAKE: case FUTEX_REQUEUE: case FUTEX_CMP_REQUEUE:
	case FUTEX_WAKE_OP: case FUTEX_UNLOCK_PI: case FUTEX_TRYLOCK_PI:
	case FUTEX_WAKE_BITSET: case FUTEX_CMP_REQUEUE_PI:
		t->ret = emul_raw_syscall(a);
		return;
	case FUTEX_LOCK_PI: case FUTEX_LOCK_PI2:
		break;
	default:
		t->blocked = true;
		return;
	}
	if ((cmd == FUTEX_LOCK_PI && (op & FUTEX_CLOCK_REALTIME)) ||
	    (a->args[3] && (emul_get(&ts[0], (unsigned long *)a->args[3]) ||
			    emul_get(&ts[1], (unsigned long *)a->args[3] + 1) ||
			    (long)ts[0] < 0 || ts[1] >= 1000000000UL))) {
		t->ret = emul_raw_syscall(a);
		return;
	}
	b = *a;
	b.args[1] = FUTEX_TRYLOCK_PI | (op & FUTEX_PRIVATE_FLAG);
	t->ret = emul_raw_syscall(&b);
	if (t->ret == -EWOULDBLOCK)
		t->blocked = true;
}

/*
 * ioctl requests that read or set the descriptor's own state and never
 * wait (FIONREAD's count, the close-on-exec and non-blocking flags, a
 * terminal's settings and size): run in place, as fcntl is.  Any other
 * request may wait (TCSETSW drains the output, TCSBRK sends a break): a
 * worker runs it.
 */
static bool ioctl_inline(unsigned long req)
{
	switch ((unsigned int)req) {
	case 0x541B:	/* FIONREAD */
	case 0x5421:	/* FIONBIO */
	case 0x5451:	/* FIOCLEX */
	case 0x5450:	/* FIONCLEX */
	case 0x5452:	/* FIOASYNC */
	case 0x5411:	/* TIOCOUTQ */
	case 0x5401:	/* TCGETS */
	case 0x5413:	/* TIOCGWINSZ */
	case 0x540F:	/* TIOCGPGRP */
		return true;
	}
	return false;
}

static long tmpmask_call(const struct emul_atom *a);

/* Is a signal pending for this thread or the process (blocked or not)? */
static bool any_pending(void)
{
	sigset_t p;

	/* The kernel fills only its 8 bytes of glibc's 128. */
	sigemptyset(&p);
	return sigpending(&p) || !sigisemptyset(&p);
}

void emul_try_call(const struct emul_atom *a, enum emul_policy pol,
		   struct emul_try *t)
{
	/* t->pos is an input. */
	t->ret = 0;
	t->blocked = false;
	t->partial = 0;
	switch (pol) {
	case EMUL_P_INLINE:
		t->ret = emul_raw_syscall(a);
		return;
	case EMUL_P_READ: case EMUL_P_PREAD: case EMUL_P_READV:
	case EMUL_P_PREADV: case EMUL_P_WRITE: case EMUL_P_PWRITE:
	case EMUL_P_WRITEV: case EMUL_P_PWRITEV:
		try_rw(a, pol, t);
		return;
	case EMUL_P_OPEN:
		try_open(a, t);
		return;
	case EMUL_P_RECVFROM: case EMUL_P_RECVMSG:
	case EMUL_P_SENDTO: case EMUL_P_SENDMSG:
		try_sock(a, pol, t);
		return;
	case EMUL_P_POLLIN:
		if (fd_nonblocking((int)a->args[0]) ||
		    fd_ready((int)a->args[0], POLLIN))
			t->ret = emul_raw_syscall(a);
		else
			t->blocked = true;
		return;
	case EMUL_P_FDBLOCK:
		if (fd_nonblocking((int)a->args[0]))
			t->ret = emul_raw_syscall(a);
		else
			t->blocked = true;
		return;
	case EMUL_P_POLLWAIT:
		if (pollwait_nowait(a))
			t->ret = emul_raw_syscall(a);
		else if (!pollwait_ready(a, &t->ret))
			t->blocked = true;
		return;
	case EMUL_P_TMPMASK:
		/*
		 * In place with a mask that lets nothing in, as on a worker,
		 * so that no handler of the program's runs inside the engine.
		 * With no signal pending that is what the mask as given would
		 * do; with one, the call goes the way of one that may block
		 * (in the caller, the mask as given, it may be interrupted).
		 */
		if (tmpmask_nowait(a) && !any_pending())
			t->ret = tmpmask_call(a);
		else
			t->blocked = true;
		return;
	case EMUL_P_SOCKETCALL:
		if (socketcall_inline(a->args[0]))
			t->ret = emul_raw_syscall(a);
		else
			t->blocked = true;
		return;
	case EMUL_P_FUTEX:
		try_futex(a, t);
		return;
	case EMUL_P_IOCTL:
		if (ioctl_inline(a->args[1]))
			t->ret = emul_raw_syscall(a);
		else
			t->blocked = true;
		return;
	default:
		t->blocked = true;
		return;
	}
}

/* The kernel's sigset (8 bytes) at @p can be read. */
static bool sigset_readable(unsigned long p)
{
	unsigned long w;

	for (size_t i = 0; i < 8 / sizeof(long); i++)
		if (emul_get(&w, (const unsigned long *)p + i))
			return false;
	return true;
}

/*
 * A call of tmpmask_calls on a worker, with a mask that lets nothing in
 * where the atom's would have been installed.  Where the call would fail
 * on the mask (a pointer that cannot be read: EFAULT; a size other than
 * 8: EINVAL) it is given the atom's own arguments, so that it answers
 * that, and whatever it checks first (a timeout that cannot be read)
 * still comes first.  rt_sigsuspend() then waits for ever, as on the
 * kernel (a worker's sigsuspend does not return).
 */
static long tmpmask_call(const struct emul_atom *a)
{
	static const uint64_t none = ~0ULL;
	unsigned long pair[2], *m = NULL;
	const unsigned long *pp;
	struct emul_atom b = *a;
	unsigned int arg;
	size_t i;

	for (i = 0; i < EMUL_TMPMASK_CALLS; i++)
		if ((long)a->nr == emul_prof->tmpmask_nr[i])
			break;
	if (i == EMUL_TMPMASK_CALLS)
		return emul_raw_syscall(a);
	arg = tmpmask_calls[i].arg;
	switch (tmpmask_calls[i].kind) {
	case TM_VAL:
		b.args[arg] = ~0UL;
		return emul_raw_syscall(&b);
	case TM_PAIR:
		pp = (const unsigned long *)a->args[arg];
		if (!pp || emul_get(&pair[0], pp) || emul_get(&pair[1], pp + 1))
			return emul_raw_syscall(a);
		m = pair;
		b.args[arg] = (unsigned long)pair;
		break;
	case TM_PTR:
		m = &b.args[arg];
		break;
	default:
		return emul_raw_syscall(a);
	}
	/* No mask (NULL): the worker's own, which holds everything back. */
	if (!m[0] || m[1] != 8 || !sigset_readable(m[0]))
		return emul_raw_syscall(a);
	m[0] = (unsigned long)&none;
	return emul_raw_syscall(&b);
}

/* The call, or the rest of one that went partly in place. */
static long block_call(const struct emul_atom *a, enum emul_policy pol,
		       long partial)
{
	if (partial > 0) {
		if (pol == EMUL_P_OPEN)
			return emul_fifo_wait((int)partial - 1);
		if (pol == EMUL_P_SENDTO)
			return send_rest(a, partial);
		if (pol == EMUL_P_SENDMSG)
			return sendmsg_rest(a, partial);
		if (pol >= EMUL_P_READ && pol <= EMUL_P_PWRITEV)
			return rw_rest(a, pol, partial);
		return partial;
	}
	return emul_raw_syscall(a);
}

/*
 * A terminal's job control looks at the signal mask of the thread that
 * reads or writes it: a process outside the terminal's foreground group
 * that reads it (or writes it, with tostop) is sent SIGTTIN (SIGTTOU),
 * which stops it, and the call is restarted once it is continued; where
 * the thread blocks or ignores the signal, the read fails with EIO (the
 * write goes through).  A worker blocks every signal: a syslet's read of
 * its terminal in the background would fail where the program's would
 * stop.  So a worker's call has SIGTTIN and SIGTTOU open where the caller
 * left them open and nothing but their default action (stop) would run:
 * a stop acts on the whole process, whichever thread takes it, and no
 * handler of the program's ever runs on a worker.
 */
static bool tty_stops_open(const sigset_t *user, sigset_t *old)
{
	static const int sigs[] = { SIGTTIN, SIGTTOU };
	struct sigaction sa;
	sigset_t open;
	bool any = false;

	sigemptyset(&open);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigismember(user, sigs[i]) ||
		    sigaction(sigs[i], NULL, &sa) || sa.sa_handler != SIG_DFL)
			continue;
		sigaddset(&open, sigs[i]);
		any = true;
	}
	if (any)
		emul_sigmask(SIG_UNBLOCK, &open, old);
	return any;
}

/* Is @fd a character device (a terminal, say)? */
static bool fd_chr(unsigned long fd)
{
	struct stat st;

	return fd <= INT_MAX && fstat((int)fd, &st) == 0 &&
	       S_ISCHR(st.st_mode);
}

long emul_block_call(const struct emul_atom *a, enum emul_policy pol,
		     long partial, const sigset_t *worker_mask)
{
	sigset_t old;
	long ret;

	if (pol == EMUL_P_TMPMASK && worker_mask)
		return tmpmask_call(a);
	if (!worker_mask)
		return block_call(a, pol, partial);
	/*
	 * Only a read or write of a terminal meets its job control
	 * (tty_stops_open()), and the signal calls that opening the stop
	 * signals takes (four) are not paid for every call of a worker:
	 * a read made with them blocked fails at once with EIO where it
	 * would stop, so it is made again with them open only then; a
	 * write under tostop goes through instead, so a write first asks
	 * whether its descriptor is a character device (one fstat()).
	 */
	switch (pol) {
	case EMUL_P_READ:
	case EMUL_P_READV:
		ret = block_call(a, pol, partial);
		if (ret != -EIO || !fd_chr(a->args[0]) ||
		    !tty_stops_open(worker_mask, &old))
			return ret;
		break;
	case EMUL_P_WRITE:
	case EMUL_P_WRITEV:
		if (!fd_chr(a->args[0]) || !tty_stops_open(worker_mask, &old))
			return block_call(a, pol, partial);
		break;
	default:
		return block_call(a, pol, partial);
	}
	ret = block_call(a, pol, partial);
	emul_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * A wait that a signal cut short, its handler run: is it restarted, as
 * outside a syslet?  Only when the handler had SA_RESTART; which signal
 * came is not known, so when every signal that @user leaves open and
 * the caller catches has it (SIGCHLD's and SIGALRM's handlers often
 * have it).  The signals of a fault (SIGSEGV, SIGBUS: the engine's own
 * handler; SIGFPE, SIGILL, SIGTRAP, SIGSYS: a sanitizer's) come to the
 * thread that faults, not to one that waits: they are no such signal.
 * A signal call for each signal: asked on slow paths only.
 */
bool emul_all_restart(const sigset_t *user)
{
	struct sigaction sa;

	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGSEGV ||
		    sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
		    sig == SIGTRAP || sig == SIGSYS ||
		    sigismember(user, sig) == 1 || sigaction(sig, NULL, &sa))
			continue;
		if (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN &&
		    !(sa.sa_flags & SA_RESTART))
			return false;
	}
	return true;
}

/* wait4() (or i386's waitpid()), or waitid() with a siginfo to say
 * whether it found a child, that would wait for a child whose end sends
 * a SIGCHLD the caller catches and leaves open (@user): the index of its
 * options argument, or -1 when it is none of these. */
static int child_wait_arg(const struct emul_atom *a, const sigset_t *user)
{
	struct sigaction sa;
	unsigned long o;
	int i;

	if ((long)a->nr == __NR_wait4)
		i = 2;
#ifdef __NR_waitpid
	else if ((long)a->nr == __NR_waitpid)
		i = 2;
#endif
	else if ((long)a->nr == __NR_waitid && a->args[2])
		i = 3;
	else
		return -1;
	o = a->args[i];
	/* WNOHANG never waits; a clone child may send no signal at all. */
	if (o & (WNOHANG | __WCLONE | __WALL) || o > INT_MAX ||
	    sigismember(user, SIGCHLD) == 1 ||
	    sigaction(SIGCHLD, NULL, &sa) ||
	    sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN ||
	    /* A child that stops or continues then sends nothing, and a
	     * tracer's wait returns for its tracee's stops whatever the
	     * options say. */
	    (sa.sa_flags & SA_NOCLDSTOP))
		return -1;
	return i;
}

/* Did the WNOHANG wait @w, which returned @ret, find a child?  waitid()
 * says 0 either way, and si_signo 0 in the siginfo when it found none. */
static bool child_found(const struct emul_atom *w, long ret)
{
	unsigned long v;

	if (ret != 0 || (long)w->nr != __NR_waitid)
		return ret != 0;
	return emul_get(&v, (const void *)w->args[2]) || (int)v != 0;
}

/*
 * The child's end sends SIGCHLD as it wakes the wait: the 2.6.20
 * do_wait() looked for children before signals, so wait4() returned the
 * child with SIGCHLD pending and the syslet ended after it.  Made with
 * the caller's mask open, the handler runs inside the call, which then
 * returns the child: nothing is left pending, and the syslet went on.
 * So the wait is made with WNOHANG while the signals stay held, and the
 * caller waits for a signal in ppoll() with its own mask: a handler that
 * runs there is a signal that came during the call (*@intr).  Then the
 * wait is tried again: a child it finds is the call's result, and the
 * syslet ends after it as in 2007; none is the kernel's interrupted
 * wait, restarted as outside a syslet when the handler had SA_RESTART.
 */
static long child_wait(const struct emul_atom *a, int i,
		       const sigset_t *user, bool *intr)
{
	struct emul_atom w = *a;
	long ret;

	/*
	 * A wait for any child (pid -1, P_ALL) ends with whichever child's
	 * SIGCHLD comes first: it is made as it is, with SIGCHLD held and
	 * looked for after, so that another signal interrupts or restarts
	 * it exactly as outside a syslet (emul_all_restart() cannot tell
	 * which handler ran).  A child's stop it does not report then
	 * leaves SIGCHLD pending without ending the wait (2007 ended it).
	 */
	if ((long)a->nr == __NR_waitid ? a->args[0] == P_ALL :
	    (long)a->args[0] == -1) {
		sigset_t open = *user, held, pend;

		sigaddset(&open, SIGCHLD);
		emul_sigmask(SIG_SETMASK, &open, &held);
		ret = emul_raw_syscall(a);
		emul_sigmask(SIG_SETMASK, &held, NULL);
		*intr = ret == -EINTR ||
			(!sigpending(&pend) && sigismember(&pend, SIGCHLD) == 1);
		return ret;
	}
	w.args[i] |= WNOHANG;
	for (;;) {
		ret = emul_raw_syscall(&w);
		if (ret < 0 || child_found(&w, ret))
			return ret;
		if (*intr) {
			if (!emul_all_restart(user))
				return -EINTR;
			*intr = false;
		}
		/* SIGCHLD goes to the thread that forked the child, which
		 * may be another of the program's: the child's end then
		 * wakes nothing here, and the look every 10 ms finds it
		 * (in 2007 the caller had no signal pending then either). */
		/* A timespec as __NR_ppoll reads it, two longs (i386's is
		 * the 32-bit one whatever libc's is), set anew each time:
		 * the call writes back what was left of it. */
		long tick[2] = { 0, 10 * 1000 * 1000 };

		ret = emul_syscall6(__NR_ppoll, 0, 0, (unsigned long)tick,
				    (unsigned long)user, _NSIG / 8, 0);
		if (ret == -EINTR)
			*intr = true;
		else if (ret < 0)
			return ret;
	}
}

/*
 * A write to a pipe or socket whose reader goes away while the call
 * waits raises SIGPIPE in the writer as the call returns (EPIPE, or the
 * count it wrote before): in 2007 the signal was pending after the atom
 * and ended the syslet there.  Open during the call, its handler would
 * run inside it and leave nothing pending, so the call is made with
 * SIGPIPE held and the engine looks for it afterwards: pending, and not
 * ignored (a handler, or the default action, which ends the process once
 * async_exec() returns), it ends the syslet after the call, and acts when
 * the caller's mask comes back.
 */
static bool sigpipe_came(void)
{
	struct sigaction sa;
	sigset_t pend;

	return !sigpending(&pend) && sigismember(&pend, SIGPIPE) == 1 &&
	       !sigaction(SIGPIPE, NULL, &sa) && sa.sa_handler != SIG_IGN;
}

long emul_block_open(const struct emul_atom *a, enum emul_policy pol,
		     long partial, const sigset_t *user, bool *intr)
{
	sigset_t held, open;
	bool hold_pipe;
	int i = child_wait_arg(a, user);
	long ret;

	*intr = false;
	if (i >= 0)
		return child_wait(a, i, user, intr);
	/* SIGPIPE stays held: see sigpipe_came(). */
	open = *user;
	hold_pipe = sigismember(user, SIGPIPE) != 1;
	if (hold_pipe)
		sigaddset(&open, SIGPIPE);
	emul_sigmask(SIG_SETMASK, &open, &held);
	ret = emul_block_call(a, pol, partial, NULL);
	emul_sigmask(SIG_SETMASK, &held, NULL);
	*intr = ret == -EINTR || (hold_pipe && sigpipe_came());
	return ret;
}
