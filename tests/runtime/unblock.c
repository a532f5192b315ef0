/* unblock.c: a syslet that went async and unblocks a signal in an atom takes no signal of the program's: the program still handles it, once, with its handler, and the atom reports the caller's mask. */
#include <signal.h>
#include <time.h>
#include "helpers.h"

/*
 * After a hand-off the kernel backend's chain goes on in a task that
 * blocks every signal, so that the program's signals reach the task
 * that carries the program; an atom must not undo that.  Were the
 * rt_sigprocmask atom to unblock SIGUSR1 in that task, a SIGUSR1 sent
 * to the process while the program blocks it would go to the task
 * running the chain, which has no user context to run a handler in:
 * the signal would be lost (and the kernel port warned).  In 2007 the
 * chain's task was the caller's, with its mask: the atom reports that
 * mask as the old one.  The user-space backends keep a copy of the
 * caller's mask for the syslet (syslet(7), BACKENDS).
 */
#define BIT(sig)	(1UL << ((sig) - 1))

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

int main(void)
{
	static struct syslet_uatom *ring[4];
	struct timespec ms = { 0, 1000 * 1000 };
	struct async_head_user ahu;
	struct sigaction sa;
	struct rt_pipe_read pr;
	struct syslet_uatom m, *done, *got[4];
	/* The kernel's sigset: 64 bits, two words on i386. */
	unsigned long set[2] = { BIT(SIGUSR1), 0 }, old[2] = { ~0UL, ~0UL };
	unsigned long how = SIG_UNBLOCK, setp = (unsigned long)set;
	unsigned long oldp = (unsigned long)old, size = 8;
	unsigned long idx = 0, n = 0;
	sigset_t usr1, usr2;
	long r = 99;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	/* The caller's mask as the atom must see it: SIGUSR2 blocked. */
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	if (sigprocmask(SIG_SETMASK, &usr2, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	rt_register(&ahu, ring, 4, 1);

	/* ASYNC: on a thread, unblock SIGUSR1, then wait for the pipe. */
	rt_pipe_read_init(&pr);
	rt_atom(&m, __NR_rt_sigprocmask, &r, SYSLET_ASYNC, &pr.atom, &how,
		&setp, &oldp);
	m.arg_ptr[3] = &size;
	errno = 0;
	done = sys_async_exec(&m);
	if (done || errno) {
		printf("SKIP: the syslet did not go async (%p, %s)\n",
		       (void *)done, strerror(errno));
		return RT_SKIP;
	}
	/* Let the atom run, then send SIGUSR1 while the program blocks it:
	 * only a task that does not block it can take it. */
	for (int i = 0; i < 2000 && r == 99; i++)
		nanosleep(&ms, NULL);
	rt_check(r == 0, "rt_sigprocmask atom gave %ld", r);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	if (kill(getpid(), SIGUSR1))
		rt_die("kill: %s", strerror(errno));
	for (int i = 0; i < 50; i++)
		nanosleep(&ms, NULL);
	/* The program's handler runs now, as the signal waited for it. */
	if (sigprocmask(SIG_UNBLOCK, &usr1, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	rt_check(handled == 1, "the program's SIGUSR1 handler ran %d times, "
		 "not once: the signal went elsewhere", (int)handled);

	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	while (n == 0) {
		n = rt_drain(ring, 4, &idx, got, 4);
		if (!n && sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	}
	rt_check(n == 1 && got[0] == &pr.atom, "%lu completions", n);
	rt_check(pr.ret == 1, "the read after it gave %ld", pr.ret);
	rt_check((old[0] & (BIT(SIGUSR1) | BIT(SIGUSR2))) == BIT(SIGUSR2),
		 "the atom's old mask %#lx is not the caller's (SIGUSR2 "
		 "blocked, SIGUSR1 not)", old[0]);
	rt_unregister(&ahu);
	rt_pipe_read_close(&pr);
	return rt_done("unblock");
}
