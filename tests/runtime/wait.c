/* wait.c: async_wait(n) returns after n completions or when nothing is busy; a full ring loses no completion. */
#include <pthread.h>
#include "helpers.h"

#define N 4

/*
 * wait(n) counts completions that arrive after the call, so the bytes
 * that finish two reads must be written while the waiter sleeps in it:
 * written before, they could complete two reads before the call and
 * leave it waiting for two more that never come (the other two reads
 * stay busy).  The feeder writes once /proc shows the waiter in that call,
 * and unblocks everything if the wait does not come back, so that a
 * broken wait fails the test instead of hanging it.
 */
struct feeder {
	int fd;
	pid_t tid;		/* the thread that calls wait(2) */
	long nr;		/* the system call it sleeps in */
	int returned;		/* set by it when wait(2) is back */
	int stuck;		/* set by the feeder: it was not */
};

/*
 * 1 when thread @tid is inside system call @nr, 0 when not, -1 when
 * /proc cannot tell.  The kernel backend waits in async_wait itself,
 * the emul backend in a futex.
 */
static int inside(pid_t tid, long nr)
{
	char path[64];
	long at;
	int got;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	got = fscanf(f, "%ld", &at);	/* "running" is no number */
	fclose(f);
	return got == 1 && at == nr;
}

static void *feed(void *arg)
{
	struct feeder *f = arg;
	int s = 0;

	for (int i = 0; i < 10000 && !s; i++) {	/* 10 s at most */
		s = inside(f->tid, f->nr);
		if (s < 0)
			usleep(100000);	/* no /proc: give it time */
		else if (!s)
			usleep(1000);
	}
	if (write(f->fd, "ab", 2) != 2)
		rt_die("write");
	for (int i = 0; i < 20000; i++) {	/* 20 s at most */
		if (__atomic_load_n(&f->returned, __ATOMIC_ACQUIRE))
			return NULL;
		usleep(1000);
	}
	/* Let the other two reads finish: wait(2) ends as nothing is busy. */
	__atomic_store_n(&f->stuck, 1, __ATOMIC_RELEASE);
	if (write(f->fd, "cd", 2) != 2)
		rt_die("write");
	return NULL;
}

int main(void)
{
	struct syslet_uatom *ring[N], a[3 * N], *got[3 * N];
	struct async_head_user ahu;
	unsigned long fd, buf, len = 1, idx = 0, n;
	char c[3 * N];
	long ret[3 * N];
	int pfd[2];

	rt_init();
	if (pipe(pfd))
		rt_die("pipe");
	rt_register(&ahu, ring, N, -1UL);

	/* Nothing busy: back at once, whatever n. */
	rt_check(sys_async_wait(0) == 0, "wait(0): %s", strerror(errno));
	rt_check(sys_async_wait(5) == 0, "wait(5) idle: %s", strerror(errno));

	/* N reads block on an empty pipe (N workers at most: N slots). */
	fd = (unsigned long)pfd[0];
	for (int i = 0; i < N; i++) {
		buf = (unsigned long)&c[i];
		rt_atom(&a[i], __NR_read, &ret[i], 0, NULL, &fd, &buf, &len);
		a[i].arg_ptr[1] = (unsigned long *)&a[i].private;
		a[i].private = &c[i];
		if (sys_async_exec(&a[i]) || errno)
			rt_die("read %d did not go async", i);
	}
	/* Two bytes fed while we wait: wait(2) comes back with 2 done. */
	struct feeder f = {
		.fd = pfd[1],
		.tid = (pid_t)syscall(SYS_gettid),
		.nr = rt_is_emul() ? SYS_futex :
		      syslet_sysno(SYSLET_CALL_ASYNC_WAIT),
	};
	pthread_t ft;

	if (pthread_create(&ft, NULL, feed, &f))
		rt_die("pthread_create");
	rt_check(sys_async_wait(2) == 0, "wait(2): %s", strerror(errno));
	__atomic_store_n(&f.returned, 1, __ATOMIC_RELEASE);
	pthread_join(ft, NULL);
	if (f.stuck)
		rt_die("wait(2) not back 20 s after 2 reads completed");
	n = 0;
	for (int i = 0; i < N; i++)
		n += ring[i] != NULL;
	rt_check(n >= 2, "wait(2) back with %lu completions", n);
	n = rt_drain(ring, N, &idx, got, 3 * N);
	/* The other two: feed, then wait(N) returns when nothing is busy
	 * even though only 2 more complete. */
	if (write(pfd[1], "cd", 2) != 2)
		rt_die("write");
	rt_check(sys_async_wait(N) == 0, "wait(N): %s", strerror(errno));
	n += rt_drain(ring, N, &idx, got + n, 3 * N - n);
	rt_check(n == N, "%lu of %d completions", n, N);

	/* Ring full: 2N async syslets into N slots, without popping until
	 * all ran.  Each completion must come exactly once as slots free. */
	unsigned long cell = 0, inc = 1, *p = &cell;
	int seen[2 * N] = { 0 };
	int inl = 0, async = 0;
	for (int i = 0; i < 2 * N; i++) {
		rt_atom(&a[i], rt_umem_nr(), &ret[i], SYSLET_ASYNC, NULL,
			(unsigned long *)&p, &inc, NULL);
		if (sys_async_exec(&a[i]))
			seen[i] = -1, inl++;	/* pool full: ran inline */
		else
			async++;
	}
	n = 0;
	for (int t = 0; t < 10000 && (int)n < async; t++) {
		unsigned long k = rt_drain(ring, N, &idx, got, 3 * N);

		for (unsigned long j = 0; j < k; j++) {
			long at = got[j] - a;

			if (at < 0 || at >= 2 * N || seen[at])
				rt_die("bad or duplicate completion %ld", at);
			seen[at] = 1;
		}
		n += k;
		if ((int)n < async && sys_async_wait(1))
			rt_die("wait: %s", strerror(errno));
		if (!k)
			usleep(200);
	}
	rt_check((int)n == async, "%lu of %d completions (ring full)", n,
		 async);
	rt_check(cell == 2 * N, "ran %lu of %d", cell, 2 * N);
	rt_unregister(&ahu);
	return rt_done("wait");
}
