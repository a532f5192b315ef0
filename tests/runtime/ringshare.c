/* ringshare.c: two threads' heads registered on the same ring memory: each writes at its own index, never over the other's completion, and one that finds its slot full waits for it (seeds/006 complete_uatom(): the head's curr_ring_idx, the slot's NULL test). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libsyslet.h>
#include "helpers.h"

/*
 * seeds/006: async_head_init() takes any ring the thread can mlock, so
 * two threads may register the same one; each head keeps its own
 * curr_ring_idx, and complete_uatom() writes at that index only if the
 * slot is NULL (2007 dropped the completion otherwise; ours keeps it until
 * the slot is cleared and the head's thread next calls async_exec or
 * async_wait: syslet(7)).  So with A's and B's heads on one ring of four
 * slots: A's first completion takes slot 0, B's first finds slot 0 full
 * and waits (slot 1 stays NULL: a head never looks for a free slot), and
 * lands in slot 0 once it is cleared; their second ones both aim at
 * slot 1, in the same way.
 *
 * Each head's calls are made in its own thread: a small mailbox runs a
 * step there and waits for it.
 */

#define ENTRIES 4

static struct syslet_uatom *ring[ENTRIES];

struct head {
	pthread_t		th;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	void			(*step)(struct head *);
	struct async_head_user	ahu;
	struct rt_pipe_read	pr[2];
	int			quit;
};

static void *head_main(void *arg)
{
	struct head *h = arg;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		while (!h->step && !h->quit)
			pthread_cond_wait(&h->cond, &h->lock);
		if (h->quit)
			break;
		h->step(h);
		h->step = NULL;
		pthread_cond_broadcast(&h->cond);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Run @step in @h's thread and wait for it. */
static void in_thread(struct head *h, void (*step)(struct head *))
{
	pthread_mutex_lock(&h->lock);
	h->step = step;
	pthread_cond_broadcast(&h->cond);
	while (h->step)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

static void do_register(struct head *h)
{
	h->ahu.completion_ring = ring;
	h->ahu.ring_size_bytes = sizeof(ring);
	h->ahu.max_nr_threads = 2;
	if (sys_async_register(&h->ahu, sizeof(h->ahu)))
		rt_die("async_register of the shared ring: %s",
		       strerror(errno));
}

static void do_unregister(struct head *h)
{
	rt_unregister(&h->ahu);
}

static int round_no;

static void do_start(struct head *h)
{
	rt_pipe_read_exec(&h->pr[round_no]);
}

/* Until this head's syslet ended: one completion, or nothing busy. */
static void do_wait1(struct head *h)
{
	(void)h;
	if (sys_async_wait(1))
		rt_die("async_wait(1): %s", strerror(errno));
}

/* A cleared slot is seen at the head thread's next call. */
static void do_wait0(struct head *h)
{
	(void)h;
	if (sys_async_wait(0))
		rt_die("async_wait(0): %s", strerror(errno));
}

static void head_init(struct head *h)
{
	memset(h, 0, sizeof(*h));
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	rt_pipe_read_init(&h->pr[0]);
	rt_pipe_read_init(&h->pr[1]);
	if (pthread_create(&h->th, NULL, head_main, h))
		rt_die("pthread_create");
}

/* Let @h's current syslet read its byte, and wait for its end there. */
static void feed(struct head *h)
{
	if (write(h->pr[round_no].pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	in_thread(h, do_wait1);
}

/* Until ring[@i] holds something, 2 s at most. */
static struct syslet_uatom *slot(int i)
{
	struct timespec ms = { 0, 1000 * 1000 };

	for (int k = 0; k < 2000 && !__atomic_load_n(&ring[i],
						     __ATOMIC_ACQUIRE); k++)
		nanosleep(&ms, NULL);
	return __atomic_load_n(&ring[i], __ATOMIC_ACQUIRE);
}

static void one_round(struct head *a, struct head *b, int r)
{
	struct syslet_uatom *wa = &a->pr[r].atom, *wb = &b->pr[r].atom;
	struct timespec settle = { 0, 100 * 1000 * 1000 };

	round_no = r;
	in_thread(a, do_start);
	feed(a);
	rt_check(slot(r) == wa, "round %d: slot %d holds %p, A's syslet %p",
		 r, r, (void *)ring[r], (void *)wa);
	in_thread(b, do_start);
	feed(b);
	nanosleep(&settle, NULL);
	rt_check(ring[r] == wa, "round %d: B's completion overwrote A's in "
		 "slot %d (%p, B's %p)", r, r, (void *)ring[r], (void *)wb);
	rt_check(!ring[r + 1], "round %d: B's completion went to slot %d "
		 "(%p), not to its head's index %d", r, r + 1,
		 (void *)ring[r + 1], r);
	/* A's completion consumed: B's, kept, goes there at B's next call. */
	__atomic_store_n(&ring[r], NULL, __ATOMIC_RELEASE);
	in_thread(b, do_wait0);
	rt_check(slot(r) == wb, "round %d: slot %d holds %p once cleared, "
		 "B's kept completion %p", r, r, (void *)ring[r], (void *)wb);
	rt_check(!ring[r + 1], "round %d: slot %d holds %p", r, r + 1,
		 (void *)ring[r + 1]);
	ring[r] = NULL;
}

int main(void)
{
	struct head a, b;

	rt_init();
	head_init(&a);
	head_init(&b);
	in_thread(&a, do_register);
	in_thread(&b, do_register);
	one_round(&a, &b, 0);
	one_round(&a, &b, 1);
	in_thread(&a, do_unregister);
	in_thread(&b, do_unregister);
	for (int i = 0; i < ENTRIES; i++)
		rt_check(!ring[i], "slot %d holds %p at the end", i,
			 (void *)ring[i]);
	for (struct head *h = &a; h; h = h == &a ? &b : NULL) {
		pthread_mutex_lock(&h->lock);
		h->quit = 1;
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
	}
	pthread_join(a.th, NULL);
	pthread_join(b.th, NULL);
	return rt_done("ringshare");
}
