/* lower-call.c: a system call statement -> one atom: name lookup, deny list, argument count and cells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	return "syslets cannot start, wait for or register other syslets "
	       "from inside an atom (the kernel would recurse)";
}

static bool is_data_ctor(const char *name)
{
	static const char *const ctors[] = {
		"u8", "u16", "u32", "u64", "word", "htons", "htonl", "be16",
		"be32", "be64", "sockaddr_in",
	};

	for (size_t i = 0; i < sizeof(ctors) / sizeof(ctors[0]); i++)
		if (!strcmp(name, ctors[i]))
			return true;
	return false;
}

static int check_arity(struct lower *L, const struct ast_expr *e,
		       const char *name, unsigned int n)
{
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
		s = lower_lookup(L, e->name, e->loc);
		if (!s || (s->kind != LSYM_BUFFER && s->kind != LSYM_DATA) ||
		    s->state != LEVAL_DONE)
			return false;
		size = s->size;
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
	if (!buf || !len || lower_eval(L, len, &v) != 1 ||
	    !object_room(L, buf, &room, &s))
		return 0;
	/* The kernel sees the word: -1 is the largest length there is. */
	n = L->word >= 8 ? (uint64_t)v : (uint64_t)v & 0xffffffffu;
	if (n <= room / sized[k].unit)
		return 0;
	bytes = n * sized[k].unit;
	if (s && buf->kind == AST_BINARY)
		snprintf(what, sizeof(what), "the %llu bytes of %s '%s' after "
			 "the offset", (unsigned long long)room,
			 s->kind == LSYM_BUFFER ? "buffer" : "data", s->name);
	else if (s)
		snprintf(what, sizeof(what), "%s '%s' (%llu bytes)",
			 s->kind == LSYM_BUFFER ? "buffer" : "data", s->name,
			 (unsigned long long)room);
	else
		snprintf(what, sizeof(what), "the string (%llu bytes with its "
			 "NUL%s)", (unsigned long long)room,
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
	int cells[6];
	long nr;
	int bad = 0, a;

	for (const struct ast_expr *x = e->args; x; x = x->next)
		n++;
	nr = resolve(L, e, &args, &n, &sysname);
	if (nr < 0)
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
