/* mthead.c: several threads, each with its own head and ring, start syslets that block and ones that do not, drain by async_wait or by async_unregister: every syslet completes exactly once, in its own thread's ring. */
#include "helpers.h"
#include <signal.h>
#include <stdint.h>

/*
 * In 2007 a head belonged to one task (t->ah): a completion went to the
 * ring of the thread that started the syslet, and only there.  A syslet
 * that never blocked came back from async_exec and queued nothing; one
 * that went async put its last atom into the ring once.
 * async_unregister() told every pool thread to exit and waited for each,
 * and a busy one first ran its chain to the end and completed it
 * (cachemiss_loop() looks at at->exit only between chains): when
 * async_unregister returns, every syslet it had in flight is in the
 * ring.  With fixed seeds, each round of each thread picks which
 * syslets block on a pipe (a feeder thread writes their byte in a random
 * order, once they started), which are quick, which are marked ASYNC,
 * and whether the round ends in async_wait() or in async_unregister().
 */

#define MT_THREADS	4
#define MT_PER_ROUND	12	/* syslets per round, fewer than RING */
#define MT_ROUNDS	150
#define MT_RING		16
#define MT_TIMEOUT_S	120

struct mt_sl {
	struct syslet_uatom	a[3];
	int			pfd[2];
	unsigned long		fd, buf, len, one, cnt, *cntp;
	long			r[3];
	char			c;
	int			blocks;		/* a0 reads the pipe */
	unsigned int		last;		/* index of its last atom */
	int			seen;		/* returned or in the ring */
	int			started;	/* round it was started in */
};

struct mt_thread {
	pthread_t		tid, feeder;
	int			no;
	uint64_t		rng;
	struct mt_sl		sl[MT_PER_ROUND];
	struct syslet_uatom	*ring[MT_RING];
	struct async_head_user	ahu;
	unsigned long		idx;
	int			order[MT_PER_ROUND];
	int			round;		/* published to the feeder */
	unsigned long		inline_done, ring_done, unregs, waits;
};

static struct mt_thread mt[MT_THREADS];
static unsigned long mt_umem;

static uint64_t mt_rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The feeder of one thread: in each round, the blocking syslets' bytes
 * in the round's order, each once its syslet was started (its read may
 * be blocking the caller itself, when no pool thread was free). */
static void *mt_feed(void *arg)
{
	struct mt_thread *t = arg;
	struct timespec tick = { 0, 20 * 1000 };

	for (int round = 1; round <= MT_ROUNDS; round++) {
		while (__atomic_load_n(&t->round, __ATOMIC_ACQUIRE) < round)
			nanosleep(&tick, NULL);
		for (int k = 0; k < MT_PER_ROUND; k++) {
			struct mt_sl *s = &t->sl[t->order[k]];

			if (!s->blocks)
				continue;
			while (__atomic_load_n(&s->started,
					       __ATOMIC_ACQUIRE) < round)
				nanosleep(&tick, NULL);
			if (write(s->pfd[1], "x", 1) != 1)
				rt_die("write: %s", strerror(errno));
		}
	}
	return NULL;
}

/* Which syslet of thread @t has atom @u; -1: none of this thread's. */
static int mt_owner(const struct mt_thread *t, const struct syslet_uatom *u)
{
	for (int i = 0; i < MT_PER_ROUND; i++)
		if (u >= t->sl[i].a && u < t->sl[i].a + 3)
			return i;
	return -1;
}

/* Take every completion in the ring, in its order. */
static void mt_drain(struct mt_thread *t, int round, int *left)
{
	struct syslet_uatom *u;

	while ((u = __atomic_load_n(&t->ring[t->idx], __ATOMIC_ACQUIRE))) {
		int i = mt_owner(t, u);

		t->ring[t->idx] = NULL;
		t->idx = (t->idx + 1) % MT_RING;
		if (i < 0) {
			int other = -1;

			for (int j = 0; j < MT_THREADS; j++)
				if (mt_owner(&mt[j], u) >= 0)
					other = j;
			rt_die("thread %d round %d: ring holds %p (thread "
			       "%d's)", t->no, round, (void *)u, other);
		}
		rt_check(t->sl[i].started == round && t->sl[i].seen == 0 &&
			 u == &t->sl[i].a[t->sl[i].last],
			 "thread %d round %d: syslet %d completed as atom %ld, "
			 "seen %d times before", t->no, round, i,
			 (long)(u - t->sl[i].a), t->sl[i].seen);
		t->sl[i].seen++;
		t->ring_done++;
		(*left)--;
	}
}

static void mt_build(struct mt_thread *t, struct mt_sl *s)
{
	unsigned long umem = mt_umem;
	uint64_t r = mt_rnd(&t->rng);
	unsigned long async = (r & 3) == 0 ? SYSLET_ASYNC : 0;

	s->blocks = (r >> 2) % 3 != 0;
	s->cnt = 0;
	s->cntp = &s->cnt;
	s->one = 1;
	s->r[0] = s->r[1] = s->r[2] = -999;
	if (s->blocks) {
		/* read(pipe, &c, 1), stop unless positive; cnt += 1 */
		rt_atom(&s->a[0], SYS_read, &s->r[0],
			SYSLET_STOP_ON_NON_POSITIVE | async, &s->a[1], &s->fd,
			&s->buf, &s->len);
		rt_atom(&s->a[1], umem, &s->r[1], 0, NULL,
			(unsigned long *)&s->cntp, &s->one, NULL);
		s->last = 1;
	} else {
		/* cnt += 1 twice; the first atom ASYNC or not */
		rt_atom(&s->a[0], umem, &s->r[0], async, &s->a[1],
			(unsigned long *)&s->cntp, &s->one, NULL);
		rt_atom(&s->a[1], umem, &s->r[1], 0, NULL,
			(unsigned long *)&s->cntp, &s->one, NULL);
		s->last = 1;
	}
}

static void *mt_main(void *arg)
{
	struct mt_thread *t = arg;

	for (int i = 0; i < MT_PER_ROUND; i++) {
		struct mt_sl *s = &t->sl[i];

		if (pipe(s->pfd))
			rt_die("pipe: %s", strerror(errno));
		s->fd = (unsigned long)s->pfd[0];
		s->buf = (unsigned long)&s->c;
		s->len = 1;
	}
	if (pthread_create(&t->feeder, NULL, mt_feed, t))
		rt_die("pthread_create");
	rt_register(&t->ahu, t->ring, MT_RING, -1UL);
	for (int round = 1; round <= MT_ROUNDS; round++) {
		int left = 0;
		int by_unreg = (mt_rnd(&t->rng) % 4) == 0;

		for (int i = 0; i < MT_PER_ROUND; i++) {
			mt_build(t, &t->sl[i]);
			t->sl[i].seen = 0;
			t->order[i] = i;
		}
		for (int i = MT_PER_ROUND - 1; i > 0; i--) {
			int j = (int)(mt_rnd(&t->rng) % (uint64_t)(i + 1));
			int x = t->order[i];

			t->order[i] = t->order[j];
			t->order[j] = x;
		}
		__atomic_store_n(&t->round, round, __ATOMIC_RELEASE);
		for (int i = 0; i < MT_PER_ROUND; i++) {
			struct mt_sl *s = &t->sl[i];
			struct syslet_uatom *done;

			__atomic_store_n(&s->started, round,
					 __ATOMIC_RELEASE);
			errno = 0;
			done = sys_async_exec(&s->a[0]);
			if (done) {
				rt_check(done == &s->a[s->last] &&
					 mt_owner(t, done) == i,
					 "thread %d round %d: syslet %d "
					 "returned atom %p", t->no, round, i,
					 (void *)done);
				s->seen++;
				t->inline_done++;
			} else if (errno) {
				rt_die("thread %d: async_exec: %s", t->no,
				       strerror(errno));
			} else {
				left++;
			}
			/* Take what is there now: the ring never fills. */
			mt_drain(t, round, &left);
		}
		if (by_unreg) {
			/* Waits for every chain in flight and its
			 * completion. */
			rt_unregister(&t->ahu);
			mt_drain(t, round, &left);
			rt_check(left == 0, "thread %d round %d: %d "
				 "completions missing after async_unregister",
				 t->no, round, left);
			t->idx = 0;
			t->unregs++;
			rt_register(&t->ahu, t->ring, MT_RING, -1UL);
		} else {
			while (left > 0) {
				if (sys_async_wait(1))
					rt_die("async_wait: %s",
					       strerror(errno));
				t->waits++;
				mt_drain(t, round, &left);
			}
		}
		for (int i = 0; i < MT_PER_ROUND; i++) {
			struct mt_sl *s = &t->sl[i];

			rt_check(s->seen == 1 && s->cnt == (s->blocks ? 1 : 2)
				 && s->r[s->last] == (long)s->cnt,
				 "thread %d round %d syslet %d (%s): seen %d, "
				 "cnt %lu, results %ld %ld", t->no, round, i,
				 s->blocks ? "blocking" : "quick", s->seen,
				 s->cnt, s->r[0], s->r[1]);
			if (rt_failures > 20)
				rt_die("too many failures");
		}
		/* Nothing may come after the round's last completion. */
		rt_check(t->ring[t->idx] == NULL,
			 "thread %d round %d: an extra completion %p", t->no,
			 round, (void *)t->ring[t->idx]);
	}
	rt_unregister(&t->ahu);
	for (int i = 0; i < MT_RING; i++)
		rt_check(t->ring[i] == NULL, "thread %d: slot %d holds %p at "
			 "the end", t->no, i, (void *)t->ring[i]);
	pthread_join(t->feeder, NULL);
	return NULL;
}

int main(void)
{
	unsigned long inl = 0, ring = 0, unregs = 0;

	rt_init();
	mt_umem = rt_umem_nr();
	/* A hang is a failure, not a stuck test run. */
	alarm(MT_TIMEOUT_S);
	for (int i = 0; i < MT_THREADS; i++) {
		mt[i].no = i;
		mt[i].rng = 0x2007c0de5eedULL * (uint64_t)(i + 1);
		if (pthread_create(&mt[i].tid, NULL, mt_main, &mt[i]))
			rt_die("pthread_create");
	}
	/* Heads are per thread: this one has none while the others run
	 * theirs (sys_async_exec and sys_async_wait: EINVAL). */
	{
		struct syslet_uatom a, *done;
		unsigned long cell = 0, *cp = &cell, one = 1;
		long r;

		rt_atom(&a, mt_umem, NULL, 0, NULL, (unsigned long *)&cp, &one,
			NULL);
		errno = 0;
		done = sys_async_exec(&a);
		rt_check(!done && errno == EINVAL && cell == 0,
			 "exec without a head: %p %s, cell %lu", (void *)done,
			 strerror(errno), cell);
		r = sys_async_wait(1);
		rt_check(r == -1 && errno == EINVAL, "wait without a head: "
			 "%ld %s", r, strerror(errno));
	}
	for (int i = 0; i < MT_THREADS; i++) {
		pthread_join(mt[i].tid, NULL);
		inl += mt[i].inline_done;
		ring += mt[i].ring_done;
		unregs += mt[i].unregs;
	}
	rt_check(inl + ring == (unsigned long)MT_THREADS * MT_ROUNDS *
				       MT_PER_ROUND,
		 "%lu returned + %lu in rings", inl, ring);
	printf("mthead: %lu syslets: %lu returned, %lu through the rings; "
	       "%lu rounds ended by async_unregister\n", inl + ring, inl,
	       ring, unregs);
	return rt_done("mthead");
}
