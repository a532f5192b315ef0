/* asyncloop.c: an async syslet that never blocks (a loop of atoms) runs at the speed of its loop while the program does something else, as on 2007's cachemiss thread, without async_wait(). */
#include <time.h>
#include "helpers.h"

/*
 * A syslet that went async runs on a cachemiss thread of its own in
 * 2007, emul's worker here; uring runs its atoms in whichever thread
 * drives the ring, the progress thread while the caller is elsewhere.
 * That thread ran 256 atoms (a slice) of it a millisecond and then slept
 * a tick: 2 million passes of a two-atom loop took about 16 s, while the
 * caller only slept and looked at the ring, where the same loop takes
 * well under a second when the caller waits in async_wait().  The loop:
 * an ASYNC umem_add counting passes and a gate counting from -N up to 0;
 * the program sleeps 2 ms at a time and looks at the ring; the syslet
 * must be done within 5 s.
 */

#define N	(2UL * 1000 * 1000)

int main(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	struct timespec ms2 = { 0, 2 * 1000 * 1000 };
	unsigned long n = 0, c = -N, one = 1, idx = 0;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	long rn = 0, rc = 0;
	double t0, dt;

	rt_init();
	rt_register(&ahu, ring, 4, -1UL);
	rt_atom(&a[0], rt_umem_nr(), &rn, SYSLET_ASYNC, &a[1], &pn, &one,
		NULL);
	rt_atom(&a[1], rt_umem_nr(), &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	t0 = rt_now();
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(errno == 0, "async_exec: %s", strerror(errno));
	while (!done && !__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE) &&
	       rt_now() - t0 < 60)
		nanosleep(&ms2, NULL);
	dt = rt_now() - t0;
	if (!done) {
		done = ring[idx];
		rt_drain(ring, 4, &idx, NULL, 0);
	}
	rt_check(done == &a[1] && n == N && c == 0,
		 "the loop ended at %p (gate %p) after %lu of %lu passes",
		 (void *)done, (void *)&a[1], n, N);
	rt_check(dt < 5.0, "%lu passes of an async loop, the program asleep, "
		 "took %.2f s", N, dt);
	if (!done)
		while (!__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
			(void)sys_async_wait(1);
	rt_unregister(&ahu);
	return rt_done("asyncloop");
}
