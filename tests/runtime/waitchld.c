/* waitchld.c: a wait4() or waitid() atom run in the caller (SYSLET_SYNC) that reaps a child whose exit sends a caught SIGCHLD ends the syslet after it, its handler run once, as the 2007 kernel's signal_pending() after the call did; with SIGCHLD at its default the syslet goes on; a wait4() that another signal interrupts (no child to reap) stores EINTR and ends it. */
#include <signal.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "helpers.h"

/*
 * seeds/006 exec_atom(): after __exec_atom() a pending signal ends the
 * chain (signal_pending(t) -> stop) with the atom that ran as the last.
 * The 2.6.20 do_wait() scans the children before it looks at signals, so
 * a child whose exit woke it is returned even though its SIGCHLD is then
 * pending: the wait4() atom stores the child's pid, and the syslet ends
 * there; the handler runs when the call returns to user space, i.e. when
 * async_exec() returns.  A plain C program's wait4() returns the pid too,
 * and its handler has run once the call returns.
 *
 * The chain: a0 wait4(-1, &status, 0, NULL) with SYSLET_SYNC (in the
 * caller whatever the pool), a1 getpid().  The child exits 100 ms after
 * the syslet started, while a0 waits.
 */

static volatile sig_atomic_t handled;

static void on_sig(int sig)
{
	(void)sig;
	handled++;
}

struct chain {
	struct syslet_uatom	a[2];
	unsigned long		pid, status, opts;
	long			r0, r1;
	int			st;
};

static void chain_init(struct chain *c)
{
	memset(c, 0, sizeof(*c));
	c->pid = (unsigned long)-1;
	c->status = (unsigned long)&c->st;
	rt_atom(&c->a[0], __NR_wait4, &c->r0, SYSLET_SYNC, &c->a[1], &c->pid,
		&c->status, &c->opts);
	rt_atom(&c->a[1], __NR_getpid, &c->r1, 0, NULL, NULL, NULL, NULL);
	c->r0 = c->r1 = -12345;
}

static struct syslet_uatom *run(struct chain *c)
{
	struct syslet_uatom *done;

	errno = 0;
	done = sys_async_exec(&c->a[0]);
	if (!done)
		rt_die("the SYNC wait4 chain went async: %s", strerror(errno));
	return done;
}

static const char *which(const struct chain *c, const struct syslet_uatom *d)
{
	return d == &c->a[0] ? "a0 (wait4)" : d == &c->a[1] ? "a1 (getpid)" :
	       "?";
}

/* A caught SIGCHLD, with SA_RESTART or without: the chain ends at a0. */
static void caught(int flags)
{
	struct sigaction sa = { .sa_handler = on_sig, .sa_flags = flags };
	struct syslet_uatom *done;
	struct chain c;
	pid_t child;

	sigaction(SIGCHLD, &sa, NULL);
	handled = 0;
	chain_init(&c);
	child = rt_child_exits_later(7);
	done = run(&c);
	rt_check(c.r0 == child && WIFEXITED(c.st) && WEXITSTATUS(c.st) == 7,
		 "%s: wait4 stored %ld (status %#x), the child is %d",
		 flags ? "SA_RESTART" : "no SA_RESTART", c.r0, c.st,
		 (int)child);
	rt_check(done == &c.a[0] && c.r1 == -12345,
		 "%s: the chain ended at %s, getpid stored %ld: the SIGCHLD "
		 "that came with the child ends the syslet after wait4",
		 flags ? "SA_RESTART" : "no SA_RESTART", which(&c, done),
		 c.r1);
	rt_check(handled == 1, "%s: handler ran %d time(s), not once",
		 flags ? "SA_RESTART" : "no SA_RESTART", (int)handled);
}

/* waitid(P_ALL, 0, &info, WEXITED), caught SIGCHLD: the same, with
 * the child in the siginfo and 0 stored. */
static void caught_waitid(void)
{
	struct sigaction sa = { .sa_handler = on_sig };
	struct syslet_uatom *done;
	unsigned long idtype = P_ALL, id = 0, infop, opts = WEXITED;
	siginfo_t info;
	struct chain c;
	pid_t child;

	sigaction(SIGCHLD, &sa, NULL);
	handled = 0;
	chain_init(&c);
	memset(&info, 0, sizeof(info));
	infop = (unsigned long)&info;
	rt_atom(&c.a[0], __NR_waitid, &c.r0, SYSLET_SYNC, &c.a[1], &idtype,
		&id, &infop);
	c.a[0].arg_ptr[3] = &opts;
	child = rt_child_exits_later(9);
	done = run(&c);
	rt_check(c.r0 == 0 && info.si_pid == child && info.si_status == 9 &&
		 info.si_code == CLD_EXITED,
		 "waitid stored %ld, si_pid %d (child %d), si_status %d",
		 c.r0, (int)info.si_pid, (int)child, info.si_status);
	rt_check(done == &c.a[0] && c.r1 == -12345 && handled == 1,
		 "waitid: the chain ended at %s, getpid stored %ld, handler "
		 "ran %d time(s): a0, not run, once", which(&c, done), c.r1,
		 (int)handled);
}

/* A tracer's wait4() without WUNTRACED returns for its tracee's stop,
 * which sends no SIGCHLD under SA_NOCLDSTOP: the wait must not wait for
 * a signal that never comes (alarm() ends a test that hangs).  No
 * signal: the chain goes on to a1. */
static void tracee_stop(void)
{
	struct sigaction sa = { .sa_handler = on_sig,
				.sa_flags = SA_NOCLDSTOP };
	struct syslet_uatom *done;
	struct chain c;
	pid_t child;
	int st;

	sigaction(SIGCHLD, &sa, NULL);
	handled = 0;
	chain_init(&c);
	fflush(NULL);
	child = fork();
	if (child < 0)
		rt_die("fork: %s", strerror(errno));
	if (child == 0) {
		struct timespec later = { 0, 100 * 1000 * 1000 };

		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(77);
		nanosleep(&later, NULL);
		raise(SIGSTOP);
		_exit(0);
	}
	c.pid = (unsigned long)child;
	alarm(10);
	done = run(&c);
	alarm(0);
	if (c.r0 == child && WIFEXITED(c.st) && WEXITSTATUS(c.st) == 77) {
		printf("waitchld: PTRACE_TRACEME refused here: tracee case "
		       "skipped\n");
		return;
	}
	rt_check(c.r0 == child && WIFSTOPPED(c.st) && done == &c.a[1] &&
		 c.r1 == getpid() && handled == 0,
		 "tracee: wait4 stored %ld (status %#x, child %d), ended at "
		 "%s, handler ran %d time(s)", c.r0, c.st, (int)child,
		 which(&c, done), (int)handled);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
}

/* wait4(-1) with SIGCHLD caught (SA_RESTART), SIGUSR1 caught with
 * SA_RESTART and sent at 50 ms, and SIGUSR2 caught without it (never
 * sent): the wait is restarted after SIGUSR1's handler, as the same
 * wait4() outside a syslet is (syslet(7): a handler with SA_RESTART
 * restarts the call and the syslet goes on), then returns the child,
 * whose SIGCHLD ends the syslet there. */
static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

/* A thread's start: SIGUSR1 to the process after @arg milliseconds. */
static void *usr1_after(void *arg)
{
	struct timespec ts = { 0, (long)(intptr_t)arg * 1000 * 1000 };

	nanosleep(&ts, NULL);
	kill(getpid(), SIGUSR1);
	return NULL;
}

static void mixed_restart(void)
{
	struct sigaction chld = { .sa_handler = on_sig,
				  .sa_flags = SA_RESTART };
	struct sigaction u1 = { .sa_handler = on_usr1,
				.sa_flags = SA_RESTART };
	struct sigaction u2 = { .sa_handler = on_sig };
	struct syslet_uatom *done;
	struct chain c;
	pthread_t t;
	pid_t child;

	sigaction(SIGCHLD, &chld, NULL);
	sigaction(SIGUSR1, &u1, NULL);
	sigaction(SIGUSR2, &u2, NULL);
	handled = usr1 = 0;
	chain_init(&c);
	child = rt_child_exits_later(4);
	if (pthread_create(&t, NULL, usr1_after, (void *)40))
		rt_die("pthread_create");
	done = run(&c);
	pthread_join(t, NULL);
	/* The kernel stores -EINTR for an atom cut short and ends the
	 * syslet, SA_RESTART or not (kernel-patch/README, deliberate
	 * difference 5; 2007 stored ERESTARTSYS): the user-space engines
	 * restart it, as the same wait4() outside a syslet is. */
	if (!strcmp(syslet_backend_name(), "kernel"))
		rt_check(c.r0 == -EINTR && done == &c.a[0] &&
			 c.r1 == -12345 && usr1 == 1,
			 "mixed SA_RESTART (kernel): wait4 stored %ld, ended "
			 "at %s, SIGUSR1 handled %d: -EINTR, a0, once",
			 c.r0, which(&c, done), (int)usr1);
	else
		rt_check(c.r0 == child && done == &c.a[0] &&
			 c.r1 == -12345 && usr1 == 1 && handled == 1,
			 "mixed SA_RESTART: wait4 stored %ld (child %d), ended "
			 "at %s, SIGUSR1 handled %d, SIGCHLD %d: the wait "
			 "restarted, the child, a0, once each", c.r0,
			 (int)child, which(&c, done), (int)usr1,
			 (int)handled);
	/* Not reaped by a wait that failed: not left to the next case. */
	if (c.r0 != child)
		waitpid(child, NULL, 0);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
}

/* wait4(pid) for a child that another thread forked, which has SIGCHLD
 * open too: the signal may go to that thread, and the caller's wait
 * must then not wait for a signal that went elsewhere (alarm() ends a
 * test that hangs). */
struct forker {
	pid_t		child;
	int		go[2];
};

static void *fork_main(void *arg)
{
	struct forker *f = arg;
	struct timespec ts = { 0, 400 * 1000 * 1000 };
	sigset_t chld;

	f->child = rt_child_exits_later(6);
	if (write(f->go[1], "f", 1) != 1)
		_exit(RT_FAIL);
	/* Here SIGCHLD comes, while this thread sleeps. */
	nanosleep(&ts, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, NULL);
	return NULL;
}

static void other_forker(void)
{
	struct sigaction sa = { .sa_handler = on_sig };
	struct syslet_uatom *done;
	struct forker f;
	struct chain c;
	pthread_t t;
	char b;

	sigaction(SIGCHLD, &sa, NULL);
	handled = 0;
	chain_init(&c);
	if (pipe(f.go))
		rt_die("pipe: %s", strerror(errno));
	if (pthread_create(&t, NULL, fork_main, &f))
		rt_die("pthread_create");
	if (read(f.go[0], &b, 1) != 1)
		rt_die("read: %s", strerror(errno));
	c.pid = (unsigned long)f.child;
	alarm(10);
	done = run(&c);
	alarm(0);
	pthread_join(t, NULL);
	/* Which thread took SIGCHLD is the kernel's choice: the chain
	 * ended at a0 if the caller did, else went on. */
	rt_check(c.r0 == f.child && WIFEXITED(c.st) &&
		 WEXITSTATUS(c.st) == 6 && handled == 1 &&
		 (done == &c.a[0] || (done == &c.a[1] && c.r1 == getpid())),
		 "another thread's child: wait4 stored %ld (child %d), ended "
		 "at %s, getpid %ld, handler ran %d time(s)", c.r0,
		 (int)f.child, which(&c, done), c.r1, (int)handled);
	close(f.go[0]);
	close(f.go[1]);
}

/* SIGCHLD at its default: never pending, the chain goes on to a1. */
static void dfl(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	struct syslet_uatom *done;
	struct chain c;
	pid_t child;

	sigaction(SIGCHLD, &sa, NULL);
	chain_init(&c);
	child = rt_child_exits_later(5);
	done = run(&c);
	rt_check(c.r0 == child && done == &c.a[1] && c.r1 == getpid(),
		 "SIG_DFL: wait4 %ld (child %d), ended at %s, getpid %ld",
		 c.r0, (int)child, which(&c, done), c.r1);
}

/* SIGUSR1 (no SA_RESTART) from a thread while wait4 waits for a child
 * that stays: the wait is interrupted, EINTR stored, the chain ends. */

static void other_signal(void)
{
	struct sigaction sa = { .sa_handler = on_sig };
	struct syslet_uatom *done;
	struct chain c;
	pthread_t t;
	pid_t child;
	int st;

	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	handled = 0;
	chain_init(&c);
	fflush(NULL);
	child = fork();
	if (child < 0)
		rt_die("fork: %s", strerror(errno));
	if (child == 0) {
		pause();
		_exit(0);
	}
	c.pid = (unsigned long)child;
	if (pthread_create(&t, NULL, usr1_after, (void *)50))
		rt_die("pthread_create");
	done = run(&c);
	pthread_join(t, NULL);
	rt_check(c.r0 == -EINTR && done == &c.a[0] && handled == 1,
		 "SIGUSR1: wait4 stored %ld, ended at %s, handler ran %d "
		 "time(s): EINTR, a0, once", c.r0, which(&c, done),
		 (int)handled);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	sigset_t none;

	rt_init();
	/* The handlers' counts are read while SIGCHLD and SIGUSR1 are
	 * open: a signal left over from an earlier case would show. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	rt_register(&ahu, ring, 8, 2);
	caught(0);
	caught(SA_RESTART);
	caught_waitid();
	tracee_stop();
	mixed_restart();
	other_forker();
	dfl();
	other_signal();
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	return rt_done("waitchld");
}
