/* sigshare.c: a signal sent to the process while the caller runs a syslet inline and another runs async ends the caller's alone: the async one goes on, and the handler runs in the caller's thread. */
#include "helpers.h"
#include <signal.h>

/*
 * One signal makes one task's signal_pending() true in the kernel: the
 * 2007 kernel woke one thread for a signal sent to the process.  Here
 * the threads that run async syslets hold the process's signals back for
 * the program's threads (syslet(7) SIGNALS): a signal for the process
 * ends the chain the caller runs inline, and only that one, even while
 * it stays pending (the caller's engine holds it back between looks)
 * where the async chain's thread could see it too.  Only one sent to
 * that thread itself (tgkill(): sigkinds) ends an async chain.
 */

#define SS_ASYNC_LOOPS	10000000UL	/* the async chain's length */
#define SS_INLINE_LOOPS	2000000000UL	/* ended by the signal */
#define SS_ROUNDS	4

static volatile sig_atomic_t got;
static volatile long got_tid;
static unsigned long left, left2;

static void on_usr1(int sig)
{
	got = sig;
	got_tid = syscall(SYS_gettid);
}

/* Once the inline chain counts, and the async one too (where a thread
 * of the engine runs it meanwhile: 100 ms at most), the signal, to the
 * process; this thread holds it back, so the kernel gives it to another
 * one. */
static void *ss_sender(void *arg)
{
	struct timespec ms = { 0, 1000 * 1000 };
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < 20000 && __atomic_load_n(&left, __ATOMIC_RELAXED) ==
					     SS_INLINE_LOOPS; i++)
		nanosleep(&ms, NULL);
	for (int i = 0; i < 100 && __atomic_load_n(&left2, __ATOMIC_RELAXED) ==
					   SS_ASYNC_LOOPS; i++)
		nanosleep(&ms, NULL);
	kill(getpid(), SIGUSR1);
	return NULL;
}

/* One round: the async chain, then the inline one, and the signal. */
static void ss_round(long me)
{
	static struct syslet_uatom *ring[8];
	struct syslet_uatom a, b, *done;
	struct async_head_user ahu;
	unsigned long minus = -1UL, *lp = &left, *lp2 = &left2, idx = 0;
	long r = 0, r2 = 0;
	pthread_t t;

	got = 0;
	got_tid = 0;
	rt_register(&ahu, ring, 8, -1UL);
	/* b: counts left2 down to 0, async from its first atom. */
	left2 = SS_ASYNC_LOOPS;
	rt_atom(&b, rt_umem_nr(), &r2, SYSLET_ASYNC | SYSLET_STOP_ON_ZERO, &b,
		(unsigned long *)&lp2, &minus, NULL);
	errno = 0;
	done = sys_async_exec(&b);
	if (done || errno)
		rt_die("the async chain did not go async: %p %s",
		       (void *)done, strerror(errno));
	/* a: counts left down, inline, until the signal ends it. */
	left = SS_INLINE_LOOPS;
	rt_atom(&a, rt_umem_nr(), &r, SYSLET_STOP_ON_ZERO, &a,
		(unsigned long *)&lp, &minus, NULL);
	if (pthread_create(&t, NULL, ss_sender, NULL))
		rt_die("pthread_create");
	done = sys_async_exec(&a);
	pthread_join(t, NULL);
	rt_check(done == &a && left > 0 && got == SIGUSR1 && got_tid == me,
		 "the inline chain: ended at %p with %lu left; handler for %d "
		 "in thread %ld, want %ld", (void *)done, left, (int)got,
		 (long)got_tid, me);
	/* The async chain runs to its end and completes once. */
	rt_wait_slot(&ring[0], 1);
	rt_check(ring[0] == &b && left2 == 0 && r2 == 0,
		 "the async chain: slot %p, %lu left, result %ld",
		 (void *)ring[0], left2, r2);
	rt_check(rt_drain(ring, 8, &idx, NULL, 0) == 1 && !ring[1],
		 "more than one completion");
	rt_unregister(&ahu);
}

int main(void)
{
	struct sigaction sa;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	alarm(120);
	/* Which thread sees the signal first is timing: a few rounds. */
	for (int round = 0; round < SS_ROUNDS && !rt_failures; round++)
		ss_round(syscall(SYS_gettid));
	return rt_done("sigshare");
}
