/* lower-call.c: a system call statement -> one atom: name lookup, deny list, argument count and cells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/consts.h"
#include "common/systab.h"
#include "compiler/lower.h"
#include "syslet.h"

/* Argument counts of common calls, so a missing argument is caught at
 * compile time instead of reading as 0 in the kernel. */
static const struct {
	const char	*name;
	unsigned char	min, max;
} arity[] = {
	{ "read", 3, 3 }, { "write", 3, 3 }, { "open", 2, 3 },
	{ "openat", 3, 4 }, { "close", 1, 1 }, { "creat", 2, 2 },
	{ "lseek", 3, 3 }, { "pread64", 4, 4 }, { "pwrite64", 4, 4 },
	{ "readv", 3, 3 }, { "writev", 3, 3 }, { "dup", 1, 1 },
	{ "dup2", 2, 2 }, { "dup3", 3, 3 }, { "pipe", 1, 1 },
	{ "pipe2", 2, 2 }, { "socket", 3, 3 }, { "bind", 3, 3 },
	{ "listen", 2, 2 }, { "accept", 3, 3 }, { "accept4", 4, 4 },
	{ "connect", 3, 3 }, { "setsockopt", 5, 5 }, { "getsockopt", 5, 5 },
	{ "sendto", 6, 6 }, { "recvfrom", 6, 6 }, { "shutdown", 2, 2 },
	{ "getpid", 0, 0 }, { "getppid", 0, 0 }, { "gettid", 0, 0 },
	{ "getuid", 0, 0 }, { "sched_yield", 0, 0 }, { "nanosleep", 2, 2 },
	{ "kill", 2, 2 }, { "unlink", 1, 1 }, { "unlinkat", 3, 3 },
	{ "mkdir", 2, 2 }, { "rmdir", 1, 1 }, { "rename", 2, 2 },
	{ "stat", 2, 2 }, { "fstat", 2, 2 }, { "lstat", 2, 2 },
	{ "fsync", 1, 1 }, { "fdatasync", 1, 1 }, { "ftruncate", 2, 2 },
	{ "truncate", 2, 2 }, { "chdir", 1, 1 }, { "fchdir", 1, 1 },
	{ "getcwd", 2, 2 }, { "sendfile", 4, 4 }, { "sendfile64", 4, 4 },
	{ "splice", 6, 6 }, { "poll", 3, 3 }, { "fcntl", 2, 3 },
	{ "ioctl", 2, 3 }, { "munmap", 2, 2 }, { "umem_add", 2, 2 },
	{ "access", 2, 2 }, { "chmod", 2, 2 }, { "fchmod", 2, 2 },
	{ "symlink", 2, 2 }, { "link", 2, 2 }, { "readlink", 3, 3 },
	{ "alarm", 1, 1 }, { "pause", 0, 0 }, { "time", 1, 1 },
	{ "clock_gettime", 2, 2 }, { "gettimeofday", 2, 2 },
	{ "epoll_create1", 1, 1 }, { "epoll_ctl", 4, 4 },
	{ "epoll_wait", 4, 4 }, { "eventfd2", 2, 2 }, { "sync", 0, 0 },
	{ "syncfs", 1, 1 }, { "getdents64", 3, 3 }, { "uname", 1, 1 },
};

/*
 * Calls that take a buffer and its length: the kernel reads or writes
 * len (times unit, for arrays of records) bytes at buf.  One entry per
 * call; argument positions count from 0, after syscall()'s number.
 */
static const struct {
	const char	*name;
	unsigned char	buf, len;
	unsigned char	unit;		/* bytes per counted element */
	bool		fills;		/* the kernel writes the buffer */
} sized[] = {
	{ "read", 1, 2, 1, true },		{ "write", 1, 2, 1, false },
	{ "pread64", 1, 2, 1, true },		{ "pwrite64", 1, 2, 1, false },
	{ "recvfrom", 1, 2, 1, true },		{ "sendto", 1, 2, 1, false },
	{ "recv", 1, 2, 1, true },		{ "send", 1, 2, 1, false },
	{ "getdents64", 1, 2, 1, true },	{ "getdents", 1, 2, 1, true },
	{ "readlink", 1, 2, 1, true },		{ "readlinkat", 2, 3, 1, true },
	{ "getrandom", 0, 1, 1, true },		{ "getcwd", 0, 1, 1, true },
	{ "bind", 1, 2, 1, false },		{ "connect", 1, 2, 1, false },
	{ "setsockopt", 3, 4, 1, false },	{ "syslog", 1, 2, 1, true },
	{ "getxattr", 2, 3, 1, true },		{ "lgetxattr", 2, 3, 1, true },
	{ "fgetxattr", 2, 3, 1, true },		{ "setxattr", 2, 3, 1, false },
	{ "lsetxattr", 2, 3, 1, false },	{ "fsetxattr", 2, 3, 1, false },
	{ "listxattr", 1, 2, 1, true },		{ "llistxattr", 1, 2, 1, true },
	{ "flistxattr", 1, 2, 1, true },	{ "sethostname", 0, 1, 1, false },
	{ "setdomainname", 0, 1, 1, false },	{ "mq_timedsend", 1, 2, 1, false },
	{ "mq_timedreceive", 1, 2, 1, true },
	{ "sched_getaffinity", 2, 1, 1, true },
	{ "sched_setaffinity", 2, 1, 1, false },
	/* struct pollfd: 8 bytes; struct epoll_event: 12 on x86 (packed). */
	{ "poll", 0, 1, 8, true },		{ "ppoll", 0, 1, 8, true },
	{ "epoll_wait", 1, 2, 12, true },	{ "epoll_pwait", 1, 2, 12, true },
	{ "epoll_pwait2", 1, 2, 12, true },
};

/*
 * What calls write through a pointer argument, when its size is fixed:
 * bytes on x86_64 and on i386 (both i386 profiles), and the size of one
 * element when the output is an array (pipe's two ints).  An output that
 * depends on another argument (read's buffer and count) is in sized[],
 * or here with no size (select's descriptor sets, nfds bits long), for
 * the read-only check alone: data and strings would have the call fail
 * with EFAULT when it ran, after it waited.  A call may write through
 * more than one argument, an entry each.
 */
static const struct {
	const char	*name;
	unsigned char	arg;
	unsigned short	size64, size32;
	unsigned char	elem;
	const char	*what;
} outputs[] = {
	{ "pipe", 0, 8, 8, 4, "two ints: the read end, then the write end" },
	{ "pipe2", 0, 8, 8, 4, "two ints: the read end, then the write end" },
	{ "socketpair", 3, 8, 8, 4, "two ints, one per end" },
	{ "clock_gettime", 1, 16, 8, 0, "a struct timespec" },
	{ "clock_getres", 1, 16, 8, 0, "a struct timespec" },
	{ "nanosleep", 1, 16, 8, 0, "a struct timespec" },
	{ "gettimeofday", 0, 16, 8, 0, "a struct timeval" },
	{ "stat", 1, 144, 64, 0, "a struct stat" },
	{ "fstat", 1, 144, 64, 0, "a struct stat" },
	{ "lstat", 1, 144, 64, 0, "a struct stat" },
	{ "newfstatat", 2, 144, 144, 0, "a struct stat" },
	{ "stat64", 1, 96, 96, 0, "a struct stat64" },
	{ "fstat64", 1, 96, 96, 0, "a struct stat64" },
	{ "lstat64", 1, 96, 96, 0, "a struct stat64" },
	{ "fstatat64", 2, 96, 96, 0, "a struct stat64" },
	{ "statx", 4, 256, 256, 0, "a struct statx" },
	{ "statfs", 1, 120, 64, 0, "a struct statfs" },
	{ "fstatfs", 1, 120, 64, 0, "a struct statfs" },
	{ "uname", 0, 390, 390, 0, "a struct utsname" },
	{ "sysinfo", 0, 112, 64, 0, "a struct sysinfo" },
	{ "times", 0, 32, 16, 0, "a struct tms" },
	{ "getrlimit", 1, 16, 8, 0, "a struct rlimit" },
	{ "prlimit64", 3, 16, 16, 0, "a struct rlimit64" },
	{ "getrusage", 1, 144, 72, 0, "a struct rusage" },
	{ "wait4", 1, 4, 4, 0, "an int, the child's status" },
	{ "wait4", 3, 144, 72, 0, "a struct rusage" },
	{ "waitid", 2, 128, 128, 0, "a siginfo_t" },
	{ "waitid", 4, 144, 72, 0, "a struct rusage" },
	{ "time", 0, 8, 4, 0, "a time_t" },
	{ "clock_nanosleep", 3, 16, 8, 0, "a struct timespec" },
	{ "sched_rr_get_interval", 1, 16, 8, 0, "a struct timespec" },
	{ "sched_getparam", 1, 4, 4, 0, "a struct sched_param" },
	{ "getitimer", 1, 32, 16, 0, "a struct itimerval" },
	{ "setitimer", 2, 32, 16, 0, "a struct itimerval, the old one" },
	{ "timer_gettime", 1, 32, 16, 0, "a struct itimerspec" },
	{ "timer_settime", 3, 32, 16, 0, "a struct itimerspec, the old one" },
	{ "timerfd_gettime", 1, 32, 16, 0, "a struct itimerspec" },
	{ "timerfd_settime", 3, 32, 16, 0,
	  "a struct itimerspec, the old one" },
	{ "rt_sigprocmask", 2, 8, 8, 0, "a signal set, the old mask" },
	{ "rt_sigpending", 0, 8, 8, 0, "a signal set" },
	{ "rt_sigtimedwait", 1, 128, 128, 0, "a siginfo_t" },
	{ "sigaltstack", 1, 24, 12, 0, "a stack_t, the old stack" },
	{ "getcpu", 0, 4, 4, 0, "an unsigned int, the CPU" },
	{ "getcpu", 1, 4, 4, 0, "an unsigned int, the node" },
	{ "recvmsg", 1, 56, 28, 0,
	  "a struct msghdr, whose lengths and flags it rewrites" },
	{ "getsockopt", 4, 4, 4, 0,
	  "the option's length, which it reads and rewrites" },
	/* No fixed size: the read-only check alone. */
	{ "select", 1, 0, 0, 0, "a descriptor set, those ready to read" },
	{ "select", 2, 0, 0, 0, "a descriptor set, those ready to write" },
	{ "select", 3, 0, 0, 0, "a descriptor set, those with exceptions" },
	{ "_newselect", 1, 0, 0, 0, "a descriptor set, those ready to read" },
	{ "_newselect", 2, 0, 0, 0, "a descriptor set, those ready to write" },
	{ "_newselect", 3, 0, 0, 0,
	  "a descriptor set, those with exceptions" },
	{ "pselect6", 1, 0, 0, 0, "a descriptor set, those ready to read" },
	{ "pselect6", 2, 0, 0, 0, "a descriptor set, those ready to write" },
	{ "pselect6", 3, 0, 0, 0, "a descriptor set, those with exceptions" },
	{ "getsockopt", 3, 0, 0, 0, "the option's value" },
	{ "getgroups", 1, 0, 0, 0, "an array of group IDs" },
};

static const char *const ordinal[] = {
	"first", "second", "third", "fourth", "fifth", "sixth",
};

/*
 * The argument a call writes a fixed size through: a one-word cell
 * (&var) that gets more than one word, or more than one value, is a
 * warning (pipe(&v) packs both ends into v on x86_64, and on i386 the
 * write end lands in the next cell); a buffer or data with less room
 * than the call writes is an error (memory after it is overwritten), so
 * is data, which is read-only.
 */
static void check_output_arg(struct lower *L, const char *call, size_t k,
			     const struct ast_expr *args)
{
	const struct ast_expr *x = args, *arg;
	unsigned int size, i;
	struct lower_sym *s;
	int64_t off = 0;

	for (i = 0; x && i < outputs[k].arg; i++)
		x = x->next;
	if (!x)
		return;
	arg = x;
	size = L->word == 8 ? outputs[k].size64 : outputs[k].size32;
	if (x->kind == AST_STR) {
		lower_error(L, arg->loc, "%s writes through its %s argument "
			    "(%s), into a string, which is read-only (and "
			    "shared by every use of the same text): declare "
			    "a buffer", call, ordinal[outputs[k].arg],
			    outputs[k].what);
		return;
	}
	if (x->kind == AST_ADDR && !x->l) {
		s = lower_lookup(L, x->name, x->loc);
		if (s)
			s->used--;
		if (!s || (s->kind != LSYM_VAR && s->kind != LSYM_PARAM))
			goto object;
		if (size && (size > L->word ||
			     (outputs[k].elem && size / outputs[k].elem > 1)))
			lower_warn(L, SYSLETC_W_CALL_OUTPUT, x->loc, "%s writes "
				   "%u bytes through its %s argument (%s), but "
				   "'&%s' is one %u-byte cell%s", call, size,
				   ordinal[outputs[k].arg], outputs[k].what,
				   x->name, L->word, outputs[k].elem ?
				   "; declare 'u32 fds[2];' and pass fds" :
				   "; pass a buffer that size");
		return;
	}
object:
	/* A buffer or data, maybe + k, or &name[i]. */
	if (x->kind == AST_BINARY && (x->op == '+' || x->op == '-') &&
	    x->l->kind == AST_NAME && lower_eval(L, x->r, &off) == 1) {
		if (x->op == '-')
			off = -off;
		x = x->l;
	} else if (x->kind == AST_ADDR && x->l) {
		if (lower_eval(L, x->l, &off) != 1)
			return;
	} else if (x->kind != AST_NAME && x->kind != AST_ADDR) {
		return;
	}
	s = lower_lookup(L, x->name, x->loc);
	if (!s)
		return;
	s->used--;
	if ((s->kind != LSYM_BUFFER && s->kind != LSYM_DATA) ||
	    s->state != LEVAL_DONE)
		return;
	if (x->kind == AST_ADDR && x->l)
		off *= s->elem;
	if (s->kind == LSYM_DATA) {
		lower_error(L, arg->loc, "%s writes through its %s argument "
			    "(%s), into data '%s', which is read-only (declare "
			    "a buffer)", call, ordinal[outputs[k].arg],
			    outputs[k].what, s->name);
		return;
	}
	if (off < 0 || (uint64_t)off > s->size)
		return;		/* reported as the operand */
	if (!size)
		return;
	if (s->size - (uint64_t)off < size) {
		lower_error(L, arg->loc, "%s writes %u bytes through its %s "
			    "argument (%s), but '%s' has %llu byte%s there: "
			    "the rest would overwrite what follows it", call,
			    size, ordinal[outputs[k].arg], outputs[k].what,
			    s->name,
			    (unsigned long long)(s->size - (uint64_t)off),
			    s->size - (uint64_t)off == 1 ? "" : "s");
		return;
	}
	if (outputs[k].elem && s->elem != 1 && s->elem != outputs[k].elem)
		lower_warn(L, SYSLETC_W_CALL_OUTPUT, arg->loc, "%s writes "
			   "%u-byte ints, but '%s' has %u-byte elements: %s[1] "
			   "would not hold the second (declare 'u32 %s[2];')",
			   call, outputs[k].elem, s->name, s->elem, s->name,
			   s->name);
}

static void check_output(struct lower *L, const char *call,
			 const struct ast_expr *args)
{
	for (size_t k = 0; k < sizeof(outputs) / sizeof(outputs[0]); k++)
		if (!strcmp(outputs[k].name, call))
			check_output_arg(L, call, k, args);
}

/*
 * What calls read through a pointer argument, when its size is fixed:
 * bytes on x86_64 and on i386.  Where the two differ (a struct timespec
 * is two 8-byte words on x86_64, two 4-byte ones on i386), data written
 * for one word size is read wrongly on the other: u64(0), u64(100000000)
 * is 0 s and 0 ns to an i386 nanosleep().
 */
static const struct {
	const char	*name;
	unsigned char	arg;
	unsigned short	size64, size32;
	const char	*what;
} inputs[] = {
	{ "nanosleep", 0, 16, 8, "a struct timespec" },
	{ "clock_nanosleep", 2, 16, 8, "a struct timespec" },
	{ "clock_settime", 1, 16, 8, "a struct timespec" },
	{ "ppoll", 2, 16, 8, "a struct timespec" },
	{ "pselect6", 4, 16, 8, "a struct timespec" },
	{ "select", 4, 16, 8, "a struct timeval" },
	{ "_newselect", 4, 8, 8, "a struct timeval" },
	{ "settimeofday", 0, 16, 8, "a struct timeval" },
	{ "rt_sigtimedwait", 2, 16, 8, "a struct timespec" },
	{ "utimensat", 2, 32, 16,
	  "two struct timespec, the access and modification times" },
	{ "futimesat", 2, 32, 16, "two struct timeval" },
	{ "utimes", 1, 32, 16, "two struct timeval" },
	{ "timerfd_settime", 2, 32, 16, "a struct itimerspec" },
	{ "timer_settime", 2, 32, 16, "a struct itimerspec" },
	{ "setitimer", 1, 32, 16, "a struct itimerval" },
	{ "setrlimit", 1, 16, 8, "a struct rlimit" },
	{ "prlimit64", 2, 16, 16, "a struct rlimit64" },
	{ "epoll_ctl", 3, 12, 12, "a struct epoll_event" },
};

/*
 * A buffer or data, maybe + k, that a call reads a fixed-size struct
 * from: fewer bytes than that is an error (the kernel reads what follows
 * the object), as a constant length past a buffer is; data of more bytes,
 * on a profile where the struct is smaller than on the other, was most
 * likely laid out for the other word size: a warning.
 */
static void check_input_arg(struct lower *L, const char *call, size_t k,
			    const struct ast_expr *args)
{
	const struct ast_expr *x = args, *arg;
	unsigned int size, other;
	struct lower_sym *s;
	int64_t off = 0;

	for (unsigned int i = 0; x && i < inputs[k].arg; i++)
		x = x->next;
	if (!x)
		return;
	arg = x;
	size = L->word == 8 ? inputs[k].size64 : inputs[k].size32;
	other = L->word == 8 ? inputs[k].size32 : inputs[k].size64;
	if (x->kind == AST_BINARY && x->op == '+' && x->l->kind == AST_NAME &&
	    lower_eval(L, x->r, &off) == 1)
		x = x->l;
	else if (x->kind != AST_NAME)
		return;
	s = lower_lookup(L, x->name, x->loc);
	if (!s)
		return;
	s->used--;
	if ((s->kind != LSYM_BUFFER && s->kind != LSYM_DATA) ||
	    s->state != LEVAL_DONE || off < 0 || (uint64_t)off > s->size)
		return;
	if (s->size - (uint64_t)off < size) {
		lower_error(L, arg->loc, "%s reads %u bytes through its %s "
			    "argument (%s on %s), but '%s' has %llu byte%s "
			    "there: the kernel would read what follows it",
			    call, size, ordinal[inputs[k].arg], inputs[k].what,
			    L->word == 8 ? "x86_64" : "i386", s->name,
			    (unsigned long long)(s->size - (uint64_t)off),
			    s->size - (uint64_t)off == 1 ? "" : "s");
		return;
	}
	if (s->kind == LSYM_DATA && other > size &&
	    s->size - (uint64_t)off >= other)
		lower_warn(L, SYSLETC_W_CALL_INPUT, arg->loc, "%s reads %u "
			   "bytes through its %s argument (%s on %s), but "
			   "data '%s' has %llu there, the size on %s: only "
			   "the first %u are read (write its items as word(), "
			   "the word of each profile)", call, size,
			   ordinal[inputs[k].arg], inputs[k].what,
			   L->word == 8 ? "x86_64" : "i386", s->name,
			   (unsigned long long)(s->size - (uint64_t)off),
			   L->word == 8 ? "i386" : "x86_64", size);
}

static void check_input(struct lower *L, const char *call,
			const struct ast_expr *args)
{
	for (size_t k = 0; k < sizeof(inputs) / sizeof(inputs[0]); k++)
		if (!strcmp(inputs[k].name, call))
			check_input_arg(L, call, k, args);
}

/*
 * An address where the call takes flags or a number of a known set
 * (open(path, "r"), as fopen() would have it): the kernel would read the
 * address as the flags.  fcntl's and setsockopt's arguments named by
 * the one before them may be pointers, and are left alone.
 */
static void check_flags(struct lower *L, const char *call,
			const struct ast_expr *args)
{
	const struct ast_expr *x = args;
	struct lower_sym *s;
	enum sysconst_set set;
	const char *ex;

	for (unsigned int i = 0; x && i < 6; i++, x = x->next) {
		set = sysconst_arg_set(call, i);
		if (set == SC_NONE || set == SC_FCNTL_ARG ||
		    set == SC_SOCKOPT)
			continue;
		if (x->kind == AST_NAME) {
			s = lower_lookup(L, x->name, x->loc);
			if (s)
				s->used--;
			if (!s || (s->kind != LSYM_BUFFER &&
				   s->kind != LSYM_DATA))
				continue;
		} else if (x->kind != AST_STR) {
			continue;
		}
		ex = set == SC_MODE ? "0644" : sysconst_first(set);
		lower_error(L, x->loc, "'%s' takes a number as its %s argument"
			    "%s%s%s, not an address: the kernel would read the "
			    "address as that number", call, ordinal[i],
			    ex ? " (" : "", ex ? ex : "", ex ? ", ...)" : "");
	}
}

/* Why a denied call cannot run inside an atom. */
static const char *deny_reason(const char *name)
{
	if (!strcmp(name, "fork") || !strcmp(name, "vfork") ||
	    !strncmp(name, "clone", 5))
		return "it creates a process, which needs the user registers "
		       "an atom does not have";
	if (!strncmp(name, "execve", 6))
		return "it replaces the program the syslet lives in";
	if (!strcmp(name, "exit") || !strcmp(name, "exit_group"))
		return "it ends the process; use 'stop' to end the syslet";
	if (strstr(name, "sigreturn"))
		return "it only makes sense when returning from a signal handler";
	if (!strncmp(name, "async_", 6))
		return "syslets cannot start, wait for or register other "
		       "syslets from inside an atom (the kernel would recurse)";
	if (!strcmp(name, "arch_prctl") || !strcmp(name, "set_thread_area") ||
	    !strncmp(name, "vm86", 4))
		return "it changes the thread pointer or machine state the "
		       "runtime itself depends on";
	if (!strcmp(name, "sigaltstack"))
		return "it changes the stack the runtime's fault handling "
		       "runs on, of a thread that is not the caller's once "
		       "the syslet went async";
	if (!strcmp(name, "ioperm") || !strcmp(name, "iopl"))
		return "I/O port permissions belong to one thread, and "
		       "once the syslet went async that is no longer the "
		       "caller's thread";
	if (!strcmp(name, "close_range"))
		return "CLOSE_RANGE_UNSHARE gives one thread a descriptor "
		       "table of its own, as unshare does, and once the "
		       "syslet went async that is no longer the caller's "
		       "thread";
	if (!strcmp(name, "prctl"))
		return "this operation changes the security state of one "
		       "thread (a seccomp filter, no_new_privs, capabilities, "
		       "securebits), and once the syslet went async that is "
		       "no longer the caller's thread";
	return "it changes state of one thread (credentials, filters, "
	       "namespaces, registrations), and once the syslet went async "
	       "that is no longer the caller's thread";
}

static bool is_data_ctor(const char *name)
{
	const struct sysletc_builtin *b = sysletc_builtin_find(name);

	return b && b->kind == SYSLETC_B_DATA;
}

/*
 * On i386 two names are the old calls that take their arguments in a
 * struct, one pointer in all (old_select, old_mmap, as the table names
 * them "select" and "mmap"): given C's arguments, the kernel would read
 * the first as that pointer and fail with EFAULT.
 */
static const struct {
	const char	*name, *instead, *what;
} i386_old[] = {
	{ "select", "_newselect",
	  "struct sel_arg_struct: nfds, the three sets and the timeout" },
	{ "mmap", "mmap2",
	  "struct mmap_arg_struct: the six, the offset in bytes" },
};

static int check_arity(struct lower *L, const struct ast_expr *e,
		       const char *name, unsigned int n)
{
	for (size_t i = 0; L->word == 4 && n != 1 &&
	     i < sizeof(i386_old) / sizeof(i386_old[0]); i++) {
		if (strcmp(i386_old[i].name, name))
			continue;
		lower_error(L, e->loc, "'%s' on i386 is the old call, which "
			    "takes 1 argument, the address of a %s; %u given",
			    name, i386_old[i].what, n);
		lower_note(L, e->loc, "'%s' takes them as arguments%s",
			   i386_old[i].instead, strcmp(name, "mmap") ? "" :
			   ", the offset in pages");
		return -1;
	}
	for (size_t i = 0; i < sizeof(arity) / sizeof(arity[0]); i++) {
		if (strcmp(arity[i].name, name))
			continue;
		if (n >= arity[i].min && n <= arity[i].max)
			return 0;
		if (arity[i].min == arity[i].max)
			lower_error(L, e->loc, "'%s' takes %u argument%s, %u "
				    "given", name, arity[i].min,
				    arity[i].min == 1 ? "" : "s", n);
		else
			lower_error(L, e->loc, "'%s' takes %u to %u arguments, "
				    "%u given", name, arity[i].min,
				    arity[i].max, n);
		return -1;
	}
	return 0;
}

/* C library functions a C programmer types from habit that no system
 * call is named like (sleep and waitpid are systab_suggest()'s), each
 * with what a syslet writes instead: the call under it, or a
 * declaration. */
static const char *libc_hint(const char *name)
{
	static const struct {
		const char	*fn;
		const char	*hint;
	} fns[] = {
		{ "printf", "write(1, DATA, len(DATA)) writes data or a string" },
		{ "puts", "write(1, DATA, len(DATA)) writes data or a string" },
		{ "putchar", "write(1, \"x\", 1) writes a byte" },
		{ "fputs", "write(FD, DATA, len(DATA)) writes data or a string" },
		{ "fprintf", "write(FD, DATA, len(DATA)) writes data or a string" },
		{ "dprintf", "write(FD, DATA, len(DATA)) writes data or a string" },
		{ "perror", "write(2, DATA, len(DATA)) writes a message" },
		{ "malloc", "memory is declared, 'buffer NAME[SIZE];' (or taken with mmap())" },
		{ "calloc", "memory is declared, 'buffer NAME[SIZE];' (or taken with mmap())" },
		{ "realloc", "memory is declared, 'buffer NAME[SIZE];' (or taken with mmap())" },
		{ "free", "a buffer is the image's for as long as it lives (munmap() returns what mmap() took)" },
		{ "strlen", "len(NAME) is the length of a buffer, data or string; a str parameter's is passed as an int parameter" },
		{ "fopen", "open(PATH, FLAGS) opens a file" },
		{ "fclose", "close(FD) closes a descriptor" },
		{ "fread", "read(FD, BUF, N) reads" },
		{ "fgets", "read(FD, BUF, N) reads" },
		{ "fwrite", "write(FD, BUF, N) writes" },
		{ "system", "a syslet runs no program: fork and execve are not allowed in one" },
		{ "popen", "a syslet runs no program: fork and execve are not allowed in one" },
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strcmp(fns[i].fn, name))
			return fns[i].hint;
	return NULL;
}

/* Resolve the call's number; -1 after an error. */
static long resolve(struct lower *L, const struct ast_expr *e,
		    const struct ast_expr **args, unsigned int *nargs,
		    char **sysname)
{
	const char *name = e->name;
	const char *prof = systab_profile_name(L->profile);
	struct lower_sym *s;
	long nr;

	*args = e->args;
	if (!strcmp(name, "syscall")) {
		int64_t v;
		const char *known;

		if (!e->args) {
			lower_error(L, e->loc, "syscall() needs a system call "
				    "number as its first argument");
			return -1;
		}
		if (lower_eval_must(L, e->args, &v, "the number of syscall()")
		    != 1)
			return -1;
		if (v < 0 || v >= systab_nr_syscalls(L->profile)) {
			lower_error(L, e->args->loc, "system call number %lld "
				    "is outside the %s table (0..%ld)",
				    (long long)v, prof,
				    systab_nr_syscalls(L->profile) - 1);
			return -1;
		}
		known = systab_name(L->profile, (long)v);
		if (known && systab_denied_name(known)) {
			lower_error(L, e->args->loc, "system call %lld is '%s', "
				    "which is not allowed in a syslet: %s",
				    (long long)v, known, deny_reason(known));
			return -1;
		}
		*args = e->args->next;
		*nargs -= 1;
		*sysname = known ? lower_strdup(L, known) :
				   lower_fmt(L, "syscall_%lld", (long long)v);
		return (long)v;
	}
	if (systab_denied_name(name)) {
		lower_error(L, e->loc, "'%s' is not allowed in a syslet: %s",
			    name, deny_reason(name));
		return -1;
	}
	nr = systab_lookup(L->profile, name);
	if (nr < 0) {
		const char *sug;

		if (is_data_ctor(name)) {
			lower_error(L, e->loc, "'%s' builds bytes of a 'data' "
				    "declaration; it is not a system call",
				    name);
			return -1;
		}
		s = lower_lookup(L, name, e->loc);
		if (s && s->kind == LSYM_SYSLET) {
			lower_error(L, e->loc, "'%s' is a syslet, not a system "
				    "call; a syslet cannot call another (use "
				    "goto within one syslet)", name);
			return -1;
		}
		sug = libc_hint(name);
		if (sug) {
			lower_error(L, e->loc, "'%s' is a C library function, "
				    "not a system call; %s", name, sug);
			return -1;
		}
		sug = systab_suggest(L->profile, name);
		if (sug)
			lower_error(L, e->loc, "unknown system call '%s' for "
				    "target %s; did you mean '%s'?", name, prof,
				    sug);
		else
			lower_error(L, e->loc, "unknown system call '%s' for "
				    "target %s", name, prof);
		return -1;
	}
	*sysname = lower_strdup(L, name);
	return nr;
}

/* The bytes from where e points to the end of the buffer, data object
 * or string it points into, with a name for messages; false when e is
 * not such an address (a variable, a computed pointer). */
static bool object_room(struct lower *L, const struct ast_expr *e,
			uint64_t *room, struct lower_sym **sym)
{
	struct lower_sym *s = NULL;
	int64_t off = 0;
	uint64_t size;

	if (e->kind == AST_BINARY && (e->op == '+' || e->op == '-')) {
		if (lower_eval(L, e->r, &off) != 1)
			return false;
		if (e->op == '-')
			off = (int64_t)(0 - (uint64_t)off);
		e = e->l;
	}
	if (e->kind == AST_STR) {
		size = e->len + 1;
	} else if (e->kind == AST_NAME || e->kind == AST_ADDR) {
		int64_t index = 0;

		/* &name[i]: from element i on. */
		if (e->kind == AST_ADDR && e->l &&
		    lower_eval(L, e->l, &index) != 1)
			return false;
		s = lower_lookup(L, e->name, e->loc);
		if (s)
			s->used--;	/* the operand counted the use */
		if (!s || (s->kind != LSYM_BUFFER && s->kind != LSYM_DATA) ||
		    s->state != LEVAL_DONE)
			return false;
		size = s->size;
		if (e->kind == AST_ADDR && e->l)
			off = (int64_t)((uint64_t)off +
					(uint64_t)index * (s->elem ? s->elem : 1));
	} else {
		return false;
	}
	if (off < 0 || (uint64_t)off > size)
		return false;	/* reported as an offset outside */
	*room = size - (uint64_t)off;
	*sym = s;
	return true;
}

/*
 * The socket calls that write an address back, and its length, which
 * they read first and rewrite (a socklen_t *): data and strings are
 * read-only, so the call would fail with EFAULT when it ran, after the
 * connection was taken.  NULL (the address not wanted) is fine.
 */
static const struct {
	const char	*name;
	unsigned char	addr, len;
} written_back[] = {
	{ "accept", 1, 2 },	{ "accept4", 1, 2 },
	{ "getsockname", 1, 2 },	{ "getpeername", 1, 2 },
	{ "recvfrom", 4, 5 },
};

static void check_written_back(struct lower *L, const char *sysname,
			       const struct ast_expr *args)
{
	const struct ast_expr *a;
	struct lower_sym *s;
	uint64_t room;
	unsigned int i;
	size_t k;

	for (k = 0; k < sizeof(written_back) / sizeof(written_back[0]); k++)
		if (!strcmp(written_back[k].name, sysname))
			break;
	if (k == sizeof(written_back) / sizeof(written_back[0]))
		return;
	for (a = args, i = 0; a; a = a->next, i++) {
		bool is_len = i == written_back[k].len;
		const char *what = is_len ?
			"the address's length, which it reads and rewrites" :
			sysname[0] == 'a' || !strcmp(sysname, "getpeername") ?
			"the peer's address" : "the address";

		if (i != written_back[k].addr && !is_len)
			continue;
		s = NULL;
		if (!object_room(L, a, &room, &s))
			continue;
		if (s && s->kind != LSYM_DATA)
			continue;
		if (s && is_len)
			lower_error(L, a->loc, "'%s' writes back through its "
				    "%s argument (%s), but data '%s' is "
				    "read-only: declare a variable ('var %s = "
				    "16;') and pass '&%s'", sysname,
				    ordinal[i], what, s->name, s->name,
				    s->name);
		else if (s)
			lower_error(L, a->loc, "'%s' writes back through its "
				    "%s argument (%s), but data '%s' is "
				    "read-only: declare a buffer", sysname,
				    ordinal[i], what, s->name);
		else
			lower_error(L, a->loc, "'%s' writes back through its "
				    "%s argument (%s), but a string is read-only "
				    "(and shared by every use of the same "
				    "text): declare a %s", sysname, ordinal[i],
				    what, is_len ? "variable and pass its "
				    "address" : "buffer");
	}
}

/*
 * A constant length larger than the object passed with it would have the
 * kernel read past its end, or write past it into whatever lies after:
 * another buffer, another instance's cells, the runner's heap.
 */
static int check_length(struct lower *L, const char *sysname,
			const struct ast_expr *args)
{
	const struct ast_expr *buf = NULL, *len = NULL, *a;
	struct lower_sym *s = NULL;
	uint64_t room, n, bytes;
	char what[160], count[64];
	const char *plural;
	unsigned int i;
	int64_t v;
	size_t k;

	for (k = 0; k < sizeof(sized) / sizeof(sized[0]); k++)
		if (!strcmp(sized[k].name, sysname))
			break;
	if (k == sizeof(sized) / sizeof(sized[0]))
		return 0;
	for (a = args, i = 0; a; a = a->next, i++) {
		if (i == sized[k].buf)
			buf = a;
		if (i == sized[k].len)
			len = a;
	}
	if (!buf || !object_room(L, buf, &room, &s))
		return 0;
	/* Strings and data are read-only: a string is shared by every
	 * use of the same text, which a read into it would all change. */
	if (sized[k].fills && (!s || s->kind == LSYM_DATA)) {
		if (s)
			lower_error(L, buf->loc, "'%s' writes into its %s "
				    "argument, but data '%s' is read-only: "
				    "declare a buffer", sysname,
				    ordinal[sized[k].buf], s->name);
		else
			lower_error(L, buf->loc, "'%s' writes into its %s "
				    "argument, but a string is read-only (and "
				    "shared by every use of the same text): "
				    "declare a buffer", sysname,
				    ordinal[sized[k].buf]);
		return -1;
	}
	if (!len || lower_eval(L, len, &v) != 1)
		return 0;
	/* The kernel sees the word: -1 is the largest length there is. */
	n = L->word >= 8 ? (uint64_t)v : (uint64_t)v & 0xffffffffu;
	plural = room == 1 ? "" : "s";
	if (n <= room / sized[k].unit)
		return 0;
	bytes = n * sized[k].unit;
	if (s && (buf->kind == AST_BINARY ||
		  (buf->kind == AST_ADDR && buf->l)))
		snprintf(what, sizeof(what), "the %llu byte%s of %s '%s' "
			 "after the offset", (unsigned long long)room,
			 plural, s->kind == LSYM_BUFFER ? "buffer" : "data",
			 s->name);
	else if (s)
		snprintf(what, sizeof(what), "%s '%s' (%llu byte%s)",
			 s->kind == LSYM_BUFFER ? "buffer" : "data", s->name,
			 (unsigned long long)room, plural);
	else
		snprintf(what, sizeof(what), "the string (%llu byte%s with "
			 "its NUL%s)", (unsigned long long)room, plural,
			 buf->kind == AST_BINARY ? ", after the offset" : "");
	if (v < 0)
		snprintf(count, sizeof(count), "%lld (%llu unsigned)",
			 (long long)v, (unsigned long long)n);
	else
		snprintf(count, sizeof(count), "%llu", (unsigned long long)n);
	if (sized[k].unit > 1 && n <= UINT64_MAX / sized[k].unit)
		lower_error(L, len->loc, "count %s (%llu bytes) is larger "
			    "than %s: '%s' would %s past its end", count,
			    (unsigned long long)bytes, what, sysname,
			    sized[k].fills ? "write" : "read");
	else
		lower_error(L, len->loc, "length %s is larger than %s: "
			    "'%s' would %s past its end", count, what,
			    sysname, sized[k].fills ? "write" : "read");
	if (s)
		lower_note(L, s->decl->name_loc, "'%s' is declared here",
			   s->name);
	return -1;
}

int lower_call(struct lower *L, const struct ast_expr *e, int ret,
	       struct lower_branch br)
{
	const struct ast_expr *args;
	unsigned int n = 0, i = 0;
	char *sysname = NULL;
	const struct ast_expr *d;
	int cells[6], k;
	long nr;
	int bad = 0, a;

	for (const struct ast_expr *x = e->args; x; x = x->next)
		n++;
	nr = resolve(L, e, &args, &n, &sysname);
	/* No memory for the name: lower_oom() said so. */
	if (nr < 0 || !sysname)
		return LOWER_END;
	if (n > 6) {
		lower_error(L, e->loc, "too many arguments to '%s' (%u): an "
			    "atom passes at most 6", sysname, n);
		free(sysname);
		return LOWER_END;
	}
	if (check_arity(L, e, sysname, n)) {
		free(sysname);
		return LOWER_END;
	}
	/* Denied by an argument, when that is a constant (else the
	 * backends refuse it when it runs). */
	k = systab_denied_arg_index(sysname);
	for (d = args; d && k > 0 && (unsigned int)k > i; d = d->next)
		i++;
	if (d && k >= 0) {
		int64_t v;

		if (lower_eval(L, d, &v) == 1 &&
		    systab_denied_arg_name(sysname, i, (unsigned long)v)) {
			lower_error(L, d->loc, "'%s' with %lld is not allowed "
				    "in a syslet: %s", sysname, (long long)v,
				    deny_reason(sysname));
			free(sysname);
			return LOWER_END;
		}
	}
	i = 0;
	check_output(L, sysname, args);
	check_input(L, sysname, args);
	check_written_back(L, sysname, args);
	check_flags(L, sysname, args);
	for (const struct ast_expr *x = args; x; x = x->next) {
		int c = lower_operand(L, x);

		if (c < 0)
			bad = 1;
		cells[i++] = c;
	}
	if (bad || L->oom || check_length(L, sysname, args)) {
		free(sysname);
		return LOWER_END;
	}
	a = lower_atom(L, nr, sysname, ret, cells, n, SLO_ROLE_CALL, e->loc,
		       br);
	free(sysname);
	return a;
}
