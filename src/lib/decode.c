/* decode.c: system calls by number for callers: names, the deny list, errno names, and a call and its result printed as strace would (strings, flags, socket addresses). */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libsyslet.h"
#include "api.h"
#include "common/callsig.h"
#include "common/consts.h"
#include "common/quote.h"
#include "common/systab.h"

#define DECODE_STRMAX COMMON_STR_SHOWN
/* A path is shown whole, up to PATH_MAX, as strace's printpath() shows
 * it: -s 32 cuts the strings of buffers, not file names. */
#define DECODE_PATHMAX COMMON_PATH_SHOWN

struct flag {
	unsigned long	bit;
	const char	*name;
};

/*
 * The O_* flags of open's argument and of fcntl(F_GETFL)'s result, in
 * strace's order.  A flag of several bits is named only when all are
 * set: O_SYNC holds O_DSYNC's bit, and comes first.  O_LARGEFILE by the
 * kernel's x86 value, which libc's header makes 0 in a 64-bit build.
 */
static const struct flag open_flags[] = {
	{ O_CREAT, "O_CREAT" },		{ O_EXCL, "O_EXCL" },
	{ O_NOCTTY, "O_NOCTTY" },	{ O_TRUNC, "O_TRUNC" },
	{ O_APPEND, "O_APPEND" },	{ O_NONBLOCK, "O_NONBLOCK" },
	{ O_SYNC, "O_SYNC" },		{ O_DSYNC, "O_DSYNC" },
	{ O_DIRECT, "O_DIRECT" },	{ 0100000, "O_LARGEFILE" },
	{ O_NOFOLLOW, "O_NOFOLLOW" },	{ O_NOATIME, "O_NOATIME" },
	{ O_CLOEXEC, "O_CLOEXEC" },	{ O_PATH, "O_PATH" },
	{ O_DIRECTORY, "O_DIRECTORY" },	{ 0, NULL },
};

/* 1 once process_vm_readv() answered ENOSYS (a kernel built without
 * CONFIG_CROSS_MEMORY_ATTACH, as tinyconfig's) or EPERM (a sandbox's
 * seccomp policy, such as systemd's @debug set): neither changes while
 * the process lives, so it is not asked again, as image-mem.c's probes
 * are not. */
static int vm_readv_gone;

/* The pipe's way: a write of the memory into a pipe reads it through
 * the kernel all the same.  A page at a time, so that a write either
 * copies all it was given or faults (a longer one faults as a whole
 * where a page past its start is unreadable) and the pipe never fills. */
static ssize_t read_by_pipe(unsigned char *dst, unsigned long addr,
			    size_t len)
{
	unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	size_t done = 0;
	ssize_t n;
	int p[2], err = EFAULT;

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	if (!page || page & (page - 1))
		page = 4096;
	while (done < len) {
		size_t want = len - done;
		size_t room = page - ((addr + done) & (page - 1));

		if (want > room)
			want = room;
		/* The system call, not libc's write(): a sanitizer's
		 * wrapper would check the bytes first, where the kernel's
		 * copy is the check. */
		n = syscall(SYS_write, p[1], (const void *)(addr + done),
			    want);
		if (n <= 0) {
			err = n < 0 ? errno : EFAULT;
			break;
		}
		if (read(p[0], dst + done, (size_t)n) != n) {
			err = EIO;
			break;
		}
		done += (size_t)n;
	}
	close(p[0]);
	close(p[1]);
	return done ? (ssize_t)done : -err;
}

ssize_t syslet_read_mem(void *dst, const void *addr, size_t len)
{
	struct iovec local = { dst, len };
	struct iovec remote = { (void *)addr, len };
	ssize_t n;

	if (!len)
		return 0;
	if (!dst)
		return api_err(-EINVAL);
	if (!addr)
		return api_err(-EFAULT);
	if ((unsigned long)addr + len < (unsigned long)addr)
		len = -(unsigned long)addr;	/* up to the top */
	if (!__atomic_load_n(&vm_readv_gone, __ATOMIC_RELAXED)) {
		n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		if (n > 0)
			return n;
		if (n == 0)
			return api_err(-EFAULT);
		if (errno != ENOSYS && errno != EPERM)
			return api_err(-errno);
		__atomic_store_n(&vm_readv_gone, 1, __ATOMIC_RELAXED);
	}
	n = read_by_pipe(dst, (unsigned long)addr, len);
	return n < 0 ? api_err((int)n) : n;
}

/* Reads through the kernel so that a bad address is an error, not a
 * crash of the tracer: the first @len bytes at @addr, as many as can be
 * read, -1 for none. */
static ssize_t read_some(void *dst, unsigned long addr, size_t len)
{
	ssize_t n = syslet_read_mem(dst, (const void *)addr, len);

	return n < 0 ? -1 : n;
}

/* All @len bytes or -1: a struct read in part would be shown with
 * bytes it never had. */
static ssize_t safe_read(void *dst, unsigned long addr, size_t len)
{
	ssize_t n = read_some(dst, addr, len);

	return n == (ssize_t)len ? n : -1;
}

/* Print s (at most max bytes of it) as a C string literal, "..." after
 * when longer; 0, or -1 when the memory cannot be read. */
static int print_mem_string(FILE *out, unsigned long addr, size_t len,
			    size_t max, int nul_ends)
{
	unsigned char buf[DECODE_PATHMAX + 1];
	char e[4];
	size_t want = len < max ? len : max;
	ssize_t got;
	size_t i;

	if (want > DECODE_PATHMAX)
		want = DECODE_PATHMAX;
	/* One byte past what is shown says whether more follows; the
	 * memory may end before it (a buffer at the end of its mapping):
	 * every byte that could be read is shown then. */
	got = read_some(buf, addr, want + 1);
	if (got < 0)
		return -1;
	if ((size_t)got <= want)
		want = (size_t)got;
	fputc('"', out);
	for (i = 0; i < (size_t)got && i < want; i++) {
		unsigned char c = buf[i];

		if (nul_ends && !c)
			break;
		/* The byte shown next, if any, as the escape's rule
		 * wants it ("\0" then "1" would read as "\01"). */
		fwrite(e, 1, common_escape(e, c, i + 1 < (size_t)got &&
					   i + 1 < want ? buf[i + 1] : -1),
		       out);
	}
	fputc('"', out);
	/* Longer than shown: for NUL-ended strings when no NUL was seen,
	 * in what is shown or right after it (or the memory ended). */
	if ((nul_ends && i == want && !((size_t)got > want && !buf[want])) ||
	    (!nul_ends && len > want))
		fputs("...", out);
	return 0;
}

static void print_flags(FILE *out, unsigned long v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR",
					   "O_ACCMODE" };

	fputs(acc[v & O_ACCMODE], out);
	v &= ~(unsigned long)O_ACCMODE;
	for (const struct flag *f = open_flags; f->name; f++)
		if ((v & f->bit) == f->bit) {
			fprintf(out, "|%s", f->name);
			v &= ~f->bit;
		}
	if (v)
		fprintf(out, "|%#lx", v);
}

/* A family or type without a name as strace shows it: the kernel's int
 * in hex and a comment, '0x63 /\* AF_??? *\/', not the word in decimal. */
static void print_family(FILE *out, unsigned long v)
{
	switch (v) {
	case AF_UNSPEC: fputs("AF_UNSPEC", out); break;
	case AF_UNIX: fputs("AF_UNIX", out); break;
	case AF_INET: fputs("AF_INET", out); break;
	case AF_INET6: fputs("AF_INET6", out); break;
	case AF_NETLINK: fputs("AF_NETLINK", out); break;
	case AF_PACKET: fputs("AF_PACKET", out); break;
	default: fprintf(out, "%#x /* AF_??? */", (unsigned int)v);
	}
}

static void print_socktype(FILE *out, unsigned long v)
{
	unsigned int t = (unsigned int)v & 0xf;
	unsigned int rest = (unsigned int)v & ~0xfU &
			    ~(unsigned int)(SOCK_NONBLOCK | SOCK_CLOEXEC);

	switch (t) {
	case SOCK_STREAM: fputs("SOCK_STREAM", out); break;
	case SOCK_DGRAM: fputs("SOCK_DGRAM", out); break;
	case SOCK_RAW: fputs("SOCK_RAW", out); break;
	case SOCK_SEQPACKET: fputs("SOCK_SEQPACKET", out); break;
	default: fprintf(out, "%#x /* SOCK_??? */", t);
	}
	/* strace's order. */
	if (v & SOCK_CLOEXEC)
		fputs("|SOCK_CLOEXEC", out);
	if (v & SOCK_NONBLOCK)
		fputs("|SOCK_NONBLOCK", out);
	if (rest)
		fprintf(out, "|%#x /* SOCK_??? */", rest);
}

static int print_sockaddr(FILE *out, unsigned long addr, unsigned long len)
{
	struct sockaddr_in sin;
	char ip[INET_ADDRSTRLEN];

	if (len < sizeof(sin) || safe_read(&sin, addr, sizeof(sin)) < 0 ||
	    sin.sin_family != AF_INET)
		return -1;
	inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof(ip));
	fprintf(out, "{sa_family=AF_INET, sin_port=htons(%u), sin_addr=inet_addr(\"%s\")}",
		ntohs(sin.sin_port), ip);
	return 0;
}

/* The kernel's timespec of the calls in the tables (nanosleep,
 * clock_gettime): two words on either profile, whatever time_t libc
 * was built with. */
struct kts {
	long	tv_sec;
	long	tv_nsec;
};

static void print_timespec(FILE *out, const struct kts *ts)
{
	fprintf(out, "{tv_sec=%ld, tv_nsec=%ld}", ts->tv_sec, ts->tv_nsec);
}

/*
 * utimensat()'s two times as strace 6.1 shows them: each a timespec with
 * the date it stands for, in local time, in a comment, or UTIME_NOW or
 * UTIME_OMIT, which the kernel reads in tv_nsec:
 * [{tv_sec=1, tv_nsec=2} /\* 1970-01-01T00:00:01.000000002+0000 *\/, UTIME_OMIT]
 */
static bool print_utimes(FILE *out, unsigned long addr)
{
	struct kts ts[2];
	char date[64], zone[16];
	struct tm tm;
	time_t t;

	if (safe_read(ts, addr, sizeof(ts)) < 0)
		return false;
	for (int i = 0; i < 2; i++) {
		fputs(i ? ", " : "[", out);
		if (ts[i].tv_nsec == UTIME_NOW) {
			fputs("UTIME_NOW", out);
			continue;
		}
		if (ts[i].tv_nsec == UTIME_OMIT) {
			fputs("UTIME_OMIT", out);
			continue;
		}
		print_timespec(out, &ts[i]);
		t = (time_t)ts[i].tv_sec;
		if (ts[i].tv_nsec >= 0 && ts[i].tv_nsec < 1000000000 &&
		    localtime_r(&t, &tm) &&
		    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) &&
		    strftime(zone, sizeof(zone), "%z", &tm))
			fprintf(out, " /* %s.%09ld%s */", date, ts[i].tv_nsec,
				zone);
	}
	fputc(']', out);
	return true;
}

/* "WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL", the number where the
 * signal has no name. */
static void print_wsig(FILE *out, const char *test, const char *field,
		       int sig)
{
	const char *name = sigabbrev_np(sig);

	fprintf(out, "%s(s) && %s(s) == ", test, field);
	if (name)
		fprintf(out, "SIG%s", name);
	else
		fprintf(out, "%d", sig);
}

/* strace's [{WIFEXITED(s) && WEXITSTATUS(s) == 7}]. */
static void print_wstatus(FILE *out, int s)
{
	fputs("[{", out);
	if (WIFEXITED(s)) {
		fprintf(out, "WIFEXITED(s) && WEXITSTATUS(s) == %d",
			WEXITSTATUS(s));
	} else if (WIFSIGNALED(s)) {
		print_wsig(out, "WIFSIGNALED", "WTERMSIG", WTERMSIG(s));
		if (WCOREDUMP(s))
			fputs(" && WCOREDUMP(s)", out);
	} else if (WIFSTOPPED(s)) {
		print_wsig(out, "WIFSTOPPED", "WSTOPSIG", WSTOPSIG(s));
	} else if (WIFCONTINUED(s)) {
		fputs("WIFCONTINUED(s)", out);
	} else {
		fprintf(out, "%#x", (unsigned int)s);
	}
	fputs("}]", out);
}

/* The number of linux_dirent64 records in the @len bytes at @addr, as
 * strace counts them; -1 when they cannot be read or do not add up. */
static long count_dirents(unsigned long addr, unsigned long len)
{
	unsigned long off = 0;
	long n = 0;
	unsigned short reclen;

	/* d_reclen sits after d_ino and d_off, 8 bytes each. */
	while (off < len) {
		if (len - off < 19 ||
		    safe_read(&reclen, addr + off + 16, sizeof(reclen)) < 0 ||
		    reclen < 19 || reclen > len - off)
			return -1;
		off += reclen;
		n++;
	}
	return n;
}

/*
 * The kernel's struct stat of @name on this process's profile, as far as
 * strace shows it: where st_mode, st_rdev and st_size sit and how wide
 * they are.  Returns false for a call whose layout is not known here.
 */
struct stat_layout {
	unsigned char	mode, mode_sz, rdev, rdev_sz, size, size_sz;
};

static bool stat_layout(const char *name, struct stat_layout *l)
{
#if defined(__x86_64__)
	/* One struct stat: dev, ino, nlink words, then mode. */
	static const struct stat_layout st = { 24, 4, 40, 8, 48, 8 };

	if (!strcmp(name, "stat") || !strcmp(name, "fstat") ||
	    !strcmp(name, "lstat") || !strcmp(name, "newfstatat")) {
		*l = st;
		return true;
	}
#elif defined(__i386__)
	/* struct stat64 (packed to 4 bytes), and the short-fielded
	 * struct stat of the calls without 64. */
	static const struct stat_layout st64 = { 16, 4, 32, 8, 44, 8 };
	static const struct stat_layout st32 = { 8, 2, 16, 4, 20, 4 };

	if (!strcmp(name, "stat64") || !strcmp(name, "fstat64") ||
	    !strcmp(name, "lstat64") || !strcmp(name, "fstatat64")) {
		*l = st64;
		return true;
	}
	if (!strcmp(name, "stat") || !strcmp(name, "fstat") ||
	    !strcmp(name, "lstat")) {
		*l = st32;
		return true;
	}
#endif
	(void)name;
	(void)l;
	return false;
}

static unsigned long long le_field(const unsigned char *p, unsigned int sz)
{
	unsigned long long v = 0;

	while (sz--)
		v = v << 8 | p[sz];
	return v;
}

/* strace's S_IFREG|0644: the file type, the set-id bits, the rest in
 * octal. */
static void print_mode(FILE *out, unsigned int mode)
{
	static const struct { unsigned int fmt; const char *name; } types[] = {
		{ S_IFREG, "S_IFREG" },	{ S_IFDIR, "S_IFDIR" },
		{ S_IFCHR, "S_IFCHR" },	{ S_IFBLK, "S_IFBLK" },
		{ S_IFIFO, "S_IFIFO" },	{ S_IFLNK, "S_IFLNK" },
		{ S_IFSOCK, "S_IFSOCK" },
	};
	static const struct { unsigned int bit; const char *name; } bits[] = {
		{ S_ISUID, "S_ISUID" }, { S_ISGID, "S_ISGID" },
		{ S_ISVTX, "S_ISVTX" },
	};
	unsigned int fmt = mode & S_IFMT;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].fmt == fmt) {
			fprintf(out, "%s|", types[i].name);
			fmt = 0;
		}
	if (fmt)
		fprintf(out, "%#o|", fmt);
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (mode & bits[i].bit)
			fprintf(out, "%s|", bits[i].name);
	fprintf(out, "%#03o", mode & 0777);
}

/* strace's {st_mode=S_IFREG|0644, st_size=1221, ...}, st_rdev for a
 * device in place of the size. */
static bool print_stat(FILE *out, const char *name, unsigned long addr)
{
	struct stat_layout l;
	unsigned char buf[64];
	unsigned int mode;
	unsigned long long rdev;
	size_t want;

	if (!stat_layout(name, &l))
		return false;
	want = (size_t)l.size + l.size_sz;
	if (safe_read(buf, addr, want) < 0)
		return false;
	mode = (unsigned int)le_field(buf + l.mode, l.mode_sz);
	fputs("{st_mode=", out);
	print_mode(out, mode);
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		rdev = le_field(buf + l.rdev, l.rdev_sz);
		fprintf(out, ", st_rdev=makedev(%#x, %#x)", major(rdev),
			minor(rdev));
	} else {
		fprintf(out, ", st_size=%lld",
			(long long)le_field(buf + l.size, l.size_sz));
	}
	fputs(", ...}", out);
	return true;
}

/* Names for the bits of @v from @f (a name of several bits only when all
 * are set, the first such name winning), the rest in hex; @zero where
 * nothing is set. */
static void print_bits(FILE *out, unsigned long v, const struct flag *f,
		       const char *zero)
{
	bool any = false;

	for (; f->name && v; f++)
		if ((v & f->bit) == f->bit) {
			fprintf(out, "%s%s", any ? "|" : "", f->name);
			v &= ~f->bit;
			any = true;
		}
	if (v)
		fprintf(out, any ? "|%#lx" : "%#lx", v);
	else if (!any)
		fputs(zero, out);
}

/* statx's mask, in strace's order: the sets first. */
static const struct flag statx_mask[] = {
	{ 0xfff, "STATX_ALL" },		{ 0x7ff, "STATX_BASIC_STATS" },
	{ 0x1, "STATX_TYPE" },		{ 0x2, "STATX_MODE" },
	{ 0x4, "STATX_NLINK" },		{ 0x8, "STATX_UID" },
	{ 0x10, "STATX_GID" },		{ 0x20, "STATX_ATIME" },
	{ 0x40, "STATX_MTIME" },	{ 0x80, "STATX_CTIME" },
	{ 0x100, "STATX_INO" },		{ 0x200, "STATX_SIZE" },
	{ 0x400, "STATX_BLOCKS" },	{ 0x800, "STATX_BTIME" },
	{ 0x1000, "STATX_MNT_ID" },	{ 0x2000, "STATX_DIOALIGN" },
	{ 0x4000, "STATX_MNT_ID_UNIQUE" },	{ 0x8000, "STATX_SUBVOL" },
	{ 0x10000, "STATX_WRITE_ATOMIC" },
	{ 0x20000, "STATX_DIO_READ_ALIGN" },	{ 0, NULL },
};

/* statx's flags: how to sync (AT_STATX_SYNC_AS_STAT is none of the
 * two bits), then the AT_* flags, as strace writes them. */
static void print_statx_flags(FILE *out, unsigned long v)
{
	static const struct flag at[] = {
		{ 0x100, "AT_SYMLINK_NOFOLLOW" },
		{ 0x800, "AT_NO_AUTOMOUNT" },	{ 0x1000, "AT_EMPTY_PATH" },
		{ 0, NULL },
	};
	unsigned long sync = v & 0x6000;

	fputs(sync == 0x2000 ? "AT_STATX_FORCE_SYNC" :
	      sync == 0x4000 ? "AT_STATX_DONT_SYNC" :
	      sync ? "0x6000" : "AT_STATX_SYNC_AS_STAT", out);
	v &= ~0x6000UL;
	if (v) {
		fputc('|', out);
		print_bits(out, v, at, "0");
	}
}

/* strace's {stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=0,
 * stx_mode=S_IFREG|0644, stx_size=1221, ...}: struct statx is the same
 * on either profile. */
static bool print_statx(FILE *out, unsigned long addr)
{
	unsigned char buf[48];

	if (safe_read(buf, addr, sizeof(buf)) < 0)
		return false;
	fputs("{stx_mask=", out);
	print_bits(out, (unsigned long)le_field(buf, 4), statx_mask, "0");
	fprintf(out, ", stx_attributes=%#llx, stx_mode=",
		le_field(buf + 8, 8));
	print_mode(out, (unsigned int)le_field(buf + 28, 2));
	fprintf(out, ", stx_size=%llu, ...}", le_field(buf + 40, 8));
	return true;
}

/* strace's [USR1 TERM]: the kernel's 64-bit set, ~[...] of the signals
 * missing when more than half are in it, as strace writes it. */
static bool print_sigset(FILE *out, unsigned long addr)
{
	unsigned long long set;
	bool inv, first = true;
	const char *name;

	if (safe_read(&set, addr, sizeof(set)) < 0)
		return false;
	inv = __builtin_popcountll(set) > 32;
	if (inv)
		set = ~set;
	fputs(inv ? "~[" : "[", out);
	for (int sig = 1; sig <= 64; sig++) {
		if (!(set >> (sig - 1) & 1))
			continue;
		if (!first)
			fputc(' ', out);
		first = false;
		name = sig < 32 ? sigabbrev_np(sig) : NULL;
		if (name)
			fputs(name, out);
		else if (sig == 32)
			fputs("RTMIN", out);
		else if (sig > 32)
			fprintf(out, "RT_%d", sig - 32);
		else
			fprintf(out, "%d", sig);
	}
	fputc(']', out);
	return true;
}

/* strace's {events=EPOLLIN|EPOLLET, data={u32=7, u64=7}}: the struct
 * is packed on x86, 12 bytes, either profile. */
static bool print_epoll_event(FILE *out, unsigned long addr)
{
	static const struct flag ev[] = {
		{ 0x1, "EPOLLIN" },	{ 0x2, "EPOLLPRI" },
		{ 0x4, "EPOLLOUT" },	{ 0x8, "EPOLLERR" },
		{ 0x10, "EPOLLHUP" },	{ 0x20, "EPOLLNVAL" },
		{ 0x40, "EPOLLRDNORM" },	{ 0x80, "EPOLLRDBAND" },
		{ 0x100, "EPOLLWRNORM" },	{ 0x200, "EPOLLWRBAND" },
		{ 0x400, "EPOLLMSG" },	{ 0x2000, "EPOLLRDHUP" },
		{ 1UL << 28, "EPOLLEXCLUSIVE" },	{ 1UL << 29, "EPOLLWAKEUP" },
		{ 1UL << 30, "EPOLLONESHOT" },	{ 1UL << 31, "EPOLLET" },
		{ 0, NULL },
	};
	unsigned char b[12];
	unsigned long long data;

	if (safe_read(b, addr, sizeof(b)) < 0)
		return false;
	data = le_field(b + 4, 8);
	fputs("{events=", out);
	print_bits(out, (unsigned long)le_field(b, 4), ev, "0");
	fprintf(out, ", data={u32=%u, u64=%llu}}", (unsigned int)data, data);
	return true;
}

/* epoll_wait's records, as many as it returned: four, then "...". */
static bool print_epoll_events(FILE *out, unsigned long addr, long n)
{
	unsigned char b[12];

	if (n > 0 && safe_read(b, addr, sizeof(b)) < 0)
		return false;
	fputc('[', out);
	for (long i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		if (i == 4) {
			fputs("...", out);
			break;
		}
		if (!print_epoll_event(out, addr + (unsigned long)i * 12)) {
			fprintf(out, "%#lx", addr + (unsigned long)i * 12);
			break;
		}
	}
	fputc(']', out);
	return true;
}

/* strace's {it_interval={tv_sec=0, tv_nsec=0}, it_value={...}}. */
static bool print_itimerspec(FILE *out, unsigned long addr)
{
	struct kts its[2];

	if (safe_read(its, addr, sizeof(its)) < 0)
		return false;
	fputs("{it_interval=", out);
	print_timespec(out, &its[0]);
	fputs(", it_value=", out);
	print_timespec(out, &its[1]);
	fputc('}', out);
	return true;
}

/* struct rusage opens with two kernel timevals, two words each:
 * strace's {ru_utime={tv_sec=0, tv_usec=817}, ru_stime=..., ...}. */
static bool print_rusage(FILE *out, unsigned long addr)
{
	long tv[4];

	if (safe_read(tv, addr, sizeof(tv)) < 0)
		return false;
	fprintf(out, "{ru_utime={tv_sec=%ld, tv_usec=%ld}, "
		"ru_stime={tv_sec=%ld, tv_usec=%ld}, ...}",
		tv[0], tv[1], tv[2], tv[3]);
	return true;
}

/* struct new_utsname: six fields of 65 bytes; strace shows two. */
static bool print_utsname(FILE *out, unsigned long addr)
{
	char f[2][65];

	if (safe_read(f, addr, sizeof(f)) < 0)
		return false;
	fputs("{sysname=", out);
	print_mem_string(out, addr, 64, DECODE_STRMAX, 1);
	fputs(", nodename=", out);
	print_mem_string(out, addr + 65, 64, DECODE_STRMAX, 1);
	fputs(", ...}", out);
	return true;
}

/* strace's [{fd=3, events=POLLIN}, ...]: four records at most. */
static bool print_pollfds(FILE *out, unsigned long addr, unsigned long n)
{
	struct { int fd; short events, revents; } p;
	char ev[128];

	if (n > 1024)
		return false;
	fputc('[', out);
	for (unsigned long i = 0; i < n; i++) {
		if (i == 4) {
			fputs(", ...", out);
			break;
		}
		if (safe_read(&p, addr + i * sizeof(p), sizeof(p)) < 0) {
			fprintf(out, "%s%#lx", i ? ", " : "",
				addr + i * sizeof(p));
			break;
		}
		if (!callsig_poll_events((unsigned short)p.events, ev,
					 sizeof(ev)) || !p.events)
			snprintf(ev, sizeof(ev), "0");
		fprintf(out, "%s{fd=%d, events=%s}", i ? ", " : "", p.fd, ev);
	}
	fputc(']', out);
	return true;
}

/* One limit as strace 6.1 prints it: 8192*1024 for a multiple of
 * 1024 above it, RLIM64_INFINITY (RLIM_INFINITY in a 32-bit struct). */
static void print_rlim(FILE *out, unsigned long long v, bool wide)
{
	if (v == (wide ? ~0ULL : 0xffffffffULL))
		fputs(wide ? "RLIM64_INFINITY" : "RLIM_INFINITY", out);
	else if (v > 1024 && v % 1024 == 0)
		fprintf(out, "%llu*1024", v / 1024);
	else
		fprintf(out, "%llu", v);
}

/* prlimit64's struct rlimit64, or getrlimit's and setrlimit's struct
 * rlimit of two words. */
static bool print_rlimit(FILE *out, const char *name, unsigned long addr)
{
	bool wide = sizeof(long) == 8 || !strcmp(name, "prlimit64");
	unsigned long long r[2];

	if (wide) {
		if (safe_read(r, addr, sizeof(r)) < 0)
			return false;
	} else {
		unsigned long w[2];

		if (safe_read(w, addr, sizeof(w)) < 0)
			return false;
		r[0] = w[0];
		r[1] = w[1];
	}
	fputs("{rlim_cur=", out);
	print_rlim(out, r[0], wide);
	fputs(", rlim_max=", out);
	print_rlim(out, r[1], wide);
	fputc('}', out);
	return true;
}

/* strace's -s 32 applies to arrays too: the elements shown at most. */
#define DECODE_ELEMS 32

/*
 * An iovec array as strace shows it: [{iov_base="ab\n", iov_len=3}, ...]
 * with each buffer's bytes, as many as @data says in all (-1: each
 * iov_len, what writev() reads; a read's result: what readv() wrote,
 * "" past it), or its address when @data is -2 (the call failed).
 * False when the array cannot be read.
 */
static bool print_iov(FILE *out, unsigned long addr, unsigned long n,
		      long data)
{
	struct iovec iov;

	if (n > 1024 || (n && safe_read(&iov, addr, sizeof(iov)) < 0))
		return false;
	fputc('[', out);
	for (unsigned long i = 0; i < n; i++) {
		size_t len;

		if (i)
			fputs(", ", out);
		if (i == DECODE_ELEMS) {
			fputs("...", out);
			break;
		}
		if (safe_read(&iov, addr + i * sizeof(iov), sizeof(iov)) < 0) {
			fputs("...", out);
			break;
		}
		len = iov.iov_len;
		if (data >= 0) {
			if (len > (unsigned long)data)
				len = (size_t)data;
			data -= (long)len;
		}
		fputs("{iov_base=", out);
		if (data == -2 ||
		    print_mem_string(out, (unsigned long)iov.iov_base, len,
				     DECODE_STRMAX, 0))
			fprintf(out, "%#lx", (unsigned long)iov.iov_base);
		fprintf(out, ", iov_len=%lu}", (unsigned long)iov.iov_len);
	}
	fputc(']', out);
	return true;
}

/* The MSG_* flags of a msghdr's msg_flags, 0 for none. */
static void print_msg_flags(FILE *out, unsigned long f)
{
	int64_t vals[6] = { 0 };
	bool known[6] = { false };
	char buf[256];

	if (f && sysconst_describe("recvmsg", 2, (int64_t)f, vals, known, buf,
				   sizeof(buf)))
		fputs(buf, out);
	else
		fprintf(out, f ? "%#lx" : "%lu", f);
}

/*
 * A struct msghdr as strace shows sendmsg's, and recvmsg's once it
 * returned (@data: the bytes received, -1 for sendmsg's).  The control
 * data is shown by its address: the trace does not decode cmsgs.
 */
static bool print_msghdr(FILE *out, unsigned long addr, long data)
{
	struct msghdr m;

	if (safe_read(&m, addr, sizeof(m)) < 0)
		return false;
	fputs("{msg_name=", out);
	if (!m.msg_name)
		fputs("NULL", out);
	else if (print_sockaddr(out, (unsigned long)m.msg_name,
				m.msg_namelen))
		fprintf(out, "%#lx", (unsigned long)m.msg_name);
	fprintf(out, ", msg_namelen=%u, msg_iov=", (unsigned int)m.msg_namelen);
	if (!m.msg_iov)
		fputs("NULL", out);
	else if (!print_iov(out, (unsigned long)m.msg_iov, m.msg_iovlen, data))
		fprintf(out, "%#lx", (unsigned long)m.msg_iov);
	fprintf(out, ", msg_iovlen=%lu", (unsigned long)m.msg_iovlen);
	if (m.msg_controllen)
		fprintf(out, ", msg_control=%#lx",
			(unsigned long)m.msg_control);
	fprintf(out, ", msg_controllen=%lu, msg_flags=",
		(unsigned long)m.msg_controllen);
	print_msg_flags(out, (unsigned long)m.msg_flags);
	fputc('}', out);
	return true;
}

/*
 * The kernel's struct sigaction of rt_sigaction(), as strace 6.1 shows
 * it: {sa_handler=SIG_IGN, sa_mask=[INT], sa_flags=SA_RESTORER|SA_RESTART,
 * sa_restorer=0x...}, the restorer only when SA_RESTORER says it is
 * there, and the mask the 8 bytes the kernel takes on either profile
 * (strace reads those whatever sigsetsize the call was given).
 */
static bool print_sigaction(FILE *out, unsigned long addr)
{
	static const struct { unsigned long bit; const char *name; } fl[] = {
		{ 0x04000000, "SA_RESTORER" },	{ 0x08000000, "SA_ONSTACK" },
		{ 0x10000000, "SA_RESTART" },	{ 0x20000000, "SA_INTERRUPT" },
		{ 0x40000000, "SA_NODEFER" },	{ 0x80000000, "SA_RESETHAND" },
		{ 0x4, "SA_SIGINFO" },		{ 0x1, "SA_NOCLDSTOP" },
		{ 0x2, "SA_NOCLDWAIT" },
	};
	struct { unsigned long handler, flags, restorer; } sa;
	unsigned long rest;
	bool any = false;

	if (safe_read(&sa, addr, sizeof(sa)) < 0)
		return false;
	fputs("{sa_handler=", out);
	if (sa.handler == 0)
		fputs("SIG_DFL", out);
	else if (sa.handler == 1)
		fputs("SIG_IGN", out);
	else if (sa.handler == ~0UL)
		fputs("SIG_ERR", out);
	else
		fprintf(out, "%#lx", sa.handler);
	fputs(", sa_mask=", out);
	if (!print_sigset(out, addr + sizeof(sa)))
		fprintf(out, "%#lx", addr + (unsigned long)sizeof(sa));
	fputs(", sa_flags=", out);
	rest = sa.flags & 0xffffffffUL;
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (rest & fl[i].bit) {
			fprintf(out, "%s%s", any ? "|" : "", fl[i].name);
			rest &= ~fl[i].bit;
			any = true;
		}
	if (rest || !any)
		fprintf(out, any ? "|%#lx" : rest ? "%#lx" : "0", rest);
	if (sa.flags & 0x04000000)
		fprintf(out, ", sa_restorer=%#lx", sa.restorer);
	fputc('}', out);
	return true;
}

/* An argument the call wrote, as strace shows it once the call
 * returned; false to show the pointer instead. */
static bool print_out(FILE *out, const char *name, char kind,
		      unsigned long v, unsigned long next, unsigned long prev,
		      long result)
{
	struct kts ts;
	int two[2];
	long n;

	/* The time left to sleep: written when a signal cut it short. */
	if (kind == 'R') {
		if (!v || result != -EINTR ||
		    safe_read(&ts, v, sizeof(ts)) < 0)
			return false;
		print_timespec(out, &ts);
		return true;
	}
	/* A value-result length: what the call left, or, when it failed,
	 * what it was given, which strace shows either way ([16]). */
	if (kind == 'l') {
		if (!v || safe_read(two, v, sizeof(two[0])) < 0)
			return false;
		fprintf(out, "[%d]", two[0]);
		return true;
	}
	/* A failed readv()'s array with its buffers' addresses, recvmsg()'s
	 * struct by the length it was given, as strace shows them. */
	if (kind == 'j' && v && result < 0)
		return print_iov(out, v, next, -2);
	if (kind == 'H' && v && result < 0) {
		struct msghdr m;

		if (safe_read(&m, v, sizeof(m)) < 0)
			return false;
		fprintf(out, "{msg_namelen=%u}", (unsigned int)m.msg_namelen);
		return true;
	}
	if (!v || result < 0)
		return false;
	switch (kind) {
	case 'X':
		return result == 0 && print_statx(out, v);
	case 'q':
		return result == 0 && print_sigset(out, v);
	case 'v':
		return print_epoll_events(out, v, result);
	case 'J':
		return result == 0 && print_itimerspec(out, v);
	case 'G':
		return result > 0 && print_rusage(out, v);
	case 'P':
		if (result != 0 || safe_read(two, v, sizeof(two)) < 0)
			return false;
		fprintf(out, "[%d, %d]", two[0], two[1]);
		return true;
	case 'c':
		return result > 0 &&
		       !print_mem_string(out, v, (size_t)result, DECODE_PATHMAX,
					 1);
	case 'E':
		if ((unsigned long)result > next ||
		    (n = count_dirents(v, (unsigned long)result)) < 0)
			return false;
		fprintf(out, "%#lx /* %ld entries */", v, n);
		return true;
	case 't':
		if (result != 0 || safe_read(&ts, v, sizeof(ts)) < 0)
			return false;
		print_timespec(out, &ts);
		return true;
	case 'W':
		if (result == 0 || safe_read(two, v, sizeof(two[0])) < 0)
			return false;
		print_wstatus(out, two[0]);
		return true;
	case 'S':
		return result == 0 && print_stat(out, name, v);
	case 'U':
		return result == 0 && print_utsname(out, v);
	case 'A':
		/* The address the call filled in, as long as its length
		 * (which the call rewrote) says. */
		if (!next || safe_read(two, next, sizeof(two[0])) < 0 ||
		    two[0] <= 0)
			return false;
		return !print_sockaddr(out, v, (unsigned long)two[0]);
	case 'M':
		return result == 0 && print_rlimit(out, name, v);
	case 'j':
		return print_iov(out, v, next, result);
	case 'O':
		return result == 0 && print_sigaction(out, v);
	case 'H':
		return print_msghdr(out, v, result);
	case 'B':
		/* FIONREAD's count, strace's [2]. */
		if (result != 0 || (unsigned int)prev != FIONREAD ||
		    safe_read(two, v, sizeof(two[0])) < 0)
			return false;
		fprintf(out, "[%d]", two[0]);
		return true;
	case 'N':
		/* strace's [131072]: an int's worth written, else the
		 * address. */
		if (result != 0 || !next ||
		    safe_read(two, next, sizeof(two[0])) < 0 ||
		    two[0] != (int)sizeof(int) ||
		    safe_read(two, v, sizeof(two[0])) < 0)
			return false;
		fprintf(out, "[%d]", two[0]);
		return true;
	}
	return false;
}

/*
 * A number the listing names (SOL_SOCKET, SOCK_CLOEXEC, SIGINT, F_SETFL,
 * SEEK_END ...) is named in the trace too: one table serves both, and
 * sysletc -S and --trace read alike.
 */
static bool print_named(FILE *out, const char *name, const unsigned long *args,
			int i, int nargs)
{
	int64_t vals[6] = { 0 };
	bool known[6] = { false };
	char buf[512];

	for (int k = 0; k < nargs && k < 6; k++) {
		/* The word as the call reads it: signed (AT_FDCWD). */
		vals[k] = (int64_t)(long)args[k];
		known[k] = true;
	}
	if (!sysconst_describe(name, (unsigned int)i, vals[i], vals, known,
			       buf, sizeof(buf)))
		return false;
	fputs(buf, out);
	return true;
}

static void print_arg(FILE *out, const char *name, char kind,
		      const unsigned long *args, int i, int nargs, long result)
{
	unsigned long v = args[i];
	unsigned long next = i + 1 < nargs ? args[i + 1] : 0;
	unsigned long prev = i > 0 ? args[i - 1] : 0;

	if ((kind == 'd' || kind == 'x' || kind == 'n') &&
	    print_named(out, name, args, i, nargs))
		return;
	/* A null buffer, string or address is NULL, as strace writes it,
	 * whatever the call made of it. */
	if (!v && strchr(CALLSIG_PTR, kind)) {
		fputs("NULL", out);
		return;
	}
	switch (kind) {
	case 'd':
		fprintf(out, "%ld", (long)v);
		return;
	case 'm':
		/* strace's "%#03o": 000 for no bits.  The kernel takes a
		 * umode_t, 16 bits, whatever the word held (a statx word
		 * with the mode in its low bits), and strace shows those. */
		fprintf(out, "%#03lo", (unsigned long)(unsigned short)v);
		return;
	case 'D':
		if ((long)v == AT_FDCWD)
			fputs("AT_FDCWD", out);
		else
			fprintf(out, "%ld", (long)v);
		return;
	case 'o':
		print_flags(out, v);
		return;
	case 'Y':
		print_statx_flags(out, v);
		return;
	case 'Z':
		print_bits(out, v, statx_mask, "0");
		return;
	case 'I':
		if (print_itimerspec(out, v))
			return;
		break;
	case 'Q':
		if (print_sigset(out, v))
			return;
		break;
	case 'V':
		if (print_epoll_event(out, v))
			return;
		break;
	case 'h':
		if (print_rlimit(out, name, v))
			return;
		break;
	case 'e':
		if (print_iov(out, v, next, -1))
			return;
		break;
	case 'y':
		if (print_sigaction(out, v))
			return;
		break;
	case 'g':
		if (print_msghdr(out, v, -1))
			return;
		break;
	case 'F':
		print_family(out, v);
		return;
	case 'T':
		print_socktype(out, v);
		return;
	case 's':
		if (!print_mem_string(out, v, DECODE_PATHMAX, DECODE_PATHMAX,
				      1))
			return;
		break;
	case 'w':
		if (!print_mem_string(out, v, next, DECODE_STRMAX, 0))
			return;
		break;
	case 'r':
		if (result == 0) {
			fputs("\"\"", out);
			return;
		}
		if (result > 0 && (unsigned long)result <= next &&
		    !print_mem_string(out, v, (size_t)result,
					   DECODE_STRMAX, 0))
			return;
		break;
	case 'a':
		if (!print_sockaddr(out, v, next))
			return;
		break;
	case 'L':
		if (print_pollfds(out, v, next))
			return;
		break;
	case 'K':
		if (print_utimes(out, v))
			return;
		break;
	case 'k': {
		struct kts ts;

		if (v && safe_read(&ts, v, sizeof(ts)) >= 0) {
			print_timespec(out, &ts);
			return;
		}
		break;
	}
	case 'i': {
		int iv;

		if (v && next == sizeof(iv) &&
		    safe_read(&iv, v, sizeof(iv)) >= 0) {
			fprintf(out, "[%d]", iv);
			return;
		}
		break;
	}
	case 'P': case 'c': case 'E': case 't': case 'W': case 'S': case 'U':
	case 'A': case 'l': case 'R': case 'X': case 'J': case 'G': case 'q':
	case 'v': case 'N': case 'M': case 'j': case 'H': case 'O':
		if (print_out(out, name, kind, v, next, prev, result))
			return;
		if (!v) {
			fputs("NULL", out);
			return;
		}
		break;
	case 'p':
		if (!v) {
			fputs("NULL", out);	/* as strace shows it */
			return;
		}
		break;
	case 'B':
		/* A request the trace does not decode: as n. */
		if (print_out(out, name, kind, v, next, prev, result))
			return;
		/* fall through */
	case 'n':
		/* Unknown calls: small values are most likely numbers. */
		if ((long)v > -4096 && (long)v < 65536) {
			fprintf(out, "%ld", (long)v);
			return;
		}
		break;
	}
	fprintf(out, "%#lx", v);
}

const char *syslet_syscall_name(long nr)
{
	const char *name;

	if (nr < 0 || nr >= systab_nr_syscalls(systab_native_profile()))
		return api_null(ERANGE);
	name = systab_name(systab_native_profile(), nr);
	return name ? name : api_null(ENOENT);
}

long syslet_syscall_count(void)
{
	return systab_nr_syscalls(systab_native_profile());
}

long syslet_syscall_number(const char *name)
{
	long nr = name ? systab_lookup(systab_native_profile(), name) : -1;

	return nr >= 0 ? nr : api_err(-ENOENT);
}

const char *syslet_syscall_suggest(const char *name)
{
	const char *s = name ? systab_suggest(systab_native_profile(), name)
			     : NULL;

	return s ? s : api_null(ENOENT);
}

int syslet_syscall_denied(long nr)
{
	if (nr < 0 || nr >= systab_nr_syscalls(systab_native_profile()))
		return api_err(-ERANGE);
	return systab_denied(systab_native_profile(), nr);
}

const char *syslet_errno_name(int err)
{
	const char *name = errno_name(err);

	return name ? name : api_null(ENOENT);
}

int syslet_errno_number(const char *name)
{
	int e = name ? errno_lookup(name) : -1;

	return e >= 0 ? e : api_err(-ENOENT);
}

/* The call the atom made: its number as fetched, whatever the image
 * says it was compiled as; umem_add by the backend's number; NULL for a
 * number the table does not name. */
static const char *event_call(const struct syslet_event *ev)
{
	long umem = syslet_sysno(SYSLET_CALL_UMEM_ADD);

	if (umem >= 0 && ev->nr == (unsigned long)umem)
		return "umem_add";
	if (ev->nr > LONG_MAX)
		return NULL;
	return syslet_syscall_name((long)ev->nr);
}

/*
 * i386's socketcall(CALL, ARGS) by CALL (1 to 20, net/socket.c's
 * SYS_SOCKET..SYS_SENDMMSG): the call it makes and the words it reads
 * at ARGS.
 */
static const struct {
	const char	*name;
	int		nargs;
} socket_calls[] = {
	{ NULL, 0 }, { "socket", 3 }, { "bind", 3 }, { "connect", 3 },
	{ "listen", 2 }, { "accept", 3 }, { "getsockname", 3 },
	{ "getpeername", 3 }, { "socketpair", 4 }, { "send", 4 },
	{ "recv", 4 }, { "sendto", 6 }, { "recvfrom", 6 },
	{ "shutdown", 2 }, { "setsockopt", 5 }, { "getsockopt", 5 },
	{ "sendmsg", 3 }, { "recvmsg", 3 }, { "accept4", 4 },
	{ "recvmmsg", 5 }, { "sendmmsg", 4 },
};

/*
 * i386's old select (82) and old mmap (90), the calls its "select" and
 * "mmap" name, take one argument: the address of a block of the five or
 * six words that _newselect and mmap2 take as arguments.  strace reads
 * the block and shows its words as the arguments, select(4, 0x...,
 * NULL, NULL, 0x...), and the address alone where it cannot be read.
 * socketcall(CALL, ARGS) is shown as the call it makes, with the words
 * at ARGS, socket(AF_INET, SOCK_STREAM, IPPROTO_IP), as strace shows
 * it: *name becomes that call's.  The block's words into @block and how
 * many; 0 for any other call (and a socketcall with a CALL or ARGS the
 * kernel refuses, shown as it is), -1 for a block that cannot be read.
 */
static int old_block(const char **name, const struct syslet_event *ev,
		     unsigned long block[6])
{
	int n;

	if (systab_native_profile() == SYSTAB_X86_64 || !*name ||
	    ev->nargs < 1)
		return 0;
	if (!strcmp(*name, "socketcall")) {
		unsigned long call = ev->args[0];

		if (ev->nargs < 2 || call < 1 ||
		    call >= sizeof(socket_calls) / sizeof(socket_calls[0]))
			return 0;
		n = socket_calls[call].nargs;
		memset(block, 0, 6 * sizeof(*block));
		if (safe_read(block, ev->args[1], n * sizeof(*block)) < 0)
			return 0;
		*name = socket_calls[call].name;
		return n;
	}
	if (!strcmp(*name, "select"))
		n = 5;
	else if (!strcmp(*name, "mmap"))
		n = 6;
	else
		return 0;
	memset(block, 0, 6 * sizeof(*block));
	if (safe_read(block, ev->args[0], n * sizeof(*block)) < 0)
		return -1;
	return n;
}

int syslet_print_call(FILE *out, const struct syslet_event *ev,
		      enum syslet_print_part part)
{
	const char *name, *sig, *r;
	const unsigned long *args;
	unsigned long block[6];
	size_t siglen;
	int nargs, split, from = 0, to, old;

	if (!out || !api_sz_ok(ev, sizeof(*ev)) ||
	    (unsigned)part > SYSLET_PRINT_EXIT)
		return api_err(-EINVAL);
	name = event_call(ev);
	args = ev->args;
	nargs = ev->nargs < 6 ? (int)ev->nargs : 6;
	old = old_block(&name, ev, block);
	sig = callsig_of(name);
	if (old > 0) {
		args = block;
		nargs = old;
	} else if (old < 0) {
		sig = "p";
		nargs = 1;
	}
	siglen = sig ? strlen(sig) : 0;
	/* The first argument the call writes: shown once it returned. */
	split = to = nargs;
	r = sig ? strpbrk(sig, CALLSIG_OUT) : NULL;
	if (r && r - sig < nargs)
		split = (int)(r - sig);
	if (part == SYSLET_PRINT_ENTER)
		to = split;
	else if (part != SYSLET_PRINT_WHOLE)
		from = split;
	if (part == SYSLET_PRINT_EXIT)
		fprintf(out, "<... %s resumed>", name ? name : "syscall");
	else if (part == SYSLET_PRINT_CONT)
		;
	else if (name)
		fprintf(out, "%s(", name);
	else
		fprintf(out, "syscall(%ld%s", (long)ev->nr, to ? ", " : "");
	for (int i = from; i < to; i++) {
		if (i > from)
			fputs(", ", out);
		print_arg(out, name, (size_t)i < siglen ? sig[i] : 'n',
			  args, i, nargs, ev->ret);
	}
	if (part == SYSLET_PRINT_ENTER)
		/* strace's "read(3, ": what follows comes at the end. */
		fputs(to < nargs ? ", " : "", out);
	else
		fputc(')', out);
	return ferror(out) ? api_err(-EIO) : 0;
}

/*
 * fcntl's F_GETFL and F_GETFD results are flags, which strace shows in
 * hex with their names: 0x8802 (flags O_RDWR|O_NONBLOCK|O_LARGEFILE),
 * 0x1 (flags FD_CLOEXEC).  False for any other command or result.
 */
static bool print_fcntl_ret(FILE *out, const struct syslet_event *ev)
{
	int64_t vals[6] = { 0, F_SETFD };
	bool known[6] = { false, true };
	char names[128];

	if (ev->nargs < 2 || ev->ret < 0)
		return false;
	if (ev->args[1] == F_GETFL) {
		fprintf(out, "%#lx (flags ", (unsigned long)ev->ret);
		print_flags(out, (unsigned long)ev->ret);
		fputc(')', out);
		return true;
	}
	/* F_SETFD's argument names what F_GETFD returns. */
	if (ev->args[1] != F_GETFD ||
	    !sysconst_describe("fcntl", 2, ev->ret, vals, known, names,
			       sizeof(names)))
		return false;
	fprintf(out, "%#lx (flags %s)", (unsigned long)ev->ret, names);
	return true;
}

/*
 * poll's and ppoll's result as strace shows it, into @buf: 0 (Timeout),
 * or the records that got events, two at most, 1 ([{fd=3,
 * revents=POLLIN}]).  False, and the count alone, where a record cannot
 * be read or @buf is too short.
 */
static bool format_poll_ret(char *buf, size_t len,
			    const struct syslet_event *ev)
{
	struct { int fd; short events, revents; } p;
	unsigned long n = ev->args[1], i;
	size_t at;
	int shown = 0, k;
	char names[128];

	if (ev->nargs < 2 || ev->ret < 0)
		return false;
	if (ev->ret == 0) {
		snprintf(buf, len, "0 (Timeout)");
		return true;
	}
	k = snprintf(buf, len, "%ld ([", ev->ret);
	if (k < 0 || (size_t)k >= len || n > 1024)
		return false;
	at = (size_t)k;
	for (i = 0; i < n && shown < ev->ret; i++) {
		if (safe_read(&p, ev->args[0] + i * sizeof(p), sizeof(p)) !=
		    (ssize_t)sizeof(p))
			return false;
		if (!p.revents)
			continue;
		if (shown == 2) {
			k = snprintf(buf + at, len - at, ", ...");
			at += k > 0 && (size_t)k < len - at ? (size_t)k : 0;
			break;
		}
		if (!callsig_poll_events((unsigned short)p.revents, names,
					 sizeof(names)))
			return false;
		k = snprintf(buf + at, len - at, "%s{fd=%d, revents=%s}",
			     shown ? ", " : "", p.fd, names);
		if (k < 0 || (size_t)k >= len - at)
			return false;
		at += (size_t)k;
		shown++;
	}
	k = snprintf(buf + at, len - at, "])");
	return k > 0 && (size_t)k < len - at;
}

/*
 * select's and pselect6's result as strace shows it: "0 (Timeout)", or
 * "2 (in [0 3], out [4], left {tv_sec=0, tv_usec=999})", the sets and
 * the time left being what the call wrote.  False when any of it cannot
 * be read or does not fit.
 */
static bool format_select_ret(FILE *out, const struct syslet_event *ev,
			      bool pselect)
{
	static const char *const what[] = { "in", "out", "except" };
	unsigned long nfds = ev->args[0];
	unsigned char set[1024 / 8];
	struct kts ts;
	bool any = false;

	if (ev->nargs < 5 || ev->ret < 0 || nfds > 1024)
		return false;
	if (ev->ret == 0) {
		fputs("0 (Timeout)", out);
		return true;
	}
	fprintf(out, "%ld (", ev->ret);
	for (int k = 0; k < 3; k++) {
		bool first = true;

		if (!ev->args[1 + k])
			continue;
		if (safe_read(set, ev->args[1 + k], (nfds + 7) / 8) < 0)
			return false;
		for (unsigned long fd = 0; fd < nfds; fd++) {
			if (!(set[fd / 8] >> (fd % 8) & 1))
				continue;
			if (first)
				fprintf(out, "%s%s [%lu", any ? ", " : "",
					what[k], fd);
			else
				fprintf(out, " %lu", fd);
			first = false;
			any = true;
		}
		if (!first)
			fputc(']', out);
	}
	if (ev->args[4]) {
		if (safe_read(&ts, ev->args[4], sizeof(ts)) < 0)
			return false;
		fprintf(out, "%sleft {tv_sec=%lld, %s=%lld}", any ? ", " : "",
			(long long)ts.tv_sec, pselect ? "tv_nsec" : "tv_usec",
			(long long)ts.tv_nsec);
	}
	fputc(')', out);
	return true;
}

/* Calls that return an address, which strace shows in hex. */
static bool returns_address(const char *name)
{
	static const char *const calls[] = { "mmap", "mmap2", "mremap",
					     "brk", "shmat" };

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(name, calls[i]))
			return true;
	return false;
}

int syslet_print_result(FILE *out, const struct syslet_event *ev)
{
	const char *name, *err;
	char buf[512];
	long r;

	if (!out || !api_sz_ok(ev, sizeof(*ev)))
		return api_err(-EINVAL);
	r = ev->ret;
	name = event_call(ev);
	if (ev->end == SYSLET_END_UNFINISHED) {
		/* Not returned yet. */
		fputc('?', out);
	} else if (name && !strcmp(name, "umem_add")) {
		/* A value, never an error. */
		fprintf(out, "%ld", r);
	} else if (r < 0 && r > -4096) {
		err = errno_name((int)-r);
		if (err)
			fprintf(out, "%ld %s", r, err);
		else
			fprintf(out, "%ld", r);
	} else if (name && returns_address(name)) {
		fprintf(out, "%#lx", (unsigned long)r);
	} else if (name && (!strcmp(name, "fcntl") ||
			    !strcmp(name, "fcntl64")) &&
		   print_fcntl_ret(out, ev)) {
		;
	} else if (name && (!strcmp(name, "poll") || !strcmp(name, "ppoll")) &&
		   format_poll_ret(buf, sizeof(buf), ev)) {
		fputs(buf, out);
	} else if (name && (!strcmp(name, "select") ||
			    !strcmp(name, "_newselect") ||
			    !strcmp(name, "pselect6"))) {
		/* Printed to a buffer first: a set that cannot be read
		 * leaves the plain number. */
		FILE *m = fmemopen(buf, sizeof(buf), "w");
		struct syslet_event blk = { .sz = sizeof(blk), .ret = r };
		bool ok;

		/* The old select's arguments are its block's words. */
		if (old_block(&name, ev, blk.args) > 0) {
			blk.nargs = 5;
			ev = &blk;
		}
		ok = m && format_select_ret(m, ev, name[0] == 'p');

		if (m && (ferror(m) | fclose(m)))
			ok = false;
		if (ok)
			fputs(buf, out);
		else
			fprintf(out, "%ld", r);
	} else {
		fprintf(out, "%ld", r);
	}
	return ferror(out) ? api_err(-EIO) : 0;
}
