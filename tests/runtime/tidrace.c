/* tidrace.c: a nice value, I/O priority or CPU mask set by the program's ID while the program hands off is never lost: a thread sets and reads back, by that ID, two nice values, two I/O priorities and two CPU masks in turn while the program runs ASYNC atoms in a loop. */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/resource.h>
#include "helpers.h"

/*
 * On the kernel backend each hand-off moves the program's user context
 * and its ID to a pool thread whose nice value and CPU mask must match
 * the carrier's (kernel-patch 0020, 0027).  A set by ID looks the task
 * up, then changes it under its pi_lock; if the context moved on in
 * between, the set landed on the task the program had just left and
 * the program went on with the old value (kernel-patch 0042; 0044 for
 * the I/O priority, which ioprio_set() changes under task_lock).  On the
 * user-space engines the program never moves.
 */
#define TR_SETS		20000

static struct syslet_uatom *ring[4];
static unsigned long idx;
static volatile int done_sets;
static pid_t prog;
static cpu_set_t masks[2];
static int nmasks;
static long lost_nice, lost_mask, lost_io, first_bad = -1;
static char bad[256];

static void *setter(void *arg)
{
	(void)arg;
	for (int i = 0; i < TR_SETS; i++) {
		int want = 1 + (i & 1), got;

		if (setpriority(PRIO_PROCESS, (id_t)prog, want))
			rt_die("set %d: setpriority(%d, %d): %s", i, (int)prog,
			       want, strerror(errno));
		errno = 0;
		got = getpriority(PRIO_PROCESS, (id_t)prog);
		if (errno)
			rt_die("set %d: getpriority(%d): %s", i, (int)prog,
			       strerror(errno));
		if (got != want && lost_nice++ == 0 && first_bad < 0) {
			first_bad = i;
			snprintf(bad, sizeof(bad), "set %d: renice of the "
				 "program's ID to %d read back %d", i, want,
				 got);
		}
		{
			long wantio = IOPRIO_VALUE(IOPRIO_CLASS_BE, 5 + (i & 1));
			long gotio;

			if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS,
				    (int)prog, (int)wantio))
				rt_die("set %d: ioprio_set(%d): %s", i,
				       (int)prog, strerror(errno));
			gotio = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS,
					(int)prog);
			if (gotio != wantio && lost_io++ == 0 &&
			    first_bad < 0) {
				first_bad = i;
				snprintf(bad, sizeof(bad), "set %d: ionice of "
					 "the program's ID to %#lx read back "
					 "%#lx", i, wantio, gotio);
			}
		}
		if (nmasks == 2) {
			cpu_set_t now;
			const cpu_set_t *m = &masks[i & 1];

			if (sched_setaffinity(prog, sizeof(*m), m))
				rt_die("set %d: sched_setaffinity(%d): %s", i,
				       (int)prog, strerror(errno));
			CPU_ZERO(&now);
			if (sched_getaffinity(prog, sizeof(now), &now))
				rt_die("set %d: sched_getaffinity(%d): %s", i,
				       (int)prog, strerror(errno));
			if (!CPU_EQUAL(&now, m) && lost_mask++ == 0 &&
			    first_bad < 0) {
				first_bad = i;
				snprintf(bad, sizeof(bad), "set %d: the CPU "
					 "mask set by the program's ID (%d "
					 "CPUs) read back %d CPUs", i,
					 CPU_COUNT(m), CPU_COUNT(&now));
			}
		}
	}
	__atomic_store_n(&done_sets, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	cpu_set_t all;
	long ret = 0, runs = 0, went = 0;
	pthread_t th;
	int first = -1, nice;

	rt_init();
	errno = 0;
	nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		rt_die("getpriority: %s", strerror(errno));
	if (nice > 1 || (nice == 1 && setpriority(PRIO_PROCESS, 0, 1))) {
		printf("SKIP: nice is %d, the test sets 1 and 2\n", nice);
		return RT_SKIP;
	}
	if (setpriority(PRIO_PROCESS, 0, 2) || setpriority(PRIO_PROCESS, 0, 1)) {
		printf("SKIP: cannot set nice 2 and back to 1: %s\n",
		       strerror(errno));
		return RT_SKIP;
	}
	if (sched_getaffinity(0, sizeof(all), &all))
		rt_die("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &all))
			first = c;
	if (CPU_COUNT(&all) >= 2) {
		masks[0] = all;
		CPU_ZERO(&masks[1]);
		CPU_SET(first, &masks[1]);
		nmasks = 2;
	}
	prog = (pid_t)syscall(SYS_gettid);
	rt_register(&ahu, ring, 4, 2);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	if (pthread_create(&th, NULL, setter, NULL))
		rt_die("pthread_create");
	while (!__atomic_load_n(&done_sets, __ATOMIC_ACQUIRE)) {
		went += rt_handoff(ring, 4, &idx, &a, &a);
		runs++;
	}
	pthread_join(th, NULL);
	rt_check(lost_nice == 0 && lost_mask == 0 && lost_io == 0,
		 "%s ... %ld of %d renices, %ld of %d CPU masks and %ld of %d "
		 "ionices were lost (%ld of %ld syslets went async)", bad,
		 lost_nice, TR_SETS, lost_mask, nmasks == 2 ? TR_SETS : 0,
		 lost_io, TR_SETS, went, runs);
	rt_unregister(&ahu);
	printf("tidrace: %d sets of nice%s while %ld of %ld syslets went "
	       "async\n", TR_SETS, nmasks == 2 ? " and CPU mask" : "", went,
	       runs);
	return rt_done("tidrace");
}
