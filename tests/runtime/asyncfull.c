/* asyncfull.c: an ASYNC atom in a loop, while every cachemiss thread is busy, runs on in the caller at the cost of the loop, as 2007's async_schedule() found no ready thread and went on. */
#include <time.h>
#include "helpers.h"

/*
 * 2007's __exec_atom() called async_schedule() for each SYSLET_ASYNC
 * atom: pick_ready_cachemiss_thread() looked at the list of ready
 * threads, and with none the atom ran in the caller straight away.  A
 * loop whose first atom asks for ASYNC, run while the pool is taken (here
 * max_nr_threads 1 and a syslet blocked in a pipe read), cost what the
 * loop costs.  emul waited up to half a millisecond for a worker at
 * every pass (and tried three credential calls first): 50,000 passes
 * took about 8 s here where uring takes a few ms.  The loop: an ASYNC
 * umem_add counting passes and a gate counting from -N up to 0; it
 * returns its gate with every pass counted, or goes async if a worker
 * came back, and must be done within 2 s either way.
 */

#define N	50000UL

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct syslet_uatom a[2], *done, *got[4];
	unsigned long n = 0, c = -N, one = 1, idx = 0, k = 0;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	long rn = 0, rc = 0;
	double t0, dt;

	rt_init();
	rt_register(&ahu, ring, 4, 1);
	rt_pipe_read_init(&pr);
	pr.atom.flags |= SYSLET_ASYNC;
	errno = 0;
	if (sys_async_exec(&pr.atom) || errno)
		rt_die("the pipe read did not go async: %s", strerror(errno));

	rt_atom(&a[0], rt_umem_nr(), &rn, SYSLET_ASYNC, &a[1], &pn, &one,
		NULL);
	rt_atom(&a[1], rt_umem_nr(), &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	t0 = now();
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(errno == 0, "async_exec: %s", strerror(errno));
	while (!done && k < 4) {
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
		k += rt_drain(ring, 4, &idx, got + k, 4 - k);
		for (unsigned long j = 0; j < k; j++)
			if (got[j] == &a[1])
				done = got[j];
	}
	dt = now() - t0;
	rt_check(done == &a[1] && n == N && c == 0,
		 "the loop ended at %p (gate %p) after %lu of %lu passes",
		 (void *)done, (void *)&a[1], n, N);
	rt_check(dt < 2.0, "%lu passes of an ASYNC atom with the pool taken "
		 "took %.2f s", N, dt);

	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	while (!__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	rt_check(ring[idx] == &pr.atom && pr.ret == 1,
		 "the pipe read completed as %p, ret %ld", (void *)ring[idx],
		 pr.ret);
	rt_drain(ring, 4, &idx, NULL, 0);
	rt_pipe_read_close(&pr);
	rt_unregister(&ahu);
	return rt_done("asyncfull");
}
