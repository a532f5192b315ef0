/* faultown.c: a bad pointer gives -EFAULT whatever the program or the syslet does with SIGSEGV and SIGBUS handlers, and calls that would take the runtime down are refused. */
#include "helpers.h"
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

/*
 * Every case runs in a child process, so that a crash is a failure with
 * its signal, not the end of the test.  The program installs its own
 * handler, SIG_DFL or SIG_IGN, before or after its first call, through
 * sigaction() or signal(), or an atom does; then an atom reads through a
 * pointer to an inaccessible page (SIGSEGV) or past the end of a
 * truncated file mapping (SIGBUS).  The engine must answer -EFAULT, and the
 * program's own faults must still go where the program said.
 */

static void *bad_segv, *bad_bus;
static sigjmp_buf jb;
static volatile sig_atomic_t handled;

static void on_fault(int sig)
{
	handled = sig;
	siglongjmp(jb, 1);
}

static void setup_bad(void)
{
	char path[] = "/tmp/syslet-faultown.XXXXXX";
	int fd = mkstemp(path);

	/* A PROT_NONE page, kept mapped: an unmapped hole is where the next
	 * mmap goes (a thread's stack, ASan's allocator in the sanitizer
	 * build), and the bad pointer would silently become a good one. */
	bad_segv = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (bad_segv == MAP_FAILED || fd < 0 || ftruncate(fd, 4096))
		rt_die("setup: %s", strerror(errno));
	bad_bus = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (bad_bus == MAP_FAILED || ftruncate(fd, 0))
		rt_die("setup: %s", strerror(errno));
	unlink(path);
	close(fd);
}

static void set(int sig, void (*h)(int), int how)
{
	struct sigaction sa;

	if (how) {
		signal(sig, h);
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* getppid, then an atom whose argument pointer is @bad: inline the
 * syslet fails with EFAULT; async the getppid atom completes (the
 * engine queues the last atom that ran). */
static void run_bad(void *bad, int async, const char *what)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	unsigned long one = 1;
	long r0 = 0, r1 = 777;

	rt_register(&ahu, ring, 8, -1UL);
	rt_atom(&a[0], SYS_getppid, &r0, async ? SYSLET_ASYNC : 0, &a[1],
		NULL, NULL, NULL);
	rt_atom(&a[1], SYS_getppid, &r1, 0, NULL, (unsigned long *)bad,
		&one, NULL);
	errno = 0;
	done = sys_async_exec(&a[0]);
	if (!async) {
		rt_check(!done && errno == EFAULT, "%s: %p errno %d", what,
			 (void *)done, errno);
	} else {
		unsigned long idx = 0;

		rt_check(!done && !errno, "%s: did not go async", what);
		while (!ring[0])
			sys_async_wait(1);
		rt_check(ring[0] == &a[0], "%s: completion %p", what,
			 (void *)ring[0]);
		rt_drain(ring, 8, &idx, NULL, 0);
	}
	rt_check(r0 > 0 && r1 == 777, "%s: r0 %ld r1 %ld", what, r0, r1);
	/* sys_umem_add() reads through the pointer itself. */
	rt_check(sys_umem_add(bad, 1) == -EFAULT, "%s: umem_add", what);
	rt_unregister(&ahu);
}

/* The program's own fault, after all that: where it said. */
static void own_fault(void *bad, int sig, const char *what)
{
	handled = 0;
	if (!sigsetjmp(jb, 1))
		(void)*(volatile unsigned long *)bad;
	rt_check(handled == sig, "%s: the program's handler did not run",
		 what);
}

/* Child cases.  Each returns normally, or (for a default action) dies
 * of the signal after writing "reached" to fd 3. */
static void reached(void)
{
	if (write(3, "r", 1) != 1)
		_exit(98);
}

enum when { BEFORE, AFTER };

static void case_handler(int sig, enum when when, int how, int async)
{
	void *bad = sig == SIGBUS ? bad_bus : bad_segv;

	if (when == AFTER)
		run_bad(bad, async, "first call");
	set(sig, on_fault, how);
	run_bad(bad, async, "after the program's handler");
	own_fault(bad, sig, "handler");
}

static void case_default(int sig, void (*disp)(int), int how, int async)
{
	void *bad = sig == SIGBUS ? bad_bus : bad_segv;

	run_bad(bad, async, "first call");
	set(sig, disp, how);
	run_bad(bad, async, "after SIG_DFL or SIG_IGN");
	if (rt_failures)
		return;
	reached();
	(void)*(volatile unsigned long *)bad;
	_exit(97);	/* still alive: the default action did not act */
}

/* An atom sets SIGSEGV to SIG_DFL (rt_sigaction), then a bad pointer. */
static void case_atom_sigaction(int async)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	/* The kernel's struct sigaction: handler, flags, restorer, mask. */
	unsigned long ksa[4] = { (unsigned long)SIG_DFL, 0, 0, 0 };
	unsigned long sig = SIGSEGV, sa = (unsigned long)ksa, null = 0;
	unsigned long size = 8, one = 1;
	long r0 = 1, r2 = 777;

	rt_register(&ahu, ring, 8, -1UL);
	rt_atom(&a[0], SYS_rt_sigaction, &r0, async ? SYSLET_ASYNC : 0, &a[1],
		&sig, &sa, &null);
	a[0].arg_ptr[3] = &size;
	rt_atom(&a[1], SYS_getppid, &r2, 0, NULL, (unsigned long *)bad_segv,
		&one, NULL);
	errno = 0;
	done = sys_async_exec(&a[0]);
	if (async) {
		while (!ring[0])
			sys_async_wait(1);
		done = ring[0];
		rt_check(done == &a[0], "atom sigaction (async): %p",
			 (void *)done);
	} else {
		rt_check(!done && errno == EFAULT, "atom sigaction: %p %d",
			 (void *)done, errno);
	}
	rt_check(r0 == 0 && r2 == 777, "atom sigaction: r0 %ld r2 %ld", r0,
		 r2);
	rt_unregister(&ahu);
	if (rt_failures)
		return;
	/* What the atom set is the program's disposition now. */
	reached();
	(void)*(volatile unsigned long *)bad_segv;
	_exit(97);
}

/* An atom blocks SIGSEGV (rt_sigprocmask), then a bad pointer: -EFAULT,
 * and the caller's mask has SIGSEGV blocked once async_exec returns. */
static void case_atom_sigmask(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	unsigned long set = 1UL << (SIGSEGV - 1), how = SIG_BLOCK;
	unsigned long setp = (unsigned long)&set, null = 0, size = 8, one = 1;
	unsigned long set32[2] = { set, 0 };
	long r0 = 1, r1 = 777;
	sigset_t now;

	if (sizeof(long) == 4)
		setp = (unsigned long)set32;
	rt_register(&ahu, ring, 8, -1UL);
	rt_atom(&a[0], SYS_rt_sigprocmask, &r0, 0, &a[1], &how, &setp, &null);
	a[0].arg_ptr[3] = &size;
	rt_atom(&a[1], SYS_getppid, &r1, 0, NULL, (unsigned long *)bad_segv,
		&one, NULL);
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(!done && errno == EFAULT && r0 == 0 && r1 == 777,
		 "atom sigprocmask: %p errno %d r0 %ld r1 %ld", (void *)done,
		 errno, r0, r1);
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	rt_check(sigismember(&now, SIGSEGV) == 1,
		 "the atom's mask is not the caller's after the call");
	rt_unregister(&ahu);
}

/* Calls that would take the runtime down are refused. */
static void case_refused(int async)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a, *done;
	unsigned long zero = 0, strict = 0 /* SECCOMP_SET_MODE_STRICT */;
	unsigned long pr = 22 /* PR_SET_SECCOMP */, one = 1;
	long r;
	struct {
		long nr;
		unsigned long *a0, *a1;
		const char *what;
	} calls[] = {
#ifdef __NR_arch_prctl
		{ __NR_arch_prctl, NULL, &zero, "arch_prctl(ARCH_SET_FS, 0)" },
#endif
		{ __NR_seccomp, &strict, &zero, "seccomp(SECCOMP_SET_MODE_STRICT)" },
		{ __NR_prctl, &pr, &one, "prctl(PR_SET_SECCOMP, 1)" },
	};
	unsigned long set_fs = 0x1002;

	unsigned long idx = 0;

	alarm(20);
	rt_register(&ahu, ring, 8, -1UL);
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (!calls[i].a0)
			calls[i].a0 = &set_fs;
		r = 0;
		rt_atom(&a, calls[i].nr, &r, async ? SYSLET_ASYNC : 0, NULL,
			calls[i].a0, calls[i].a1, &zero);
		errno = 0;
		done = sys_async_exec(&a);
		if (async) {
			while (!ring[idx])
				sys_async_wait(1);
			done = ring[idx];
			rt_drain(ring, 8, &idx, NULL, 0);
		}
		rt_check(done == &a && r == -EPERM, "%s: %p %ld",
			 calls[i].what, (void *)done, r);
		/* The thread pointer, signals and syscalls still work. */
		rt_check(getpid() > 0 && snprintf(NULL, 0, "%d", 1) == 1,
			 "%s", calls[i].what);
	}
	rt_unregister(&ahu);
	alarm(0);
}

/* A worker blocked in a read while the program resets SIGSEGV: the chain
 * then reads through a bad pointer. */
static void case_worker_blocked(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2];
	struct timespec ms50 = { 0, 50000000 };
	unsigned long one = 1;
	long r1 = 777;
	struct rt_pipe_read pr;

	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_init(&pr);
	pr.atom.next = &a[0];
	rt_atom(&a[0], SYS_getppid, &r1, 0, NULL, (unsigned long *)bad_segv,
		&one, NULL);
	rt_pipe_read_exec(&pr);
	nanosleep(&ms50, NULL);
	set(SIGSEGV, SIG_DFL, 0);
	nanosleep(&ms50, NULL);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write");
	while (!ring[0])
		sys_async_wait(1);
	rt_check(ring[0] == &pr.atom && pr.ret == 1 && r1 == 777,
		 "blocked worker: completion %p ret %ld r1 %ld",
		 (void *)ring[0], pr.ret, r1);
	ring[0] = NULL;
	rt_pipe_read_close(&pr);
	rt_unregister(&ahu);
}

struct tcase {
	const char	*name;
	int		kind, sig, how, async;
	void		(*disp)(int);
	int		dies;	/* the child must die of this signal */
};

enum { K_HANDLER_BEFORE, K_HANDLER_AFTER, K_DEFAULT, K_ATOM_SIGACTION,
       K_ATOM_SIGMASK, K_REFUSED, K_WORKER_BLOCKED };

static void child(const struct tcase *t)
{
	rt_init();
	switch (t->kind) {
	case K_HANDLER_BEFORE:
		case_handler(t->sig, BEFORE, t->how, t->async);
		break;
	case K_HANDLER_AFTER:
		case_handler(t->sig, AFTER, t->how, t->async);
		break;
	case K_DEFAULT:
		case_default(t->sig, t->disp, t->how, t->async);
		break;
	case K_ATOM_SIGACTION:
		case_atom_sigaction(t->async);
		break;
	case K_ATOM_SIGMASK:
		case_atom_sigmask();
		break;
	case K_REFUSED:
		case_refused(t->async);
		break;
	case K_WORKER_BLOCKED:
		case_worker_blocked();
		break;
	}
	_exit(rt_failures ? 1 : 0);
}

int main(void)
{
	static const struct tcase cases[] = {
		{ "SIGSEGV handler before the first call", K_HANDLER_BEFORE, SIGSEGV, 0, 0, NULL, 0 },
		{ "SIGSEGV handler after the first call", K_HANDLER_AFTER, SIGSEGV, 0, 0, NULL, 0 },
		{ "SIGSEGV handler by signal() after, async", K_HANDLER_AFTER, SIGSEGV, 1, 1, NULL, 0 },
		{ "SIGBUS handler before the first call", K_HANDLER_BEFORE, SIGBUS, 0, 0, NULL, 0 },
		{ "SIGBUS handler after the first call, async", K_HANDLER_AFTER, SIGBUS, 0, 1, NULL, 0 },
		{ "SIGSEGV reset to SIG_DFL", K_DEFAULT, SIGSEGV, 0, 0, SIG_DFL, SIGSEGV },
		{ "SIGSEGV reset by signal(), async", K_DEFAULT, SIGSEGV, 1, 1, SIG_DFL, SIGSEGV },
		{ "SIGSEGV set to SIG_IGN", K_DEFAULT, SIGSEGV, 0, 0, SIG_IGN, SIGSEGV },
		{ "SIGBUS reset to SIG_DFL", K_DEFAULT, SIGBUS, 0, 0, SIG_DFL, SIGBUS },
		{ "SIGBUS reset to SIG_DFL, async", K_DEFAULT, SIGBUS, 0, 1, SIG_DFL, SIGBUS },
		{ "an atom sets SIGSEGV to SIG_DFL", K_ATOM_SIGACTION, 0, 0, 0, NULL, SIGSEGV },
		{ "an atom sets SIGSEGV to SIG_DFL, async", K_ATOM_SIGACTION, 0, 0, 1, NULL, SIGSEGV },
		{ "an atom blocks SIGSEGV", K_ATOM_SIGMASK, 0, 0, 0, NULL, 0 },
		{ "calls that take the runtime down", K_REFUSED, 0, 0, 0, NULL, 0 },
		{ "calls that take the runtime down, async", K_REFUSED, 0, 0, 1, NULL, 0 },
		{ "SIGSEGV reset while a worker blocks", K_WORKER_BLOCKED, 0, 0, 0, NULL, 0 },
	};
	int p[2];

	setup_bad();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *t = &cases[i];
		char c = 0;
		pid_t pid;
		int st;

		if (pipe(p))
			rt_die("pipe");
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			rt_die("fork");
		if (pid == 0) {
			close(p[0]);
			if (dup2(p[1], 3) < 0)
				_exit(99);
			child(t);
		}
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			c = 0;
		close(p[0]);
		if (waitpid(pid, &st, 0) != pid)
			rt_die("waitpid");
		if (t->dies)
			rt_check(c == 'r' && WIFSIGNALED(st) &&
				 WTERMSIG(st) == t->dies,
				 "%s: reached %d, status %#x (want death by %d)",
				 t->name, c == 'r', st, t->dies);
		else
			rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
				 "%s: status %#x%s", t->name, st,
				 WIFSIGNALED(st) ? " (killed)" : "");
	}
	return rt_done("faultown");
}
