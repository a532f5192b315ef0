/* sigkinds.c: which signals end a syslet: ignored, ignored by default and blocked ones never; handled, fatal and stopping ones do; inline and in a worker. */
#include "helpers.h"
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <time.h>

/*
 * The kernel never makes an ignored signal pending, and one the caller
 * blocks does not interrupt it: only a signal that the caller's mask lets
 * through and whose disposition acts (a handler, terminate, stop, core)
 * ends a syslet, after the atom during which it came.  Each case sends
 * the signal from an atom to the thread that runs the chain
 * (tgkill(getpid(), gettid(), sig)), then a loop counts to the end: the
 * loop ran or not tells whether the signal ended the syslet.  Async,
 * the caller either waits in async_wait or never calls it: on uring the
 * chain then runs in the caller or in the head's progress thread, and
 * the signal must end it and act in either.
 */

#define LOOPS	300

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

struct chain {
	struct syslet_uatom	a[4];
	unsigned long		pid, tid, sig, left, minus, fd, buf, len;
	long			r[4];
	char			c;
};

/* getpid, gettid, tgkill(pid, tid, sig) -- or a write to a pipe nobody
 * reads, that raises SIGPIPE, with a branch on its failure --, then a
 * loop of LOOPS umem_add atoms.  @async: the first atom goes async. */
static void build(struct chain *c, int sig, int pipe_fd, int async)
{
	memset(c, 0, sizeof(*c));
	c->sig = (unsigned long)sig;
	c->left = LOOPS;
	c->minus = -1UL;
	rt_atom(&c->a[0], SYS_getpid, (long *)&c->pid,
		async ? SYSLET_ASYNC : 0, &c->a[1], NULL, NULL, NULL);
	rt_atom(&c->a[1], SYS_gettid, (long *)&c->tid, 0, &c->a[2], NULL,
		NULL, NULL);
	if (pipe_fd >= 0) {
		c->fd = (unsigned long)pipe_fd;
		c->buf = (unsigned long)&c->c;
		c->len = 1;
		/* if (write(...) < 0) goto the loop; else stop: the branch
		 * must be taken. */
		rt_atom(&c->a[2], SYS_write, &c->r[2],
			SYSLET_STOP_ON_NEGATIVE | SYSLET_SKIP_TO_NEXT_ON_STOP,
			NULL, &c->fd, &c->buf, &c->len);
	} else {
		rt_atom(&c->a[2], SYS_tgkill, &c->r[2], 0, &c->a[3], &c->pid,
			&c->tid, &c->sig);
	}
	rt_atom(&c->a[3], rt_umem_nr(), &c->r[3], SYSLET_STOP_ON_ZERO,
		&c->a[3], (unsigned long *)&c->a[3].private, &c->minus, NULL);
	/* umem_add's pointer argument: a cell holding &left. */
	c->a[3].private = &c->left;
	c->a[3].arg_ptr[0] = (unsigned long *)&c->a[3].private;
}

/* Run it to its end; the last atom. */
static struct syslet_uatom *run(struct chain *c, struct syslet_uatom **ring,
				unsigned long entries, int async)
{
	struct syslet_uatom *done;
	unsigned long idx = 0;

	errno = 0;
	done = sys_async_exec(&c->a[0]);
	if (async && (done || errno))
		rt_die("the chain did not go async: %p %s", (void *)done,
		       strerror(errno));
	/* A backend may also go async at a call that may block (uring
	 * sends every write through io_uring). */
	if (done || errno)
		return done;
	if (async == 2) {
		/* Nobody calls async_wait: the syslet completes all the
		 * same, in whatever the backend runs it on. */
		struct timespec ms = { 0, 1000000 };

		for (int i = 0; i < 10000 && !__atomic_load_n(&ring[0],
							     __ATOMIC_ACQUIRE);
		     i++)
			nanosleep(&ms, NULL);
		if (!ring[0])
			rt_die("async chain never completed without async_wait");
	}
	while (!ring[0])
		sys_async_wait(1);
	done = ring[0];
	rt_drain(ring, entries, &idx, NULL, 0);
	return done;
}

static void set_disp(int sig, void (*h)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		rt_die("sigaction %d: %s", sig, strerror(errno));
}

/* Wait up to 5 s for the handler (a worker runs it once its chain has
 * completed). */
static int wait_got(int sig)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 5000 && got != sig; i++)
		nanosleep(&ms, NULL);
	return got == sig;
}

/*
 * On the kernel backend the task that runs an async chain blocks every
 * signal but SIGKILL and SIGSTOP (syslet(7) KERNEL BACKEND): a signal
 * sent to it from the chain (or, where it is the task whose thread ID
 * the program keeps, to the program) does not end the chain, which goes
 * on to its end; a stop signal stops the whole process all the same.
 * In 2007 the signal made the chain's task's signal_pending() true, as
 * it does the user-space engines' workers.
 */
static int kernel_worker(int async)
{
	return async && !strcmp(syslet_backend_name(), "kernel");
}

static const char *where(int async)
{
	return async == 2 ? "worker, nobody waiting" :
	       async ? "worker" : "inline";
}

/* A signal that must not end the syslet: the loop runs to its end. */
static void runs_through(const char *what, int sig, int pipe_fd, int async)
{
	struct syslet_uatom *ring[8], *done;
	struct async_head_user ahu;
	struct chain c;

	rt_register(&ahu, ring, 8, -1UL);
	build(&c, sig, pipe_fd, async);
	done = run(&c, ring, 8, async);
	rt_check(done == &c.a[3] && c.left == 0,
		 "%s (%s): the syslet ended at atom %ld with %lu loops left",
		 what, where(async), done ? (long)(done - c.a) : -1L, c.left);
	if (pipe_fd >= 0)
		rt_check(c.r[2] == -EPIPE, "%s: write gave %ld", what, c.r[2]);
	rt_unregister(&ahu);
}

static void ignored(int async)
{
	static const int dfl_ignored[] = { SIGCHLD, SIGWINCH, SIGURG, SIGCONT };
	int p[2];

	set_disp(SIGUSR1, SIG_IGN);
	runs_through("SIGUSR1 set to SIG_IGN", SIGUSR1, -1, async);
	set_disp(SIGUSR1, SIG_DFL);
	for (size_t i = 0; i < sizeof(dfl_ignored) / sizeof(dfl_ignored[0]);
	     i++) {
		char what[64];

		set_disp(dfl_ignored[i], SIG_DFL);
		snprintf(what, sizeof(what), "%s, ignored by default",
			 strsignal(dfl_ignored[i]));
		runs_through(what, dfl_ignored[i], -1, async);
	}
	/* SIGPIPE ignored: the write fails with EPIPE and the syslet takes
	 * its branch. */
	set_disp(SIGPIPE, SIG_IGN);
	if (pipe(p))
		rt_die("pipe");
	close(p[0]);
	runs_through("a write raising an ignored SIGPIPE", 0, p[1], async);
	close(p[1]);
}

/* Blocked by the caller: goes on; inline, the handler runs once the
 * caller unblocks it. */
static void blocked(int async)
{
	sigset_t set, old;

	set_disp(SIGUSR2, on_sig);
	got = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	runs_through("SIGUSR2 blocked by the caller", SIGUSR2, -1, async);
	rt_check(got == 0, "blocked SIGUSR2 (%s) was handled", where(async));
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!async)
		rt_check(got == SIGUSR2, "blocked SIGUSR2 not handled when "
			 "unblocked");
	set_disp(SIGUSR2, SIG_DFL);
}

/* Handled: the syslet ends after the atom that sent it. */
static void handled(int async)
{
	struct syslet_uatom *ring[8], *done;
	struct async_head_user ahu;
	struct chain c;

	set_disp(SIGUSR1, on_sig);
	got = 0;
	rt_register(&ahu, ring, 8, -1UL);
	build(&c, SIGUSR1, -1, async);
	done = run(&c, ring, 8, async);
	if (kernel_worker(async))
		rt_check(done == &c.a[3] && c.left == 0 && c.r[2] == 0,
			 "handled SIGUSR1 (%s), on the kernel: "
			 "ended at atom %ld, %lu loops left, tgkill %ld",
			 where(async), done ? (long)(done - c.a) : -1L, c.left,
			 c.r[2]);
	else
		rt_check(done == &c.a[2] && c.left == LOOPS && c.r[2] == 0,
			 "handled SIGUSR1 (%s): ended at atom %ld, %lu loops "
			 "left, tgkill %ld", where(async),
			 done ? (long)(done - c.a) : -1L, c.left, c.r[2]);
	/* The user-space engines deliver it in the thread that ran the
	 * chain (uring: the caller or its progress thread).  On the
	 * kernel, gettid() in the atom of a pool thread that carried the
	 * program before this chain is that thread's own ID; a worker
	 * takes no handler, and sends a signal for it alone to the
	 * program (kernel-patch/README; it stayed pending there, never
	 * handled, before 0029). */
	rt_check(wait_got(SIGUSR1), "SIGUSR1 (%s) never handled",
		 where(async));
	rt_unregister(&ahu);
	set_disp(SIGUSR1, SIG_DFL);
}

/* Fatal by default: the process dies of it, as the kernel would make it. */
static void fatal(int sig, int async)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();

	if (pid < 0)
		rt_die("fork");
	if (pid == 0) {
		struct syslet_uatom *ring[8];
		struct async_head_user ahu;
		struct timespec s = { 5, 0 };
		struct chain c;

		set_disp(sig, SIG_DFL);
		rt_register(&ahu, ring, 8, -1UL);
		build(&c, sig, -1, async);
		run(&c, ring, 8, async);
		nanosleep(&s, NULL);
		_exit(3);
	}
	if (waitpid(pid, &st, 0) != pid)
		rt_die("waitpid");
	rt_check(WIFSIGNALED(st) && WTERMSIG(st) == sig,
		 "%s (%s): the process was not killed by it (status %#x)",
		 strsignal(sig), where(async), st);
}

/*
 * Stopping by default (SIGTSTP): the syslet ends after the atom that sent
 * it, as 2007's signal_pending() was true for it, and the process stops
 * once the chain has ended.  In a child with a process group of its own
 * (a stop signal to an orphaned group is dropped); the parent sees it
 * stop and continues it.
 */
static void stops(int async)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		rt_die("fork");
	if (pid == 0) {
		struct syslet_uatom *ring[8], *done;
		struct async_head_user ahu;
		struct chain c;

		if (setpgid(0, 0))
			_exit(5);
		got = 0;
		set_disp(SIGCONT, on_sig);
		set_disp(SIGTSTP, SIG_DFL);
		rt_register(&ahu, ring, 8, -1UL);
		build(&c, SIGTSTP, -1, async);
		done = run(&c, ring, 8, async);
		if (kernel_worker(async) ?
		    done != &c.a[3] || c.left != 0 || c.r[2] != 0 :
		    done != &c.a[2] || c.left != LOOPS || c.r[2] != 0) {
			fprintf(stderr, "SIGTSTP (%s): ended at atom %ld, %lu "
				"loops left, tgkill %ld\n", where(async),
				done ? (long)(done - c.a) : -1L, c.left, c.r[2]);
			_exit(4);
		}
		/* A worker lets it act once the chain has completed, a
		 * moment after the caller saw the completion: wait for
		 * the parent's SIGCONT (5 s at most; 6: none came). */
		for (int i = 0; i < 500 && !got; i++) {
			struct timespec ms10 = { 0, 10 * 1000 * 1000 };

			nanosleep(&ms10, NULL);
		}
		_exit(got == SIGCONT ? 0 : 6);
	}
	if (waitpid(pid, &st, WUNTRACED) != pid)
		rt_die("waitpid");
	rt_check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP,
		 "SIGTSTP (%s): the process did not stop (status %#x)",
		 where(async), st);
	if (WIFSTOPPED(st)) {
		kill(pid, SIGCONT);
		if (waitpid(pid, &st, 0) != pid)
			rt_die("waitpid");
	}
	rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "SIGTSTP (%s): the child's status %#x", where(async), st);
}

int main(void)
{
	rt_init();
	/* 0: inline; 1: async, the caller in async_wait; 2: async, the
	 * caller elsewhere (uring: its progress thread drives). */
	for (int async = 0; async < 3; async++) {
		ignored(async);
		blocked(async);
		handled(async);
		fatal(SIGTERM, async);
		fatal(SIGUSR2, async);
		stops(async);
	}
	return rt_done("sigkinds");
}
