/* register.c: ring size rules, -EEXIST, calls without a head (-EINVAL), and the thread limit (-1: default, clamped to the ring's entries). */
#include "helpers.h"

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
	/* Wrong head length. */
	ahu.ring_size_bytes = sizeof(ring);
	r = sys_async_register(&ahu, sizeof(ahu) - 1);
	rt_check(r == -1 && errno == EINVAL, "len-1: %ld %d", r, errno);

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

	/* The thread limit (emul: its statistics show the pool): -1 is the
	 * default, and never more workers than ring entries, so 6 ASYNC
	 * syslets on a 2-slot ring with -1 use at most 2 workers. */
	if (rt_is_emul()) {
		struct syslet_stats st;
		struct syslet_uatom at[6], *got[8];
		unsigned long idx = 0, n = 0;
		unsigned long cnt = 0, *cp = &cnt;

		syslet_reset_stats();
		rt_register(&ahu, ring, 2, -1UL);
		for (int i = 0; i < 6; i++) {
			rt_atom(&at[i], rt_umem_nr(), NULL, SYSLET_ASYNC, NULL,
				(unsigned long *)&cp, &inc, NULL);
			errno = 0;
			done = sys_async_exec(&at[i]);
			/* Pool full: the atom runs inline instead. */
			if (done)
				continue;
			if (errno)
				rt_die("exec: %s", strerror(errno));
			n++;
		}
		/* Drain everything that went async. */
		unsigned long seen = 0;
		for (int t = 0; t < 5000 && seen < n; t++) {
			unsigned long k = rt_drain(ring, 2, &idx, got, 8);

			seen += k;
			if (seen < n && sys_async_wait(1))
				rt_die("async_wait: %s", strerror(errno));
			if (!k)
				usleep(1000);
		}
		rt_check(seen == n, "%lu of %lu completions", seen, n);
		rt_check(cnt == 6, "ran %lu of 6", cnt);
		syslet_get_stats(&st);
		rt_check(st.threads <= 2, "%llu workers for a 2-slot ring",
			 st.threads);
		rt_unregister(&ahu);
	}
	return rt_done("register");
}
