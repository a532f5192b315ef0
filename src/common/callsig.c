/* callsig.c: each system call's arguments by kind, one letter each, for the trace's decoder and the listing's NULL. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/callsig.h"

struct sig {
	const char	*name;
	const char	*args;
};

/*
 *  d decimal   x hex        p pointer   s path string   o open flags
 *  m octal     D dirfd      n number or hex, by size
 *  x hex        w write buffer (length is the next arg)
 *  r read buffer (shown with the result's length)
 *  a sockaddr (length is the next arg)  F address family  T socket type
 *  k struct timespec read   i int read (length is the next arg)
 *  K two struct timespec read, UTIME_NOW and UTIME_OMIT by name (utimensat)
 *  L struct pollfd array (count is the next arg)
 *  I struct itimerspec read   Y statx's AT_* flags   Z statx's mask
 *  Q signal set read ([USR1 TERM])   V struct epoll_event read
 *  h struct rlimit read (prlimit64's struct rlimit64)
 *  e struct iovec array read, with the bytes (count is the next arg)
 *  g struct msghdr read, its iovecs' bytes too (sendmsg)
 *  y the kernel's struct sigaction read (rt_sigaction)
 * What the call writes, shown once it returned, as strace shows it:
 *  P int[2] (pipe)   c string (getcwd)   E linux_dirent64 records
 *  t struct timespec   W wait status
 *  S struct stat (fstat, newfstatat; stat64 and kin on i386)
 *  U struct new_utsname (uname)
 *  A sockaddr (its length is the int the next arg points to)
 *  l int, a value-result length (socklen_t *: accept, recvfrom)
 *  R struct timespec left to sleep, shown when interrupted (EINTR)
 *  X struct statx   J struct itimerspec   G struct rusage (wait4)
 *  q signal set (rt_sigprocmask's old one)
 *  v struct epoll_event array, as many as the result says (epoll_wait)
 *  N int, when the length the next arg points to is an int's
 *    (getsockopt's option value)
 *  j struct iovec array, the bytes the call wrote (readv)
 *  H struct msghdr, the bytes the call wrote (recvmsg)
 *  O the kernel's struct sigaction (rt_sigaction's old one)
 *  M struct rlimit (prlimit64's struct rlimit64)
 *  B ioctl's argument: the int FIONREAD wrote ([2]); for another
 *    request a number or an address, as n
 */
static const struct sig sigs[] = {
	{ "open", "som" },	{ "openat", "Dsom" },	{ "creat", "sm" },
	{ "close", "d" },	{ "read", "drd" },	{ "write", "dwd" },
	{ "pread64", "drdd" },	{ "pwrite64", "dwdd" },	{ "lseek", "ddd" },
	{ "stat", "sS" },	{ "lstat", "sS" },	{ "unlink", "s" },
	{ "mkdir", "sm" },	{ "rmdir", "s" },	{ "access", "sd" },
	{ "chdir", "s" },	{ "truncate", "sd" },	{ "rename", "ss" },
	{ "unlinkat", "Dsx" },	{ "mkdirat", "Dsm" },	{ "fsync", "d" },
	{ "socket", "FTd" },	{ "bind", "dad" },	{ "connect", "dad" },
	{ "listen", "dd" },	{ "accept", "dAl" },	{ "accept4", "dAlx" },
	{ "sendto", "dwdxad" },	{ "recvfrom", "drdxAl" },
	{ "shutdown", "dd" },	{ "setsockopt", "dddid" },
	{ "socketpair", "FTdP" },
	/* i386's socketcall() makes these two, by no number of their own. */
	{ "send", "dwdx" },	{ "recv", "drdx" },
	{ "getsockname", "dAl" },	{ "getpeername", "dAl" },
	{ "dup", "d" },		{ "dup2", "dd" },	{ "kill", "dd" },
	/* Calls that take a pid: decimal, however large (pid_max is
	 * 4194304 on 64-bit machines), where 'n' would show 0xf423f. */
	{ "tkill", "dd" },	{ "tgkill", "ddd" },	{ "getpgid", "d" },
	{ "getsid", "d" },	{ "setpgid", "dd" },	{ "pidfd_open", "dx" },
	{ "pidfd_send_signal", "ddpx" },	{ "pidfd_getfd", "ddx" },
	{ "prlimit64", "ddhM" },	{ "getrlimit", "dM" },
	{ "ugetrlimit", "dM" },	{ "setrlimit", "dh" },
	/* Offsets are pointers (NULL: the file's position), lengths
	 * numbers, as strace shows them. */
	{ "splice", "dpdpdx" },	{ "tee", "dddx" },
	{ "copy_file_range", "dpdpdx" },	{ "vmsplice", "dpdx" },
	{ "getpid", "" },	{ "getppid", "" },	{ "nanosleep", "kR" },
	{ "umem_add", "pd" },	{ "sendfile", "ddpd" },	{ "ftruncate", "dd" },
	/* Calls that take pointers, so that a null one reads NULL, as
	 * strace writes it, not 0. */
	{ "fstat", "dS" },	{ "newfstatat", "DsSx" },
	{ "fstatat64", "DsSx" },	{ "statx", "DsYZX" },
	{ "fstat64", "dS" },	{ "stat64", "sS" },	{ "lstat64", "sS" },
	{ "getdents64", "dEd" },	{ "pipe", "P" },	{ "pipe2", "Px" },
	{ "rt_sigprocmask", "dQqd" },	{ "rt_sigaction", "dyOd" },
	{ "signalfd4", "dQdx" },	{ "inotify_add_watch", "dsx" },
	{ "inotify_rm_watch", "dd" },	{ "epoll_ctl", "dddV" },
	{ "epoll_wait", "dvdd" },	{ "epoll_pwait", "dvddpd" },
	{ "poll", "Ldd" },	{ "ppoll", "Ldkpd" },
	{ "timerfd_settime", "dxIJ" },	{ "timerfd_gettime", "dJ" },
	{ "clock_gettime", "dt" },	{ "clock_getres", "dt" },
	{ "clock_nanosleep", "dxkR" },
	{ "wait4", "dWnG" },	{ "waitid", "ddpxp" },
	{ "readlink", "srd" },	{ "readlinkat", "Dsrd" },
	{ "getrandom", "rdn" },	{ "uname", "U" },	{ "getcwd", "cd" },
	{ "mmap", "pdxxdd" },	{ "munmap", "pd" },
	/* Calls that take a path, shown as strace shows it, a string,
	 * not its address; pointers to what the trace does not decode are
	 * addresses, and a null one NULL. */
	{ "chmod", "sm" },	{ "fchmod", "dm" },
	{ "fchmodat", "Dsmx" },	{ "chown", "sdd" },
	{ "lchown", "sdd" },	{ "fchown", "ddd" },
	{ "fchownat", "Dsddx" },	{ "symlink", "ss" },
	{ "link", "ss" },	{ "symlinkat", "sDs" },
	{ "linkat", "DsDsx" },	{ "renameat", "DsDs" },
	{ "renameat2", "DsDsx" },	{ "faccessat", "Dsd" },
	{ "faccessat2", "Dsdx" },	{ "utimensat", "DsKx" },
	{ "utimes", "sp" },	{ "statfs", "sp" },
	{ "fstatfs", "dp" },	{ "chroot", "s" },
	{ "fchdir", "d" },	{ "mknod", "smd" },
	{ "mknodat", "Dsmd" },	{ "select", "dpppp" },
	/* i386's select and mmap by the names strace gives them. */
	{ "_newselect", "dpppp" },	{ "mmap2", "pdxxdd" },
	{ "pselect6", "dpppkp" },	{ "readv", "djd" },
	{ "writev", "ded" },	{ "sendmsg", "dgx" },
	{ "recvmsg", "dHx" },	{ "preadv", "djddd" },
	{ "pwritev", "deddd" },	{ "preadv2", "djdddx" },
	{ "pwritev2", "dedddx" },	{ "getsockopt", "dddNl" },
	{ "gettimeofday", "pp" },	{ "time", "p" },
	{ "getrusage", "dp" },	{ "sysinfo", "p" },
	{ "times", "p" },	{ "getitimer", "dp" },
	{ "setitimer", "dpp" },	{ "ioctl", "dnB" },
};

const char *callsig_of(const char *call)
{
	for (size_t i = 0; call && i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!strcmp(sigs[i].name, call))
			return sigs[i].args;
	return NULL;
}

bool callsig_poll_events(unsigned int ev, char *buf, size_t len)
{
	static const struct { unsigned int bit; const char *name; } bits[] = {
		{ 0x1, "POLLIN" },	{ 0x2, "POLLPRI" },
		{ 0x4, "POLLOUT" },	{ 0x8, "POLLERR" },
		{ 0x10, "POLLHUP" },	{ 0x20, "POLLNVAL" },
		{ 0x40, "POLLRDNORM" },	{ 0x80, "POLLRDBAND" },
		{ 0x100, "POLLWRNORM" },	{ 0x200, "POLLWRBAND" },
		{ 0x400, "POLLMSG" },	{ 0x2000, "POLLRDHUP" },
	};
	size_t at = 0;
	int n;

	if (!len)
		return false;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (!(ev & bits[i].bit))
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? "|" : "",
			     bits[i].name);
		if (n < 0 || (size_t)n >= len - at)
			return false;
		at += (size_t)n;
		ev &= ~bits[i].bit;
	}
	if (ev) {
		n = snprintf(buf + at, len - at, at ? "|%#x" : "%#x", ev);
		if (n < 0 || (size_t)n >= len - at)
			return false;
	}
	return true;
}

bool callsig_pointer(const char *call, unsigned int arg)
{
	const char *sig = callsig_of(call);

	return sig && arg < strlen(sig) && strchr(CALLSIG_PTR, sig[arg]);
}
