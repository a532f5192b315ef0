/* sigloop.c: a signal ends a long-running chain after the current atom, and interrupts a blocking call in it (-EINTR). */
#include "helpers.h"
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void *watchdog(void *arg)
{
	(void)arg;
	sleep(30);
	fprintf(stderr, "FAIL: the signal did not stop the chain in 30s\n");
	_exit(RT_FAIL);
}

int main(void)
{
	struct syslet_uatom *ring[4], a, *done;
	struct async_head_user ahu;
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	unsigned long left = -1UL / 2, minus = -1UL, *lp = &left;
	pthread_t wd;
	long ret;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: reads get EINTR */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		rt_die("sigaction");
	/* The watchdog blocks SIGALRM, so that the process-directed signal
	 * goes to the thread running the chain. */
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (pthread_create(&wd, NULL, watchdog, NULL))
		rt_die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	rt_register(&ahu, ring, 4, -1UL);

	/* A self-looping umem_add chain that would run for ages. */
	rt_atom(&a, rt_umem_nr(), &ret, SYSLET_STOP_ON_ZERO, &a,
		(unsigned long *)&lp, &minus, NULL);
	if (setitimer(ITIMER_REAL, &it, NULL))
		rt_die("setitimer");
	done = sys_async_exec(&a);
	rt_check(done == &a, "signal-stopped chain returned %p (%s)",
		 (void *)done, strerror(errno));
	rt_check(left != 0 && left < -1UL / 2, "chain did not run or ended: %lu",
		 left);
	rt_check(alarms == 1, "handler ran %d times", (int)alarms);
	rt_check((long)left == ret, "ret %ld left %lu", ret, left);

	/* A blocking read in the calling thread (SYNC): -EINTR stops it. */
	int pfd[2];
	unsigned long fd, buf, len = 1, one = 1, cnt = 0, *cp = &cnt;
	char c;
	struct syslet_uatom b;

	if (pipe(pfd))
		rt_die("pipe");
	fd = (unsigned long)pfd[0];
	buf = (unsigned long)&c;
	rt_atom(&a, __NR_read, &ret, SYSLET_SYNC, &b, &fd, &buf, &len);
	rt_atom(&b, rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&cp, &one,
		NULL);
	alarms = 0;
	if (setitimer(ITIMER_REAL, &it, NULL))
		rt_die("setitimer");
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == -EINTR, "SYNC read: %p ret %ld",
		 (void *)done, ret);
	rt_check(cnt == 0, "the chain went on after EINTR");
	rt_check(alarms == 1, "handler ran %d times", (int)alarms);
	rt_check(ring[0] == NULL, "a stopped inline chain queued %p",
		 (void *)ring[0]);
	rt_unregister(&ahu);
	return rt_done("sigloop");
}
