/* eintr.c: a result equal to -EINTR (umem_add counting through -4) is a value like any other: it never ends a syslet as a signal would. */
#include "helpers.h"

/*
 * The 2007 kernel ended a chain on signal_pending(), never on a value:
 * `for (i = 0; i < 10; i++)` lowers to a copy of i - 10 that goes
 * through -4, and must still count to the end.
 */
int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	unsigned long cell, *cellp = &cell, one = 1, left, *leftp = &left;
	unsigned long minus = -1UL;
	SYSLET_OPTS(syslet_stats, st);
	long ret = 0, ret2 = 0;
	int async;

	rt_init();
	rt_register(&ahu, ring, 8, -1UL);
	for (async = 0; async < 2; async++) {
		/* cell counts up from -10 and the chain stops at 0; inline,
		 * then handed to a worker at its first atom. */
		cell = -10UL;
		rt_atom(&a[0], rt_umem_nr(), &ret,
			SYSLET_STOP_ON_ZERO | (async ? SYSLET_ASYNC : 0), &a[0],
			(unsigned long *)&cellp, &one, NULL);
		syslet_reset_stats();
		errno = 0;
		done = sys_async_exec(&a[0]);
		if (async) {
			unsigned long idx = 0;

			rt_check(!done && !errno, "did not go async: %p %s",
				 (void *)done, strerror(errno));
			while (!ring[0])
				sys_async_wait(1);
			done = ring[0];
			rt_drain(ring, 8, &idx, NULL, 0);
		}
		rt_check(done == &a[0], "%s: ended at %p", async ? "async" :
			 "inline", (void *)done);
		rt_check(cell == 0 && ret == 0, "%s: stopped at cell %ld, "
			 "result %ld instead of 0", async ? "async" : "inline",
			 (long)cell, ret);
		if (rt_is_emul()) {
			syslet_get_stats(&st);
			rt_check(st.signal_stops == 0, "%llu signal stops counted",
				 st.signal_stops);
		}
	}

	/* A value of -4 written by one atom and tested by the next (the
	 * lowering of `if (x < 0)`), then a loop that counts further. */
	cell = -4UL;
	left = 3;
	rt_atom(&a[0], rt_umem_nr(), &ret, SYSLET_STOP_ON_NEGATIVE |
		SYSLET_SKIP_TO_NEXT_ON_STOP, NULL, (unsigned long *)&cellp,
		NULL, NULL);
	rt_atom(&a[1], rt_umem_nr(), &ret2, SYSLET_STOP_ON_ZERO, &a[1],
		(unsigned long *)&leftp, &minus, NULL);
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[1] && ret == -4 && left == 0 && ret2 == 0,
		 "branch on -4: ended at %p (a %p), ret %ld, left %lu",
		 (void *)done, (void *)a, ret, left);
	rt_unregister(&ahu);
	return rt_done("eintr");
}
