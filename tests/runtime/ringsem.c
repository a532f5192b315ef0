/* ringsem.c: completions against 2007's complete_uatom() and sys_async_wait(): one atom in flight twice, NO_COMPLETE among completing syslets, a wait for more than is busy, a full ring. */
#include "helpers.h"

/*
 * From kernel/async.c: a syslet that went async puts its last atom into
 * the slot at the ring's index unless that atom has NO_COMPLETE (the
 * copy's flags); async_wait(n) returns once n completions came after the
 * call or once no cachemiss thread is busy, whichever comes first, so a
 * wait for more than will ever come returns when the work is done.  The
 * same atom may be in flight twice: the kernel keeps no record of an
 * atom, only of threads.
 */

struct late2 {
	int	fd;
	long	ms;
	int	bytes;
};

static void *late2_main(void *arg)
{
	struct late2 *l = arg;
	struct timespec ts = { 0, l->ms * 1000000L };

	nanosleep(&ts, NULL);
	for (int i = 0; i < l->bytes; i++)
		if (write(l->fd, "x", 1) != 1)
			rt_die("late write: %s", strerror(errno));
	return NULL;
}

/* A thread writes @bytes bytes to @fd @ms ms from now. */
static pthread_t late2(struct late2 *l, int fd, long ms, int bytes)
{
	pthread_t t;

	l->fd = fd;
	l->ms = ms;
	l->bytes = bytes;
	if (pthread_create(&t, NULL, late2_main, l))
		rt_die("pthread_create");
	return t;
}

/* A one-byte read of @fd, into *@c, result in *@ret. */
struct rd {
	struct syslet_uatom	a;
	unsigned long		fd, buf, len;
	long			ret;
	char			c;
};

static void rd_init(struct rd *r, int fd, unsigned long flags)
{
	memset(r, 0, sizeof(*r));
	r->fd = (unsigned long)fd;
	r->buf = (unsigned long)&r->c;
	r->len = 1;
	r->ret = -12345;
	rt_atom(&r->a, SYS_read, &r->ret, flags, NULL, &r->fd, &r->buf,
		&r->len);
}

static void exec_async(struct syslet_uatom *a, const char *what)
{
	struct syslet_uatom *done;

	errno = 0;
	done = sys_async_exec(a);
	if (done || errno)
		rt_die("%s did not go async: %p %s", what, (void *)done,
		       strerror(errno));
}

/* Wait until nothing is busy (async_wait for more than can come). */
static void wait_idle(void)
{
	if (sys_async_wait(1000))
		rt_die("async_wait: %s", strerror(errno));
}

static unsigned long count(struct syslet_uatom **ring, unsigned long n,
			   struct syslet_uatom *a)
{
	unsigned long k = 0;

	for (unsigned long i = 0; i < n; i++)
		k += __atomic_load_n(&ring[i], __ATOMIC_ACQUIRE) == a;
	return k;
}

/* The same atom submitted twice while the first is still waiting: two
 * reads, two completions of that atom. */
static void twice(void)
{
	struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct late2 l;
	struct rd r;
	pthread_t t;
	int p[2];

	if (pipe(p))
		rt_die("pipe");
	rt_register(&ahu, ring, 8, -1UL);
	rd_init(&r, p[0], 0);
	exec_async(&r.a, "the first read");
	exec_async(&r.a, "the second read");
	t = late2(&l, p[1], 30, 2);
	wait_idle();
	pthread_join(t, NULL);
	rt_check(count(ring, 8, &r.a) == 2, "%lu completions of the atom",
		 count(ring, 8, &r.a));
	rt_check(r.ret == 1 && r.c == 'x', "ret %ld c %d", r.ret, r.c);
	rt_unregister(&ahu);
	close(p[0]);
	close(p[1]);
}

/* NO_COMPLETE: nothing in the ring; a wait for 5 returns once nothing
 * is busy; mixed with a syslet that completes, only that one is there. */
static void nocomplete(void)
{
	struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct late2 l1, l2;
	struct rd r1, r2;
	pthread_t t1, t2;
	int p1[2], p2[2];
	double t0;

	if (pipe(p1) || pipe(p2))
		rt_die("pipe");
	rt_register(&ahu, ring, 8, -1UL);
	rd_init(&r1, p1[0], SYSLET_NO_COMPLETE);
	exec_async(&r1.a, "the NO_COMPLETE read");
	t1 = late2(&l1, p1[1], 30, 1);
	t0 = rt_now();
	if (sys_async_wait(5))
		rt_die("async_wait: %s", strerror(errno));
	rt_check(rt_now() - t0 < 5, "async_wait(5) took %.1f s", rt_now() - t0);
	rt_check(r1.ret == 1, "NO_COMPLETE read returned %ld", r1.ret);
	rt_check(count(ring, 8, NULL) == 8, "the ring holds a completion");
	pthread_join(t1, NULL);

	rd_init(&r1, p1[0], SYSLET_NO_COMPLETE);
	rd_init(&r2, p2[0], 0);
	exec_async(&r1.a, "the NO_COMPLETE read");
	exec_async(&r2.a, "the completing read");
	t1 = late2(&l1, p1[1], 60, 1);
	t2 = late2(&l2, p2[1], 20, 1);
	wait_idle();
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	rt_check(r1.ret == 1 && r2.ret == 1, "rets %ld %ld", r1.ret, r2.ret);
	rt_check(ring[0] == &r2.a && count(ring, 8, NULL) == 7,
		 "ring[0] %p (want %p), %lu empty", (void *)ring[0],
		 (void *)&r2.a, count(ring, 8, NULL));
	rt_unregister(&ahu);
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);
}

/*
 * A full ring of two slots: two completions fill it; a third syslet's
 * completion waits (our deliberate difference: 2007 dropped it) until
 * slot 0 is cleared, then goes there, before anything later.
 */
static void full(void)
{
	struct syslet_uatom *ring[2];
	struct async_head_user ahu;
	struct late2 l[4];
	struct rd r[3], nc;
	pthread_t t[4];
	int p[3][2];

	rt_register(&ahu, ring, 2, -1UL);
	for (int i = 0; i < 3; i++) {
		if (pipe(p[i]))
			rt_die("pipe");
		rd_init(&r[i], p[i][0], 0);
	}
	for (int i = 0; i < 2; i++) {
		exec_async(&r[i].a, "a read");
		t[i] = late2(&l[i], p[i][1], 10, 1);
	}
	wait_idle();
	rt_check(ring[0] && ring[1], "the ring is not full: %p %p",
		 (void *)ring[0], (void *)ring[1]);
	exec_async(&r[2].a, "the third read");
	t[2] = late2(&l[2], p[2][1], 10, 1);
	wait_idle();
	pthread_join(t[2], NULL);
	rt_check(r[2].ret == 1, "third read returned %ld", r[2].ret);
	rt_check(ring[0] != &r[2].a && ring[1] != &r[2].a,
		 "the third completion overwrote a full slot");
	/* A NO_COMPLETE syslet needs no slot: it ends behind the full
	 * ring, and nothing of it shows later. */
	rd_init(&nc, p[0][0], SYSLET_NO_COMPLETE);
	exec_async(&nc.a, "the NO_COMPLETE read");
	t[3] = late2(&l[3], p[0][1], 10, 1);
	wait_idle();
	pthread_join(t[3], NULL);
	rt_check(nc.ret == 1, "NO_COMPLETE read returned %ld", nc.ret);
	__atomic_store_n(&ring[0], NULL, __ATOMIC_RELEASE);
	sys_async_wait(0);
	for (int i = 0; i < 1000 && !ring[0]; i++)
		usleep(1000);
	rt_check(ring[0] == &r[2].a, "slot 0 holds %p, not the third %p",
		 (void *)ring[0], (void *)&r[2].a);
	__atomic_store_n(&ring[1], NULL, __ATOMIC_RELEASE);
	sys_async_wait(0);
	usleep(20000);
	sys_async_wait(0);
	rt_check(!ring[1], "slot 1 got %p after the kept one",
		 (void *)ring[1]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	rt_unregister(&ahu);
	for (int i = 0; i < 3; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

/*
 * async_wait(2) with one completion already in the ring from before the
 * call and three syslets busy: it counts only completions after the call,
 * so it returns with the second of the two that come (at 200 ms), not the
 * first (20 ms), nor waits for the third, which never comes on its own.
 */
static void wait_counts(void)
{
	struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct late2 l[4];
	struct rd r[4];
	pthread_t t[4];
	int p[4][2];
	double t0, dt;

	rt_register(&ahu, ring, 8, -1UL);
	for (int i = 0; i < 4; i++) {
		if (pipe(p[i]))
			rt_die("pipe");
		rd_init(&r[i], p[i][0], 0);
		exec_async(&r[i].a, "a read");
	}
	t[0] = late2(&l[0], p[0][1], 1, 1);
	pthread_join(t[0], NULL);
	while (!__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	t[1] = late2(&l[1], p[1][1], 20, 1);
	t[2] = late2(&l[2], p[2][1], 200, 1);
	t0 = rt_now();
	if (sys_async_wait(2))
		rt_die("async_wait: %s", strerror(errno));
	dt = rt_now() - t0;
	rt_check(dt > 0.15 && dt < 5, "async_wait(2) returned after %.3f s",
		 dt);
	rt_check(r[1].ret == 1 && r[2].ret == 1 && r[3].ret == -12345,
		 "rets %ld %ld %ld", r[1].ret, r[2].ret, r[3].ret);
	pthread_join(t[1], NULL);
	pthread_join(t[2], NULL);
	t[3] = late2(&l[3], p[3][1], 1, 1);
	wait_idle();
	pthread_join(t[3], NULL);
	rt_check(count(ring, 8, NULL) == 4, "%lu completions, not 4",
		 8 - count(ring, 8, NULL));
	rt_unregister(&ahu);
	for (int i = 0; i < 4; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

/*
 * A ring of one slot allows one cachemiss thread: with a syslet busy on
 * it, a second that blocks finds no thread to hand the caller to (2007:
 * pick_ready_cachemiss_thread() NULL), so it blocks the caller and ends
 * in async_exec, which returns its last atom and queues nothing.
 */
static void pool_busy(void)
{
	struct syslet_uatom *ring[1], *done;
	struct async_head_user ahu;
	struct late2 l[2];
	struct rd r[2];
	pthread_t t[2];
	int p[2][2];

	rt_register(&ahu, ring, 1, -1UL);
	for (int i = 0; i < 2; i++) {
		if (pipe(p[i]))
			rt_die("pipe");
		rd_init(&r[i], p[i][0], 0);
	}
	exec_async(&r[0].a, "the first read");
	t[1] = late2(&l[1], p[1][1], 50, 1);
	errno = 0;
	done = sys_async_exec(&r[1].a);
	rt_check(done == &r[1].a && r[1].ret == 1,
		 "the second read: %p (atom %p) ret %ld errno %d",
		 (void *)done, (void *)&r[1].a, r[1].ret, errno);
	t[0] = late2(&l[0], p[0][1], 1, 1);
	wait_idle();
	rt_check(ring[0] == &r[0].a, "slot 0 holds %p", (void *)ring[0]);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	rt_unregister(&ahu);
	for (int i = 0; i < 2; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
}

int main(void)
{
	rt_init();
	twice();
	nocomplete();
	full();
	wait_counts();
	pool_busy();
	return rt_done("ringsem");
}
