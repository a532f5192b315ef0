/* consts.c: the predefined constants of the language and the per-call table that names argument values back (open(path, O_RDONLY)). */
#include <stdio.h>
#include <string.h>

#include "consts.h"

/*
 * Linux UAPI values; the same for i386-2007, i386 and x86_64 (all use
 * the x86 asm-generic numbering).  O_LARGEFILE, whose value differs, is
 * left out on purpose.  Within a set, the first name of a value is the
 * one a listing shows (AF_UNIX, not AF_LOCAL), and flags are named in
 * the order of the set's entries, which is strace's order
 * (O_CLOEXEC|O_DIRECTORY, SOCK_CLOEXEC|SOCK_NONBLOCK), so that a trace
 * reads as strace's line for the same call.
 */
static const struct sysconst table[] = {
	{ "STDIN", 0, SC_NONE }, { "STDOUT", 1, SC_NONE },
	{ "STDERR", 2, SC_NONE },
	{ "STDIN_FILENO", 0, SC_NONE }, { "STDOUT_FILENO", 1, SC_NONE },
	{ "STDERR_FILENO", 2, SC_NONE },
	{ "NULL", 0, SC_NONE },
	{ "O_RDONLY", 00, SC_OPEN }, { "O_WRONLY", 01, SC_OPEN },
	{ "O_RDWR", 02, SC_OPEN },
	{ "O_CREAT", 0100, SC_OPEN }, { "O_EXCL", 0200, SC_OPEN },
	{ "O_NOCTTY", 0400, SC_OPEN }, { "O_TRUNC", 01000, SC_OPEN },
	{ "O_APPEND", 02000, SC_OPEN }, { "O_NONBLOCK", 04000, SC_OPEN },
	{ "O_DSYNC", 010000, SC_OPEN }, { "O_DIRECT", 040000, SC_OPEN },
	/* x86's value, as fcntl(F_GETFL) returns it for every open file
	 * of a 64-bit task. */
	{ "O_LARGEFILE", 0100000, SC_OPEN },
	{ "O_NOFOLLOW", 0400000, SC_OPEN },
	{ "O_NOATIME", 01000000, SC_OPEN },
	{ "O_CLOEXEC", 02000000, SC_OPEN },
	{ "O_SYNC", 04010000, SC_OPEN }, { "O_PATH", 010000000, SC_OPEN },
	{ "O_DIRECTORY", 0200000, SC_OPEN },
	{ "AT_FDCWD", -100, SC_DIRFD },
	{ "AT_SYMLINK_NOFOLLOW", 0x100, SC_AT },
	{ "AT_REMOVEDIR", 0x200, SC_AT },
	{ "AT_SYMLINK_FOLLOW", 0x400, SC_AT },
	{ "AT_NO_AUTOMOUNT", 0x800, SC_AT }, { "AT_EMPTY_PATH", 0x1000, SC_AT },
	/* faccessat2()'s flag on AT_REMOVEDIR's bit: a set of its own, so
	 * that unlinkat(fd, p, 0x200) still reads AT_REMOVEDIR. */
	{ "AT_EACCESS", 0x200, SC_FACCESS_AT },
	/* statx(): how to sync, and the mask of the fields asked for, named
	 * in listings as the trace and strace name them. */
	{ "AT_STATX_SYNC_AS_STAT", 0, SC_STATX_SYNC },
	{ "AT_STATX_FORCE_SYNC", 0x2000, SC_STATX_SYNC },
	{ "AT_STATX_DONT_SYNC", 0x4000, SC_STATX_SYNC },
	{ "STATX_TYPE", 0x1, SC_STATX_MASK }, { "STATX_MODE", 0x2, SC_STATX_MASK },
	{ "STATX_NLINK", 0x4, SC_STATX_MASK }, { "STATX_UID", 0x8, SC_STATX_MASK },
	{ "STATX_GID", 0x10, SC_STATX_MASK },
	{ "STATX_ATIME", 0x20, SC_STATX_MASK },
	{ "STATX_MTIME", 0x40, SC_STATX_MASK },
	{ "STATX_CTIME", 0x80, SC_STATX_MASK },
	{ "STATX_INO", 0x100, SC_STATX_MASK },
	{ "STATX_SIZE", 0x200, SC_STATX_MASK },
	{ "STATX_BLOCKS", 0x400, SC_STATX_MASK },
	{ "STATX_BASIC_STATS", 0x7ff, SC_STATX_MASK },
	{ "STATX_BTIME", 0x800, SC_STATX_MASK },
	{ "STATX_MNT_ID", 0x1000, SC_STATX_MASK },
	/* renameat2()'s flags. */
	{ "RENAME_NOREPLACE", 0x1, SC_RENAME },
	{ "RENAME_EXCHANGE", 0x2, SC_RENAME },
	{ "RENAME_WHITEOUT", 0x4, SC_RENAME },
	{ "SEEK_SET", 0, SC_SEEK }, { "SEEK_CUR", 1, SC_SEEK },
	{ "SEEK_END", 2, SC_SEEK },
	{ "F_DUPFD", 0, SC_FCNTL }, { "F_GETFD", 1, SC_FCNTL },
	{ "F_SETFD", 2, SC_FCNTL }, { "F_GETFL", 3, SC_FCNTL },
	{ "F_SETFL", 4, SC_FCNTL }, { "FD_CLOEXEC", 1, SC_FDFLAGS },
	{ "S_IRWXU", 0700, SC_MODE }, { "S_IRUSR", 0400, SC_MODE },
	{ "S_IWUSR", 0200, SC_MODE }, { "S_IXUSR", 0100, SC_MODE },
	{ "S_IRWXG", 070, SC_MODE }, { "S_IRGRP", 040, SC_MODE },
	{ "S_IWGRP", 020, SC_MODE }, { "S_IXGRP", 010, SC_MODE },
	{ "S_IRWXO", 07, SC_MODE }, { "S_IROTH", 04, SC_MODE },
	{ "S_IWOTH", 02, SC_MODE }, { "S_IXOTH", 01, SC_MODE },
	{ "F_OK", 0, SC_ACCESS }, { "R_OK", 4, SC_ACCESS },
	{ "W_OK", 2, SC_ACCESS }, { "X_OK", 1, SC_ACCESS },
	{ "AF_UNSPEC", 0, SC_AF }, { "AF_UNIX", 1, SC_AF },
	{ "AF_LOCAL", 1, SC_AF }, { "AF_INET", 2, SC_AF },
	{ "AF_INET6", 10, SC_AF }, { "AF_NETLINK", 16, SC_AF },
	{ "AF_PACKET", 17, SC_AF },
	{ "SOCK_STREAM", 1, SC_SOCKTYPE }, { "SOCK_DGRAM", 2, SC_SOCKTYPE },
	{ "SOCK_RAW", 3, SC_SOCKTYPE }, { "SOCK_SEQPACKET", 5, SC_SOCKTYPE },
	{ "SOCK_CLOEXEC", 02000000, SC_SOCKFLAGS },
	{ "SOCK_NONBLOCK", 04000, SC_SOCKFLAGS },
	{ "SOL_SOCKET", 1, SC_LEVEL }, { "SO_REUSEADDR", 2, SC_SO },
	{ "SO_KEEPALIVE", 9, SC_SO }, { "SO_RCVBUF", 8, SC_SO },
	{ "SO_SNDBUF", 7, SC_SO }, { "SO_REUSEPORT", 15, SC_SO },
	/* A level is named SOL_* as strace names it, a socket()'s
	 * protocol IPPROTO_*: the same numbers. */
	{ "SOL_IP", 0, SC_LEVEL }, { "SOL_TCP", 6, SC_LEVEL },
	{ "SOL_UDP", 17, SC_LEVEL },
	{ "IPPROTO_IP", 0, SC_IPPROTO }, { "IPPROTO_TCP", 6, SC_IPPROTO },
	{ "IPPROTO_UDP", 17, SC_IPPROTO },
	{ "TCP_NODELAY", 1, SC_TCP }, { "TCP_CORK", 3, SC_TCP },
	{ "INADDR_ANY", 0, SC_NONE }, { "INADDR_LOOPBACK", 0x7f000001, SC_NONE },
	{ "SHUT_RD", 0, SC_SHUT }, { "SHUT_WR", 1, SC_SHUT },
	{ "SHUT_RDWR", 2, SC_SHUT },
	{ "MSG_OOB", 1, SC_MSG }, { "MSG_PEEK", 2, SC_MSG },
	{ "MSG_CTRUNC", 8, SC_MSG }, { "MSG_TRUNC", 0x20, SC_MSG },
	{ "MSG_DONTWAIT", 0x40, SC_MSG }, { "MSG_EOR", 0x80, SC_MSG },
	{ "MSG_WAITALL", 0x100, SC_MSG }, { "MSG_ERRQUEUE", 0x2000, SC_MSG },
	{ "MSG_NOSIGNAL", 0x4000, SC_MSG }, { "MSG_MORE", 0x8000, SC_MSG },
	{ "PROT_NONE", 0, SC_PROT }, { "PROT_READ", 1, SC_PROT },
	{ "PROT_WRITE", 2, SC_PROT }, { "PROT_EXEC", 4, SC_PROT },
	{ "MAP_SHARED", 1, SC_MAP }, { "MAP_PRIVATE", 2, SC_MAP },
	{ "MAP_FIXED", 0x10, SC_MAP }, { "MAP_ANONYMOUS", 0x20, SC_MAP },
	{ "CLOCK_REALTIME", 0, SC_CLOCK }, { "CLOCK_MONOTONIC", 1, SC_CLOCK },
	{ "CLOCK_PROCESS_CPUTIME_ID", 2, SC_CLOCK },
	{ "CLOCK_THREAD_CPUTIME_ID", 3, SC_CLOCK },
	{ "CLOCK_MONOTONIC_RAW", 4, SC_CLOCK },
	{ "CLOCK_REALTIME_COARSE", 5, SC_CLOCK },
	{ "CLOCK_MONOTONIC_COARSE", 6, SC_CLOCK },
	{ "CLOCK_BOOTTIME", 7, SC_CLOCK },
	{ "CLOCK_REALTIME_ALARM", 8, SC_CLOCK },
	{ "CLOCK_BOOTTIME_ALARM", 9, SC_CLOCK }, { "CLOCK_TAI", 11, SC_CLOCK },
	{ "TIMER_ABSTIME", 1, SC_TIMER },
	{ "SIGHUP", 1, SC_SIG }, { "SIGINT", 2, SC_SIG },
	{ "SIGQUIT", 3, SC_SIG }, { "SIGKILL", 9, SC_SIG },
	{ "SIGUSR1", 10, SC_SIG }, { "SIGUSR2", 12, SC_SIG },
	{ "SIGPIPE", 13, SC_SIG }, { "SIGALRM", 14, SC_SIG },
	{ "SIGTERM", 15, SC_SIG }, { "SIGCHLD", 17, SC_SIG },
	{ "SIGCONT", 18, SC_SIG }, { "SIGSTOP", 19, SC_SIG },
	{ "SIGILL", 4, SC_SIG }, { "SIGTRAP", 5, SC_SIG },
	{ "SIGABRT", 6, SC_SIG }, { "SIGBUS", 7, SC_SIG },
	{ "SIGFPE", 8, SC_SIG }, { "SIGSEGV", 11, SC_SIG },
	{ "SIGTSTP", 20, SC_SIG }, { "SIGTTIN", 21, SC_SIG },
	{ "SIGTTOU", 22, SC_SIG }, { "SIGURG", 23, SC_SIG },
	{ "SIGXCPU", 24, SC_SIG }, { "SIGXFSZ", 25, SC_SIG },
	{ "SIGVTALRM", 26, SC_SIG }, { "SIGPROF", 27, SC_SIG },
	{ "SIGWINCH", 28, SC_SIG }, { "SIGIO", 29, SC_SIG },
	{ "SIGPWR", 30, SC_SIG }, { "SIGSYS", 31, SC_SIG },
	/* rt_sigprocmask()'s how, and the flags of the descriptors that
	 * wait for signals, events and timers (O_NONBLOCK, O_CLOEXEC). */
	{ "SIG_BLOCK", 0, SC_SIGHOW }, { "SIG_UNBLOCK", 1, SC_SIGHOW },
	{ "SIG_SETMASK", 2, SC_SIGHOW },
	{ "RLIMIT_CPU", 0, SC_RLIMIT }, { "RLIMIT_FSIZE", 1, SC_RLIMIT },
	{ "RLIMIT_DATA", 2, SC_RLIMIT }, { "RLIMIT_STACK", 3, SC_RLIMIT },
	{ "RLIMIT_CORE", 4, SC_RLIMIT }, { "RLIMIT_RSS", 5, SC_RLIMIT },
	{ "RLIMIT_NPROC", 6, SC_RLIMIT }, { "RLIMIT_NOFILE", 7, SC_RLIMIT },
	{ "RLIMIT_MEMLOCK", 8, SC_RLIMIT }, { "RLIMIT_AS", 9, SC_RLIMIT },
	{ "RLIMIT_LOCKS", 10, SC_RLIMIT },
	{ "RLIMIT_SIGPENDING", 11, SC_RLIMIT },
	{ "RLIMIT_MSGQUEUE", 12, SC_RLIMIT }, { "RLIMIT_NICE", 13, SC_RLIMIT },
	{ "RLIMIT_RTPRIO", 14, SC_RLIMIT }, { "RLIMIT_RTTIME", 15, SC_RLIMIT },
	{ "SFD_CLOEXEC", 02000000, SC_SFD }, { "SFD_NONBLOCK", 04000, SC_SFD },
	{ "EFD_SEMAPHORE", 1, SC_EFD }, { "EFD_CLOEXEC", 02000000, SC_EFD },
	{ "EFD_NONBLOCK", 04000, SC_EFD },
	{ "TFD_CLOEXEC", 02000000, SC_TFD }, { "TFD_NONBLOCK", 04000, SC_TFD },
	{ "TFD_TIMER_ABSTIME", 1, SC_TFD_SET },
	{ "POLLIN", 1, SC_NONE }, { "POLLPRI", 2, SC_NONE },
	{ "POLLOUT", 4, SC_NONE },
	{ "EPOLL_CTL_ADD", 1, SC_EPOLL_OP }, { "EPOLL_CTL_DEL", 2, SC_EPOLL_OP },
	{ "EPOLL_CTL_MOD", 3, SC_EPOLL_OP },
	{ "EPOLLIN", 1, SC_NONE }, { "EPOLLOUT", 4, SC_NONE },
	{ "POLLERR", 8, SC_NONE }, { "POLLHUP", 0x10, SC_NONE },
	{ "POLLNVAL", 0x20, SC_NONE },
	{ "EPOLLERR", 8, SC_NONE }, { "EPOLLHUP", 0x10, SC_NONE },
	{ "EPOLLRDHUP", 0x2000, SC_NONE }, { "EPOLLONESHOT", 0x40000000, SC_NONE },
	{ "EPOLLET", 0x80000000, SC_NONE },
	{ "EPOLL_CLOEXEC", 02000000, SC_EPOLL },
	/* wait4()'s and waitid()'s options, in strace's order; WSTOPPED
	 * first of the two names of 2, as strace names it for both. */
	{ "WNOHANG", 1, SC_WAIT }, { "WEXITED", 4, SC_WAIT },
	{ "WSTOPPED", 2, SC_WAIT }, { "WUNTRACED", 2, SC_WAIT },
	{ "WCONTINUED", 8, SC_WAIT }, { "WNOWAIT", 0x01000000, SC_WAIT },
	/* waitid()'s which. */
	{ "P_ALL", 0, SC_IDTYPE }, { "P_PID", 1, SC_IDTYPE },
	{ "P_PGID", 2, SC_IDTYPE }, { "P_PIDFD", 3, SC_IDTYPE },
	/* inotify: the events a watch reports, the sets of several only
	 * for writing (the trace names the bits, as strace does). */
	{ "IN_ACCESS", 0x1, SC_INOTIFY }, { "IN_MODIFY", 0x2, SC_INOTIFY },
	{ "IN_ATTRIB", 0x4, SC_INOTIFY },
	{ "IN_CLOSE_WRITE", 0x8, SC_INOTIFY },
	{ "IN_CLOSE_NOWRITE", 0x10, SC_INOTIFY },
	{ "IN_OPEN", 0x20, SC_INOTIFY }, { "IN_MOVED_FROM", 0x40, SC_INOTIFY },
	{ "IN_MOVED_TO", 0x80, SC_INOTIFY }, { "IN_CREATE", 0x100, SC_INOTIFY },
	{ "IN_DELETE", 0x200, SC_INOTIFY },
	{ "IN_DELETE_SELF", 0x400, SC_INOTIFY },
	{ "IN_MOVE_SELF", 0x800, SC_INOTIFY },
	{ "IN_UNMOUNT", 0x2000, SC_INOTIFY },
	{ "IN_Q_OVERFLOW", 0x4000, SC_INOTIFY },
	{ "IN_IGNORED", 0x8000, SC_INOTIFY },
	{ "IN_ONLYDIR", 0x01000000, SC_INOTIFY },
	{ "IN_DONT_FOLLOW", 0x02000000, SC_INOTIFY },
	{ "IN_EXCL_UNLINK", 0x04000000, SC_INOTIFY },
	{ "IN_MASK_CREATE", 0x10000000, SC_INOTIFY },
	{ "IN_MASK_ADD", 0x20000000, SC_INOTIFY },
	{ "IN_ISDIR", 0x40000000, SC_INOTIFY },
	{ "IN_ONESHOT", 0x80000000, SC_INOTIFY },
	{ "IN_CLOSE", 0x18, SC_NONE }, { "IN_MOVE", 0xc0, SC_NONE },
	{ "IN_ALL_EVENTS", 0xfff, SC_NONE },
	{ "IN_NONBLOCK", 04000, SC_IN_INIT },
	{ "IN_CLOEXEC", 02000000, SC_IN_INIT },
	/* ioctl()'s requests of terminals and of any descriptor
	 * (asm-generic/ioctls.h, x86's). */
	{ "TCGETS", 0x5401, SC_IOCTL }, { "TCSETS", 0x5402, SC_IOCTL },
	{ "TCSETSW", 0x5403, SC_IOCTL }, { "TCSETSF", 0x5404, SC_IOCTL },
	{ "TIOCSCTTY", 0x540e, SC_IOCTL }, { "TIOCGPGRP", 0x540f, SC_IOCTL },
	{ "TIOCSPGRP", 0x5410, SC_IOCTL }, { "TIOCOUTQ", 0x5411, SC_IOCTL },
	{ "TIOCGWINSZ", 0x5413, SC_IOCTL }, { "TIOCSWINSZ", 0x5414, SC_IOCTL },
	{ "FIONREAD", 0x541b, SC_IOCTL }, { "FIONBIO", 0x5421, SC_IOCTL },
	{ "TIOCNOTTY", 0x5422, SC_IOCTL }, { "FIONCLEX", 0x5450, SC_IOCTL },
	{ "FIOCLEX", 0x5451, SC_IOCTL }, { "FIOASYNC", 0x5452, SC_IOCTL },
};

#define NR_CONSTS (sizeof(table) / sizeof(table[0]))

const struct sysconst *sysconst_all(size_t *n)
{
	*n = NR_CONSTS;
	return table;
}

bool sysconst_lookup(const char *name, int64_t *v)
{
	for (size_t i = 0; i < NR_CONSTS; i++)
		if (!strcmp(table[i].name, name)) {
			*v = table[i].value;
			return true;
		}
	return false;
}

/*
 * The sets of each call's arguments, by position; calls and arguments
 * not listed are shown as numbers.  Names are those of the syscall
 * tables of every profile (i386 has fcntl64, mmap2, _llseek ...).
 */
static const struct {
	const char		*call;
	unsigned char		set[6];
} calls[] = {
	{ "open", { 0, SC_OPEN, SC_MODE } },
	{ "openat", { SC_DIRFD, 0, SC_OPEN, SC_MODE } },
	{ "creat", { 0, SC_MODE } },
	{ "mkdir", { 0, SC_MODE } },
	{ "mkdirat", { SC_DIRFD, 0, SC_MODE } },
	{ "chmod", { 0, SC_MODE } },
	{ "fchmod", { 0, SC_MODE } },
	{ "fchmodat", { SC_DIRFD, 0, SC_MODE } },
	{ "access", { 0, SC_ACCESS } },
	{ "faccessat", { SC_DIRFD, 0, SC_ACCESS } },
	{ "faccessat2", { SC_DIRFD, 0, SC_ACCESS, SC_FACCESS_AT } },
	{ "statx", { SC_DIRFD, 0, SC_STATX_AT, SC_STATX_MASK } },
	{ "unlinkat", { SC_DIRFD, 0, SC_AT } },
	{ "newfstatat", { SC_DIRFD, 0, 0, SC_AT } },
	{ "fstatat64", { SC_DIRFD, 0, 0, SC_AT } },
	{ "renameat", { SC_DIRFD, 0, SC_DIRFD } },
	{ "renameat2", { SC_DIRFD, 0, SC_DIRFD, 0, SC_RENAME } },
	{ "name_to_handle_at", { SC_DIRFD, 0, 0, 0, SC_AT } },
	{ "linkat", { SC_DIRFD, 0, SC_DIRFD, 0, SC_AT } },
	{ "symlinkat", { 0, SC_DIRFD } },
	{ "readlinkat", { SC_DIRFD } },
	{ "fchownat", { SC_DIRFD, 0, 0, 0, SC_AT } },
	{ "utimensat", { SC_DIRFD, 0, 0, SC_AT } },
	{ "pipe2", { 0, SC_OFLAGS } },
	{ "dup3", { 0, 0, SC_OFLAGS } },
	{ "lseek", { 0, 0, SC_SEEK } },
	{ "_llseek", { 0, 0, 0, 0, SC_SEEK } },
	{ "fcntl", { 0, SC_FCNTL, SC_FCNTL_ARG } },
	{ "fcntl64", { 0, SC_FCNTL, SC_FCNTL_ARG } },
	{ "socket", { SC_AF, SC_SOCKTYPE, SC_PROTO } },
	{ "socketpair", { SC_AF, SC_SOCKTYPE, SC_PROTO } },
	{ "accept4", { 0, 0, 0, SC_SOCKFLAGS } },
	{ "setsockopt", { 0, SC_LEVEL, SC_SOCKOPT } },
	{ "getsockopt", { 0, SC_LEVEL, SC_SOCKOPT } },
	{ "sendto", { 0, 0, 0, SC_MSG } },
	{ "recvfrom", { 0, 0, 0, SC_MSG } },
	{ "sendmsg", { 0, 0, SC_MSG } },
	{ "recvmsg", { 0, 0, SC_MSG } },
	{ "shutdown", { 0, SC_SHUT } },
	{ "mmap", { 0, 0, SC_PROT, SC_MAP } },
	{ "mmap2", { 0, 0, SC_PROT, SC_MAP } },
	{ "mprotect", { 0, 0, SC_PROT } },
	{ "kill", { 0, SC_SIG } },
	{ "tkill", { 0, SC_SIG } },
	{ "tgkill", { 0, 0, SC_SIG } },
	{ "clock_gettime", { SC_CLOCK } },
	{ "clock_getres", { SC_CLOCK } },
	{ "clock_nanosleep", { SC_CLOCK, SC_TIMER } },
	{ "epoll_ctl", { 0, SC_EPOLL_OP } },
	{ "epoll_create1", { SC_EPOLL } },
	{ "wait4", { 0, 0, SC_WAIT } },
	{ "waitid", { SC_IDTYPE, 0, 0, SC_WAIT } },
	{ "inotify_init1", { SC_IN_INIT } },
	{ "inotify_add_watch", { 0, 0, SC_INOTIFY } },
	{ "rt_sigprocmask", { SC_SIGHOW } },
	{ "sigprocmask", { SC_SIGHOW } },
	{ "rt_sigaction", { SC_SIG } },
	{ "sigaction", { SC_SIG } },
	{ "signal", { SC_SIG } },
	{ "signalfd4", { 0, 0, 0, SC_SFD } },
	{ "eventfd2", { 0, SC_EFD } },
	{ "timerfd_create", { SC_CLOCK, SC_TFD } },
	{ "timerfd_settime", { 0, SC_TFD_SET } },
	{ "ioctl", { 0, SC_IOCTL } },
	{ "prlimit64", { 0, SC_RLIMIT } },
	{ "getrlimit", { SC_RLIMIT } },
	{ "setrlimit", { SC_RLIMIT } },
	{ "ugetrlimit", { SC_RLIMIT } },
};

struct out {
	char	*buf;
	size_t	len, at;
	bool	any;
	bool	cut;	/* a name did not fit: the number, not half one */
};

static void put(struct out *o, const char *s)
{
	int n = snprintf(o->buf + o->at, o->len - o->at, "%s%s",
			 o->any ? "|" : "", s);

	o->any = true;
	if (n > 0 && o->at + (size_t)n < o->len) {
		o->at += (size_t)n;
	} else {
		o->at = o->len - 1;
		o->cut = true;
	}
}

/* The first name of exactly v in set. */
static const char *enum_name(enum sysconst_set set, int64_t v)
{
	for (size_t i = 0; i < NR_CONSTS; i++)
		if (table[i].set == set && table[i].value == v)
			return table[i].name;
	return NULL;
}

static unsigned int bits(uint64_t v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The flags of set in v, names with more bits first (O_SYNC holds
 * O_DSYNC's bit); returns the bits no name covers. */
static uint64_t flags(struct out *o, enum sysconst_set set, uint64_t v)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < NR_CONSTS; i++) {
			uint64_t f = (uint64_t)table[i].value;

			if (table[i].set != set || !f || (f & ~v) ||
			    (bits(f) > 1) != (pass == 0))
				continue;
			put(o, table[i].name);
			v &= ~f;
		}
	return v;
}

static bool rest(struct out *o, uint64_t v)
{
	char num[24];

	if (!v)
		return o->any;
	if (!o->any)
		return false;	/* no name at all: the number reads better */
	snprintf(num, sizeof(num), "%#llx", (unsigned long long)v);
	put(o, num);
	return true;
}

static const char *const ioc_dirs[] = {
	"_IOC_NONE", "_IOC_WRITE", "_IOC_READ", "_IOC_READ|_IOC_WRITE",
};

static bool describe_set(enum sysconst_set set, int64_t v, struct out *o)
{
	const char *n;
	uint64_t r;

	switch (set) {
	case SC_OPEN:
		/* The access mode is a 2-bit number, not flags. */
		n = enum_name(SC_OPEN, v & 3);
		if (!n || (v & 3) == 3)
			return false;
		put(o, n);
		r = flags(o, SC_OPEN, (uint64_t)v & ~(uint64_t)3);
		return rest(o, r);
	case SC_OFLAGS:
		r = flags(o, SC_OPEN, (uint64_t)v & ~(uint64_t)3);
		return (v & 3) ? false : rest(o, r);
	case SC_MODE:
		/* strace's "%#03o" of the kernel's umode_t, whatever bits it
		 * holds: 0644, 007, fchmod(4, 0100751). */
		if (v < 0 || v > 0xffffffffLL)
			return false;
		snprintf(o->buf, o->len, "%#03llo", (unsigned long long)v);
		return true;
	case SC_SOCKTYPE:
		n = enum_name(SC_SOCKTYPE, v & 0xf);
		if (!n)
			return false;
		put(o, n);
		r = flags(o, SC_SOCKFLAGS, (uint64_t)v & ~(uint64_t)0xf);
		return rest(o, r);
	case SC_FACCESS_AT:
		/* strace's order: AT_SYMLINK_NOFOLLOW|AT_EACCESS|AT_EMPTY_PATH.
		 * AT_EACCESS is the only name of its bit here. */
		if (v <= 0)
			return false;
		r = flags(o, SC_AT, (uint64_t)v & 0x100);
		r |= flags(o, SC_FACCESS_AT, (uint64_t)v & 0x200);
		r |= flags(o, SC_AT, (uint64_t)v & ~(uint64_t)0x300);
		return rest(o, r);
	case SC_STATX_AT:
		/* How to sync is a 2-bit number, named first (0 too), then
		 * the AT_* flags, as strace writes them. */
		if (v < 0)
			return false;
		n = enum_name(SC_STATX_SYNC, v & 0x6000);
		if (!n)
			return false;
		put(o, n);
		r = flags(o, SC_AT, (uint64_t)v & ~(uint64_t)0x6000);
		return rest(o, r);
	case SC_ACCESS:
	case SC_PROT:
		if (v == 0) {
			put(o, enum_name(set, 0));
			return true;
		}
		/* fall through */
	case SC_AT:
	case SC_STATX_MASK:
	case SC_RENAME:
	case SC_FDFLAGS:
	case SC_MSG:
	case SC_MAP:
	case SC_SOCKFLAGS:
	case SC_SFD:
	case SC_EFD:
	case SC_TFD:
	case SC_TFD_SET:
	case SC_TIMER:
	case SC_EPOLL:
	case SC_WAIT:
	case SC_IN_INIT:
		if (v <= 0)
			return false;
		r = flags(o, set, (uint64_t)v);
		return rest(o, r);
	case SC_IOCTL:
		/* The kernel takes an unsigned int; one without a name is
		 * decoded by its fields, as strace shows it. */
		v = (int64_t)(uint32_t)v;
		n = enum_name(set, v);
		if (n) {
			put(o, n);
			return true;
		}
		snprintf(o->buf, o->len, "_IOC(%s, %#x, %#x, %#x)",
			 ioc_dirs[(v >> 30) & 3],
			 (unsigned int)(v >> 8) & 0xff, (unsigned int)v & 0xff,
			 (unsigned int)(v >> 16) & 0x3fff);
		return true;
	case SC_INOTIFY:
		/* A 32-bit mask: IN_ONESHOT is its sign bit. */
		v = (int64_t)(uint32_t)v;
		if (v <= 0)
			return false;
		r = flags(o, set, (uint64_t)v);
		return rest(o, r);
	case SC_CLOCK:
	case SC_RLIMIT:
		/* A clock or resource without a name is its 32 bits in hex
		 * and the comment CLOCK_??? or RLIMIT_???, as strace 6.1
		 * shows it (-1 is 0xffffffff). */
		n = enum_name(set, v);
		if (n) {
			put(o, n);
			return true;
		}
		snprintf(o->buf, o->len, "%#x /* %s_??? */", (unsigned int)v,
			 set == SC_CLOCK ? "CLOCK" : "RLIMIT");
		return true;
	default:
		n = enum_name(set, v);
		if (!n)
			return false;
		put(o, n);
		return true;
	}
}

const char *sysconst_first(enum sysconst_set set)
{
	/* statx()'s flags start with how to sync: AT_STATX_SYNC_AS_STAT. */
	if (set == SC_STATX_AT)
		set = SC_STATX_SYNC;
	for (size_t i = 0; i < NR_CONSTS; i++)
		if (table[i].set == set)
			return table[i].name;
	return NULL;
}

enum sysconst_set sysconst_arg_set(const char *call, unsigned int arg)
{
	if (!call || arg >= 6)
		return SC_NONE;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(calls[i].call, call))
			return (enum sysconst_set)calls[i].set[arg];
	return SC_NONE;
}

bool sysconst_describe(const char *call, unsigned int arg, int64_t v,
		       const int64_t *vals, const bool *known, char *buf,
		       size_t len)
{
	struct out o = { buf, len, 0, false, false };
	enum sysconst_set set = SC_NONE;

	if (!call || arg >= 6 || len < 2)
		return false;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(calls[i].call, call)) {
			set = (enum sysconst_set)calls[i].set[arg];
			break;
		}
	if (set == SC_SOCKOPT) {
		/* The option's name space is its level's. */
		if (arg == 0 || !known[arg - 1])
			return false;
		set = vals[arg - 1] == 1 ? SC_SO :
		      vals[arg - 1] == 6 ? SC_TCP : SC_NONE;
	}
	if (set == SC_PROTO) {
		/* An IP family's protocols are IPPROTO_* (0 is IPPROTO_IP,
		 * as strace writes it); other families' are numbers. */
		if (arg == 0 || !known[0] || (vals[0] != 2 && vals[0] != 10))
			return false;
		set = SC_IPPROTO;
	}
	if (set == SC_FCNTL_ARG) {
		/* F_SETFL takes O_* flags, F_SETFD FD_CLOEXEC. */
		if (arg == 0 || !known[arg - 1])
			return false;
		set = vals[arg - 1] == 4 ? SC_OFLAGS :
		      vals[arg - 1] == 2 ? SC_FDFLAGS : SC_NONE;
	}
	if (set == SC_NONE)
		return false;
	return describe_set(set, v, &o) && !o.cut;
}
