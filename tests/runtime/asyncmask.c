/* asyncmask.c: an rt_sigprocmask atom of a syslet that went async sees the caller's mask and changes the syslet's own, never the program's thread's. */
#include "helpers.h"
#include <pthread.h>
#include <signal.h>
#include <time.h>

/*
 * In 2007 the task that went on with a syslet after a cachemiss was the
 * caller's own task, with the caller's signal mask; an rt_sigprocmask
 * atom there reported that mask as the old one and changed that task's,
 * which from then on decided which signals ended the syslet, while the
 * program went on in another task with its mask untouched.  The caller
 * blocks SIGUSR2; the syslet waits for a pipe, then blocks SIGUSR1 and
 * reads its mask back.  Each case is run with the caller waiting in
 * async_wait() and asleep (on uring: the caller, then the progress
 * thread, drive the ring).
 */

#define ENTRIES	8
#define BIT(sig) (1UL << ((sig) - 1))

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct async_head_user ahu;
	unsigned long idx = 0;
	sigset_t usr2, now;

	rt_init();
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &usr2, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	rt_register(&ahu, ring, ENTRIES, 2);
	for (int waits = 1; waits >= 0; waits--) {
		const char *how_run = waits ? "caller in async_wait" :
					      "caller asleep";
		/* The kernel's sigset: 64 bits, two words on i386. */
		unsigned long set[2] = { BIT(SIGUSR1), 0 };
		unsigned long old[2] = { ~0UL, ~0UL }, old2[2] = { ~0UL, ~0UL };
		unsigned long how = SIG_BLOCK, setp = (unsigned long)set;
		unsigned long oldp = (unsigned long)old;
		unsigned long old2p = (unsigned long)old2, null = 0, size = 8;
		struct syslet_uatom m[2], *done = NULL;
		struct rt_pipe_read pr;
		long r[2] = { 99, 99 };
		pthread_t t;

		rt_pipe_read_init(&pr);
		rt_atom(&m[0], SYS_rt_sigprocmask, &r[0], 0, &m[1], &how,
			&setp, &oldp);
		m[0].arg_ptr[3] = &size;
		rt_atom(&m[1], SYS_rt_sigprocmask, &r[1], 0, NULL, &how,
			&null, &old2p);
		m[1].arg_ptr[3] = &size;
		pr.atom.next = &m[0];
		rt_pipe_read_exec(&pr);
		rt_pipe_write_late(&pr, &t);
		rt_wait_slot(&ring[idx], waits);
		rt_pipe_write_join(t);
		rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
			 done == &m[1], "%s: completion %p, want %p", how_run,
			 (void *)done, (void *)&m[1]);
		rt_check(r[0] == 0 && r[1] == 0, "%s: results %ld %ld",
			 how_run, r[0], r[1]);
		rt_check((old[0] & (BIT(SIGUSR1) | BIT(SIGUSR2))) ==
			 BIT(SIGUSR2),
			 "%s: the old mask %#lx is not the caller's (SIGUSR2 "
			 "%#lx alone)", how_run, old[0], BIT(SIGUSR2));
		rt_check((old2[0] & (BIT(SIGUSR1) | BIT(SIGUSR2))) ==
			 (BIT(SIGUSR1) | BIT(SIGUSR2)),
			 "%s: the syslet's mask %#lx after it blocked SIGUSR1",
			 how_run, old2[0]);
		sigprocmask(SIG_BLOCK, NULL, &now);
		rt_check(!sigismember(&now, SIGUSR1) &&
			 sigismember(&now, SIGUSR2),
			 "%s: the program's mask changed", how_run);
		rt_pipe_read_close(&pr);
	}
	rt_unregister(&ahu);
	return rt_done("asyncmask");
}
