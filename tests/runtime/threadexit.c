/* threadexit.c: a thread that ends with its head registered tears it down as async_unregister does: it waits for its chains in flight and their completions, and leaves no pool thread or descriptor behind. */
#define _GNU_SOURCE
#include "helpers.h"
#include <dirent.h>
#include <signal.h>

/*
 * 2007's do_exit() called async_exit() first thing: a task that still had
 * a head ran async_head_exit(), which waited for every busy cachemiss
 * thread to finish its chain and complete it into the ring, and stopped
 * the pool, before the task's memory or its thread ID went.  So a
 * pthread_join() of such a thread returns only once its syslets are in
 * the ring, and a program whose threads come and go keeps no pool of a
 * thread that is gone.
 */

#define TE_THREADS	40

/* Entries of a /proc/self directory ("task", "fd"). */
static int te_count(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		rt_die("opendir %s: %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static struct syslet_uatom *te_ring[TE_THREADS][4];

/* Register, run an ASYNC atom, take its completion, end without
 * async_unregister. */
static void *te_quick(void *arg)
{
	struct syslet_uatom **ring = arg, a, *done;
	struct async_head_user ahu;
	unsigned long cnt = 0, *cp = &cnt, one = 1;
	long r = 0;

	rt_register(&ahu, ring, 4, -1UL);
	rt_atom(&a, rt_umem_nr(), &r, SYSLET_ASYNC, NULL, (unsigned long *)&cp,
		&one, NULL);
	done = sys_async_exec(&a);
	if (!done) {
		rt_wait_slot(&ring[0], 1);
		done = ring[0];
		ring[0] = NULL;
	}
	rt_check(done == &a && cnt == 1, "done %p cnt %lu", (void *)done, cnt);
	return NULL;
}

/* A chain in flight when its thread ends: read(pipe) blocks (on a
 * worker), then counts. */
static struct syslet_uatom *te_bring[4], te_a[2];
static unsigned long te_fd, te_buf, te_len = 1, te_cnt, *te_cp = &te_cnt,
		     te_one = 1;
static long te_r[2] = { -999, -999 };
static char te_c;

static void *te_blocked(void *arg)
{
	struct async_head_user ahu;
	struct syslet_uatom *done;

	(void)arg;
	rt_register(&ahu, te_bring, 4, -1UL);
	rt_atom(&te_a[0], SYS_read, &te_r[0], SYSLET_STOP_ON_NON_POSITIVE,
		&te_a[1], &te_fd, &te_buf, &te_len);
	rt_atom(&te_a[1], rt_umem_nr(), &te_r[1], 0, NULL,
		(unsigned long *)&te_cp, &te_one, NULL);
	errno = 0;
	done = sys_async_exec(&te_a[0]);
	rt_check(!done && !errno, "the read did not go async: %p %s",
		 (void *)done, strerror(errno));
	return NULL;
}

int main(void)
{
	struct timespec ms200 = { 0, 200 * 1000 * 1000 };
	int tasks, fds, p[2];
	pthread_t t;

	rt_init();
	/* A hang is a failure, not a stuck test run. */
	alarm(60);
	/* The backend's own threads and descriptors, if any, exist now. */
	te_quick(te_ring[0]);
	tasks = te_count("/proc/self/task");
	fds = te_count("/proc/self/fd");
	for (int i = 1; i < TE_THREADS; i++) {
		if (pthread_create(&t, NULL, te_quick, te_ring[i]))
			rt_die("pthread_create");
		pthread_join(t, NULL);
	}
	/*
	 * A pool told to go is gone a moment later: 2007 waited for each
	 * of its threads to say it was leaving (exit_done), not for the
	 * thread to be reaped, and the kernel backend's dismissed threads
	 * leave on their own; a leaked pool stays.  So up to 5 s.
	 */
	for (int i = 0; i < 500 && te_count("/proc/self/task") != tasks; i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	rt_check(te_count("/proc/self/task") == tasks,
		 "%d threads ended with a head: %d tasks, %d before",
		 TE_THREADS - 1, te_count("/proc/self/task"), tasks);
	rt_check(te_count("/proc/self/fd") == fds,
		 "%d threads ended with a head: %d descriptors, %d before",
		 TE_THREADS - 1, te_count("/proc/self/fd"), fds);

	if (pipe(p))
		rt_die("pipe: %s", strerror(errno));
	te_fd = (unsigned long)p[0];
	te_buf = (unsigned long)&te_c;
	if (pthread_create(&t, NULL, te_blocked, NULL))
		rt_die("pthread_create");
	/* The thread's chain waits for the byte: the thread is still
	 * ending, as 2007's was in async_exit(). */
	nanosleep(&ms200, NULL);
	rt_check(pthread_tryjoin_np(t, NULL) == EBUSY,
		 "the thread ended with its chain still in flight");
	rt_check(te_cnt == 0 && te_bring[0] == NULL, "cnt %lu slot %p",
		 te_cnt, (void *)te_bring[0]);
	if (write(p[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	pthread_join(t, NULL);
	/* Its completion is in the ring by the time it has ended. */
	rt_check(te_bring[0] == &te_a[1] && te_cnt == 1 && te_r[0] == 1 &&
		 te_r[1] == 1, "after the join: slot %p cnt %lu results %ld %ld",
		 (void *)te_bring[0], te_cnt, te_r[0], te_r[1]);
	close(p[0]);
	close(p[1]);
	return rt_done("threadexit");
}
