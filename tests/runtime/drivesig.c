/* drivesig.c: a signal sent to the program's thread while it waits in async_wait() never ends a syslet that went async, even one whose atoms the waiting thread itself runs (uring's driver). */
#include "helpers.h"

/*
 * syslet(7), DIFFERENCES: on emul and uring the program's thread keeps
 * its ID after a hand-off, and a signal sent to it (pthread_kill(),
 * raise(), tgkill()) acts there, its handler once, while the syslet goes
 * on; only a signal sent to the thread that runs the syslet ends it.
 * uring runs the cheap atoms of an async syslet in whichever thread
 * drives its ring, the caller inside async_wait() included: there a
 * signal for the program's thread ended the async syslet in the middle of
 * a loop.  The syslet: an ASYNC umem_add counting passes, and a loop
 * gate counting up from -N to 0, long enough (20 million passes) to be
 * running when the signal comes 20 ms in.
 */

#define N	(20UL * 1000 * 1000)

static volatile sig_atomic_t hits;
static volatile long hit_tid;

static void on_usr1(int sig)
{
	(void)sig;
	hits++;
	hit_tid = syscall(SYS_gettid);
}

static void *kicker(void *arg)
{
	struct timespec ms20 = { 0, 20 * 1000 * 1000 };

	nanosleep(&ms20, NULL);
	pthread_kill(*(pthread_t *)arg, SIGUSR1);
	return NULL;
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2];
	unsigned long n = 0, c = -N, one = 1;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	long rn = 0, rc = 0;
	struct sigaction sa;
	pthread_t self = pthread_self(), t;
	sigset_t s, old;

	rt_init();
	rt_register(&ahu, ring, 8, -1UL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	rt_atom(&a[0], rt_umem_nr(), &rn, SYSLET_ASYNC, &a[1], &pn, &one,
		NULL);
	rt_atom(&a[1], rt_umem_nr(), &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	errno = 0;
	if (sys_async_exec(&a[0]) || errno)
		rt_die("the ASYNC atom did not go async: %s", strerror(errno));
	/* The kicker never takes the signal itself. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	if (pthread_create(&t, NULL, kicker, &self))
		rt_die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (!__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	pthread_join(t, NULL);
	rt_check(ring[0] == &a[1] && n == N && c == 0,
		 "the async syslet ended at %p (loop gate %p) after %lu of %lu "
		 "passes", (void *)ring[0], (void *)&a[1], n, N);
	rt_check(hits == 1 && hit_tid == syscall(SYS_gettid),
		 "the handler ran %d times, in thread %ld (the program's: %ld)",
		 (int)hits, (long)hit_tid, (long)syscall(SYS_gettid));
	rt_unregister(&ahu);
	return rt_done("drivesig");
}
