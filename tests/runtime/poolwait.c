/* poolwait.c: a syslet that blocks while every cachemiss thread is busy: in place when none comes back, handed off when one does. */
#include <time.h>
#include "helpers.h"

static struct syslet_uatom *ring[4];
static unsigned long idx;

/* Wait for @n completions; each must be @w0 or @w1. */
static void reap(unsigned long n, struct syslet_uatom *w0,
		 struct syslet_uatom *w1)
{
	struct syslet_uatom *got[4];
	unsigned long seen = 0;

	for (int tries = 0; seen < n && tries < 5000; tries++) {
		unsigned long k = rt_drain(ring, 4, &idx, got, 4);

		for (unsigned long j = 0; j < k && j < 4; j++)
			rt_check(got[j] == w0 || got[j] == w1,
				 "completion %p is none of ours",
				 (void *)got[j]);
		seen += k;
		if (seen < n && sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	}
	rt_check(seen == n, "%lu of %lu completions", seen, n);
}

int main(void)
{
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct syslet_uatom sl, *done;
	struct timespec nap = { 0, 30000000 };
	unsigned long napp = (unsigned long)&nap, zero = 0;
	long sret = 1;
	int handed = 0;
	double t0, dt;

	rt_init();
	rt_pipe_read_init(&pr);
	rt_register(&ahu, ring, 4, 1);

	/* The only cachemiss thread waits for a pipe that only we write,
	 * after async_exec returns.  A second syslet that blocks must not
	 * wait for that thread: it runs in place, as in the kernel. */
	rt_pipe_read_exec(&pr);
	rt_atom(&sl, __NR_nanosleep, &sret, 0, NULL, &napp, &zero, NULL);
	t0 = rt_now();
	done = sys_async_exec(&sl);
	dt = rt_now() - t0;
	rt_check(done == &sl && sret == 0,
		 "with the pool busy, the sleep returned %p ret %ld",
		 (void *)done, sret);
	rt_check(dt >= 0.025, "the sleep ran in place for only %.3f s", dt);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	reap(1, &pr.atom, NULL);
	rt_check(pr.ret == 1 && pr.c == 'x', "pipe read ret %ld", pr.ret);

	/* The kernel blocks in place whenever no thread is ready; the emul
	 * engine first waits a little for a busy one to come back.  The
	 * thread sleeps 100 us, so a blocking syslet submitted meanwhile is
	 * handed to it on return instead of running here.  It is tried
	 * for up to 10 s: on a loaded machine the thread may not get a CPU
	 * within the engine's wait many times in a row (seen with three
	 * busy loops on two CPUs: ten tries were not enough). */
	if (!rt_is_emul())
		goto out;
	t0 = rt_now();
	for (int t = 0; !handed && (t < 10 || rt_now() - t0 < 10.0); t++) {
		struct timespec shortnap = { 0, 100000 };
		unsigned long sp = (unsigned long)&shortnap;
		struct syslet_uatom a, b;
		long ar = 1, br = 1;

		rt_atom(&a, __NR_nanosleep, &ar, SYSLET_ASYNC, NULL, &sp,
			&zero, NULL);
		nap.tv_nsec = 20000000;
		rt_atom(&b, __NR_nanosleep, &br, 0, NULL, &napp, &zero, NULL);
		done = sys_async_exec(&a);
		rt_check(!done, "the ASYNC sleep ran inline");
		done = sys_async_exec(&b);
		rt_check(!done || done == &b, "exec returned %p", (void *)done);
		if (!done)
			handed = 1;
		reap(done ? 1 : 2, &a, &b);
		rt_check(ar == 0 && br == 0, "sleeps ret %ld %ld", ar, br);
	}
	rt_check(handed, "a blocking syslet never waited for the busy thread");
out:
	rt_unregister(&ahu);
	rt_pipe_read_close(&pr);
	return rt_done("poolwait");
}
