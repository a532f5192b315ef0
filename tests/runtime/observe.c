/* observe.c: the engine's observers, directly: one trace event per atom with every field right, exact statistics (workers that exit included, resets), and syslet_step. */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include "helpers.h"

/*
 * Every scenario runs with only this test's threads in the engine, so
 * the counts are exact: each statistic is checked as the difference of
 * two snapshots around a scenario whose atoms we wrote ourselves.
 * Trace events and statistics of async_exec come from the emul engine
 * only; syslet_step always runs in the engine, so its checks run under
 * every backend and the rest is skipped (77) on the kernel backend.
 */

#define OB_MAXEV 64

static pthread_mutex_t ob_lock = PTHREAD_MUTEX_INITIALIZER;
static struct syslet_event ob_ev[OB_MAXEV];
static unsigned int ob_nev, ob_lost;
static int ob_ctx_ok = 1;
static int ob_ctx_tag;

static void ob_trace(const struct syslet_event *ev, void *ctx)
{
	pthread_mutex_lock(&ob_lock);
	if (ctx != &ob_ctx_tag)
		ob_ctx_ok = 0;
	if (ob_nev < OB_MAXEV)
		ob_ev[ob_nev++] = *ev;
	else
		ob_lost++;
	pthread_mutex_unlock(&ob_lock);
}

static void ob_trace_on(void)
{
	pthread_mutex_lock(&ob_lock);
	ob_nev = ob_lost = 0;
	pthread_mutex_unlock(&ob_lock);
	syslet_set_trace(ob_trace, &ob_ctx_tag);
}

static unsigned int ob_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&ob_lock);
	n = ob_nev;
	pthread_mutex_unlock(&ob_lock);
	return n;
}

static int ob_tid(void)
{
	return (int)syscall(SYS_gettid);
}

/* Wait (at most ~5 s) until @n events were seen: a worker emits its
 * event before it completes, but the test may look in between. */
static void ob_wait_events(unsigned int n)
{
	for (int i = 0; i < 5000 && ob_count() < n; i++)
		usleep(1000);
}

/* Check the fields every event has; @i is its index in ob_ev. */
static void ob_expect(unsigned int i, const struct syslet_uatom *atom,
		      unsigned long nr, unsigned int nargs,
		      const unsigned long *args, long ret, int stored,
		      const struct syslet_uatom *next, enum syslet_end end,
		      enum syslet_where where, int handoff)
{
	const struct syslet_event *e = &ob_ev[i];

	if (i >= ob_nev) {
		rt_check(i < ob_nev, "event %u missing (%u seen)", i, ob_nev);
		return;
	}
	rt_check(e->atom == atom, "ev%u atom %p, want %p", i,
		 (void *)e->atom, (const void *)atom);
	rt_check(e->nr == nr, "ev%u nr %lu, want %lu", i, e->nr, nr);
	rt_check(e->nargs == nargs, "ev%u nargs %u, want %u", i, e->nargs,
		 nargs);
	for (unsigned int k = 0; k < 6; k++) {
		unsigned long want = k < nargs ? args[k] : 0;

		rt_check(e->args[k] == want, "ev%u args[%u] %#lx, want %#lx",
			 i, k, e->args[k], want);
	}
	rt_check(e->ret == ret, "ev%u ret %ld, want %ld", i, e->ret, ret);
	rt_check(!!e->ret_stored == stored, "ev%u ret_stored %d, want %d", i,
		 e->ret_stored, stored);
	rt_check(e->next == next, "ev%u next %p, want %p", i, (void *)e->next,
		 (const void *)next);
	rt_check(e->end == end, "ev%u end %d, want %d", i, (int)e->end,
		 (int)end);
	rt_check(e->where == where, "ev%u where %d, want %d", i,
		 (int)e->where, (int)where);
	rt_check(!!e->handoff == handoff, "ev%u handoff %d, want %d", i,
		 e->handoff, handoff);
	if (i > 0)
		rt_check(e->seq > ob_ev[i - 1].seq,
			 "ev%u seq %llu not after %llu", i, e->seq,
			 ob_ev[i - 1].seq);
	else
		rt_check(e->seq >= 1, "ev0 seq %llu", e->seq);
}

/* ---- statistics as differences of snapshots ------------------------- */

static struct syslet_stats ob_st0 = { .sz = sizeof(ob_st0) };

static void ob_snap(void)
{
	syslet_get_stats(&ob_st0);
}

#define OB_FIELDS(X)                                                    \
	X(execs) X(atoms) X(syscalls) X(umem_adds) X(inline_atoms)      \
	X(cachemiss_atoms) X(handoffs) X(completions) X(deferred)       \
	X(dropped) X(faults) X(signal_stops) X(denied) X(threads)

struct ob_want {
#define OB_DECL(f) long long f;
	OB_FIELDS(OB_DECL)
#undef OB_DECL
};

/* Every counter moved by exactly the wanted amount since ob_snap();
 * OB_ANY: not checked here. */
#define OB_ANY (-1LL)

static void ob_stats_are(const char *what, const struct ob_want *w)
{
	SYSLET_OPTS(syslet_stats, now);

	syslet_get_stats(&now);
#define OB_CMP(f)                                                       \
	rt_check(w->f == OB_ANY || (long long)(now.f - ob_st0.f) == w->f, \
		 "%s: " #f " moved by %lld, want %lld", what,           \
		 (long long)(now.f - ob_st0.f), w->f);
	OB_FIELDS(OB_CMP)
#undef OB_CMP
}

/* ---- small builders ------------------------------------------------- */

static void *ob_hole;
static unsigned long ob_inc1 = 1, ob_inc0;

/* umem_add(*pp, *incp) with @ret and @flags, then @next. */
static void ob_umem(struct syslet_uatom *a, unsigned long **pp,
		    unsigned long *incp, long *ret, unsigned long flags,
		    struct syslet_uatom *next)
{
	rt_atom(a, rt_umem_nr(), ret, flags, next, (unsigned long *)pp, incp,
		NULL);
}

/* One completion from a registered ring of @entries, waiting ~5 s. */
static struct syslet_uatom *ob_pop(struct syslet_uatom **ring,
				   unsigned long entries, unsigned long *idx)
{
	struct syslet_uatom *got = NULL;

	for (int t = 0; t < 5000 && !__atomic_load_n(&ring[*idx],
						      __ATOMIC_ACQUIRE); t++) {
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
		if (!__atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE))
			usleep(1000);
	}
	/* Exactly one slot: rt_drain() would take all that are there. */
	got = __atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE);
	if (got) {
		__atomic_store_n(&ring[*idx], NULL, __ATOMIC_RELEASE);
		*idx = (*idx + 1) % entries;
	}
	return got;
}

static void ob_write(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		rt_die("write: %s", strerror(errno));
}

/* ---- syslet_step (every backend) ------------------------------------ */

struct ob_late {
	int		fd;
	unsigned int	ms;
};

static void *ob_late_writer(void *arg)
{
	struct ob_late *l = arg;

	usleep(l->ms * 1000);
	ob_write(l->fd, "s");
	return NULL;
}

static void test_step(void)
{
	struct syslet_uatom a[3], *r;
	SYSLET_OPTS(syslet_event, ev);
	unsigned long cell = 5, *p = &cell;
	unsigned long want[6];
	long ret = 0;

	ob_trace_on();
	/* One atom of a two-atom chain: b does not run. */
	ob_umem(&a[0], &p, &ob_inc1, &ret, 0, &a[1]);
	ob_umem(&a[1], &p, &ob_inc1, NULL, 0, NULL);
	memset(&ev, 0xa5, sizeof(ev));
	ev.sz = sizeof(ev);	/* every other field written */
	r = syslet_step(&a[0], &ev);
	rt_check(r == &a[1], "step returned %p, want a[1]", (void *)r);
	rt_check(cell == 6 && ret == 6, "step ran: cell %lu ret %ld", cell,
		 ret);
	rt_check(ev.atom == &a[0] && ev.nr == rt_umem_nr() && ev.nargs == 2 &&
			 ev.args[0] == (unsigned long)p && ev.args[1] == 1 &&
			 ev.args[2] == 0 && ev.ret == 6 && ev.ret_stored &&
			 ev.next == &a[1] && ev.end == SYSLET_END_NONE &&
			 ev.where == SYSLET_WHERE_STEP && !ev.handoff &&
			 ev.tid == ob_tid() && ev.flags == 0,
		 "step event: atom %p nr %lu nargs %u ret %ld stored %d next %p end %d where %d tid %d",
		 (void *)ev.atom, ev.nr, ev.nargs, ev.ret, ev.ret_stored,
		 (void *)ev.next, (int)ev.end, (int)ev.where, ev.tid);
	/* The last atom: NULL, END_NEXT; no ret_ptr: not stored. */
	r = syslet_step(r, &ev);
	rt_check(!r && ev.end == SYSLET_END_NEXT && !ev.ret_stored &&
			 ev.ret == 7 && cell == 7,
		 "last step: %p end %d stored %d ret %ld", (void *)r,
		 (int)ev.end, ev.ret_stored, ev.ret);
	/* The trace observer saw both steps, as STEP events. */
	want[0] = (unsigned long)p;
	want[1] = 1;
	rt_check(ob_count() == 2, "%u trace events for 2 steps", ob_count());
	ob_expect(0, &a[0], rt_umem_nr(), 2, want, 6, 1, &a[1],
		  SYSLET_END_NONE, SYSLET_WHERE_STEP, 0);
	ob_expect(1, &a[1], rt_umem_nr(), 2, want, 7, 0, NULL, SYSLET_END_NEXT,
		  SYSLET_WHERE_STEP, 0);
	syslet_set_trace(NULL, NULL);

	/* A stop: NULL, END_STOP; with SKIP: atom + 1, END_NONE. */
	ob_umem(&a[0], &p, &ob_inc0, &ret, SYSLET_STOP_ON_NONZERO, &a[2]);
	r = syslet_step(&a[0], &ev);
	rt_check(!r && ev.end == SYSLET_END_STOP && ev.ret == 7 &&
			 ev.next == NULL,
		 "stop step: %p end %d", (void *)r, (int)ev.end);
	a[0].flags |= SYSLET_SKIP_TO_NEXT_ON_STOP;
	r = syslet_step(&a[0], &ev);
	rt_check(r == &a[1] && ev.end == SYSLET_END_NONE && ev.next == &a[1],
		 "skip step: %p end %d", (void *)r, (int)ev.end);
	/* No stop: next taken. */
	a[0].flags = SYSLET_STOP_ON_ZERO;
	r = syslet_step(&a[0], &ev);
	rt_check(r == &a[2] && ev.end == SYSLET_END_NONE,
		 "no stop step: %p end %d", (void *)r, (int)ev.end);

	/* Faults: an unreadable atom, an unreadable argument: nothing runs. */
	memset(&ev, 0, sizeof(ev));
	ev.sz = sizeof(ev);
	r = syslet_step(ob_hole, &ev);
	rt_check(!r && ev.end == SYSLET_END_FAULT && ev.atom == ob_hole,
		 "step(hole): %p end %d atom %p", (void *)r, (int)ev.end,
		 (void *)ev.atom);
	ob_umem(&a[0], &p, ob_hole, &ret, 0, &a[1]);
	ret = 99;
	r = syslet_step(&a[0], &ev);
	rt_check(!r && ev.end == SYSLET_END_FAULT && cell == 7 && ret == 99,
		 "step bad arg: %p end %d cell %lu ret %ld", (void *)r,
		 (int)ev.end, cell, ret);
	/* A faulting ret_ptr: the call ran, -EFAULT is the result. */
	ob_umem(&a[0], &p, &ob_inc1, ob_hole, 0, &a[1]);
	r = syslet_step(&a[0], &ev);
	rt_check(r == &a[1] && ev.ret == -EFAULT && !ev.ret_stored &&
			 cell == 8,
		 "step bad ret_ptr: %p ret %ld stored %d cell %lu",
		 (void *)r, ev.ret, ev.ret_stored, cell);

	/* ev may be NULL; ASYNC means nothing to a step: it runs here. */
	ob_umem(&a[0], &p, &ob_inc1, &ret, SYSLET_ASYNC, NULL);
	r = syslet_step(&a[0], NULL);
	rt_check(!r && cell == 9 && ret == 9, "step(ev NULL): cell %lu",
		 cell);

	/* A call that blocks, blocks in the caller until it is done. */
	{
		int pfd[2];
		unsigned long fd, buf, len = 1;
		char c = 0;
		pthread_t th;
		struct ob_late late;

		if (pipe(pfd))
			rt_die("pipe: %s", strerror(errno));
		fd = (unsigned long)pfd[0];
		buf = (unsigned long)&c;
		rt_atom(&a[0], __NR_read, &ret, 0, NULL, &fd, &buf, &len);
		late.fd = pfd[1];
		late.ms = 30;
		if (pthread_create(&th, NULL, ob_late_writer, &late))
			rt_die("pthread_create");
		r = syslet_step(&a[0], &ev);
		pthread_join(th, NULL);
		rt_check(!r && ev.ret == 1 && c == 's' && ev.tid == ob_tid() &&
				 ev.where == SYSLET_WHERE_STEP,
			 "blocking step: ret %ld c %c tid %d", ev.ret, c,
			 ev.tid);
		close(pfd[0]);
		close(pfd[1]);
	}
}

/* Steps count as atoms, run where the caller is; they are not execs. */
static void test_step_stats(void)
{
	struct syslet_uatom a[2];
	unsigned long cell = 0, *p = &cell;
	long ret;

	ob_umem(&a[0], &p, &ob_inc1, &ret, 0, &a[1]);
	rt_atom(&a[1], __NR_getppid, &ret, 0, NULL, NULL, NULL, NULL);
	ob_snap();
	syslet_step(syslet_step(&a[0], NULL), NULL);
	syslet_step(ob_hole, NULL);
	ob_stats_are("two steps and a fault",
		     &(struct ob_want){ .atoms = 2, .umem_adds = 1,
					.syscalls = 1, .inline_atoms = 2,
					.faults = 1 });
}

/* ---- trace of async_exec (emul) ------------------------------------- */

static volatile sig_atomic_t ob_got_sig;

static void ob_on_usr1(int sig)
{
	ob_got_sig = sig;
}

static void test_trace_inline(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[4], *done;
	unsigned long cell = 1, *p = &cell, want[6] = { 0 };
	unsigned long pid, sig = SIGUSR1;
	long r0 = 0;

	rt_register(&ahu, ring, 8, -1UL);
	want[0] = (unsigned long)p;

	/* a0 stored, a1 without ret_ptr, a2 reads into a faulting ret_ptr
	 * and stops on the -EFAULT. */
	ob_umem(&a[0], &p, &ob_inc1, &r0, 0, &a[1]);
	ob_umem(&a[1], &p, &ob_inc1, NULL, 0, &a[2]);
	ob_umem(&a[2], &p, &ob_inc0, ob_hole, SYSLET_STOP_ON_NEGATIVE, &a[3]);
	ob_umem(&a[3], &p, &ob_inc1, NULL, 0, NULL);
	ob_trace_on();
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[2] && cell == 3 && r0 == 2,
		 "inline chain: %p cell %lu r0 %ld", (void *)done, cell, r0);
	rt_check(ob_count() == 3, "%u events for 3 atoms", ob_count());
	want[1] = 1;
	ob_expect(0, &a[0], rt_umem_nr(), 2, want, 2, 1, &a[1],
		  SYSLET_END_NONE, SYSLET_WHERE_INLINE, 0);
	ob_expect(1, &a[1], rt_umem_nr(), 2, want, 3, 0, &a[2],
		  SYSLET_END_NONE, SYSLET_WHERE_INLINE, 0);
	want[1] = 0;
	ob_expect(2, &a[2], rt_umem_nr(), 2, want, -EFAULT, 0, NULL,
		  SYSLET_END_STOP, SYSLET_WHERE_INLINE, 0);
	for (unsigned int i = 0; i < ob_count() && i < 3; i++)
		rt_check(ob_ev[i].tid == ob_tid(), "ev%u tid %d, caller %d", i,
			 ob_ev[i].tid, ob_tid());
	rt_check(ob_ev[2].flags == SYSLET_STOP_ON_NEGATIVE, "ev2 flags %#lx",
		 ob_ev[2].flags);

	/* SKIP: the next event is atom + 1 (a[3]), which ends with NEXT. */
	a[2].flags |= SYSLET_SKIP_TO_NEXT_ON_STOP;
	ob_trace_on();
	done = sys_async_exec(&a[2]);
	rt_check(done == &a[3] && ob_count() == 2, "skip: %p, %u events",
		 (void *)done, ob_count());
	ob_expect(0, &a[2], rt_umem_nr(), 2, want, -EFAULT, 0, &a[3],
		  SYSLET_END_NONE, SYSLET_WHERE_INLINE, 0);
	want[1] = 1;
	ob_expect(1, &a[3], rt_umem_nr(), 2, want, 4, 0, NULL,
		  SYSLET_END_NEXT, SYSLET_WHERE_INLINE, 0);

	/* A good atom whose next cannot be read: its event, then a fault
	 * event naming the bad address; the exec fails with EFAULT. */
	ob_umem(&a[0], &p, &ob_inc1, &r0, 0, ob_hole);
	ob_trace_on();
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(!done && errno == EFAULT, "bad next: %p errno %d",
		 (void *)done, errno);
	rt_check(ob_count() == 2, "bad next: %u events", ob_count());
	ob_expect(0, &a[0], rt_umem_nr(), 2, want, 5, 1, ob_hole,
		  SYSLET_END_NONE, SYSLET_WHERE_INLINE, 0);
	if (ob_count() >= 2)
		rt_check(ob_ev[1].atom == ob_hole &&
				 ob_ev[1].end == SYSLET_END_FAULT &&
				 ob_ev[1].next == NULL &&
				 ob_ev[1].seq > ob_ev[0].seq,
			 "fault event: atom %p end %d", (void *)ob_ev[1].atom,
			 (int)ob_ev[1].end);
	/* An unreadable argument: one fault event, the atom did not run. */
	ob_umem(&a[0], &p, ob_hole, &r0, 0, NULL);
	ob_trace_on();
	done = sys_async_exec(&a[0]);
	rt_check(!done && errno == EFAULT && cell == 5,
		 "bad arg: %p errno %d cell %lu", (void *)done, errno, cell);
	rt_check(ob_count() == 1 && ob_ev[0].atom == &a[0] &&
			 ob_ev[0].end == SYSLET_END_FAULT,
		 "bad arg: %u events, end %d", ob_count(),
		 ob_count() ? (int)ob_ev[0].end : -1);

	/* Three arguments (a read from a pipe that has data, so it runs
	 * inline) are fetched in order. */
	{
		unsigned long fd, buf, len = 1;
		long rr = -1;
		char ch = 0;
		int pfd[2];

		if (pipe(pfd))
			rt_die("pipe: %s", strerror(errno));
		ob_write(pfd[1], "r");
		fd = (unsigned long)pfd[0];
		buf = (unsigned long)&ch;
		rt_atom(&a[0], __NR_read, &rr, 0, NULL, &fd, &buf, &len);
		ob_trace_on();
		done = sys_async_exec(&a[0]);
		want[0] = fd;
		want[1] = buf;
		want[2] = len;
		rt_check(done == &a[0] && ob_count() == 1, "read 0: %p %u",
			 (void *)done, ob_count());
		ob_expect(0, &a[0], __NR_read, 3, want, 1, 1, NULL,
			  SYSLET_END_NEXT, SYSLET_WHERE_INLINE, 0);
		rt_check(rr == 1 && ch == 'r', "read: %ld %c", rr, ch);
		memset(want, 0, sizeof(want));
		close(pfd[0]);
		close(pfd[1]);
	}

	/* kill(getpid(), SIGUSR1): the chain ends there with END_SIGNAL. */
	pid = (unsigned long)getpid();
	rt_atom(&a[0], __NR_kill, &r0, 0, &a[1], &pid, &sig, NULL);
	ob_umem(&a[1], &p, &ob_inc1, NULL, 0, NULL);
	ob_trace_on();
	done = sys_async_exec(&a[0]);
	want[0] = pid;
	want[1] = sig;
	rt_check(done == &a[0] && ob_got_sig == SIGUSR1 && cell == 5,
		 "signal: %p got %d cell %lu", (void *)done, (int)ob_got_sig,
		 cell);
	rt_check(ob_count() == 1, "signal: %u events", ob_count());
	ob_expect(0, &a[0], __NR_kill, 2, want, 0, 1, NULL, SYSLET_END_SIGNAL,
		  SYSLET_WHERE_INLINE, 0);

	/* Tracing off: no more events. */
	syslet_set_trace(NULL, NULL);
	ob_umem(&a[0], &p, &ob_inc1, NULL, 0, &a[1]);
	ob_umem(&a[1], &p, &ob_inc1, NULL, 0, NULL);
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[1] && cell == 7 && ob_count() == 1,
		 "trace off: %p cell %lu, %u events", (void *)done, cell,
		 ob_count());
	rt_check(ob_ctx_ok, "the callback got another ctx");
	rt_unregister(&ahu);
}

static void test_trace_cachemiss(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done, *got;
	unsigned long cell = 0, *p = &cell, want[6] = { 0 };
	unsigned long fd, buf, len = 1, idx = 0;
	long rr = 0, r1 = 0;
	int pfd[2];
	char c = 0;

	if (pipe(pfd))
		rt_die("pipe: %s", strerror(errno));
	rt_register(&ahu, ring, 4, -1UL);
	/* read(empty pipe) then umem_add: the read blocks, a worker takes
	 * the rest; one event per atom (the inline attempt has none). */
	fd = (unsigned long)pfd[0];
	buf = (unsigned long)&c;
	rt_atom(&a[0], __NR_read, &rr, 0, &a[1], &fd, &buf, &len);
	ob_umem(&a[1], &p, &ob_inc1, &r1, 0, NULL);
	ob_trace_on();
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(!done && errno == 0, "blocking read: %p errno %d",
		 (void *)done, errno);
	rt_check(ob_count() == 0, "%u events before the read returned",
		 ob_count());
	ob_write(pfd[1], "w");
	got = ob_pop(ring, 4, &idx);
	rt_check(got == &a[1] && c == 'w' && cell == 1,
		 "completion %p c %c cell %lu", (void *)got, c, cell);
	ob_wait_events(2);
	rt_check(ob_count() == 2, "cachemiss: %u events", ob_count());
	want[0] = fd;
	want[1] = buf;
	want[2] = len;
	ob_expect(0, &a[0], __NR_read, 3, want, 1, 1, &a[1], SYSLET_END_NONE,
		  SYSLET_WHERE_CACHEMISS, 1);
	want[0] = (unsigned long)p;
	want[1] = 1;
	want[2] = 0;
	ob_expect(1, &a[1], rt_umem_nr(), 2, want, 1, 1, NULL,
		  SYSLET_END_NEXT, SYSLET_WHERE_CACHEMISS, 0);
	if (ob_count() == 2) {
		rt_check(ob_ev[0].tid != ob_tid() && ob_ev[0].tid > 0,
			 "worker tid %d, caller %d", ob_ev[0].tid, ob_tid());
		rt_check(ob_ev[1].tid == ob_ev[0].tid,
			 "the rest ran in another thread: %d then %d",
			 ob_ev[0].tid, ob_ev[1].tid);
	}

	/* SYSLET_ASYNC: handed off at the first atom without trying. */
	ob_umem(&a[0], &p, &ob_inc1, &r1, SYSLET_ASYNC, NULL);
	ob_trace_on();
	done = sys_async_exec(&a[0]);
	got = ob_pop(ring, 4, &idx);
	rt_check(!done && got == &a[0] && cell == 2,
		 "ASYNC: %p got %p cell %lu", (void *)done, (void *)got, cell);
	ob_wait_events(1);
	rt_check(ob_count() == 1, "ASYNC: %u events", ob_count());
	ob_expect(0, &a[0], rt_umem_nr(), 2, want, 2, 1, NULL,
		  SYSLET_END_NEXT, SYSLET_WHERE_CACHEMISS, 1);
	rt_check(ob_count() < 1 || ob_ev[0].tid != ob_tid(),
		 "ASYNC ran in the caller");
	syslet_set_trace(NULL, NULL);
	rt_unregister(&ahu);
	close(pfd[0]);
	close(pfd[1]);
}

/*
 * Turning tracing off waits for the calls in progress: once
 * syslet_set_trace() returns, the old ctx is the caller's again (it may
 * free it), and no worker ever calls the callback with another ctx
 * (syslet-run died of SIGSEGV now and then at SIGINT: a worker read
 * the new NULL ctx with the old fn).  A worker loops umem_add while
 * this thread turns tracing on and off, marking each ctx dead when it
 * is off.  Runs on every backend that traces.
 */
struct ob_life {
	int	alive;
};

static struct ob_life ob_lives[2];
static unsigned long ob_bad, ob_calls;

static void ob_trace_life(const struct syslet_event *ev, void *ctx)
{
	struct ob_life *l = ctx;

	(void)ev;
	__atomic_add_fetch(&ob_calls, 1, __ATOMIC_RELAXED);
	if (!l || !__atomic_load_n(&l->alive, __ATOMIC_ACQUIRE))
		__atomic_add_fetch(&ob_bad, 1, __ATOMIC_RELAXED);
}

static void test_trace_off_waits(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a, *done, *got;
	unsigned long cell = (unsigned long)-3000000L, *p = &cell, idx = 0;
	unsigned long turns = 0;
	long r = 0;

	rt_register(&ahu, ring, 4, -1UL);
	/* cell counts up to 0, one atom a step, in a worker.  Traced from
	 * its start, and the toggling begins once the callback was called:
	 * an engine may check for a trace turned on only now and then
	 * (emul's path for untraced chains looks every 16,384 atoms), and
	 * a slow machine toggling fast then saw no call at all. */
	__atomic_store_n(&ob_lives[0].alive, 1, __ATOMIC_RELEASE);
	syslet_set_trace(ob_trace_life, &ob_lives[0]);
	ob_umem(&a, &p, &ob_inc1, &r, SYSLET_ASYNC | SYSLET_STOP_ON_ZERO, &a);
	done = sys_async_exec(&a);
	rt_check(!done, "the loop did not go async: %p", (void *)done);
	while (!__atomic_load_n(&ob_calls, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE))
		sched_yield();
	syslet_set_trace(NULL, NULL);
	__atomic_store_n(&ob_lives[0].alive, 0, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE) &&
	       turns < 2000000) {
		struct ob_life *l = &ob_lives[turns++ & 1];

		__atomic_store_n(&l->alive, 1, __ATOMIC_RELEASE);
		syslet_set_trace(ob_trace_life, l);
		for (int i = 0; i < 50; i++)
			__asm__ __volatile__("" ::: "memory");
		if (turns & 2) {
			/* Straight to the other ctx, no NULL between. */
			struct ob_life *o = &ob_lives[turns & 1];

			__atomic_store_n(&o->alive, 1, __ATOMIC_RELEASE);
			syslet_set_trace(ob_trace_life, o);
			__atomic_store_n(&l->alive, 0, __ATOMIC_RELEASE);
			syslet_set_trace(NULL, NULL);
			__atomic_store_n(&o->alive, 0, __ATOMIC_RELEASE);
		} else {
			syslet_set_trace(NULL, NULL);
			__atomic_store_n(&l->alive, 0, __ATOMIC_RELEASE);
		}
	}
	got = ob_pop(ring, 4, &idx);
	rt_check(got == &a && cell == 0, "the loop ended at %p, cell %ld",
		 (void *)got, (long)cell);
	rt_check(ob_calls > 0, "the callback was never called (%lu turns)",
		 turns);
	rt_check(ob_bad == 0, "%lu of %lu calls of the callback got a ctx "
		 "turned off or NULL (%lu turns)", ob_bad, ob_calls, turns);
	rt_unregister(&ahu);
}

/* ---- statistics (emul) ---------------------------------------------- */

static void test_stats_inline(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[3], *done;
	unsigned long cell = 0, *p = &cell, pid, sig = SIGUSR1, one = 1;
	long r = 0;

	rt_register(&ahu, ring, 8, -1UL);

	ob_snap();
	ob_umem(&a[0], &p, &ob_inc1, &r, 0, &a[1]);
	ob_umem(&a[1], &p, &ob_inc1, &r, 0, &a[2]);
	ob_umem(&a[2], &p, &ob_inc1, &r, 0, NULL);
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[2], "three umem atoms: %p", (void *)done);
	ob_stats_are("three umem_add atoms",
		     &(struct ob_want){ .execs = 1, .atoms = 3,
					.umem_adds = 3, .inline_atoms = 3 });

	ob_snap();
	rt_atom(&a[0], __NR_getppid, &r, 0, &a[1], NULL, NULL, NULL);
	rt_atom(&a[1], __NR_getppid, &r, 0, NULL, NULL, NULL, NULL);
	sys_async_exec(&a[0]);
	sys_async_exec(&a[1]);
	ob_stats_are("three getppid atoms in two execs",
		     &(struct ob_want){ .execs = 2, .atoms = 3,
					.syscalls = 3, .inline_atoms = 3 });

	/* Denied: counted as an atom, not as a syscall. */
	ob_snap();
	rt_atom(&a[0], __NR_exit_group, &r, 0, NULL, &one, NULL, NULL);
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[0] && r == -EPERM, "exit_group: %ld", r);
	ob_stats_are("a denied call",
		     &(struct ob_want){ .execs = 1, .atoms = 1, .denied = 1,
					.inline_atoms = 1 });

	/* Faults: an unreadable first atom, then one after a good atom. */
	ob_snap();
	sys_async_exec(ob_hole);
	ob_umem(&a[0], &p, &ob_inc1, &r, 0, ob_hole);
	sys_async_exec(&a[0]);
	ob_stats_are("two faults",
		     &(struct ob_want){ .execs = 2, .atoms = 1,
					.umem_adds = 1, .inline_atoms = 1,
					.faults = 2 });

	/* A signal ends the chain: one signal stop, one atom. */
	ob_snap();
	pid = (unsigned long)getpid();
	rt_atom(&a[0], __NR_kill, &r, 0, &a[1], &pid, &sig, NULL);
	ob_umem(&a[1], &p, &ob_inc1, &r, 0, NULL);
	ob_got_sig = 0;
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[0] && ob_got_sig == SIGUSR1, "kill: %p",
		 (void *)done);
	ob_stats_are("a signal stop",
		     &(struct ob_want){ .execs = 1, .atoms = 1, .syscalls = 1,
					.inline_atoms = 1,
					.signal_stops = 1 });

	/* A reset zeroes everything; counting goes on from there. */
	syslet_reset_stats();
	memset(&ob_st0, 0, sizeof(ob_st0));
	ob_st0.sz = sizeof(ob_st0);
	ob_stats_are("right after a reset", &(struct ob_want){ 0 });
	sys_async_exec(&a[1]);
	ob_stats_are("one atom after a reset",
		     &(struct ob_want){ .execs = 1, .atoms = 1,
					.umem_adds = 1, .inline_atoms = 1 });
	rt_unregister(&ahu);
}

/* Two blocked reads: two workers, two hand-offs, counts by workers that
 * exit at unregister still in the totals, and a reset after they left. */
static void test_stats_workers(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a[2][2], *done;
	unsigned long cell[2] = { 0, 0 }, *p[2] = { &cell[0], &cell[1] };
	unsigned long fd[2], buf[2], len = 1, idx = 0;
	int pfd[2][2];
	char c[2];
	long r;

	ob_snap();
	rt_register(&ahu, ring, 4, 2);
	for (int i = 0; i < 2; i++) {
		if (pipe(pfd[i]))
			rt_die("pipe: %s", strerror(errno));
		fd[i] = (unsigned long)pfd[i][0];
		buf[i] = (unsigned long)&c[i];
		rt_atom(&a[i][0], __NR_read, &r, 0, &a[i][1], &fd[i], &buf[i],
			&len);
		ob_umem(&a[i][1], &p[i], &ob_inc1, NULL, 0, NULL);
		errno = 0;
		done = sys_async_exec(&a[i][0]);
		rt_check(!done && errno == 0, "read %d did not block: %p", i,
			 (void *)done);
	}
	ob_write(pfd[0][1], "a");
	ob_write(pfd[1][1], "b");
	for (int i = 0; i < 2; i++)
		rt_check(ob_pop(ring, 4, &idx) != NULL, "completion %d", i);
	rt_check(cell[0] == 1 && cell[1] == 1, "cells %lu %lu", cell[0],
		 cell[1]);
	/* Workers flush their counts before they complete.  A blocked read
	 * is one syscall however often the engine tried it. */
	ob_stats_are("two blocked reads, workers alive",
		     &(struct ob_want){ .execs = 2, .atoms = 4,
					.syscalls = 2, .umem_adds = 2,
					.cachemiss_atoms = 4, .handoffs = 2,
					.completions = 2, .threads = 2 });
	rt_unregister(&ahu);
	ob_stats_are("two blocked reads, workers joined",
		     &(struct ob_want){ .execs = 2, .atoms = 4,
					.syscalls = 2, .umem_adds = 2,
					.cachemiss_atoms = 4, .handoffs = 2,
					.completions = 2, .threads = 2 });
	syslet_reset_stats();
	memset(&ob_st0, 0, sizeof(ob_st0));
	ob_st0.sz = sizeof(ob_st0);
	ob_stats_are("reset after the workers left", &(struct ob_want){ 0 });
	for (int i = 0; i < 2; i++) {
		close(pfd[i][0]);
		close(pfd[i][1]);
	}
}

/* A one-slot ring: the second completion finds the slot full (deferred),
 * goes in once it is cleared; a third left waiting is dropped. */
static void test_stats_deferred(void)
{
	static struct syslet_uatom *ring[1];
	struct async_head_user ahu;
	struct syslet_uatom a[3], *got;
	unsigned long cell[3] = { 0 }, *p[3] = { &cell[0], &cell[1], &cell[2] };
	unsigned long idx = 0;

	ob_snap();
	rt_register(&ahu, ring, 1, -1UL);
	for (int i = 0; i < 3; i++)
		ob_umem(&a[i], &p[i], &ob_inc1, NULL, SYSLET_ASYNC, NULL);
	sys_async_exec(&a[0]);
	if (sys_async_wait(1))
		rt_die("async_wait: %s", strerror(errno));
	rt_check(__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE) == &a[0],
		 "first completion %p", (void *)ring[0]);
	/* The slot is full: this one waits behind it. */
	sys_async_exec(&a[1]);
	if (sys_async_wait(1))
		rt_die("async_wait: %s", strerror(errno));
	rt_check(cell[1] == 1, "second ran: %lu", cell[1]);
	ob_stats_are("one completion, one deferred",
		     &(struct ob_want){ .execs = 2, .atoms = 2,
					.umem_adds = 2, .cachemiss_atoms = 2,
					.handoffs = 2, .completions = 1,
					.deferred = 1, .threads = 1 });
	got = ob_pop(ring, 1, &idx);
	rt_check(got == &a[0], "popped %p", (void *)got);
	got = ob_pop(ring, 1, &idx);
	rt_check(got == &a[1], "deferred one arrived as %p", (void *)got);
	/* The third fills the slot and nobody pops it; the next one waits
	 * behind it until unregister drops it. */
	sys_async_exec(&a[2]);
	sys_async_wait(1);
	sys_async_exec(&a[0]);
	sys_async_wait(1);
	rt_unregister(&ahu);
	ob_stats_are("after unregister with one waiting",
		     &(struct ob_want){ .execs = 4, .atoms = 4,
					.umem_adds = 4, .cachemiss_atoms = 4,
					.handoffs = 4, .completions = 3,
					.deferred = 2, .dropped = 1,
					.threads = 1 });
}

/* Many hand-offs to one worker (woken through its futex each time), and
 * user threads of their own, each with its ring: the per-thread blocks
 * add up, also once those threads have exited. */
#define OB_ROUNDS 300

static void *ob_user_thread(void *arg)
{
	struct syslet_uatom *ring[2], a, *got;
	struct async_head_user ahu;
	unsigned long cell = 0, *p = &cell, idx = 0;

	(void)arg;
	rt_register(&ahu, ring, 2, 1);
	ob_umem(&a, &p, &ob_inc1, NULL, SYSLET_ASYNC, NULL);
	for (int i = 0; i < OB_ROUNDS; i++) {
		sys_async_exec(&a);
		got = ob_pop(ring, 2, &idx);
		rt_check(got == &a, "round %d: %p", i, (void *)got);
	}
	rt_check(cell == OB_ROUNDS, "cell %lu", cell);
	rt_unregister(&ahu);
	return NULL;
}

static void test_stats_threads(void)
{
	pthread_t th[3];

	ob_snap();
	for (int i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, ob_user_thread, NULL))
			rt_die("pthread_create");
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	ob_stats_are("3 threads x 300 hand-offs",
		     &(struct ob_want){ .execs = 3 * OB_ROUNDS,
					.atoms = 3 * OB_ROUNDS,
					.umem_adds = 3 * OB_ROUNDS,
					.cachemiss_atoms = 3 * OB_ROUNDS,
					.handoffs = 3 * OB_ROUNDS,
					.completions = 3 * OB_ROUNDS,
					.threads = 3 });
}

int main(void)
{
	struct sigaction sa;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ob_on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	ob_hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	if (ob_hole == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));

	test_step();
	if (syslet_set_trace(NULL, NULL) == 0)
		test_trace_off_waits();
	if (!rt_is_emul()) {
		if (rt_failures)
			return rt_done("observe");
		fprintf(stderr, "SKIP: syslet_step checks passed; trace and "
				"statistics of async_exec are emul only "
				"(backend %s)\n",
			syslet_backend_name());
		return RT_SKIP;
	}
	test_step_stats();
	test_trace_inline();
	test_trace_cachemiss();
	test_stats_inline();
	test_stats_workers();
	test_stats_deferred();
	test_stats_threads();
	return rt_done("observe");
}
