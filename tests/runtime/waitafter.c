/* waitafter.c: async_wait(n) counts only the completions after its call (one already in the ring does not end a wait while another syslet is busy), returns at once with completions in the ring and nothing busy, and returns when the only busy syslet ends on a NO_COMPLETE atom, which queues nothing (seeds/006 sys_async_wait(), complete_uatom()). */
#include <signal.h>
#include "helpers.h"

/*
 * seeds/006: sys_async_wait(n) sets ah->events_left = n and sleeps until
 * list_empty(&ah->busy_async_threads) || !ah->events_left; only
 * complete_uatom() after that decrements events_left, and it returns
 * before doing so for an atom with SYSLET_NO_COMPLETE, whose thread still
 * goes back to the ready list (mark_async_thread_ready(), which wakes the
 * waiter once no thread is busy).
 *
 * A wait that came back too early is seen by what the ring holds when it
 * returns: the syslet it had to wait for is fed 200 ms after the wait
 * starts, so a wait that did not wait finds its slot empty.  A wait that
 * never returns is ended by alarm(): the test then fails on SIGALRM.
 */

struct late {
	int fd;
	long ms;
};

static void *write_late(void *arg)
{
	struct late *l = arg;
	struct timespec ts = { l->ms / 1000, (l->ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	if (write(l->fd, "w", 1) != 1)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

int main(void)
{
	static struct syslet_uatom *ring[4];
	static struct rt_pipe_read a, b, c;
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = sizeof(ring),
		.max_nr_threads = -1UL,
	};
	struct late lb, lc;
	pthread_t t;
	long r;

	rt_init();
	alarm(60);
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("register: %s", strerror(errno));

	/* Two reads in flight; a's completes before the wait. */
	rt_pipe_read_init(&a);
	rt_pipe_read_init(&b);
	rt_pipe_read_exec(&a);
	rt_pipe_read_exec(&b);
	if (write(a.pfd[1], "a", 1) != 1)
		rt_die("write: %s", strerror(errno));
	rt_wait_slot(&ring[0], 0);
	if (ring[0] != &a.atom)
		rt_die("a did not complete into slot 0: %p", (void *)ring[0]);
	/* wait(1) after it: a's completion came before the call and does
	 * not count, b is busy: the wait ends with b's completion. */
	lb.fd = b.pfd[1];
	lb.ms = 200;
	if (pthread_create(&t, NULL, write_late, &lb))
		rt_die("pthread_create");
	r = sys_async_wait(1);
	rt_check(r == 0, "wait(1): %ld %s", r, strerror(errno));
	rt_check(__atomic_load_n(&ring[1], __ATOMIC_ACQUIRE) == &b.atom,
		 "wait(1) came back before b completed (slot 1: %p): a's "
		 "completion, before the call, was counted",
		 (void *)ring[1]);
	pthread_join(t, NULL);
	rt_wait_slot(&ring[1], 1);
	rt_check(a.ret == 1 && b.ret == 1, "reads: %ld %ld", a.ret, b.ret);

	/* Nothing busy, two completions not taken yet: back at once. */
	r = sys_async_wait(1);
	rt_check(r == 0, "wait(1), nothing busy: %ld %s", r, strerror(errno));
	r = sys_async_wait(3);
	rt_check(r == 0, "wait(3), nothing busy: %ld %s", r, strerror(errno));
	ring[0] = ring[1] = NULL;

	/* The only busy syslet ends on a NO_COMPLETE atom: nothing comes
	 * into the ring, and wait(1) returns as nothing is busy. */
	rt_pipe_read_init(&c);
	c.atom.flags |= SYSLET_NO_COMPLETE;
	c.ret = 7;
	rt_pipe_read_exec(&c);
	lc.fd = c.pfd[1];
	lc.ms = 100;
	if (pthread_create(&t, NULL, write_late, &lc))
		rt_die("pthread_create");
	r = sys_async_wait(1);
	rt_check(r == 0, "wait(1) on a nocomplete syslet: %ld %s", r,
		 strerror(errno));
	pthread_join(t, NULL);
	rt_check(__atomic_load_n(&c.ret, __ATOMIC_ACQUIRE) == 1,
		 "wait(1) came back before the nocomplete read ended: %ld",
		 c.ret);
	for (int i = 0; i < 4; i++)
		rt_check(!ring[i], "slot %d holds %p after a nocomplete "
			 "syslet", i, (void *)ring[i]);

	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("unregister: %s", strerror(errno));
	alarm(0);
	return rt_done("waitafter");
}
