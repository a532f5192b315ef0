/* stop.c: the four stop flags, SKIP_TO_NEXT_ON_STOP (atom + 1), and two stop flags never stopping. */
#include "helpers.h"

/* Run a two-atom chain: atom 0 does umem_add(&cell, inc) (result: the
 * new value) with @flags; returns which atom the exec ended at. */
static int run(unsigned long flags, unsigned long start, unsigned long inc,
	       unsigned long *after)
{
	struct syslet_uatom a[3], *done;
	unsigned long cell = start, one = 1, *p = &cell, spare = 0;
	unsigned long *sp = &spare;
	long ret;

	rt_atom(&a[0], rt_umem_nr(), &ret, flags, &a[2], (unsigned long *)&p,
		&inc, NULL);
	/* a[1]: where SKIP lands (atom + 1). */
	rt_atom(&a[1], rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&sp,
		&one, NULL);
	/* a[2]: where next leads. */
	rt_atom(&a[2], rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&sp,
		&one, NULL);
	done = sys_async_exec(&a[0]);
	*after = spare;
	if (!done)
		rt_die("exec: %s", strerror(errno));
	return (int)(done - a);
}

int main(void)
{
	struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	unsigned long s;
	static const struct {
		unsigned long flag;
		unsigned long start, inc;	/* result: start + inc */
		int stops;
	} c[] = {
		/* result 0, 1, -1 (as unsigned wrap), for each flag */
		{ SYSLET_STOP_ON_NONZERO, 0, 1, 1 },
		{ SYSLET_STOP_ON_NONZERO, 1, -1UL, 0 },
		{ SYSLET_STOP_ON_ZERO, 1, -1UL, 1 },
		{ SYSLET_STOP_ON_ZERO, 0, 1, 0 },
		{ SYSLET_STOP_ON_NEGATIVE, 0, -2UL, 1 },
		{ SYSLET_STOP_ON_NEGATIVE, 1, -1UL, 0 },
		{ SYSLET_STOP_ON_NEGATIVE, 0, 1, 0 },
		{ SYSLET_STOP_ON_NON_POSITIVE, 1, -1UL, 1 },
		{ SYSLET_STOP_ON_NON_POSITIVE, 0, -2UL, 1 },
		{ SYSLET_STOP_ON_NON_POSITIVE, 0, 1, 0 },
	};

	rt_init();
	rt_register(&ahu, ring, 4, -1UL);
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		long res = (long)(c[i].start + c[i].inc);
		int at = run(c[i].flag, c[i].start, c[i].inc, &s);

		if (c[i].stops)
			rt_check(at == 0 && s == 0,
				 "flag %#lx result %ld should stop: ended at %d",
				 c[i].flag, res, at);
		else
			rt_check(at == 2 && s == 1,
				 "flag %#lx result %ld should go on: ended at %d",
				 c[i].flag, res, at);
		/* SKIP: a stop goes to atom + 1 instead, which ends. */
		at = run(c[i].flag | SYSLET_SKIP_TO_NEXT_ON_STOP, c[i].start,
			 c[i].inc, &s);
		rt_check(at == (c[i].stops ? 1 : 2) && s == 1,
			 "flag %#lx|SKIP result %ld: ended at %d", c[i].flag,
			 res, at);
	}
	/* Two stop flags match no case of the kernel's switch: never stop,
	 * whatever the result. */
	unsigned long two[] = {
		SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NONZERO,
		SYSLET_STOP_ON_NEGATIVE | SYSLET_STOP_ON_NON_POSITIVE,
		SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NON_POSITIVE,
		SYSLET_STOP_MASK,
	};
	for (unsigned i = 0; i < 4; i++) {
		rt_check(run(two[i], 0, 0, &s) == 2 && s == 1,
			 "flags %#lx stopped on 0", two[i]);
		rt_check(run(two[i], 0, -1UL, &s) == 2 && s == 1,
			 "flags %#lx stopped on -1", two[i]);
		rt_check(run(two[i] | SYSLET_SKIP_TO_NEXT_ON_STOP, 0, 0, &s) ==
				 2, "flags %#lx|SKIP skipped", two[i]);
	}
	/* No flag: never stops. */
	rt_check(run(0, 0, 0, &s) == 2, "no flag stopped");
	rt_check(ring[0] == NULL, "a synchronous syslet queued a completion");
	rt_unregister(&ahu);
	return rt_done("stop");
}
