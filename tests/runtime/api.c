/* api.c: libsyslet's conventions (libsyslet(3) CONVENTIONS) through the public API: -errno and errno, NULL and errno, the ring helpers' answers, sized structs of older and newer callers, system calls by number and printed. */
#include <fcntl.h>
#include <stddef.h>
#include <sys/wait.h>
#include "helpers.h"

/* A pointer function's failure: NULL, and errno set. */
#define rt_check_null(expr, e)						\
	do {								\
		const void *p_;						\
									\
		errno = 0;						\
		p_ = (expr);						\
		rt_check(!p_ && errno == (e),				\
			 "returned %p, errno %d, expected NULL and %d",	\
			 p_, errno, (e));				\
	} while (0)

static void check_ring(void)
{
	SYSLET_OPTS(syslet_ring, ring);
	SYSLET_OPTS(syslet_ring, none);
	struct rt_pipe_read pr;
	struct syslet_uatom *done;

	rt_check_err(syslet_ring__init(&none, 0, -1UL), EINVAL);
	rt_check_null(syslet_ring__peek(&none), EINVAL);
	if (syslet_ring__init(&ring, 4, -1UL))
		rt_die("syslet_ring__init: %s", strerror(errno));
	/* Empty: not yet (EAGAIN); nothing busy either: never (ECHILD). */
	rt_check_null(syslet_ring__peek(&ring), EAGAIN);
	rt_check_null(syslet_ring__pop(&ring), EAGAIN);
	rt_check_null(syslet_ring__wait_pop(&ring, 1), ECHILD);

	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	rt_check_null(syslet_ring__pop(&ring), EAGAIN);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	errno = 0;
	done = syslet_ring__wait_pop(&ring, 1);
	rt_check(done == &pr.atom && pr.ret == 1,
		 "wait_pop gave %p (ret %ld), errno %d", (void *)done, pr.ret,
		 errno);
	rt_check_null(syslet_ring__wait_pop(&ring, 1), ECHILD);
	syslet_ring__exit(&ring);
	rt_pipe_read_close(&pr);
}

/*
 * Sized structs (libsyslet(3), SIZED STRUCTS): a caller built against an
 * older header, whose struct is shorter, gets the fields it has and
 * nothing past them is written; one built against a newer header, whose
 * struct is longer, is served when the part the library does not know is
 * zero and refused with -EINVAL when it is not; no sz, no write and
 * -EINVAL.
 */
#define RT_TAIL 32

/* syslet_stats as a header with only its first two counters declared
 * it, followed by the caller's own data. */
struct rt_old_stats {
	size_t			sz;
	unsigned long long	execs;
	unsigned long long	atoms;
};

struct rt_old_caller {
	struct rt_old_stats	st;
	unsigned char		after[RT_TAIL];
};

/* syslet_stats as a later header might have it: a field more. */
struct rt_new_stats {
	struct syslet_stats	st;
	unsigned long long	later[RT_TAIL / 8];
};

static int rt_all(const unsigned char *p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

static void check_sized(void)
{
	struct rt_old_caller old;
	struct rt_new_stats nw;
	unsigned long umem = rt_umem_nr(), cell = 5, one = 1;
	unsigned long cellp = (unsigned long)&cell;
	long ret = 0;
	struct syslet_uatom a;
	struct {
		struct syslet_event	ev;
		unsigned long		later;
	} big;
	SYSLET_OPTS(syslet_event, ev);
	SYSLET_OPTS(syslet_ring, ring);
	SYSLET_OPTS(syslet_stats, st);
	int counted = strcmp(syslet_backend_name(), "kernel") != 0;

	rt_check(st.sz == sizeof(st) && st.execs == 0, "SYSLET_OPTS");
	rt_check(SYSLET_HAS(&st, threads), "SYSLET_HAS: threads");
	st.sz = offsetof(struct syslet_stats, threads);
	rt_check(!SYSLET_HAS(&st, threads), "SYSLET_HAS past sz");

	/* One async_exec, so that execs is not 0. */
	rt_atom(&a, umem, &ret, 0, NULL, &cellp, &one, NULL);
	if (syslet_ring__init(&ring, 4, -1UL))
		rt_die("syslet_ring__init: %s", strerror(errno));
	rt_check(sys_async_exec(&a) == &a, "umem_add did not run inline");
	syslet_ring__exit(&ring);

	/* No sz. */
	memset(&nw, 0xaa, sizeof(nw));
	nw.st.sz = 0;
	rt_check_err(syslet_get_stats(&nw.st), EINVAL);
	rt_check(rt_all((unsigned char *)&nw + sizeof(size_t),
			sizeof(nw) - sizeof(size_t), 0xaa),
		 "written without sz");

	/* Older caller. */
	memset(&old, 0xaa, sizeof(old));
	old.st.sz = sizeof(old.st);
	rt_check(syslet_get_stats((struct syslet_stats *)&old.st) == 0,
		 "older caller: %s", strerror(errno));
	rt_check(old.st.sz == sizeof(old.st), "sz changed to %zu", old.st.sz);
	/* The kernel runs the atoms of the kernel backend, and counts
	 * none of them (syslet_get_stats(3)): 0, written all the same. */
	if (counted)
		rt_check(old.st.execs > 0 &&
			 old.st.execs != 0xaaaaaaaaaaaaaaaaULL &&
			 old.st.atoms >= old.st.execs &&
			 old.st.atoms != 0xaaaaaaaaaaaaaaaaULL,
			 "execs %llu, atoms %llu", old.st.execs, old.st.atoms);
	else
		rt_check(old.st.execs == 0 && old.st.atoms == 0,
			 "kernel backend: execs %llu, atoms %llu",
			 old.st.execs, old.st.atoms);
	rt_check(rt_all(old.after, sizeof(old.after), 0xaa),
		 "bytes past the older caller's struct written");

	/* Newer caller, its unknown tail zero as SYSLET_OPTS leaves it. */
	memset(&nw, 0, sizeof(nw));
	nw.st.sz = sizeof(nw);
	nw.st.execs = 0xaaaaaaaaaaaaaaaaULL;
	rt_check(syslet_get_stats(&nw.st) == 0, "newer caller: %s",
		 strerror(errno));
	rt_check(nw.st.sz == sizeof(nw) &&
		 (counted ? nw.st.execs > 0 : nw.st.execs == 0) &&
		 nw.st.execs != 0xaaaaaaaaaaaaaaaaULL,
		 "newer caller: sz %zu, execs %llu", nw.st.sz, nw.st.execs);
	rt_check(rt_all((unsigned char *)nw.later, sizeof(nw.later), 0),
		 "the newer caller's tail written");

	/* Newer caller that set a field the library does not know. */
	memset(&nw, 0, sizeof(nw));
	nw.st.sz = sizeof(nw);
	nw.later[1] = 1;
	rt_check_err(syslet_get_stats(&nw.st), EINVAL);
	rt_check(nw.st.execs == 0, "written with a non-zero tail");

	/* syslet_step runs nothing for an event without sz, nor for one
	 * whose unknown tail is not zero. */
	memset(&ev, 0, sizeof(ev));
	cell = 5;
	rt_check_null(syslet_step(&a, &ev), EINVAL);
	rt_check(ev.atom == NULL, "the event was written");
	rt_check(cell == 5, "the atom ran: %lu", cell);
	memset(&big, 0, sizeof(big));
	big.ev.sz = sizeof(big);
	big.later = 7;
	rt_check_null(syslet_step(&a, &big.ev), EINVAL);
	rt_check(big.ev.atom == NULL && cell == 5, "ran with a non-zero tail");
	big.later = 0;
	rt_check(!syslet_step(&a, &big.ev) && cell == 6 &&
		 big.ev.atom == &a && big.later == 0,
		 "step, newer caller: cell %lu", cell);
	ev.sz = sizeof(ev);
	errno = EBUSY;
	rt_check(!syslet_step(&a, &ev) && errno == 0 && cell == 7 &&
		 ev.atom == &a && ev.ret == 7 && ev.end == SYSLET_END_NEXT,
		 "step: errno %d, cell %lu, end %d", errno, cell, ev.end);

	ring.sz = 0;
	rt_check_err(syslet_ring__init(&ring, 4, -1UL), EINVAL);
	ring.sz = offsetof(struct syslet_ring, registered);
	rt_check_err(syslet_ring__init(&ring, 4, -1UL), EINVAL);
}

static size_t traced_sz;

static void on_event(const struct syslet_event *ev, void *ctx)
{
	(void)ctx;
	if (SYSLET_HAS(ev, seq))
		traced_sz = ev->sz;
}

/* A callback gets the library's size. */
static void check_trace(void)
{
	unsigned long umem = rt_umem_nr(), cell = 0, one = 1;
	unsigned long cellp = (unsigned long)&cell;
	long ret;
	struct syslet_uatom a;

	rt_atom(&a, umem, &ret, 0, NULL, &cellp, &one, NULL);
	syslet_set_trace(on_event, NULL);
	syslet_step(&a, NULL);
	syslet_set_trace(NULL, NULL);
	rt_check(traced_sz == sizeof(struct syslet_event),
		 "event of %zu bytes", traced_sz);
}

/* System calls by number, and a call printed as the trace shows it. */
static void check_calls(void)
{
	static char path[] = "hello.txt", buf[] = "hi\n";
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	SYSLET_OPTS(syslet_event, ev, .nr = __NR_open, .nargs = 3,
		    .args = { (unsigned long)path, O_RDONLY | O_CLOEXEC },
		    .ret = 3);

	rt_check(syslet_syscall_count() > __NR_read, "count %ld",
		 syslet_syscall_count());
	rt_check(syslet_syscall_name(__NR_read) &&
		 !strcmp(syslet_syscall_name(__NR_read), "read"), "read");
	rt_check_null(syslet_syscall_name(-1), ERANGE);
	rt_check_null(syslet_syscall_name(syslet_syscall_count()), ERANGE);
	rt_check(syslet_syscall_denied(__NR_read) == 0, "read denied");
	rt_check(syslet_syscall_denied(__NR_sigaltstack) == 1,
		 "sigaltstack allowed");
	rt_check_err(syslet_syscall_denied(-1), ERANGE);
	rt_check(syslet_syscall_number("read") == __NR_read, "number of read");
	rt_check_err(syslet_syscall_number("pdp11"), ENOENT);
	rt_check(syslet_syscall_suggest("raed") &&
		 !strcmp(syslet_syscall_suggest("raed"), "read"), "raed");
	rt_check(!strcmp(syslet_errno_name(ENOENT), "ENOENT"), "ENOENT");
	rt_check_null(syslet_errno_name(100000), ENOENT);
	rt_check(syslet_errno_number("EBADF") == EBADF, "EBADF");
	rt_check_err(syslet_errno_number("EPDP11"), ENOENT);

	mem = open_memstream(&text, &len);
	if (!mem)
		rt_die("open_memstream: %s", strerror(errno));
	rt_check(syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE) == 0, "print open");
	fputc('\n', mem);
	/* A bad pointer prints as a number, a written buffer as text. */
	ev.args[0] = 1;
	syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
	fputc('\n', mem);
	ev.nr = __NR_write;
	ev.args[0] = 1;
	ev.args[1] = (unsigned long)buf;
	ev.args[2] = 3;
	syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
	fputc('\n', mem);
	/* A read in parts: what it reads, then what it wrote. */
	ev.nr = __NR_read;
	ev.args[0] = 3;
	ev.args[1] = (unsigned long)buf;
	ev.args[2] = 16;
	syslet_print_call(mem, &ev, SYSLET_PRINT_ENTER);
	syslet_print_call(mem, &ev, SYSLET_PRINT_CONT);
	fputc('\n', mem);
	syslet_print_call(mem, &ev, SYSLET_PRINT_EXIT);
	fputc('\n', mem);
	rt_check_err(syslet_print_call(mem, &ev, (enum syslet_print_part)9),
		     EINVAL);
	ev.nr = 100000;
	ev.nargs = 1;
	syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
	ev.sz = 0;
	rt_check_err(syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE), EINVAL);
	fclose(mem);
	rt_check(text && !strcmp(text,
		 "open(\"hello.txt\", O_RDONLY|O_CLOEXEC, 000)\n"
		 "open(0x1, O_RDONLY|O_CLOEXEC, 000)\n"
		 "write(1, \"hi\\n\", 3)\n"
		 "read(3, \"hi\\n\", 16)\n"
		 "<... read resumed>\"hi\\n\", 16)\n"
		 "syscall(100000, 3)"), "printed:\n%s", text);
	free(text);
}

/* wait4's status as strace shows it: exited, killed (a core dumped),
 * stopped, continued, and a signal without a name by its number. */
static void check_wstatus(void)
{
	static const struct { int status; const char *shown; } cases[] = {
		{ 7 << 8, "WIFEXITED(s) && WEXITSTATUS(s) == 7" },
		{ SIGKILL, "WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL" },
		{ SIGSEGV | 0x80,
		  "WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV && WCOREDUMP(s)" },
		{ 40, "WIFSIGNALED(s) && WTERMSIG(s) == 40" },
		{ SIGTSTP << 8 | 0x7f, "WIFSTOPPED(s) && WSTOPSIG(s) == SIGTSTP" },
		{ 40 << 8 | 0x7f, "WIFSTOPPED(s) && WSTOPSIG(s) == 40" },
		{ 0xffff, "WIFCONTINUED(s)" },
	};
	char want[160], *text = NULL;
	size_t len = 0;
	int status;
	SYSLET_OPTS(syslet_event, ev, .nr = __NR_wait4, .nargs = 4,
		    .args = { 123, (unsigned long)&status }, .ret = 123);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *mem = open_memstream(&text, &len);

		if (!mem)
			rt_die("open_memstream: %s", strerror(errno));
		status = cases[i].status;
		syslet_print_call(mem, &ev, SYSLET_PRINT_WHOLE);
		fclose(mem);
		snprintf(want, sizeof(want), "wait4(123, [{%s}], 0, NULL)",
			 cases[i].shown);
		rt_check(text && !strcmp(text, want), "status %#x: '%s'",
			 (unsigned int)cases[i].status, text);
		free(text);
		text = NULL;
	}
}

static void check_globals(void)
{
	rt_check_err(syslet_sysno((enum syslet_call)SYSLET_NR_CALLS), EINVAL);
	rt_check(syslet_sysno(SYSLET_CALL_UMEM_ADD) >= 0, "no umem_add");
	rt_check_err(syslet_set_profile("pdp-11"), EINVAL);
	rt_check_err(syslet_set_backend("pdp-11"), EINVAL);
	rt_check(syslet_backend_error() != NULL, "no message for pdp-11");
}

int main(void)
{
	rt_init();
	check_ring();
	check_sized();
	check_trace();
	check_calls();
	check_wstatus();
	check_globals();
	return rt_done("api");
}
