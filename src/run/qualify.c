/* qualify.c: strace's -e trace= sets and -e inject= rules, by call name, for syslet-run's --trace= and --inject and the shell's inject. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "qualify.h"
#include "common/quote.h"

/*
 * strace's classes, by name: what each call does is the same on every
 * architecture, so one list serves both profiles (names a profile lacks
 * are skipped).  Shorter than strace's own, which also covers calls the
 * atoms of a syslet are never expected to make.
 */
struct cls {
	const char	*name;
	const char	*const *calls;
};

#define CALLS(...) (const char *const[]){ __VA_ARGS__, NULL }

static const struct cls classes[] = {
	{ "file", CALLS("open", "openat", "openat2", "creat", "stat", "lstat",
			"stat64", "lstat64", "newfstatat", "fstatat64", "statx",
			"access", "faccessat", "faccessat2", "chdir", "chroot",
			"mkdir", "mkdirat", "rmdir", "unlink", "unlinkat",
			"rename", "renameat", "renameat2", "link", "linkat",
			"symlink", "symlinkat", "readlink", "readlinkat",
			"chmod", "fchmodat", "fchmodat2", "chown", "lchown",
			"chown32", "lchown32", "fchownat", "truncate",
			"truncate64", "utime", "utimes", "utimensat",
			"futimesat", "mknod", "mknodat", "statfs", "statfs64",
			"execve", "execveat", "mount", "umount", "umount2",
			"swapon", "swapoff", "setxattr", "lsetxattr",
			"getxattr", "lgetxattr", "listxattr", "llistxattr",
			"removexattr", "lremovexattr", "inotify_add_watch",
			"name_to_handle_at", "acct", "pivot_root", "quotactl",
			"uselib") },
	{ "desc", CALLS("read", "write", "close", "pread64", "pwrite64",
			"readv", "writev", "preadv", "pwritev", "preadv2",
			"pwritev2", "lseek", "_llseek", "dup", "dup2", "dup3",
			"fcntl", "fcntl64", "ioctl", "fstat", "fstat64",
			"fstatfs", "fstatfs64", "fsync", "fdatasync",
			"ftruncate", "ftruncate64", "fchdir", "fchmod",
			"fchown", "fchown32", "flock", "getdents",
			"getdents64", "readahead", "fadvise64", "fadvise64_64",
			"fallocate", "sendfile", "sendfile64", "splice", "tee",
			"vmsplice", "copy_file_range", "sync_file_range",
			"syncfs", "pipe", "pipe2", "poll", "ppoll", "select",
			"_newselect", "pselect6", "epoll_create",
			"epoll_create1", "epoll_ctl", "epoll_wait",
			"epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2",
			"signalfd", "signalfd4", "timerfd_create",
			"timerfd_settime", "timerfd_gettime", "inotify_init",
			"inotify_init1", "fanotify_init", "fanotify_mark",
			"memfd_create", "close_range", "open", "openat",
			"openat2", "creat", "mkdirat", "unlinkat", "renameat",
			"renameat2", "linkat", "symlinkat", "readlinkat",
			"fchmodat", "fchownat", "faccessat", "faccessat2",
			"newfstatat", "fstatat64", "statx", "utimensat",
			"futimesat", "mknodat", "name_to_handle_at",
			"open_by_handle_at", "fsetxattr", "fgetxattr",
			"flistxattr", "fremovexattr", "mmap", "mmap2",
			"execveat", "pidfd_open", "pidfd_getfd", "socket",
			"socketpair", "bind", "listen", "accept", "accept4",
			"connect", "getsockname", "getpeername", "sendto",
			"recvfrom", "sendmsg", "recvmsg", "sendmmsg",
			"recvmmsg", "shutdown", "setsockopt", "getsockopt") },
	{ "network", CALLS("socket", "socketpair", "bind", "listen", "accept",
			   "accept4", "connect", "getsockname", "getpeername",
			   "sendto", "recvfrom", "sendmsg", "recvmsg",
			   "sendmmsg", "recvmmsg", "shutdown", "setsockopt",
			   "getsockopt", "socketcall", "send", "recv") },
	{ "process", CALLS("fork", "vfork", "clone", "clone3", "execve",
			   "execveat", "exit", "exit_group", "wait4", "waitid",
			   "waitpid", "kill", "tkill", "tgkill",
			   "rt_sigqueueinfo", "rt_tgsigqueueinfo",
			   "pidfd_send_signal") },
	{ "signal", CALLS("kill", "tkill", "tgkill", "rt_sigaction",
			  "sigaction", "rt_sigprocmask", "sigprocmask",
			  "rt_sigpending", "sigpending", "rt_sigsuspend",
			  "sigsuspend", "rt_sigtimedwait", "rt_sigqueueinfo",
			  "rt_tgsigqueueinfo", "rt_sigreturn", "sigreturn",
			  "sigaltstack", "signal", "signalfd", "signalfd4",
			  "pause", "pidfd_send_signal", "sgetmask",
			  "ssetmask") },
	{ "memory", CALLS("mmap", "mmap2", "munmap", "mremap", "mprotect",
			  "pkey_mprotect", "madvise", "process_madvise",
			  "brk", "msync", "mlock", "mlock2", "munlock",
			  "mlockall", "munlockall", "mincore",
			  "remap_file_pages", "mbind", "set_mempolicy",
			  "get_mempolicy", "migrate_pages", "move_pages",
			  "shmat", "shmdt") },
	{ "ipc", CALLS("msgget", "msgsnd", "msgrcv", "msgctl", "semget",
		       "semop", "semctl", "semtimedop", "shmget", "shmat",
		       "shmctl", "shmdt", "ipc") },
	{ "pure", CALLS("getpid", "getppid", "gettid", "getuid", "geteuid",
			"getgid", "getegid", "getuid32", "geteuid32",
			"getgid32", "getegid32", "getpgrp") },
	{ "net", NULL },	/* strace's other name for %network */
};

static void msg(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void msg(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static long umem_nr(void)
{
	return syslet_sysno(SYSLET_CALL_UMEM_ADD);
}

/* A name's number as the atoms of syslet-run hold it; -1 if none. */
static long nr_of(const char *name)
{
	if (!strcmp(name, "umem_add"))
		return umem_nr();
	return syslet_syscall_number(name);
}

static unsigned long set_size(void)
{
	long n = syslet_syscall_count();
	long u = umem_nr();

	return (unsigned long)(u >= n ? u + 1 : n);
}

const char *srun_set_class(size_t i)
{
	return i < sizeof(classes) / sizeof(classes[0]) ? classes[i].name
							 : NULL;
}

static const struct cls *find_class(const char *name)
{
	if (!strcmp(name, "net"))
		name = "network";
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(classes[i].name, name) && classes[i].calls)
			return &classes[i];
	return NULL;
}

/* Add what @re matches; how many names it matched, -1 for a bad one. */
static int add_regex(unsigned char *bits, unsigned long n, const char *re,
		     char *err, size_t errlen)
{
	long cnt = syslet_syscall_count();
	regex_t rx;
	int e, hits = 0;

	e = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
	if (e) {
		char why[128];

		regerror(e, &rx, why, sizeof(why));
		msg(err, errlen, "bad regular expression %s: %s",
		    common_quote(re - 1, 1), why);
		return -1;
	}
	for (long i = 0; i <= cnt; i++) {
		const char *name = i < cnt ? syslet_syscall_name(i) : "umem_add";
		long nr = name ? nr_of(name) : -1;

		if (nr >= 0 && (unsigned long)nr < n &&
		    !regexec(&rx, name, 0, NULL, 0)) {
			bits[nr] = 1;
			hits++;
		}
	}
	regfree(&rx);
	return hits;
}

/* Add one VALUE of a set. */
static int add_value(unsigned char *bits, unsigned long n, const char *v,
		     char *err, size_t errlen)
{
	bool quiet = *v == '?';
	const struct cls *c;
	long nr;

	if (quiet)
		v++;
	if (!*v) {
		msg(err, errlen, "an empty name in the set");
		return -1;
	}
	if (!strcmp(v, "all")) {
		memset(bits, 1, n);
		return 0;
	}
	if (!strcmp(v, "none"))
		return 0;
	if (*v == '/') {
		int hits = add_regex(bits, n, v + 1, err, errlen);

		if (hits < 0)
			return -1;
		if (!hits && !quiet) {
			msg(err, errlen, "no system call matches %s",
			    common_quote(v, 1));
			return -1;
		}
		return 0;
	}
	if (*v == '%') {
		c = find_class(v + 1);
		if (!c) {
			msg(err, errlen,
			    "unknown class %s (classes: %%file, %%desc, "
			    "%%network, %%process, %%signal, %%memory, %%ipc, "
			    "%%pure)", common_quote(v, 1));
			return -1;
		}
		for (const char *const *p = c->calls; *p; p++) {
			nr = nr_of(*p);
			if (nr >= 0 && (unsigned long)nr < n)
				bits[nr] = 1;
		}
		return 0;
	}
	nr = nr_of(v);
	if (nr < 0 || (unsigned long)nr >= n) {
		const char *s;

		if (quiet)
			return 0;
		s = syslet_syscall_suggest(v);
		if (s)
			msg(err, errlen,
			    "unknown system call %s; did you mean '%s'?",
			    common_quote(v, 1), s);
		else
			msg(err, errlen, "unknown system call %s",
			    common_quote(v, 1));
		return -1;
	}
	bits[nr] = 1;
	return 0;
}

int srun_set_parse(struct srun_set *set, const char *spec, char *err,
		   size_t errlen)
{
	unsigned long n = set_size();
	unsigned char *bits = calloc(n, 1);
	bool neg = *spec == '!';
	char *copy, *tok, *save = NULL;

	copy = strdup(neg ? spec + 1 : spec);
	if (!bits || !copy) {
		free(bits);
		free(copy);
		msg(err, errlen, "out of memory");
		return -1;
	}
	if (!*copy) {
		msg(err, errlen, "an empty set (none is the set of no call)");
		goto bad;
	}
	/* Empty values between commas are errors, not skipped. */
	if (copy[0] == ',' || copy[strlen(copy) - 1] == ',' ||
	    strstr(copy, ",,")) {
		msg(err, errlen, "an empty name in the set");
		goto bad;
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (add_value(bits, n, tok, err, errlen))
			goto bad;
	if (neg)
		for (unsigned long i = 0; i < n; i++)
			bits[i] = !bits[i];
	free(copy);
	free(set->bits);
	set->bits = bits;
	set->n = n;
	return 0;
bad:
	free(copy);
	free(bits);
	return -1;
}

bool srun_set_has(const struct srun_set *set, unsigned long nr)
{
	if (!set->bits)
		return true;
	return nr < set->n && set->bits[nr];
}

void srun_set_free(struct srun_set *set)
{
	free(set->bits);
	set->bits = NULL;
	set->n = 0;
}

/* ---- --inject --------------------------------------------------------- */

static bool parse_ulong(const char **s, unsigned long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return false;
	errno = 0;
	*v = strtoul(*s, &end, 10);
	if (errno)
		return false;
	*s = end;
	return true;
}

/* first[..last][+[step]] */
static int parse_when(const char *w, struct syslet_inject *r, char *err,
		      size_t errlen)
{
	const char *s = w;
	bool range = false;

	r->last = 0;
	r->step = 1;
	errno = 0;
	if (!parse_ulong(&s, &r->first) || !r->first)
		goto bad;
	if (s[0] == '.' && s[1] == '.') {
		s += 2;
		range = true;
		if (!parse_ulong(&s, &r->last) || r->last < r->first)
			goto bad;
	}
	if (*s == '+') {
		s++;
		if (*s && (!parse_ulong(&s, &r->step) || !r->step))
			goto bad;
	} else if (!range) {
		r->last = r->first;	/* that run only */
	}
	if (*s)
		goto bad;
	return 0;
bad:
	/* A count no word holds: said as the options say it. */
	if (errno == ERANGE)
		msg(err, errlen, "when=%s: a count is out of range: at most "
		    "%lu", common_quote(w, 0), ULONG_MAX);
	else
		msg(err, errlen, "when=%s: expected FIRST[..LAST][+[STEP]], "
		    "FIRST and STEP from 1, LAST not below FIRST",
		    common_quote(w, 0));
	return -1;
}

static int parse_errno(const char *v, long *ret, char *err, size_t errlen)
{
	int e = syslet_errno_number(v);

	if (e < 0) {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(v, &end, 10);
		if (*v >= '0' && *v <= '9' && !*end && !errno && n >= 1 &&
		    n <= 4095)
			e = (int)n;
	}
	if (e <= 0) {
		msg(err, errlen,
		    "error=%s: expected an errno name (ENOENT) or a number "
		    "from 1 to 4095", common_quote(v, 0));
		return -1;
	}
	*ret = -(long)e;
	return 0;
}

static int parse_retval(const char *v, long *ret, char *err, size_t errlen)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 0);
	if (*v && *v != '-' && !*end && errno == ERANGE) {
		msg(err, errlen, "retval=%s is out of range: at most %ld",
		    common_quote(v, 0), LONG_MAX);
		return -1;
	}
	if (!*v || *end || errno || n < 0) {
		msg(err, errlen,
		    "retval=%s: expected a number from 0 (a failure is "
		    "error=)", common_quote(v, 0));
		return -1;
	}
	*ret = n;
	return 0;
}

static void add_rule(struct srun_inject *inj, struct syslet_inject *r)
{
	for (size_t i = 0; i < inj->n; i++)
		if (inj->rules[i].nr == r->nr) {
			inj->rules[i] = *r;
			return;
		}
	inj->rules[inj->n++] = *r;
}

int srun_inject_parse(struct srun_inject *inj, const char *spec, char *err,
		      size_t errlen)
{
	struct srun_set set = { NULL, 0 };
	struct syslet_inject r;
	char *copy = strdup(spec), *opt, *save = NULL, *colon;
	bool have_ret = false;
	long umem = umem_nr();
	size_t want = 0;
	struct syslet_inject *grown;
	int status = -1;

	if (!copy) {
		msg(err, errlen, "out of memory");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.sz = sizeof(r);
	r.first = r.step = 1;
	colon = strchr(copy, ':');
	if (!colon) {
		msg(err, errlen,
		    "%s: expected SET:error=ERRNO or SET:retval=N",
		    common_quote(spec, 1));
		goto out;
	}
	*colon = '\0';
	if (srun_set_parse(&set, copy, err, errlen))
		goto out;
	/* Fields one by one, not strtok_r(), which would pass over an
	 * empty one ("write:error=EIO:", "write::error=EIO") as strace does;
	 * refused as an empty name in a --trace set is. */
	for (opt = colon + 1; opt; opt = save) {
		char *eq;
		const char *v;

		save = strchr(opt, ':');
		if (save)
			*save++ = '\0';
		if (!*opt) {
			msg(err, errlen, "an empty field (a ':' at the end, "
			    "or two together)");
			goto out;
		}
		eq = strchr(opt, '=');
		v = eq ? eq + 1 : "";
		if (eq)
			*eq = '\0';
		if (!strcmp(opt, "error") || !strcmp(opt, "retval")) {
			if (have_ret) {
				msg(err, errlen,
				    "one error= or retval= per --inject");
				goto out;
			}
			have_ret = true;
			if (*opt == 'e' ? parse_errno(v, &r.ret, err, errlen) :
			    parse_retval(v, &r.ret, err, errlen))
				goto out;
		} else if (!strcmp(opt, "when")) {
			/* As strace: the last when= counts. */
			if (parse_when(v, &r, err, errlen))
				goto out;
		} else if (!strcmp(opt, "signal") || !strcmp(opt, "syscall") ||
			   !strcmp(opt, "delay_enter") ||
			   !strcmp(opt, "delay_exit") ||
			   !strcmp(opt, "poke_enter") ||
			   !strcmp(opt, "poke_exit")) {
			msg(err, errlen,
			    "%s= is strace's; syslet-run injects error=, "
			    "retval= and when= only", opt);
			goto out;
		} else {
			msg(err, errlen,
			    "unknown %s (expected error=, retval= or when=)",
			    common_quote(opt, 1));
			goto out;
		}
	}
	if (!have_ret) {
		msg(err, errlen, "%s: error= or retval= is needed",
		    common_quote(spec, 1));
		goto out;
	}
	/* Named alone, umem_add is refused; in a wider set, left out. */
	if (umem >= 0 && srun_set_has(&set, (unsigned long)umem)) {
		if (!strcmp(copy, "umem_add")) {
			msg(err, errlen,
			    "umem_add is arithmetic, not a system call: it "
			    "never fails");
			goto out;
		}
		set.bits[umem] = 0;
	}
	for (unsigned long nr = 0; nr < set.n; nr++)
		want += set.bits[nr];
	if (!want) {
		msg(err, errlen, "%s names no system call",
		    common_quote(copy, 1));
		goto out;
	}
	grown = realloc(inj->rules, (inj->n + want) * sizeof(*grown));
	if (!grown) {
		msg(err, errlen, "out of memory");
		goto out;
	}
	inj->rules = grown;
	for (unsigned long nr = 0; nr < set.n; nr++)
		if (set.bits[nr]) {
			r.nr = nr;
			add_rule(inj, &r);
		}
	status = 0;
out:
	srun_set_free(&set);
	free(copy);
	return status;
}

int srun_inject_apply(const struct srun_inject *inj, char *err,
		      size_t errlen)
{
	int e = syslet_set_inject(inj->rules, inj->n);

	if (e == -ENOTSUP) {
		msg(err, errlen,
		    "fault injection needs a backend that runs the atoms in "
		    "user space (emul, uring); %s runs them in the kernel",
		    syslet_backend_name());
		return -1;
	}
	if (e) {
		msg(err, errlen, "fault injection: %s", strerror(-e));
		return -1;
	}
	return 0;
}

void srun_inject_clear(struct srun_inject *inj)
{
	free(inj->rules);
	inj->rules = NULL;
	inj->n = 0;
}

void srun_inject_format(char *buf, size_t len, const struct syslet_inject *r)
{
	const char *name = r->nr <= LONG_MAX ?
			   syslet_syscall_name((long)r->nr) :
			   NULL;
	const char *en = r->ret < 0 && r->ret >= -4095 ?
			 syslet_errno_name((int)-r->ret) : NULL;
	char what[48], when[80] = "";
	int k;

	if (en)
		snprintf(what, sizeof(what), "error=%s", en);
	else if (r->ret < 0)
		snprintf(what, sizeof(what), "error=%ld", -r->ret);
	else
		snprintf(what, sizeof(what), "retval=%ld", r->ret);
	if (r->first == r->last)
		snprintf(when, sizeof(when), ":when=%lu", r->first);
	else if (r->first != 1 || r->last || r->step != 1) {
		k = snprintf(when, sizeof(when), ":when=%lu", r->first);
		if (r->last)
			k += snprintf(when + k, sizeof(when) - (size_t)k,
				      "..%lu", r->last);
		if (!r->last || r->step != 1)
			k += snprintf(when + k, sizeof(when) - (size_t)k, "+");
		if (r->step != 1)
			snprintf(when + k, sizeof(when) - (size_t)k, "%lu",
				 r->step);
	}
	if (name)
		snprintf(buf, len, "%s:%s%s", name, what, when);
	else
		snprintf(buf, len, "syscall_%lu:%s%s", r->nr, what, when);
}
