/* parked.c: once async_wait() is back with nothing busy, the thread of the chain that ended is parked again: the next ASYNC atom is handed off, never run in the caller. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <time.h>
#include "helpers.h"

/*
 * 2007's mark_async_thread_ready() moved a thread from the busy list to
 * the ready list under the head's lock, and async_wait() was back only
 * once the busy list was empty: every thread was ready by then, and an
 * ASYNC atom right after found one (pick_new_async_head()).  The kernel
 * port once counted a chain off, woke the waiter and only then parked
 * the thread; on a preemptible kernel the woken caller ran first, and
 * its next ASYNC atom found no thread and ran in place (patch 0019).
 * Caller and pool share one CPU here, so that the wake-up preempts
 * whatever has not been done under the lock.
 */
#define PK_ROUNDS	1000
#define PK_SECONDS	30.0

static struct syslet_uatom *ring[4];
static unsigned long idx;

/* One CPU for the caller and every thread made after it: the first
 * allowed.  Without it the test still runs, with less chance of
 * showing a thread that is late. */
static void pk_one_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			CPU_ZERO(&set);
			CPU_SET(c, &set);
			(void)sched_setaffinity(0, sizeof(set), &set);
			return;
		}
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a, *done, *got[4];
	unsigned long rounds = 0, inplace = 0;
	bool waited = false;
	long ret = 0;
	double t0;

	rt_init();
	pk_one_cpu();
	rt_register(&ahu, ring, 4, 1);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);

	t0 = rt_now();
	for (; rounds < PK_ROUNDS && rt_now() - t0 < PK_SECONDS; rounds++) {
		errno = 0;
		ret = 0;
		done = sys_async_exec(&a);
		rt_check(!errno, "async_exec: %s", strerror(errno));
		if (done) {
			/* Ran in the caller: fine only until the pool's one
			 * thread has ended a chain (it may still be starting). */
			rt_check(done == &a, "async_exec gave %p", (void *)done);
			inplace += waited;
			waited = false;
			continue;
		}
		/* More than a ring gives: back once nothing is busy. */
		if (sys_async_wait(~0UL))
			rt_die("async_wait: %s", strerror(errno));
		rt_check(rt_drain(ring, 4, &idx, got, 4) == 1 && got[0] == &a,
			 "round %lu: the completion is not in the ring",
			 rounds);
		rt_check(ret == (long)getppid(), "getppid gave %ld", ret);
		waited = true;
	}
	rt_check(inplace == 0,
		 "%lu of %lu ASYNC atoms ran in the caller after async_wait() "
		 "was back with nothing busy: 2007 had the thread ready",
		 inplace, rounds);
	rt_unregister(&ahu);
	printf("parked: %lu rounds, %lu in the caller\n", rounds, inplace);
	return rt_done("parked");
}
