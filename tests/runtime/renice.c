/* renice.c: the program keeps the nice value it was given after its pool was made, across hand-offs: a pool thread made before must not give it the old one back. */
#include <sys/resource.h>
#include "helpers.h"

/*
 * On the kernel backend a hand-off moves the program's user context to
 * a parked pool thread.  A thread made before setpriority() had the old
 * nice, and the program went on with it: a renice by an admin was
 * undone by the next blocking atom, and one to a higher nice fell back
 * to a lower one the program may not set itself (patch 0020).  The
 * user-space backends never move the program's thread.
 */
#define RN_ROUNDS	20

static struct syslet_uatom *ring[4];
static unsigned long idx;

/* One ASYNC getppid, waited for and reaped; true when it went async. */
static int handoff(struct syslet_uatom *a, long *ret)
{
	int went = rt_handoff(ring, 4, &idx, a, a);

	rt_check(*ret == (long)getppid(), "getppid gave %ld", *ret);
	return went;
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	long ret = 0;
	int nice0, want, went = 0;

	rt_init();
	rt_register(&ahu, ring, 4, 1);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	/* The pool has carried the program a few times: on the kernel, a
	 * thread that gave the context on is parked again, made before
	 * the renice below (the first hand-off's task keeps the thread
	 * ID's home, out of the pool). */
	for (int i = 0; i < RN_ROUNDS && went < 3; i++)
		went += handoff(&a, &ret);

	errno = 0;
	nice0 = getpriority(PRIO_PROCESS, 0);
	if (errno)
		rt_die("getpriority: %s", strerror(errno));
	if (nice0 >= 19) {
		printf("SKIP: nice is already %d\n", nice0);
		return RT_SKIP;
	}
	want = nice0 + 1;
	if (setpriority(PRIO_PROCESS, 0, want))
		rt_die("setpriority(%d): %s", want, strerror(errno));
	for (int i = 0; i < RN_ROUNDS; i++) {
		int now;

		went += handoff(&a, &ret);
		errno = 0;
		now = getpriority(PRIO_PROCESS, 0);
		rt_check(!errno && now == want,
			 "round %d: nice %d after a hand-off, set to %d", i,
			 now, want);
	}
	rt_unregister(&ahu);
	printf("renice: nice %d -> %d, %d syslets went async\n", nice0, want,
	       went);
	return rt_done("renice");
}
