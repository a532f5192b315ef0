/* tidclock.c: the thread's CPU clock goes on with the program's thread across hand-offs: it never goes backwards, takes in no worker's time, the clock its thread ID names (pthread_getcpuclockid()) is the same clock, and timers armed on either fire for the program's time. */
#define _GNU_SOURCE		/* RUSAGE_THREAD */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "helpers.h"

/*
 * On the kernel backend a hand-off moves the program's user context to
 * a pool thread.  The CPU time the kernel counted for the thread so far
 * (CLOCK_THREAD_CPUTIME_ID, RUSAGE_THREAD, /proc/thread-self/stat) must
 * go with it: a clock the program reads before and after an atom that
 * went async must not go backwards (profilers and benchmarks subtract
 * two readings), and the clock pthread_getcpuclockid() makes of the
 * thread's ID, which the kernel looks up by that ID, must read the same
 * clock as CLOCK_THREAD_CPUTIME_ID; and what a worker ran must not join
 * it when that task carries the program again.  The process's clock adds up every
 * task and never goes backwards either.  The user-space engines never
 * move the program's thread: there, every check holds trivially.
 */
static struct syslet_uatom *ring[4];
static unsigned long idx;

static double clock_s(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		rt_die("clock_gettime(%d): %s", (int)id, strerror(errno));
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double rusage_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		rt_die("getrusage: %s", strerror(errno));
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* utime + stime of /proc/thread-self/stat, in clock ticks. */
static unsigned long long stat_ticks(void)
{
	unsigned long long ut, st;
	char buf[1024], *p;
	FILE *f = fopen("/proc/thread-self/stat", "r");

	if (!f)
		rt_die("/proc/thread-self/stat: %s", strerror(errno));
	if (!fgets(buf, sizeof(buf), f))
		rt_die("/proc/thread-self/stat: empty");
	fclose(f);
	/* The name may hold anything: fields 14 and 15 follow its ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%llu %llu", &ut, &st) != 2)
		rt_die("/proc/thread-self/stat: '%s'", buf);
	return ut + st;
}

static void spin(double s)
{
	double end = clock_s(CLOCK_THREAD_CPUTIME_ID) + s;

	while (clock_s(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

struct reading {
	double thread, by_id, rusage, process;
	unsigned long long ticks;
};

static void read_all(struct reading *r, clockid_t by_id)
{
	r->thread = clock_s(CLOCK_THREAD_CPUTIME_ID);
	r->by_id = clock_s(by_id);
	r->rusage = rusage_s();
	r->ticks = stat_ticks();
	r->process = clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/*
 * What a worker runs is not the program's: an atom that went async runs
 * on a task that no longer carries the program, and that task may carry
 * it again at a later hand-off.  Its time then must not join the
 * program's clock.  A chain of four reads of 16 MB of /dev/zero costs
 * the CPU clearing them; the first atom ASYNC, the chain costs the
 * program's thread next to nothing, round after round.  (A guest's
 * clocks also charge the task that ran when its host took the CPU away:
 * the chain's cost must stand well above such noise.)
 */
#define ZEROS (16u << 20)
#define READS 4

static void check_worker_time(void)
{
	struct syslet_uatom at[READS];
	unsigned long fd_arg, buf_arg, len_arg = ZEROS;
	double t0, own, all = 0;
	char *buf = malloc(ZEROS);
	long ret[READS];
	int fd = open("/dev/zero", O_RDONLY), went = 0;

	if (fd < 0 || !buf)
		rt_die("/dev/zero: %s", strerror(errno));
	/* What the chain costs when the program makes the reads itself. */
	t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; i < READS; i++)
		if (read(fd, buf, ZEROS) != (ssize_t)ZEROS)
			rt_die("read /dev/zero: %s", errno ? strerror(errno) :
			       "short");
	own = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
	fd_arg = (unsigned long)fd;
	buf_arg = (unsigned long)buf;
	for (int i = 0; i < READS; i++)
		rt_atom(&at[i], __NR_read, &ret[i], i ? 0 : SYSLET_ASYNC,
			i + 1 < READS ? &at[i + 1] : NULL, &fd_arg, &buf_arg,
			&len_arg);
	for (int i = 0; i < 8; i++) {
		t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
		went += rt_handoff(ring, 4, &idx, &at[0], &at[READS - 1]);
		all += clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
		for (int j = 0; j < READS; j++)
			rt_check(ret[j] == (long)ZEROS, "read %d gave %ld", j,
				 ret[j]);
	}
	/*
	 * Inline (user-space engines) the program makes the reads itself.
	 * A chain may start in place when no thread is parked yet (the
	 * last worker still on its way back): allow three of eight.
	 */
	if (went)
		rt_check(all < 3 * own,
			 "%d of 8 chains of %d reads of 16 MB went async, and "
			 "the program's clock moved %.6f s over the eight, "
			 "where one chain costs %.6f s", went, READS, all, own);
	close(fd);
	free(buf);
}

/*
 * A thread CPU-time timer measures the program's thread too: armed on
 * CLOCK_THREAD_CPUTIME_ID or on the clock of the thread's ID, before a
 * hand-off or after one (on a pool thread), it counts down through
 * hand-offs and fires when the program has spun its time.
 */
static volatile sig_atomic_t fired;

static void on_usr1(int sig)
{
	(void)sig;
	fired++;
}

static void check_timer(clockid_t clock, const char *name, int when)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGUSR1 };
	struct itimerspec its = { .it_value = { 0, 100000000 } }, left;
	struct syslet_uatom at;
	double start, rest;
	timer_t tm;
	long ret = 0;
	int went;

	fired = 0;
	if (timer_create(clock, &sev, &tm))
		rt_die("timer_create(%s): %s", name, strerror(errno));
	if (timer_settime(tm, 0, &its, NULL))
		rt_die("timer_settime(%s): %s", name, strerror(errno));
	spin(0.03);
	rt_atom(&at, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	went = rt_handoffs(ring, &idx, &at, &ret);
	if (timer_gettime(tm, &left))
		rt_die("timer_gettime(%s): %s", name, strerror(errno));
	rest = (double)left.it_value.tv_sec + left.it_value.tv_nsec / 1e9;
	rt_check(!fired && rest > 0 && rest < 0.08,
		 "%s, armed %s hand-offs, 0.1 s, 0.03 s spun, %d went "
		 "async: %.6f s left, %s", name, when ? "after" : "before",
		 went, rest, fired ? "fired" : "not fired");
	start = clock_s(CLOCK_THREAD_CPUTIME_ID);
	while (!fired && clock_s(CLOCK_THREAD_CPUTIME_ID) - start < 0.5)
		;
	rt_check(fired == 1,
		 "%s, armed %s hand-offs: %d signal(s) after 0.07 s were due "
		 "and %.3f s spun", name, when ? "after" : "before", (int)fired,
		 clock_s(CLOCK_THREAD_CPUTIME_ID) - start);
	timer_delete(tm);
}

static void check_timers(clockid_t by_id, int when)
{
	check_timer(CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID", when);
	check_timer(by_id, "the clock of the thread's ID", when);
}

int main(void)
{
	struct async_head_user ahu;
	struct reading b, a;
	struct syslet_uatom at;
	clockid_t by_id;
	long ret = 0;
	int went, err;

	rt_init();
	err = pthread_getcpuclockid(pthread_self(), &by_id);
	if (err)
		rt_die("pthread_getcpuclockid: %s", strerror(err));
	if (signal(SIGUSR1, on_usr1) == SIG_ERR)
		rt_die("signal: %s", strerror(errno));
	rt_register(&ahu, ring, 4, 2);
	check_timers(by_id, 0);
	rt_atom(&at, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	for (int round = 0; round < 3; round++) {
		/* Enough for /proc's ticks (1/USER_HZ s) to move too. */
		spin(0.1);
		read_all(&b, by_id);
		went = rt_handoffs(ring, &idx, &at, &ret);
		read_all(&a, by_id);
		rt_check(a.thread >= b.thread,
			 "round %d (%d went async): CLOCK_THREAD_CPUTIME_ID "
			 "went back from %.6f s to %.6f s", round, went,
			 b.thread, a.thread);
		rt_check(a.by_id >= a.thread && a.by_id - a.thread < 0.005,
			 "round %d (%d went async): the clock of the thread's "
			 "ID read %.6f s just after CLOCK_THREAD_CPUTIME_ID "
			 "read %.6f s", round, went, a.by_id, a.thread);
		rt_check(a.rusage >= b.rusage,
			 "round %d (%d went async): RUSAGE_THREAD went back "
			 "from %.6f s to %.6f s", round, went, b.rusage,
			 a.rusage);
		rt_check(a.ticks >= b.ticks,
			 "round %d (%d went async): /proc/thread-self/stat's "
			 "utime+stime went back from %llu to %llu ticks",
			 round, went, b.ticks, a.ticks);
		rt_check(a.process >= b.process,
			 "round %d (%d went async): CLOCK_PROCESS_CPUTIME_ID "
			 "went back from %.6f s to %.6f s", round, went,
			 b.process, a.process);
		rt_check(a.thread >= 0.1 * (round + 1),
			 "round %d: the thread's clock reads %.6f s after "
			 "%.1f s spun", round, a.thread, 0.1 * (round + 1));
	}
	check_worker_time();
	check_timers(by_id, 1);
	rt_unregister(&ahu);
	return rt_done("tidclock");
}
