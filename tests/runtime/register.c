/* register.c: ring size rules, the head's length (an unsigned int), -EEXIST, calls without a head (-EINVAL), unregister waiting for running chains, and the thread limit (-1: default, clamped to the ring's entries) without assuming how many syslets go async. */
#include <pthread.h>
#include "helpers.h"

static int feed_fd;

static void *feed_late(void *arg)
{
	(void)arg;
	usleep(100000);
	if (write(feed_fd, "u", 1) != 1)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

/*
 * Unregister waits for a chain still running and its completion, as
 * 2007's stop_cachemiss_threads() did: a read blocked on a pipe that a
 * thread writes 100 ms later has run, and is in the ring, by the time
 * unregister returns.
 */
static void unregister_waits(struct syslet_uatom **ring)
{
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	pthread_t t;

	rt_pipe_read_init(&pr);
	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_exec(&pr);
	feed_fd = pr.pfd[1];
	if (pthread_create(&t, NULL, feed_late, NULL))
		rt_die("pthread_create");
	rt_unregister(&ahu);
	rt_check(pr.ret == 1 && pr.c == 'u',
		 "unregister returned before the chain ended: read ret %ld",
		 pr.ret);
	rt_check(ring[0] == &pr.atom, "its completion is not in the ring: %p",
		 (void *)ring[0]);
	pthread_join(t, NULL);
	rt_pipe_read_close(&pr);
}

int main(void)
{
	struct syslet_uatom *ring[8], a, *done;
	struct async_head_user ahu;
	unsigned long cell = 0, inc = 1, *p = &cell;
	long r;

	rt_init();
	ahu.completion_ring = ring;
	ahu.max_nr_threads = -1UL;
	memset(ring, 0, sizeof(ring));

	/* Nothing registered yet. */
	rt_atom(&a, rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(!done && errno == EINVAL, "exec unregistered: %p %d",
		 (void *)done, errno);
	rt_check(cell == 0, "exec unregistered ran the atom");
	ahu.ring_size_bytes = sizeof(ring);
	r = sys_async_unregister(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EINVAL, "unregister unregistered: %ld %d",
		 r, errno);
	errno = 0;
	r = sys_async_wait(1);
	rt_check(r == -1 && errno == EINVAL, "wait unregistered: %ld %d", r,
		 errno);

	/* Ring sizes: 0 and non-multiples of a pointer are refused. */
	ahu.ring_size_bytes = 0;
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EINVAL, "ring 0: %ld %d", r, errno);
	ahu.ring_size_bytes = sizeof(void *) + 1;
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EINVAL, "ring ptr+1: %ld %d", r, errno);
	ahu.ring_size_bytes = sizeof(void *) - 1;
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EINVAL, "ring ptr-1: %ld %d", r, errno);
	/* async_head_init() checked the ring's range (access_ok: EFAULT)
	 * before the size's multiple (EINVAL): a ring whose range wraps
	 * round the address space, with an odd size, is EFAULT. */
	ahu.completion_ring = (struct syslet_uatom **)(-4 * sizeof(void *));
	ahu.ring_size_bytes = 8 * sizeof(void *) + 1;
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EFAULT, "ring wrapping, odd size: %ld %d",
		 r, errno);
	ahu.completion_ring = ring;
	/* Wrong head length. */
	ahu.ring_size_bytes = sizeof(ring);
	r = sys_async_register(&ahu, sizeof(ahu) - 1);
	rt_check(r == -1 && errno == EINVAL, "len-1: %ld %d", r, errno);
	/* 2007's len is an unsigned int (sys_async_register() and
	 * sys_async_unregister(), seeds/006): a 64-bit caller's upper half
	 * is no part of it, so 2^32 + sizeof is sizeof, and 2^32 is 0. */
	if (sizeof(long) == 8) {
		unsigned long wide = (unsigned long)((1ULL << 32) + sizeof(ahu));

		r = sys_async_register(&ahu, (unsigned long)(1ULL << 32));
		rt_check(r == -1 && errno == EINVAL, "len 2^32: %ld %d", r,
			 errno);
		r = sys_async_register(&ahu, wide);
		rt_check(r == 0, "len 2^32 + %zu: %ld %s", sizeof(ahu), r,
			 strerror(errno));
		if (r == 0) {
			r = sys_async_unregister(&ahu, wide);
			rt_check(r == 0, "unregister, len 2^32 + %zu: %ld %s",
				 sizeof(ahu), r, strerror(errno));
			if (r)
				rt_unregister(&ahu);
		}
	}

	/* A one-slot ring is fine; twice is -EEXIST. */
	ahu.ring_size_bytes = sizeof(void *);
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == 0, "one-slot ring: %ld %s", r, strerror(errno));
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EEXIST, "twice: %ld %d", r, errno);
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "unregister: %s", strerror(errno));
	r = sys_async_unregister(&ahu, sizeof(ahu));
	rt_check(r == -1 && errno == EINVAL, "unregister twice: %ld %d", r,
		 errno);
	unregister_waits(ring);

	/* The thread limit (emul: its statistics show the pool): -1 is the
	 * default, and never more workers than ring entries, so 6 ASYNC
	 * syslets on a 2-slot ring with -1 use at most 2 workers.
	 *
	 * How many go async depends on timing alone: a syslet is handed
	 * off only when one of the 2 workers is idle at that moment, else
	 * it runs inline.  So nothing here may assume a number: each
	 * syslet has its own cell (umem_add is a plain read-add-write, as
	 * the 2007 generic one was, so a cell shared by two workers and the
	 * caller can lose an update), each one that went async must come
	 * back exactly once, and waiting ends when all of them did or
	 * nothing is busy and the ring stays empty, not after a count of
	 * rounds that a loaded machine can use up. */
	if (rt_is_emul()) {
		SYSLET_OPTS(syslet_stats, st0);
		SYSLET_OPTS(syslet_stats, st);
		struct syslet_uatom at[6], *got[8];
		unsigned long idx = 0, n = 0, seen = 0;
		unsigned long cnt[6] = { 0 }, *cp[6];
		int async[6] = { 0 }, back[6] = { 0 };

		syslet_reset_stats();
		rt_register(&ahu, ring, 2, -1UL);
		for (int i = 0; i < 6; i++) {
			cp[i] = &cnt[i];
			rt_atom(&at[i], rt_umem_nr(), NULL, SYSLET_ASYNC, NULL,
				(unsigned long *)&cp[i], &inc, NULL);
			errno = 0;
			done = sys_async_exec(&at[i]);
			if (errno)
				rt_die("exec %d: %s", i, strerror(errno));
			/* Pool full: the atom ran inline instead. */
			if (done) {
				rt_check(done == &at[i], "exec %d returned %p", i,
					 (void *)done);
				continue;
			}
			async[i] = 1;
			n++;
		}
		/* Drain everything that went async: wait while something is
		 * busy (async_wait returns at once when nothing is, after
		 * moving waiting completions into free slots). */
		for (int idle_rounds = 0; seen < n && idle_rounds < 3;) {
			unsigned long k = rt_drain(ring, 2, &idx, got, 8);

			for (unsigned long j = 0; j < k && j < 8; j++) {
				int w = 0;

				while (w < 6 && got[j] != &at[w])
					w++;
				rt_check(w < 6 && async[w],
					 "completion %p is no async syslet",
					 (void *)got[j]);
				if (w < 6)
					back[w]++;
			}
			seen += k;
			if (seen >= n)
				break;
			syslet_get_stats(&st0);
			if (sys_async_wait(1))
				rt_die("async_wait: %s", strerror(errno));
			/* Idle and still short: one more look, then give up. */
			if (!ring[idx]) {
				syslet_get_stats(&st);
				if (st.handoffs == st0.handoffs &&
				    st.completions == st0.completions)
					idle_rounds++;
				usleep(1000);
			}
		}
		syslet_get_stats(&st);
		rt_check(seen == n,
			 "%lu of %lu completions (handoffs %llu completions %llu "
			 "deferred %llu workers %llu)",
			 seen, n, st.handoffs, st.completions, st.deferred,
			 st.threads);
		for (int i = 0; i < 6; i++) {
			rt_check(cnt[i] == 1, "syslet %d ran %lu times", i,
				 cnt[i]);
			rt_check(back[i] == async[i],
				 "syslet %d: %d completions, went async %d", i,
				 back[i], async[i]);
		}
		rt_check(st.handoffs == n, "%llu handoffs for %lu async",
			 st.handoffs, n);
		rt_check(st.threads <= 2, "%llu workers for a 2-slot ring",
			 st.threads);
		rt_unregister(&ahu);
	}
	return rt_done("register");
}
