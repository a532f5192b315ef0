/* affinity.c: the program keeps the CPU affinity it set after its pool was made, across hand-offs, and one that an atom set on a worker never becomes the program's. */
#define _GNU_SOURCE
#include <sched.h>
#include "helpers.h"

/*
 * On the kernel backend a hand-off moves the program's user context to
 * a parked pool thread (kernel-patch/README).  Like the nice value
 * (renice.c, patch 0020), the CPU affinity is the task's own: a thread
 * made before sched_setaffinity() has the old one, and the program went
 * on with it at the next hand-off, so a program (or an admin's taskset
 * -p on its TID) that kept itself off some CPUs ran on them again.  In
 * the other direction, sched_setaffinity(0) in an atom after a hand-off
 * changes the worker that runs it (2007's semantics: selfcalls.c), and
 * that worker, parked again, must not carry the program with it later.
 * The user-space backends never move the program's thread.
 *
 * Needs two CPUs the process may run on (the guests have two).
 */
#define AF_ROUNDS	20

static struct syslet_uatom *ring[4];
static unsigned long idx;

/* The chain at @a, waited for and reaped; true when it went async. */
static void check_mask(const char *when, int round, const cpu_set_t *want)
{
	cpu_set_t now;

	CPU_ZERO(&now);
	if (sched_getaffinity(0, sizeof(now), &now))
		rt_die("sched_getaffinity: %s", strerror(errno));
	rt_check(CPU_EQUAL(&now, want),
		 "%s, round %d: the program may run on %d CPUs (CPU %d: %d), "
		 "it set %d", when, round, CPU_COUNT(&now),
		 CPU_ISSET(0, want) ? 1 : 0, CPU_ISSET(0, &now) ? 1 : 0,
		 CPU_COUNT(want));
}

int main(void)
{
	static unsigned long zero, setsz = sizeof(cpu_set_t), setp;
	static cpu_set_t all, one, other;
	struct async_head_user ahu;
	struct syslet_uatom a, b[2];
	long ret = 0, r2[2];
	int first = -1, second = -1, went = 0, b_async;

	rt_init();
	if (sched_getaffinity(0, sizeof(all), &all))
		rt_die("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &all))
			continue;
		if (first < 0)
			first = c;
		else if (second < 0)
			second = c;
	}
	if (second < 0) {
		printf("SKIP: the process may run on one CPU only\n");
		return RT_SKIP;
	}
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	CPU_ZERO(&other);
	CPU_SET(second, &other);

	rt_register(&ahu, ring, 4, 1);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	/* A pool made before the program narrows its affinity: on the
	 * kernel, a thread that gave the context on is parked again. */
	for (int i = 0; i < AF_ROUNDS && went < 3; i++)
		went += rt_handoff(ring, 4, &idx, &a, &a);

	if (sched_setaffinity(0, sizeof(one), &one))
		rt_die("sched_setaffinity: %s", strerror(errno));
	for (int i = 0; i < AF_ROUNDS; i++) {
		went += rt_handoff(ring, 4, &idx, &a, &a);
		check_mask("after the program set its affinity", i, &one);
	}

	/* An atom on a worker keeps itself to the other CPU; then more
	 * hand-offs, which may pick that worker. */
	setp = (unsigned long)&other;
	rt_atom(&b[0], __NR_getppid, &r2[0], SYSLET_ASYNC, &b[1], NULL, NULL,
		NULL);
	rt_atom(&b[1], __NR_sched_setaffinity, &r2[1], 0, NULL, &zero,
		&setsz, &setp);
	r2[1] = -12345;
	b_async = rt_handoff(ring, 4, &idx, &b[0], &b[1]);
	went += b_async;
	rt_check(r2[1] == 0, "the atom's sched_setaffinity gave %ld", r2[1]);
	/* Run inline, the atom changed the program's thread, as in 2007. */
	for (int i = 0; i < AF_ROUNDS; i++) {
		went += rt_handoff(ring, 4, &idx, &a, &a);
		check_mask("after a worker's atom set its own", i,
			   b_async ? &one : &other);
	}
	rt_unregister(&ahu);
	printf("affinity: CPU %d of %d, %d syslets went async\n", first,
	       CPU_COUNT(&all), went);
	return rt_done("affinity");
}
