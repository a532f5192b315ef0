/* selfcalls.c: calls on the calling thread's own state (policy, name, nice, I/O priority, affinity) change the caller inline and never the program's thread once the syslet went async. */
#define _GNU_SOURCE
#include "helpers.h"
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

/*
 * In the 2007 kernel an atom ran in the task that called async_exec()
 * until the first cachemiss; from then on the syslet went on in that
 * task while the program returned to user space in another one, a thread
 * of the pool.  So prctl(PR_SET_NAME), setpriority(PRIO_PROCESS, 0),
 * ioprio_set(IOPRIO_WHO_PROCESS, 0) and sched_setaffinity(0) in a syslet
 * change the program's thread while the syslet runs inline, and never
 * once it went async.  Async, each case is run twice: with the caller
 * waiting in async_wait(), and with the caller asleep, so that on uring
 * the program's thread and then the progress thread drive the ring.
 * The calls must have run (result 0, and some thread of the process
 * bears the name) and the program's thread must be as it was.
 */

#define ENTRIES		8

static const char prog_name[] = "selfcalls";

struct chain {
	struct rt_pipe_read	pr;
	struct syslet_uatom	a[5];
	long			r[5];
	unsigned long		opt, name, which, who, nice, iowho, iozero;
	unsigned long		ioprio, zero, setsz, setp, batch, paramp;
	int			param;
	char			str[16];
	cpu_set_t		set;
};

static void my_name(char *buf)
{
	memset(buf, 0, 16);
	if (prctl(PR_GET_NAME, buf))
		rt_die("PR_GET_NAME: %s", strerror(errno));
}

/* Whether some thread of the process is called @name. */
static int a_thread_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		found = !strcmp(comm, name);
	}
	closedir(d);
	return found;
}

/*
 * sched_setscheduler(0, SCHED_BATCH), prctl(PR_SET_NAME, @name),
 * setpriority(PRIO_PROCESS, 0, @nice),
 * ioprio_set(IOPRIO_WHO_PROCESS, 0, BE 7), then sched_setaffinity(0) to
 * @set when @affinity; after a pipe read when @async.
 */
static struct syslet_uatom *build(struct chain *c, const char *name,
				  int nice, const cpu_set_t *set,
				  int affinity, int async)
{
	struct syslet_uatom *first = &c->a[4];

	memset(c->a, 0, sizeof(c->a));
	memset(c->r, 0x55, sizeof(c->r));
	snprintf(c->str, sizeof(c->str), "%s", name);
	c->opt = PR_SET_NAME;
	c->name = (unsigned long)c->str;
	c->which = PRIO_PROCESS;
	c->who = 0;
	c->nice = (unsigned long)(long)nice;
	c->iowho = IOPRIO_WHO_PROCESS;
	c->iozero = 0;
	c->ioprio = IOPRIO_VALUE(IOPRIO_CLASS_BE, 7);
	c->zero = 0;
	c->set = *set;
	c->setsz = sizeof(c->set);
	c->setp = (unsigned long)&c->set;
	c->batch = SCHED_BATCH;
	c->param = 0;
	c->paramp = (unsigned long)&c->param;
	rt_atom(&c->a[4], SYS_sched_setscheduler, &c->r[4], 0, &c->a[0],
		&c->zero, &c->batch, &c->paramp);
	rt_atom(&c->a[0], SYS_prctl, &c->r[0], 0, &c->a[1], &c->opt,
		&c->name, NULL);
	rt_atom(&c->a[1], SYS_setpriority, &c->r[1], 0, &c->a[2], &c->which,
		&c->who, &c->nice);
	rt_atom(&c->a[2], SYS_ioprio_set, &c->r[2], 0,
		affinity ? &c->a[3] : NULL, &c->iowho, &c->iozero,
		&c->ioprio);
	rt_atom(&c->a[3], SYS_sched_setaffinity, &c->r[3], 0, NULL, &c->zero,
		&c->setsz, &c->setp);
	if (async) {
		rt_pipe_read_init(&c->pr);
		c->pr.atom.next = first;
		first = &c->pr.atom;
	}
	return first;
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct async_head_user ahu;
	struct syslet_uatom *done;
	unsigned long idx = 0;
	cpu_set_t all, one;
	int nice0, io0, affinity = 0, first = -1;
	char name[16];
	struct chain c;

	rt_init();
	if (prctl(PR_SET_NAME, prog_name))
		rt_die("PR_SET_NAME: %s", strerror(errno));
	errno = 0;
	nice0 = getpriority(PRIO_PROCESS, 0);
	if (errno)
		rt_die("getpriority: %s", strerror(errno));
	if (sched_getscheduler(0) != SCHED_OTHER) {
		printf("SKIP: the program does not run under SCHED_OTHER\n");
		return RT_SKIP;
	}
	if (nice0 > 16) {
		printf("SKIP: nice %d leaves no room above it\n", nice0);
		return RT_SKIP;
	}
	io0 = (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
	if (io0 < 0)
		rt_die("ioprio_get: %s", strerror(errno));
	if (io0 == IOPRIO_VALUE(IOPRIO_CLASS_BE, 7))
		rt_die("the program already has the I/O priority set here");
	if (sched_getaffinity(0, sizeof(all), &all))
		rt_die("sched_getaffinity: %s", strerror(errno));
	CPU_ZERO(&one);
	for (int i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &all))
			first = i;
	if (first >= 0 && CPU_COUNT(&all) > 1) {
		affinity = 1;
		CPU_SET(first, &one);
	} else {
		one = all;
	}
	rt_register(&ahu, ring, ENTRIES, 2);

	/* Inline: the caller's own thread, as in 2007. */
	errno = 0;
	done = sys_async_exec(build(&c, "sl-inline", nice0 + 1, &one,
				    affinity, 0));
	rt_check(done == &c.a[affinity ? 3 : 2],
		 "the inline syslet: %p %s", (void *)done, strerror(errno));
	my_name(name);
	rt_check(!strcmp(name, "sl-inline"),
		 "inline PR_SET_NAME did not name the caller: \"%s\"", name);
	rt_check(sched_getscheduler(0) == SCHED_BATCH,
		 "inline sched_setscheduler: the caller's policy is %d, want "
		 "SCHED_BATCH", sched_getscheduler(0));
	rt_check(getpriority(PRIO_PROCESS, 0) == nice0 + 1,
		 "inline setpriority: the caller's nice is %d, want %d",
		 getpriority(PRIO_PROCESS, 0), nice0 + 1);
	rt_check(syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0) ==
		 IOPRIO_VALUE(IOPRIO_CLASS_BE, 7),
		 "inline ioprio_set did not change the caller");
	if (affinity) {
		cpu_set_t now;

		sched_getaffinity(0, sizeof(now), &now);
		rt_check(CPU_EQUAL(&now, &one),
			 "inline sched_setaffinity did not pin the caller");
	}
	/* Back as it was, but for the nice value, which only rises. */
	{
		struct sched_param sp = { 0 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
	}
	prctl(PR_SET_NAME, prog_name);
	nice0 = getpriority(PRIO_PROCESS, 0);
	syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, io0);
	sched_setaffinity(0, sizeof(all), &all);

	for (int waits = 1; waits >= 0; waits--) {
		const char *tname = waits ? "sl-async-w" : "sl-async-s";
		pthread_t t;
		cpu_set_t now;
		int named;

		build(&c, tname, nice0 + 2, &one, affinity, 1);
		rt_pipe_read_exec(&c.pr);
		rt_pipe_write_late(&c.pr, &t);
		rt_wait_slot(&ring[idx], waits);
		rt_pipe_write_join(t);
		rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
			 done == &c.a[affinity ? 3 : 2],
			 "%s: completion %p, want %p", tname, (void *)done,
			 (void *)&c.a[affinity ? 3 : 2]);
		for (int i = 0; i < 5; i++)
			if (i < 3 || i == 4 || affinity)
				rt_check(c.r[i] == 0, "%s: atom %d returned "
					 "%ld", tname, i, c.r[i]);
		rt_check(sched_getscheduler(0) == SCHED_OTHER,
			 "%s: the program's policy is %d, want SCHED_OTHER",
			 tname, sched_getscheduler(0));
		my_name(name);
		rt_check(!strcmp(name, prog_name),
			 "%s: the program's thread was renamed \"%s\"", tname,
			 name);
		rt_check(getpriority(PRIO_PROCESS, 0) == nice0,
			 "%s: the program's nice went from %d to %d", tname,
			 nice0, getpriority(PRIO_PROCESS, 0));
		rt_check(syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0) == io0,
			 "%s: the program's I/O priority changed", tname);
		sched_getaffinity(0, sizeof(now), &now);
		rt_check(CPU_EQUAL(&now, &all),
			 "%s: the program's thread was pinned", tname);
		named = a_thread_named(tname);
		rt_check(named != 0, "%s: no thread of the process has the "
			 "name the syslet set", tname);
		rt_pipe_read_close(&c.pr);
		/* Each case on its own: the program's thread as it was. */
		prctl(PR_SET_NAME, prog_name);
		nice0 = getpriority(PRIO_PROCESS, 0);
		syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, io0);
		sched_setaffinity(0, sizeof(all), &all);
	}
	rt_unregister(&ahu);
	return rt_done("selfcalls");
}
