/* inject.c: syslet_set_inject(): the injected result is what the syslet sees (stored, stop test), the call is not made, runs are counted per number once each wherever the atom runs; the unfinished events of syslet_set_trace_flags(). */
#include <fcntl.h>
#include <pthread.h>
#include "helpers.h"

#define IJ_N 10

static struct syslet_uatom *ij_ring[16];
static unsigned long ij_idx;

/* Run a chain to its end: its last atom (inline, or from the ring). */
static struct syslet_uatom *ij_run(struct syslet_uatom *first)
{
	struct syslet_uatom *done, *got = NULL;

	errno = 0;
	done = sys_async_exec(first);
	if (done)
		return done;
	if (errno)
		rt_die("async_exec: %s", strerror(errno));
	while (!rt_drain(ij_ring, 16, &ij_idx, &got, 1))
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	return got;
}

static struct syslet_inject ij_rule(unsigned long nr, long ret,
				    unsigned long first, unsigned long last,
				    unsigned long step)
{
	struct syslet_inject r;

	memset(&r, 0, sizeof(r));
	r.sz = sizeof(r);
	r.nr = nr;
	r.ret = ret;
	r.first = first;
	r.last = last;
	r.step = step;
	return r;
}

static void ij_set(const struct syslet_inject *r, size_t n)
{
	int err = syslet_set_inject(r, n);

	if (err)
		rt_die("syslet_set_inject: %s", strerror(-err));
}

/* The counts of the only rule. */
static void ij_counts(unsigned long long *calls, unsigned long long *inj)
{
	struct syslet_inject r[2] = { { .sz = sizeof(r[0]) } };
	int n = syslet_get_inject(r, 2);

	rt_check(n == 1, "%d rules in force", n);
	*calls = n ? r[0].calls : 0;
	*inj = n ? r[0].injected : 0;
}

/* IJ_N getppid atoms in a row, each storing its own result. */
static void ij_chain(struct syslet_uatom *a, long *ret, unsigned long flags)
{
	for (int i = 0; i < IJ_N; i++) {
		ret[i] = 12345;
		rt_atom(&a[i], __NR_getppid, &ret[i], flags,
			i + 1 < IJ_N ? &a[i + 1] : NULL, NULL, NULL, NULL);
	}
}

/* Which of the IJ_N atoms got the injected value. */
static unsigned int ij_mask(const long *ret, long inj)
{
	unsigned int m = 0;
	long ppid = getppid();

	for (int i = 0; i < IJ_N; i++) {
		if (ret[i] == inj)
			m |= 1u << i;
		else
			rt_check(ret[i] == ppid, "atom %d stored %ld", i,
				 ret[i]);
	}
	return m;
}

/* strace's when= forms, on a chain of IJ_N calls. */
static void test_when(void)
{
	static const struct {
		unsigned long first, last, step;
		unsigned int want;	/* bit i: the i-th call (from 0) */
	} w[] = {
		{ 1, 0, 1, 0x3ff },	/* always */
		{ 3, 3, 1, 0x004 },	/* when=3 */
		{ 3, 0, 1, 0x3fc },	/* when=3+ */
		{ 2, 0, 3, 0x092 },	/* when=2+3: 2, 5, 8 */
		{ 2, 4, 1, 0x00e },	/* when=2..4 */
		{ 2, 9, 4, 0x022 },	/* when=2..9+4: 2, 6 */
	};
	struct syslet_uatom a[IJ_N];
	long ret[IJ_N];

	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		struct syslet_inject r = ij_rule(__NR_getppid, -ENOENT,
						 w[k].first, w[k].last,
						 w[k].step);
		unsigned long long calls, inj;
		unsigned int m;

		ij_set(&r, 1);
		ij_chain(a, ret, 0);
		rt_check(ij_run(&a[0]) == &a[IJ_N - 1], "case %zu: ended early",
			 k);
		m = ij_mask(ret, -ENOENT);
		rt_check(m == w[k].want, "case %zu: injected %#x, want %#x", k,
			 m, w[k].want);
		ij_counts(&calls, &inj);
		rt_check(calls == IJ_N && inj == (unsigned)__builtin_popcount(
							w[k].want),
			 "case %zu: counted %llu calls, %llu injected", k,
			 calls, inj);
	}
	/* Counting goes on across syslets: the second chain's 1st call is
	 * the 11th. */
	{
		struct syslet_inject r = ij_rule(__NR_getppid, -EIO, IJ_N + 2,
						 IJ_N + 2, 1);

		ij_set(&r, 1);
		ij_chain(a, ret, 0);
		ij_run(&a[0]);
		rt_check(ij_mask(ret, -EIO) == 0, "first chain injected");
		ij_chain(a, ret, 0);
		ij_run(&a[0]);
		rt_check(ij_mask(ret, -EIO) == 0x2,
			 "the 12th call across two chains was not the one");
	}
	/* Off: nothing injected, nothing counted. */
	ij_set(NULL, 0);
	rt_check(syslet_get_inject(NULL, 0) == 0, "rules left after clear");
	ij_chain(a, ret, 0);
	ij_run(&a[0]);
	rt_check(ij_mask(ret, -ENOENT) == 0, "injected with no rule");
}

/* The injected result drives the stop test, and the call is not made. */
static void test_effect(void)
{
	struct syslet_uatom a[2];
	struct syslet_inject r[2];
	unsigned long fd, buf, len = 1, fd2;
	long r0 = 0, r1 = 0;
	int pfd[2];
	char c;

	if (pipe(pfd) || fcntl(pfd[0], F_SETFL, O_NONBLOCK))
		rt_die("pipe: %s", strerror(errno));
	fd = (unsigned long)pfd[1];
	buf = (unsigned long)"x";
	fd2 = fd;
	/* write fails with EIO: stop-on-negative ends the chain there; the
	 * second write never runs. */
	rt_atom(&a[0], __NR_write, &r0, SYSLET_STOP_ON_NEGATIVE, &a[1], &fd,
		&buf, &len);
	rt_atom(&a[1], __NR_write, &r1, 0, NULL, &fd2, &buf, &len);
	r[0] = ij_rule(__NR_write, -EIO, 1, 1, 1);
	ij_set(r, 1);
	rt_check(ij_run(&a[0]) == &a[0] && r0 == -EIO && r1 == 0,
		 "injected EIO: r0 %ld r1 %ld", r0, r1);
	rt_check(read(pfd[0], &c, 1) < 0 && errno == EAGAIN,
		 "the failed write was made");
	/* retval=: a success that is not one either, and the rule of
	 * another number is untouched. */
	r[0] = ij_rule(__NR_write, 7, 1, 0, 1);
	r[1] = ij_rule(__NR_getppid, -EPERM, 1, 0, 1);
	ij_set(r, 2);
	r0 = r1 = 0;
	rt_check(ij_run(&a[0]) == &a[1] && r0 == 7 && r1 == 7,
		 "retval 7: r0 %ld r1 %ld", r0, r1);
	rt_check(read(pfd[0], &c, 1) < 0 && errno == EAGAIN,
		 "a write with an injected retval was made");
	rt_check(syslet_get_inject(r, 2) == 2 && r[0].nr == __NR_write &&
		 r[1].nr == __NR_getppid && r[0].calls == 2 &&
		 r[0].injected == 2 && r[1].calls == 0 && r[0].ret == 7 &&
		 r[1].ret == -EPERM && r[1].first == 1 && r[1].step == 1,
		 "the rules in force, by number, with their counts");
	/* syslet_step runs atoms through the same interpreter. */
	r0 = 0;
	rt_check(syslet_step(&a[0], NULL) == &a[1] && r0 == 7,
		 "a step was not injected: %ld", r0);
	ij_set(NULL, 0);
	close(pfd[0]);
	close(pfd[1]);
}

/* Bad rules change nothing. */
static void test_invalid(void)
{
	struct syslet_inject good = ij_rule(__NR_getppid, -EIO, 1, 0, 1);
	struct syslet_inject bad[] = {
		ij_rule(__NR_getppid, -EIO, 0, 0, 1),	/* first 0 */
		ij_rule(__NR_getppid, -EIO, 1, 0, 0),	/* step 0 */
		ij_rule(__NR_getppid, -EIO, 5, 4, 1),	/* last < first */
		ij_rule(1UL << 20, -EIO, 1, 0, 1),	/* past the table */
	};
	struct syslet_inject got = { .sz = sizeof(got) };

	ij_set(&good, 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct syslet_inject two[2] = { good, bad[i] };

		rt_check(syslet_set_inject(two, 2) == -EINVAL,
			 "bad rule %zu accepted", i);
	}
	rt_check(syslet_get_inject(&got, 1) == 1 && got.nr == __NR_getppid,
		 "a refused set changed the rules");
	ij_set(NULL, 0);
}

/* Sized rules (libsyslet(3) SIZED STRUCTS): sz must be set, the same in
 * every element; a newer caller's larger struct is taken when its tail
 * is zero and strided by its own size, both ways. */
static void test_sizes(void)
{
	struct newer {
		struct syslet_inject r;
		unsigned long future;
	} n[2];
	struct syslet_inject r = ij_rule(__NR_getppid, -EIO, 1, 0, 1);
	struct syslet_inject unset = r;

	unset.sz = 0;
	rt_check(syslet_set_inject(&unset, 1) == -EINVAL && errno == EINVAL,
		 "a rule without sz accepted");
	rt_check(syslet_get_inject(&unset, 1) == -EINVAL,
		 "rules read into a struct without sz");
	memset(n, 0, sizeof(n));
	n[0].r = ij_rule(__NR_getppid, -EIO, 1, 0, 1);
	n[1].r = ij_rule(__NR_write, -ENOSPC, 2, 0, 1);
	n[0].r.sz = n[1].r.sz = sizeof(n[0]);
	ij_set(&n[0].r, 2);
	/* The first element as SYSLET_OPTS leaves it, the rest garbage. */
	memset(n, 0xff, sizeof(n));
	memset(&n[0], 0, sizeof(n[0]));
	n[0].r.sz = sizeof(n[0]);
	rt_check(syslet_get_inject(&n[0].r, 2) == 2 &&
		 n[0].r.nr == __NR_write && n[1].r.nr == __NR_getppid &&
		 n[0].r.ret == -ENOSPC && n[0].r.first == 2 &&
		 n[1].r.sz == sizeof(n[0]) && n[1].r.ret == -EIO &&
		 n[1].r.first == 1 && !n[0].future && !n[1].future,
		 "a newer caller's rules (by number), strided by its size");
	n[1].future = 1;
	rt_check(syslet_set_inject(&n[0].r, 2) == -EINVAL,
		 "a rule with an unknown non-zero field accepted");
	n[1].future = 0;
	n[1].r.sz = sizeof(r);
	rt_check(syslet_set_inject(&n[0].r, 2) == -EINVAL,
		 "rules of two sizes in one array accepted");
	ij_set(NULL, 0);
}

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct syslet_event evs[16];
static unsigned int nev;

static void on_event(const struct syslet_event *ev, void *ctx)
{
	(void)ctx;
	pthread_mutex_lock(&ev_lock);
	if (nev < 16)
		evs[nev++] = *ev;
	pthread_mutex_unlock(&ev_lock);
}

static unsigned int ev_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&ev_lock);
	n = nev;
	pthread_mutex_unlock(&ev_lock);
	return n;
}

/* Wait (at most ~5 s) for @n events: a worker reports before it
 * completes, but we may look in between. */
static void ev_wait(unsigned int n)
{
	for (int i = 0; i < 500 && ev_count() < n; i++)
		usleep(10000);
}

/*
 * An atom that goes async is counted once: an ASYNC one where the worker
 * (or the driver) runs it, one that would block where it was tried.
 * Events: the injected atom is marked, and with SYSLET_TRACE_UNFINISHED
 * a syslet that goes async is reported at that atom first.
 */
static void test_async(void)
{
	struct syslet_uatom a[2];
	struct rt_pipe_read pr;
	struct syslet_inject r;
	unsigned long long calls, inj;
	long r0 = 0, r1 = 0;

	rt_check(syslet_set_trace_flags(0x100) == -EINVAL,
		 "unknown trace flags accepted");
	rt_check(syslet_set_trace_flags(SYSLET_TRACE_UNFINISHED) == 0,
		 "SYSLET_TRACE_UNFINISHED refused");
	syslet_set_trace(on_event, NULL);

	/* ASYNC getppid, injected, then a getppid that is not. */
	r = ij_rule(__NR_getppid, -ENOENT, 1, 1, 1);
	ij_set(&r, 1);
	rt_atom(&a[0], __NR_getppid, &r0, SYSLET_ASYNC, &a[1], NULL, NULL,
		NULL);
	rt_atom(&a[1], __NR_getppid, &r1, 0, NULL, NULL, NULL, NULL);
	nev = 0;
	rt_check(ij_run(&a[0]) == &a[1] && r0 == -ENOENT && r1 == getppid(),
		 "ASYNC: r0 %ld r1 %ld", r0, r1);
	ij_counts(&calls, &inj);
	rt_check(calls == 2 && inj == 1, "ASYNC: %llu calls, %llu injected",
		 calls, inj);
	ev_wait(3);
	rt_check(ev_count() == 3, "ASYNC: %u events", ev_count());
	if (ev_count() == 3) {
		rt_check(evs[0].atom == &a[0] &&
			 evs[0].end == SYSLET_END_UNFINISHED &&
			 evs[0].handoff && !evs[0].injected,
			 "ASYNC: event 0 end %d handoff %d injected %d",
			 (int)evs[0].end, evs[0].handoff, evs[0].injected);
		rt_check(evs[1].atom == &a[0] && evs[1].ret == -ENOENT &&
			 evs[1].injected && evs[1].handoff &&
			 evs[1].where == SYSLET_WHERE_CACHEMISS &&
			 evs[1].end == SYSLET_END_NONE,
			 "ASYNC: event 1 ret %ld injected %d handoff %d",
			 evs[1].ret, evs[1].injected, evs[1].handoff);
		rt_check(evs[2].atom == &a[1] && !evs[2].injected &&
			 !evs[2].handoff && evs[2].end == SYSLET_END_NEXT,
			 "ASYNC: event 2 injected %d handoff %d end %d",
			 evs[2].injected, evs[2].handoff, (int)evs[2].end);
	}

	/* A read that blocks: tried inline (the 1st read, not injected),
	 * finished in a worker or through the ring, counted once. */
	r = ij_rule(__NR_read, -EIO, 2, 0, 1);
	ij_set(&r, 1);
	rt_pipe_read_init(&pr);
	nev = 0;
	rt_pipe_read_exec(&pr);
	ev_wait(1);
	rt_check(ev_count() == 1 && evs[0].end == SYSLET_END_UNFINISHED &&
		 evs[0].atom == &pr.atom && evs[0].nargs == 3 &&
		 evs[0].args[0] == pr.fd,
		 "the read that went async was not reported unfinished "
		 "(%u events)", ev_count());
	if (write(pr.pfd[1], "r", 1) != 1)
		rt_die("write: %s", strerror(errno));
	{
		struct syslet_uatom *got = NULL;

		while (!rt_drain(ij_ring, 16, &ij_idx, &got, 1))
			if (sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
		rt_check(got == &pr.atom && pr.ret == 1 && pr.c == 'r',
			 "blocked read: ret %ld c %c", pr.ret, pr.c);
	}
	ij_counts(&calls, &inj);
	rt_check(calls == 1 && inj == 0,
		 "a read resumed elsewhere was counted %llu times (%llu "
		 "injected)", calls, inj);
	ev_wait(2);
	rt_check(ev_count() == 2 && evs[1].atom == &pr.atom &&
		 evs[1].handoff && evs[1].ret == 1 && !evs[1].injected &&
		 evs[1].end == SYSLET_END_NEXT,
		 "the read's result: %u events", ev_count());
	/* The 2nd read is injected: it never blocks. */
	nev = 0;
	pr.ret = 0;
	rt_check(ij_run(&pr.atom) == &pr.atom && pr.ret == -EIO,
		 "2nd read: %ld", pr.ret);
	rt_check(ev_count() == 1 && evs[0].injected &&
		 evs[0].where == SYSLET_WHERE_INLINE,
		 "2nd read: %u events", ev_count());
	rt_pipe_read_close(&pr);

	/* Without the flag, no unfinished event. */
	syslet_set_trace_flags(0);
	ij_set(NULL, 0);
	rt_pipe_read_init(&pr);
	nev = 0;
	rt_pipe_read_exec(&pr);
	usleep(20000);
	rt_check(ev_count() == 0, "%u events before the read returned",
		 ev_count());
	if (write(pr.pfd[1], "s", 1) != 1)
		rt_die("write: %s", strerror(errno));
	{
		struct syslet_uatom *got = NULL;

		while (!rt_drain(ij_ring, 16, &ij_idx, &got, 1))
			if (sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
	}
	rt_pipe_read_close(&pr);
	syslet_set_trace(NULL, NULL);
}

int main(void)
{
	struct syslet_inject r = ij_rule(__NR_getppid, -EIO, 1, 0, 1);
	struct async_head_user ahu;
	int err;

	rt_init();
	err = syslet_set_inject(&r, 1);
	if (err == -ENOTSUP) {
		rt_check(syslet_get_inject(NULL, 0) == 0,
			 "rules set although refused");
		printf("SKIP: the %s backend runs its atoms itself: no "
		       "injection\n", syslet_backend_name());
		return rt_failures ? RT_FAIL : RT_SKIP;
	}
	rt_check(err == 0, "syslet_set_inject: %d", err);
	rt_register(&ahu, ij_ring, 16, -1UL);
	test_invalid();
	test_sizes();
	test_when();
	test_effect();
	test_async();
	rt_unregister(&ahu);
	return rt_done("inject");
}
