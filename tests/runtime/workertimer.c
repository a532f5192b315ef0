/* workertimer.c: a POSIX timer made for the ID that gettid() gave an atom after a hand-off (SIGEV_THREAD_ID) signals the program, as a tgkill() of that ID does. */
#include "helpers.h"
#include <signal.h>
#include <time.h>

/*
 * After a hand-off the chain runs on a thread of its own: a pool thread
 * on the kernel (whose gettid() is its own ID once it carried the
 * program before this chain), a worker thread on the user-space
 * engines.  A signal for that thread alone is the program's
 * (kernel-patch 0029: a write's SIGPIPE, a tgkill() of that ID): it
 * reaches the program as kill() would send it, and the handler runs.  A
 * timer made with SIGEV_THREAD_ID for that ID is such a signal too,
 * whatever path the kernel queues it by; it must not stay pending for
 * good on a thread that blocks every signal and never runs a handler.
 *
 * On the user-space engines a worker is a library thread that blocks
 * every signal while it waits for work, and a timer naming it is not
 * redirected (syslet(7)): the test skips there.
 *
 * Chains of SYSLET_ASYNC getppid, gettid run until one went async and
 * its gettid() is not the program's (at most 50); a timer of 5 ms for
 * that ID must then run the handler 3 times (up to 10 s of waiting: no
 * time is measured, the signal must come at all).
 */

static volatile sig_atomic_t got;

static void on_timer(int sig)
{
	(void)sig;
	got++;
}

static struct rt_ring8 ring;

int main(void)
{
	struct timespec ms = { 0, 1000 * 1000 };
	struct syslet_uatom a[2], *done;
	struct async_head_user ahu;
	struct sigaction sa;
	struct sigevent sev;
	struct itimerspec its;
	timer_t timer;
	pid_t me = (pid_t)syscall(SYS_gettid);
	long r0 = 0, wtid = 0;
	int start, i;

	rt_init();
	if (strcmp(syslet_backend_name(), "kernel")) {
		printf("SKIP: backend %s: a timer for a worker thread's ID is "
		       "not the program's on the user-space engines\n",
		       syslet_backend_name());
		return RT_SKIP;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));

	rt_register(&ahu, ring.slot, 8, -1UL);
	rt_atom(&a[0], SYS_getppid, &r0, SYSLET_ASYNC, &a[1], NULL, NULL,
		NULL);
	rt_atom(&a[1], SYS_gettid, &wtid, 0, NULL, NULL, NULL, NULL);
	for (i = 0; i < 50; i++) {
		wtid = 0;
		errno = 0;
		done = sys_async_exec(&a[0]);
		if (errno)
			rt_die("async_exec: %s", strerror(errno));
		if (!done) {
			rt_wait_slot(&ring.slot[ring.next], 1);
			done = ring.slot[ring.next];
			ring.slot[ring.next] = NULL;
			ring.next = (ring.next + 1) % 8;
			if (wtid > 0 && wtid != me)
				break;
		}
		nanosleep(&ms, NULL);
	}
	if (i == 50) {
		printf("SKIP: no chain ran on a thread with an ID of its own "
		       "in 50 tries\n");
		return RT_SKIP;
	}
	rt_check(done == &a[1], "the chain ended at %p", (void *)done);

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGUSR1;
#ifdef sigev_notify_thread_id
	sev.sigev_notify_thread_id = (pid_t)wtid;
#else
	sev._sigev_un._tid = (pid_t)wtid;
#endif
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer))
		rt_die("timer_create for the worker's ID %ld: %s", wtid,
		       strerror(errno));
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 5 * 1000 * 1000;
	its.it_interval.tv_nsec = 5 * 1000 * 1000;
	start = got;
	if (timer_settime(timer, 0, &its, NULL))
		rt_die("timer_settime: %s", strerror(errno));
	for (i = 0; i < 10000 && got - start < 3; i++)
		nanosleep(&ms, NULL);
	timer_delete(timer);
	rt_check(got - start >= 3, "a timer for the worker's ID %ld (the "
		 "program is %d) ran the handler %d times in 10 s", wtid,
		 (int)me, (int)(got - start));
	rt_unregister(&ahu);
	return rt_done("workertimer");
}
