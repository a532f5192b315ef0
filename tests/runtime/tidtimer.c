/* tidtimer.c: a POSIX timer that signals the program's thread (SIGEV_THREAD_ID, its gettid()) still reaches it, in that thread, after its syslets went async. */
#include "helpers.h"
#include <signal.h>
#include <time.h>

/*
 * timer_create() with SIGEV_THREAD_ID names a thread by the ID gettid()
 * gave it (profilers, language runtimes' per-thread timers).  On the
 * kernel backend the program's user context moves at a hand-off and
 * keeps its TID (kernel-patch/README: tgkill() and the others that name
 * a thread by TID find the task that carries it); a timer's signal must
 * follow it too, and not go to the task the TID was born with, which
 * after the first hand-off is a worker that blocks every signal.  The
 * user-space backends never move the program's thread.
 *
 * The timer is made before any hand-off and fires every 5 ms; its
 * handler must run in the program's thread before and after a few
 * syslets went async (at most 10 s of waiting each time: no timing is
 * measured, the signal must come at all).
 */

static volatile sig_atomic_t got;
static volatile pid_t got_tid;

static void on_timer(int sig)
{
	(void)sig;
	got++;
	got_tid = (pid_t)syscall(SYS_gettid);
}

/* Until the handler ran @n more times, 10 s at most; how many ran. */
static int wait_ticks(int n)
{
	struct timespec ms = { 0, 1000 * 1000 };
	int start = got;

	for (int i = 0; i < 10000 && got - start < n; i++)
		nanosleep(&ms, NULL);
	return got - start;
}

int main(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a, *done, *out[4];
	struct sigaction sa;
	struct sigevent sev;
	struct itimerspec its;
	unsigned long idx = 0;
	timer_t timer;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	long ret = 0;
	int went = 0, ticks;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGUSR1;
#ifdef sigev_notify_thread_id
	sev.sigev_notify_thread_id = tid;
#else
	sev._sigev_un._tid = tid;
#endif
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer))
		rt_die("timer_create: %s", strerror(errno));
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 5 * 1000 * 1000;
	its.it_interval.tv_nsec = 5 * 1000 * 1000;
	if (timer_settime(timer, 0, &its, NULL))
		rt_die("timer_settime: %s", strerror(errno));
	ticks = wait_ticks(3);
	if (ticks < 3)
		rt_die("the timer's signal came %d times before any syslet",
		       ticks);

	rt_register(&ahu, ring, 4, 1);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	for (int round = 0; round < 3; round++) {
		errno = 0;
		done = sys_async_exec(&a);
		if (errno)
			rt_die("async_exec: %s", strerror(errno));
		if (!done) {
			went++;
			if (sys_async_wait(~0UL))
				rt_die("async_wait: %s", strerror(errno));
			rt_check(rt_drain(ring, 4, &idx, out, 4) == 1 &&
				 out[0] == &a, "the completion is not in the ring");
		}
		got_tid = 0;
		ticks = wait_ticks(3);
		rt_check(ticks >= 3,
			 "round %d: the timer's signal came %d times in 10 s "
			 "after %d syslets went async", round, ticks, went);
		rt_check(!ticks || got_tid == (pid_t)syscall(SYS_gettid),
			 "round %d: the handler ran in thread %d, the program's "
			 "is %d", round, (int)got_tid,
			 (int)syscall(SYS_gettid));
		if (ticks < 3)
			break;
	}
	timer_delete(timer);
	rt_unregister(&ahu);
	printf("tidtimer: %d syslets went async\n", went);
	return rt_done("tidtimer");
}
