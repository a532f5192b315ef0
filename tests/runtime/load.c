/* load.c: 10,000 syslets in flight on a small ring and a full pool, SIGINT in the middle, every completion accounted for exactly once. */
#include "helpers.h"
#include <pthread.h>
#include <signal.h>

#define INSTANCES	10000
#define RING		256
#define THREADS		16

struct inst {
	struct syslet_uatom	a[2];	/* read(pipe, 1) -> umem_add(&count) */
	long			ret[2];
	unsigned long		buf, cnt, *cntp;
	char			byte;
};

static struct inst *in;
static struct syslet_uatom *ring[RING];
static unsigned long idx, count, one = 1, fd, len = 1;
static unsigned char *done_by;	/* 0: pending, 1: inline, 2: ring */
static unsigned long finished, via_ring, via_inline, at_second;
static int pfd[2];
static volatile sig_atomic_t sigints;

static void on_int(int sig)
{
	(void)sig;
	sigints++;
}

/* Which instance an atom belongs to, or die. */
static long owner(struct syslet_uatom *a)
{
	for (long i = 0; i < 2; i++) {
		long off = (long)((char *)a - (char *)&in[0].a[i]);

		if (off >= 0 && off % (long)sizeof(struct inst) == 0 &&
		    off / (long)sizeof(struct inst) < INSTANCES)
			return off / (long)sizeof(struct inst);
	}
	rt_die("completion %p is no atom of ours", (void *)a);
}

static void account(struct syslet_uatom *a, unsigned char how)
{
	long i = owner(a);

	if (done_by[i])
		rt_die("instance %ld finished twice (%d then %d)", i,
		       done_by[i], how);
	done_by[i] = how;
	finished++;
	if (a == &in[i].a[1])
		at_second++;
	rt_check(a != &in[i].a[1] || (in[i].ret[1] == 1 && in[i].cnt == 1),
		 "instance %ld ended at its umem_add: ret %ld cnt %lu", i,
		 in[i].ret[1], in[i].cnt);
	if (how == 2)
		via_ring++;
	else
		via_inline++;
}

static void drain(void)
{
	struct syslet_uatom *got[RING];
	unsigned long n = rt_drain(ring, RING, &idx, got, RING);

	for (unsigned long j = 0; j < n; j++)
		account(got[j], 2);
}

/*
 * Feeds the pipe a byte at a time, in bursts, and sends SIGINT half-way.
 * The signal goes to the process, not to a thread: only the submitting
 * thread has SIGINT unblocked (this one and the watchdog inherit the
 * block, cachemiss threads block everything), so it is delivered there.
 * pthread_kill() would aim at the kernel task the submitter started on,
 * and on the kernel backend the submitter's user context moves to
 * another task at every hand-off, leaving the first one a pool thread
 * with every signal blocked.
 */
static void *writer(void *arg)
{
	char b[100];

	(void)arg;
	memset(b, 'x', sizeof(b));
	for (int sent = 0; sent < INSTANCES; sent += 100) {
		if (write(pfd[1], b, sizeof(b)) != (ssize_t)sizeof(b))
			rt_die("write: %s", strerror(errno));
		if (sent == INSTANCES / 2)
			for (int k = 0; k < 5; k++) {
				kill(getpid(), SIGINT);
				usleep(200);
			}
		usleep(100);
	}
	return NULL;
}

static void *watchdog(void *arg)
{
	(void)arg;
	sleep(120);
	fprintf(stderr, "FAIL: stuck: %lu of %d finished\n", finished,
		INSTANCES);
	_exit(RT_FAIL);
}

int main(void)
{
	struct async_head_user ahu;
	struct sigaction sa;
	pthread_t wt, wd;
	sigset_t set, old;

	rt_init();
	in = calloc(INSTANCES, sizeof(*in));
	done_by = calloc(INSTANCES, 1);
	if (!in || !done_by || pipe(pfd))
		rt_die("setup: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL))
		rt_die("sigaction");
	fd = (unsigned long)pfd[0];
	for (long i = 0; i < INSTANCES; i++) {
		struct inst *s = &in[i];

		s->buf = (unsigned long)&s->byte;
		rt_atom(&s->a[0], __NR_read, &s->ret[0], SYSLET_STOP_ON_NON_POSITIVE,
			&s->a[1], &fd, &s->buf, &len);
		/* Its own counter: umem_add is not atomic (nor was the
		 * kernel's generic one), so no shared cell. */
		s->cntp = &s->cnt;
		rt_atom(&s->a[1], rt_umem_nr(), &s->ret[1], SYSLET_ASYNC, NULL,
			(unsigned long *)&s->cntp, &one, NULL);
	}
	rt_register(&ahu, ring, RING, THREADS);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	if (pthread_create(&wt, NULL, writer, NULL) ||
	    pthread_create(&wd, NULL, watchdog, NULL))
		rt_die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	for (long i = 0; i < INSTANCES; i++) {
		struct syslet_uatom *d;

		drain();
		errno = 0;
		d = sys_async_exec(&in[i].a[0]);
		if (d)
			account(d, 1);
		else if (errno)
			rt_die("exec %ld: %s", i, strerror(errno));
	}
	while (finished < INSTANCES) {
		drain();
		if (finished < INSTANCES && sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	}
	pthread_join(wt, NULL);
	drain();
	rt_check(finished == INSTANCES, "%lu of %d", finished, INSTANCES);
	/* Every instance whose read got its byte added one. */
	unsigned long reads = 0, stopped = 0;
	for (long i = 0; i < INSTANCES; i++) {
		count += in[i].cnt;
		if (in[i].ret[0] == 1)
			reads++;
		else
			stopped++;
	}
	/* The chains that ended at their umem_add atom are exactly those
	 * that added: no lost and no double completion. */
	rt_check(count == at_second, "count %lu, %lu ended at atom 2", count,
		 at_second);
	rt_check(count <= reads, "count %lu > successful reads %lu", count,
		 reads);
	rt_check(ring[idx] == NULL, "left in the ring");
	rt_unregister(&ahu);
	printf("load: %lu via ring, %lu inline, %lu reads, %lu stopped early, "
	       "%d SIGINTs, count %lu\n", via_ring, via_inline, reads,
	       stopped, (int)sigints, count);
	rt_check(sigints > 0, "no SIGINT was delivered");
	return rt_done("load");
}
