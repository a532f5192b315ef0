/* waitmoved.c: a completion kept behind a full slot that async_wait(n) itself moves into the ring, the slot having been cleared, counts towards n: the wait returns with it in the ring instead of waiting for a syslet still busy. */
#include "helpers.h"
#include <pthread.h>

/*
 * sys_async_wait(3): the wait returns once n completions have been
 * stored into the ring after the call began.  A completion that found
 * its slot full waits outside the ring (syslet(7): 2007 dropped it) and
 * is stored when the ring's thread next calls async_exec or async_wait
 * after the slot was cleared.  A reaper that clears the slots it read and
 * then waits for the next completion must get that one: before, the wait
 * moved it into the ring without counting it, and went on waiting for
 * another syslet (here D, whose byte comes 1 s later; in a server, maybe
 * never) while the completion it wanted sat in the ring.
 *
 * A ring of two slots, so at most two cachemiss threads: A and B
 * complete into slots 0 and 1; C and D go async, C completes behind the
 * full slot 0 (kept); the program takes A from slot 0 and waits for one.
 */

static struct syslet_uatom *ring[2];
static struct rt_pipe_read pr[4];

static void *late_d(void *arg)
{
	struct timespec ts = { 1, 0 };

	(void)arg;
	nanosleep(&ts, NULL);
	if (write(pr[3].pfd[1], "d", 1) != 1)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

/* Until @atom's read gave its byte (its result stored), 2 s at most. */
static void until_read(struct rt_pipe_read *p)
{
	struct timespec ms = { 0, 1000 * 1000 };

	for (int i = 0; i < 2000 && !__atomic_load_n(&p->ret, __ATOMIC_ACQUIRE);
	     i++)
		nanosleep(&ms, NULL);
	if (p->ret != 1)
		rt_die("a read's result is %ld, not 1", p->ret);
}

int main(void)
{
	struct async_head_user ahu;
	struct timespec settle = { 0, 50 * 1000 * 1000 };
	pthread_t t;
	long d_ret;

	rt_init();
	rt_register(&ahu, ring, 2, -1UL);
	for (int i = 0; i < 4; i++)
		rt_pipe_read_init(&pr[i]);
	for (int i = 0; i < 2; i++) {
		rt_pipe_read_exec(&pr[i]);
		if (write(pr[i].pfd[1], "x", 1) != 1)
			rt_die("write: %s", strerror(errno));
		rt_wait_slot(&ring[i], 1);
	}
	rt_check(ring[0] == &pr[0].atom && ring[1] == &pr[1].atom,
		 "A and B not in slots 0 and 1: %p %p", (void *)ring[0],
		 (void *)ring[1]);
	/* Their threads back in the pool (an async_wait with nothing busy
	 * returns once none is), C and D go async. */
	if (sys_async_wait(1))
		rt_die("async_wait: %s", strerror(errno));
	rt_pipe_read_exec(&pr[2]);
	rt_pipe_read_exec(&pr[3]);
	if (write(pr[2].pfd[1], "c", 1) != 1)
		rt_die("write: %s", strerror(errno));
	until_read(&pr[2]);
	nanosleep(&settle, NULL);
	rt_check(ring[0] == &pr[0].atom, "C's completion overwrote slot 0 "
		 "(%p)", (void *)ring[0]);

	/* A consumed; wait for the next completion. */
	ring[0] = NULL;
	if (pthread_create(&t, NULL, late_d, NULL))
		rt_die("pthread_create");
	if (sys_async_wait(1))
		rt_die("async_wait(1): %s", strerror(errno));
	d_ret = __atomic_load_n(&pr[3].ret, __ATOMIC_ACQUIRE);
	rt_check(ring[0] == &pr[2].atom, "after async_wait(1), slot 0 holds "
		 "%p, not C's kept completion %p", (void *)ring[0],
		 (void *)&pr[2].atom);
	rt_check(d_ret == 0, "async_wait(1) returned only once D's read had "
		 "ended (its result %ld), with C's completion in the ring "
		 "since the wait began", d_ret);
	pthread_join(t, NULL);
	/* D ends behind B's full slot 1; unregister drops it. */
	rt_unregister(&ahu);
	for (int i = 0; i < 4; i++)
		rt_pipe_read_close(&pr[i]);
	return rt_done("waitmoved");
}
