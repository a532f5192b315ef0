/* ringtest.c: many syslets in flight on one head, through a model of the 2007 head (ring slots and index, thread limit, async_wait) and every backend present, on random operations. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libsyslet.h>

/*
 * difftest compares one syslet at a time.  What only shows with several
 * in flight on one head is checked here: which slot each completion
 * takes (the head's own index, which does not look for a free slot),
 * wrap-around, a slot the user has not cleared, exactly one completion
 * per syslet, the thread limit (max_nr_threads, -1 for the default, cut
 * to the ring's entries, 0 for none) deciding whether an ASYNC atom
 * hands off or runs in the caller, async_wait() with nothing busy, and
 * async_unregister() with chains still in flight; rings of up to 32
 * entries, up to 24 chains in flight whose ends after the hand-off mix
 * stop tests, SKIP, denied calls and fetches that fault.
 *
 * The model below is written from seeds/006 (async_head_init,
 * refill_cachemiss_pool, pick_new_async_head, complete_uatom,
 * sys_async_wait, sys_async_exec) and nothing else.  Its one modelled
 * difference is syslet(7)'s first: a completion that finds its slot
 * full is kept and written once the slot is cleared (2007 dropped it).
 *
 * Timing must not decide an outcome, so the syslets that go async wait
 * on a pipe of their own (a "gate") until the test opens it, one at a
 * time; after each step the test waits, with a generous timeout, for the
 * ring to become what the model says, and compares it word for word.
 * A thread whose chain has just ended may not be parked again yet (the
 * kernel says so too), so a syslet is only started where a thread is
 * free whatever the timing, and only counted on to run in the caller
 * when every thread is certainly blocked on a closed gate.
 */

#define RT_RING_MAX	32	/* ring entries, at most */
#define RT_GATED	24	/* gated syslets a phase may have */
#define RT_SETTLE_S	20	/* how long a ring may take to settle */

/* Per thread: with --heads, each head draws its own sequence. */
static __thread uint64_t rt_state;

static uint64_t rnd(void)
{
	rt_state ^= rt_state << 13;
	rt_state ^= rt_state >> 7;
	rt_state ^= rt_state << 17;
	return rt_state;
}

static unsigned long below(unsigned long n)
{
	return n ? (unsigned long)(rnd() % n) : 0;
}

/* A syslet that goes async and waits for its gate: a0 reads one byte
 * of its pipe, a1 counts.  Opening the gate writes the byte (a0 gives
 * 1, a1 runs) or closes the writer (a0 gives 0: a stop on
 * non-positive ends the syslet at a0).  After the gate, in the
 * cachemiss thread: a1's stop test and SKIP, its next to a2, to the end
 * or to an address that faults, and a2 (right after a1 in memory, where
 * SKIP goes) a umem_add, a denied call (-EPERM) or an atom whose
 * argument pointer faults (the fetch fails and the chain ends at a1). */
struct gated {
	struct syslet_uatom	a[3];
	int			pfd[2];
	unsigned long		fd, buf, len, one, cnt, cntp;
	long			r0, r1, r2;
	char			c;
	bool			inflight;
};

/* An address no atom can be fetched from: the first page, which is
 * never mapped (mmap_min_addr). */
#define RT_FAULT_ADDR	((void *)64)

/* A syslet that never blocks: n umem_add atoms on one counter. */
/* See quick(): the kernel's ASYNC atoms in the caller, at most one in. */
#define RT_UNPARKED_MAX	20

struct quick {
	struct syslet_uatom	a[4];
	unsigned long		cnt, one, cntp;
	long			r[4];
};

/* The 2007 head, as seen from user space. */
struct model {
	unsigned long	entries;	/* max_ring_idx */
	unsigned long	threads;	/* max_nr_threads after the clamp */
	unsigned long	idx;		/* curr_ring_idx */
	uintptr_t	slot[RT_RING_MAX];
	unsigned long	busy;		/* gated syslets not yet let go */
	unsigned long	ended;		/* chains ended this phase */
	uintptr_t	kept;		/* the modelled difference: a
					 * completion waiting for its slot */
};

struct run {
	const char		*backend;
	unsigned long		umem_nr;
	struct model		m;
	struct syslet_uatom	*ring[RT_RING_MAX];
	struct async_head_user	ahu;
	struct gated		g[RT_GATED];
	struct quick		q;
	struct syslet_uatom	junk;
	/* What the steps reached, for the summary. */
	/* The kernel's ASYNC atoms that found the pool thread of a chain
	 * just ended not yet parked, and ran in the caller. */
	unsigned long		n_unparked;
	unsigned long		n_ring, n_kept, n_wrap, n_handoff, n_inline,
				n_waitbusy, n_unreg;
	char			log[64][96];
	unsigned long		nlog, phase, steps;
	int			failed;
	bool			verbose;
	/* --heads: one of several heads, each on its own thread; the
	 * watchdog thread, not alarm(), ends a phase that hangs. */
	bool			multi;
	uint64_t		seed;
	unsigned long		phases;
	int			status;
	long			phase_start;	/* now() in s */
	bool			done;
	/* The kernel backend: it keeps at most a ring's worth of
	 * completions behind full slots and then refuses async_exec with
	 * EAGAIN (syslet(7)), where the user-space engines keep any number;
	 * and its thread may park a little after async_wait saw the busy
	 * list empty. */
	bool			bounded;
};

static void note(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct run *r, const char *fmt, ...)
{
	char *line = r->log[r->nlog++ % 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(r->log[0]), fmt, ap);
	va_end(ap);
	if (r->verbose)
		printf("ringtest: %s: phase %lu: %s\n", r->backend, r->phase,
		       line);
}

static const char *name(const struct run *r, uintptr_t a, char *buf)
{
	if (!a)
		return "NULL";
	if (a == (uintptr_t)&r->junk)
		return "junk";
	for (int i = 0; i < RT_GATED; i++)
		for (int k = 0; k < 2; k++)
			if (a == (uintptr_t)&r->g[i].a[k]) {
				sprintf(buf, "g%d.a%d", i, k);
				return buf;
			}
	for (int k = 0; k < 4; k++)
		if (a == (uintptr_t)&r->q.a[k]) {
			sprintf(buf, "q.a%d", k);
			return buf;
		}
	for (int i = 0; i < RT_GATED; i++)
		if (a == (uintptr_t)&r->g[i].a[2]) {
			sprintf(buf, "g%d.a2", i);
			return buf;
		}
	sprintf(buf, "%#lx", (unsigned long)a);
	return buf;
}

static void fail(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report a mismatch with the steps that led to it; the phase ends. */
static void fail(struct run *r, const char *fmt, ...)
{
	unsigned long from = r->nlog > 64 ? r->nlog - 64 : 0;
	char b1[32], b2[32];
	va_list ap;

	fprintf(stderr, "ringtest: MISMATCH on %s, phase %lu: ", r->backend,
		r->phase);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  ring (%lu entries, index %lu, %lu threads): "
		"model | backend\n", r->m.entries, r->m.idx, r->m.threads);
	for (unsigned long i = 0; i < r->m.entries; i++)
		fprintf(stderr, "    [%lu] %s | %s\n", i,
			name(r, r->m.slot[i], b1),
			name(r, (uintptr_t)__atomic_load_n(&r->ring[i],
							   __ATOMIC_ACQUIRE),
			     b2));
	fprintf(stderr, "  steps of this phase, oldest first:\n");
	for (unsigned long i = from; i < r->nlog; i++)
		fprintf(stderr, "    %s\n", r->log[i % 64]);
	r->failed = 1;
}

static bool ring_is_model(const struct run *r)
{
	for (unsigned long i = 0; i < r->m.entries; i++)
		if ((uintptr_t)__atomic_load_n(&r->ring[i], __ATOMIC_ACQUIRE) !=
		    r->m.slot[i])
			return false;
	return true;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait until the ring is what the model says (completions land when the
 * backend gets to them); false, reported, when it never is. */
static bool settle(struct run *r, const char *after)
{
	double t0 = now();

	while (!ring_is_model(r)) {
		if (now() - t0 > RT_SETTLE_S) {
			fail(r, "the ring is not what 2007 gives after %s",
			     after);
			return false;
		}
		usleep(200);
	}
	return true;
}

/* Wait until @cell holds something else than @old: the chain's atom
 * that stores it has run. */
static bool until_set(struct run *r, const long *cell, long old,
		      const char *what)
{
	double t0 = now();

	while (__atomic_load_n(cell, __ATOMIC_ACQUIRE) == old) {
		if (now() - t0 > RT_SETTLE_S) {
			fail(r, "%s never ran", what);
			return false;
		}
		usleep(200);
	}
	return true;
}

/*
 * complete_uatom(): nothing for NO_COMPLETE; the slot at the head's
 * index when it is NULL, the index moving on and wrapping; 2007 dropped
 * a completion whose slot was not NULL (modelled difference: kept until
 * the slot is cleared).  The test lets at most one completion wait so.
 */
static void model_complete(struct run *r, uintptr_t atom, bool nc)
{
	struct model *m = &r->m;

	m->ended++;
	if (nc)
		return;
	if (m->kept || m->slot[m->idx]) {
		m->kept = atom;
		r->n_kept++;
		return;
	}
	m->slot[m->idx] = atom;
	m->idx = (m->idx + 1) % m->entries;
	r->n_ring++;
	r->n_wrap += !m->idx;
}

/* The user cleared a slot: a kept completion goes in once its slot is
 * free (at the backend's next look; the test then makes a call). */
static void model_cleared(struct model *m)
{
	if (m->kept && !m->slot[m->idx]) {
		m->slot[m->idx] = m->kept;
		m->idx = (m->idx + 1) % m->entries;
		m->kept = 0;
	}
}

/*
 * refill_cachemiss_pool() and pick_ready_cachemiss_thread(): an ASYNC
 * atom (or one that blocks) hands off when a thread is ready or may
 * still be made (fewer than max_nr_threads).  A thread whose chain
 * ended may not be parked yet, so the test relies on a hand-off only
 * while the busy ones and those that ended this phase leave one, and
 * on none only while every thread blocks on a closed gate.
 */
static bool thread_certain(const struct model *m)
{
	return m->busy + m->ended < m->threads;
}

static bool no_thread_certain(const struct model *m)
{
	return m->busy == m->threads && !m->ended;
}

/*
 * The kernel's bound on kept completions: with a ring's worth waiting,
 * async_exec fails with EAGAIN and runs nothing.  The test keeps one
 * at most, so only a ring of one entry reaches it.  True when the exec
 * was refused as it must be (or the check failed): no syslet started.
 */
static bool exec_refused(struct run *r, struct syslet_uatom *a)
{
	struct syslet_uatom *done;

	if (!r->bounded || !r->m.kept || r->m.entries > 1)
		return false;
	note(r, "exec with a ring's worth of completions kept");
	errno = 0;
	done = sys_async_exec(a);
	if (done || errno != EAGAIN)
		fail(r, "async_exec gave %p, errno %d, with a ring's worth of "
		     "completions kept: the kernel backend says EAGAIN",
		     (void *)done, errno);
	return true;
}

static void gate_start(struct run *r, int i)
{
	struct gated *g = &r->g[i];
	struct syslet_uatom *done;
	unsigned long f0 = 0, f1 = 0;

	if (pipe(g->pfd)) {
		fail(r, "pipe: %s", strerror(errno));
		return;
	}
	g->fd = (unsigned long)g->pfd[0];
	g->buf = (unsigned long)&g->c;
	g->len = 1;
	g->one = 1;
	g->r0 = g->r1 = LONG_MIN;
	/* Without ASYNC the read blocks, which hands off all the same. */
	if (below(4))
		f0 |= SYSLET_ASYNC;
	if (below(2))
		f0 |= SYSLET_STOP_ON_NON_POSITIVE;
	if (below(4) == 0)
		f0 |= SYSLET_NO_COMPLETE;
	if (below(4) == 0)
		f1 |= SYSLET_NO_COMPLETE;
	memset(g->a, 0, sizeof(g->a));
	g->a[0].flags = f0;
	g->a[0].nr = __NR_read;
	g->a[0].ret_ptr = &g->r0;
	g->a[0].next = &g->a[1];
	g->a[0].arg_ptr[0] = &g->fd;
	g->a[0].arg_ptr[1] = &g->buf;
	g->a[0].arg_ptr[2] = &g->len;
	g->r2 = LONG_MIN;
	g->cnt = 0;
	if (below(2)) {
		static const unsigned long stops[] = {
			SYSLET_STOP_ON_NONZERO, SYSLET_STOP_ON_ZERO,
			SYSLET_STOP_ON_NEGATIVE, SYSLET_STOP_ON_NON_POSITIVE,
		};

		f1 |= stops[below(4)];
		if (below(2))
			f1 |= SYSLET_SKIP_TO_NEXT_ON_STOP;
	}
	g->a[1].flags = f1;
	g->a[1].nr = r->umem_nr;
	g->a[1].ret_ptr = &g->r1;
	g->cntp = (unsigned long)&g->cnt;
	g->a[1].arg_ptr[0] = &g->cntp;
	g->a[1].arg_ptr[1] = &g->one;
	switch (below(4)) {
	case 0:
		g->a[1].next = NULL;
		break;
	case 1:
		g->a[1].next = RT_FAULT_ADDR;
		break;
	default:
		g->a[1].next = &g->a[2];
		break;
	}
	g->a[2].flags = below(4) ? 0 : SYSLET_NO_COMPLETE;
	g->a[2].ret_ptr = &g->r2;
	switch (below(4)) {
	case 0:
		/* async_unregister: denied in an atom. */
		g->a[2].nr = r->umem_nr - 1;
		break;
	case 1:
		g->a[2].nr = r->umem_nr;
		g->a[2].arg_ptr[0] = RT_FAULT_ADDR;
		break;
	default:
		g->a[2].nr = r->umem_nr;
		g->a[2].arg_ptr[0] = &g->cntp;
		g->a[2].arg_ptr[1] = &g->one;
		break;
	}
	if (exec_refused(r, &g->a[0])) {
		close(g->pfd[0]);
		close(g->pfd[1]);
		return;
	}
	note(r, "start g%d (flags %#lx, %#lx, %#lx; a1 next %s, a2 nr %lu%s)",
	     i, f0, f1, g->a[2].flags,
	     !g->a[1].next ? "NULL" : g->a[1].next == RT_FAULT_ADDR ?
				      "faults" : "a2",
	     g->a[2].nr, g->a[2].arg_ptr[0] == RT_FAULT_ADDR ?
			 ", its argument faults" : "");
	errno = 0;
	done = sys_async_exec(&g->a[0]);
	if (done || errno) {
		fail(r, "g%d: async_exec gave %p, errno %d: 2007 goes async "
		     "(NULL, 0) with a thread free", i, (void *)done, errno);
		return;
	}
	g->inflight = true;
	r->m.busy++;
	r->n_handoff++;
}

/* Open gate @i: the chain ends at a1, or at a0 when the read sees the
 * closed writer and a0 stops on it. */
static void gate_release(struct run *r, int i, bool by_close)
{
	struct gated *g = &r->g[i];

	if (by_close) {
		close(g->pfd[1]);
		g->pfd[1] = -1;
	} else if (write(g->pfd[1], "x", 1) != 1) {
		fail(r, "write: %s", strerror(errno));
	}
}

/* run_next_atom() of seeds/006: a switch on the stop flags. */
static bool model_goes_on(unsigned long flags, long ret)
{
	switch (flags & SYSLET_STOP_MASK) {
	case SYSLET_STOP_ON_NONZERO:
		return !ret;
	case SYSLET_STOP_ON_ZERO:
		return ret;
	case SYSLET_STOP_ON_NEGATIVE:
		return ret >= 0;
	case SYSLET_STOP_ON_NON_POSITIVE:
		return ret > 0;
	}
	return true;
}

/*
 * exec_atom() and next_uatom() of seeds/006 for the gated chain after
 * its read: a1 adds one to a counter that starts at 0 (1), then its next
 * while the stop test is false, a1 + 1 (a2) on a stop with SKIP, the end
 * on a stop without.  A next that faults, or an a2 whose argument
 * pointer does, fails copy_uatom(): the chain ends after the atom that
 * ran last (modelled difference, syslet(7): 2007 completed nothing
 * there, ours completes that atom).  Returns the index of the last atom
 * run; *r2 what a2 stores (LONG_MIN when it does not run).
 */
static int model_gated(const struct gated *g, const struct run *r,
		       bool by_close, long *r2)
{
	const struct syslet_uatom *next;

	*r2 = LONG_MIN;
	if (by_close && (g->a[0].flags & SYSLET_STOP_ON_NON_POSITIVE))
		return 0;
	if (model_goes_on(g->a[1].flags, 1))
		next = g->a[1].next;
	else if (g->a[1].flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
		next = &g->a[1] + 1;
	else
		next = NULL;
	if (next != &g->a[2])
		return 1;
	if (g->a[2].arg_ptr[0] == RT_FAULT_ADDR)
		return 1;
	*r2 = g->a[2].nr == r->umem_nr ? 2 : -EPERM;
	return 2;
}

/* What 2007 does once gate @i is open: the chain ends at a1, or at a0
 * when the read sees the closed writer and a0 stops on it.  Then the
 * ring is compared, unless another gate opened at the same time. */
static void gate_ended(struct run *r, int i, bool by_close, bool compare)
{
	struct gated *g = &r->g[i];
	long want_r2;
	int last = model_gated(g, r, by_close, &want_r2);
	long *cell = last == 0 ? &g->r0 : last == 1 ? &g->r1 : &g->r2;

	r->m.busy--;
	g->inflight = false;
	model_complete(r, (uintptr_t)&g->a[last],
		       (g->a[last].flags & SYSLET_NO_COMPLETE) != 0);
	if (!until_set(r, cell, LONG_MIN, "the gated chain"))
		return;
	if (g->r0 != (by_close ? 0 : 1))
		fail(r, "g%d: the read gave %ld", i, g->r0);
	if (last >= 1 && g->r1 != 1)
		fail(r, "g%d: a1 gave %ld, not 1", i, g->r1);
	if (last < 1 && g->r1 != LONG_MIN)
		fail(r, "g%d: a1 ran (%ld) after a0 stopped the chain", i,
		     g->r1);
	if (g->r2 != want_r2)
		fail(r, "g%d: a2 stored %ld, 2007 gives %ld", i, g->r2,
		     want_r2);
	if (compare)
		settle(r, "a gate opened");
	close(g->pfd[0]);
	if (g->pfd[1] >= 0)
		close(g->pfd[1]);
}

static void gate_open(struct run *r, int i)
{
	bool by_close = below(3) == 0;

	note(r, "open g%d by %s", i, by_close ? "close" : "write");
	gate_release(r, i, by_close);
	if (!r->failed)
		gate_ended(r, i, by_close, true);
}

/*
 * sys_async_wait(n) with two chains busy: only completions that go into
 * the ring after the call count (complete_uatom() decrements
 * events_left; NO_COMPLETE returns before it), and the call is back
 * when the busy list is empty.  A helper opens gate a, then, once a's
 * chain has ended, gate b.  The wait asks for one completion more than
 * a can give, so it must still be waiting when b opens, whether a
 * ended before the call or after; then b's end makes the busy list
 * empty and it returns.  The same with a count no ring can reach,
 * up to ~0UL: a wait for everything in flight.
 */
struct waiter {
	struct run	*r;
	int		a, b;
	uintptr_t	a_slot;		/* where a's completion goes, or 0 */
	uintptr_t	a_last;		/* a's last atom */
	long		*a_cell;	/* its result */
	int		returned;	/* the wait is back */
	int		early;		/* it was back before b opened */
};

static void *waiter_helper(void *arg)
{
	struct waiter *w = arg;
	struct run *r = w->r;
	struct gated *ga = &r->g[w->a];
	double t0 = now();

	gate_release(r, w->a, false);
	(void)ga;
	while (__atomic_load_n(w->a_cell, __ATOMIC_ACQUIRE) == LONG_MIN ||
	       (w->a_slot && (uintptr_t)__atomic_load_n(
				(struct syslet_uatom **)w->a_slot,
				__ATOMIC_ACQUIRE) != w->a_last)) {
		if (now() - t0 > RT_SETTLE_S)
			break;
		usleep(200);
	}
	/* Time for a wrong wait to come back. */
	usleep(20000);
	w->early = __atomic_load_n(&w->returned, __ATOMIC_ACQUIRE);
	gate_release(r, w->b, false);
	return NULL;
}

static void wait_busy(struct run *r)
{
	struct model *m = &r->m;
	struct waiter w = { .r = r, .a = -1, .b = -1 };
	unsigned long n;
	pthread_t t;
	long ret;
	bool a_nc;

	for (int i = 0; i < RT_GATED; i++)
		if (r->g[i].inflight) {
			if (w.a < 0)
				w.a = i;
			else
				w.b = i;
		}
	if (below(2)) {
		int x = w.a;

		w.a = w.b;
		w.b = x;
	}
	{
		struct gated *ga = &r->g[w.a];
		long r2;
		int last = model_gated(ga, r, false, &r2);

		w.a_last = (uintptr_t)&ga->a[last];
		w.a_cell = last == 1 ? &ga->r1 : &ga->r2;
		a_nc = (ga->a[last].flags & SYSLET_NO_COMPLETE) != 0;
	}
	/* Both completions must find their slot free: the test keeps
	 * one completion at most. */
	if (m->kept || m->slot[m->idx] ||
	    m->slot[(m->idx + !a_nc) % m->entries] ||
	    (!a_nc && m->entries < 2))
		return;
	w.a_slot = a_nc ? 0 : (uintptr_t)&r->ring[m->idx];
	n = (a_nc ? 0 : 1) + 1;
	/* events_left is an unsigned long: any count above what can come,
	 * the largest included, waits for the busy list to empty. */
	if (below(3) == 0)
		n = ~0UL - below(2) * ((~0UL >> 1) - 1);
	note(r, "wait(%#lx) while g%d%s then g%d end", n, w.a,
	     a_nc ? " (NO_COMPLETE)" : "", w.b);
	if (pthread_create(&t, NULL, waiter_helper, &w)) {
		fail(r, "pthread_create");
		return;
	}
	ret = sys_async_wait(n);
	__atomic_store_n(&w.returned, 1, __ATOMIC_RELEASE);
	r->n_waitbusy++;
	pthread_join(t, NULL);
	if (ret)
		fail(r, "async_wait(%#lx): %s", n, strerror(errno));
	if (w.early)
		fail(r, "async_wait(%#lx) was back before g%d opened: 2007 counts "
		     "only completions into the ring after the call, and "
		     "g%d was busy", n, w.b, w.b);
	gate_ended(r, w.a, false, false);
	gate_ended(r, w.b, false, true);
	/* Back with the busy list empty (see wait_idle()). */
	if (!r->failed)
		m->ended = 0;
}

/* A syslet of umem_add atoms; its first atom ASYNC or not. */
static void quick(struct run *r, bool async)
{
	struct quick *q = &r->q;
	unsigned long n = 1 + below(4), before = q->cnt;
	struct syslet_uatom *done;
	bool handoff = async && thread_certain(&r->m);

	memset(q->a, 0, sizeof(q->a));
	for (unsigned long k = 0; k < n; k++) {
		q->a[k].nr = r->umem_nr;
		q->a[k].ret_ptr = &q->r[k];
		q->a[k].next = k + 1 < n ? &q->a[k + 1] : NULL;
		q->a[k].arg_ptr[0] = &q->cntp;
		q->a[k].arg_ptr[1] = &q->one;
		q->r[k] = LONG_MIN;
	}
	q->one = 1;
	q->cntp = (unsigned long)&q->cnt;
	if (async)
		q->a[0].flags |= SYSLET_ASYNC;
	if (below(3) == 0)
		q->a[n - 1].flags |= SYSLET_NO_COMPLETE;
	if (exec_refused(r, &q->a[0]))
		return;
	note(r, "quick of %lu, %s (threads %lu, busy %lu, ended %lu)", n,
	     async ? "ASYNC" : "inline", r->m.threads, r->m.busy, r->m.ended);
	errno = 0;
	done = sys_async_exec(&q->a[0]);
	if (errno) {
		fail(r, "quick: async_exec failed: %s", strerror(errno));
		return;
	}
	/* The kernel hands off only to a parked thread, and the one of a
	 * chain that has just ended may not be parked yet (a preemptible
	 * kernel shows it; syslet(7)): the atom then runs in the caller,
	 * as 2007's did with no thread ready.  Rare, or ASYNC is broken:
	 * at most one in RT_UNPARKED_MAX hand-offs (checked at the end). */
	if (handoff && done == &q->a[n - 1] && !strcmp(r->backend, "kernel")) {
		r->n_unparked++;
		handoff = false;
	}
	if (handoff) {
		/* pick_new_async_head(): NULL at once, the chain ends on
		 * the thread and completes. */
		if (done) {
			fail(r, "quick: async_exec gave %p: 2007 hands an ASYNC "
			     "atom to a free thread (NULL)", (void *)done);
			return;
		}
		r->n_handoff++;
		model_complete(r, (uintptr_t)&q->a[n - 1],
			       (q->a[n - 1].flags & SYSLET_NO_COMPLETE) != 0);
		if (!until_set(r, &q->r[n - 1], LONG_MIN, "the quick chain"))
			return;
	} else if (done != &q->a[n - 1]) {
		/* No thread ready: the whole chain runs in the caller and
		 * async_exec returns its last atom. */
		fail(r, "quick: async_exec gave %p, 2007 gives its last atom "
		     "%p (%s)", (void *)done, (void *)&q->a[n - 1],
		     async ? "every thread busy" : "nothing blocks");
		return;
	} else if (async) {
		r->n_inline++;
	}
	if (q->cnt != before + n)
		fail(r, "quick: the counter moved by %lu, not %lu",
		     q->cnt - before, n);
	settle(r, "a quick syslet");
}

/* The user takes a slot's atom: the next in its own order, or any. */
static void clear_slot(struct run *r)
{
	unsigned long full[RT_RING_MAX], n = 0, i;

	for (i = 0; i < r->m.entries; i++)
		if (r->m.slot[i])
			full[n++] = i;
	if (!n)
		return;
	i = full[below(n)];
	note(r, "clear slot %lu", i);
	__atomic_store_n(&r->ring[i], NULL, __ATOMIC_RELEASE);
	r->m.slot[i] = 0;
	model_cleared(&r->m);
	/* The backend's next look: any call of the library. */
	if (sys_async_wait(0))
		fail(r, "async_wait(0): %s", strerror(errno));
	settle(r, "a slot cleared");
}

/*
 * sys_async_wait(): events_left is set to n (n > 0), then it sleeps
 * until the busy list is empty or n completions went in.  The test only
 * waits where nothing can remain busy (every gate open), so 2007 returns
 * 0 at once or as soon as the last chain's thread is back.
 */
static void wait_idle(struct run *r)
{
	unsigned long n = below(3) ? 1 + below(2 * RT_RING_MAX) : 0;
	double t0 = now();
	long ret;

	note(r, "wait(%lu) with nothing busy", n);
	ret = sys_async_wait(n);
	if (ret)
		fail(r, "async_wait(%lu) gave %ld (%s) with nothing busy", n,
		     ret, strerror(errno));
	else if (now() - t0 > RT_SETTLE_S)
		fail(r, "async_wait(%lu) took %.1f s with nothing busy", n,
		     now() - t0);
	/*
	 * Back with the busy list empty: in 2007 mark_async_thread_ready()
	 * moved a thread off it and onto the ready list in one step, so
	 * every thread is parked again, on every backend (the kernel port
	 * counted a chain off before its thread parked until its patch
	 * 0019: a gated read that found none parked blocked the caller).
	 * Not after a wait for 0: 2007's returns at once when events_left
	 * is 0, the kernel port's always, with a thread whose chain just
	 * ended still on its way (in the x86_64-debug guest the task whose
	 * TID the program keeps, still counted in the pool after its
	 * completion, left no room for a new thread: the next gated read
	 * ran in the caller and waited for good).
	 */
	if (n)
		r->m.ended = 0;
	settle(r, "a wait");
}

static unsigned long pick_gate(struct run *r, bool inflight)
{
	unsigned long c[RT_GATED], n = 0;

	for (unsigned long i = 0; i < RT_GATED; i++)
		if (r->g[i].inflight == inflight)
			c[n++] = i;
	return n ? c[below(n)] : RT_GATED;
}

/*
 * sys_async_unregister() with gated syslets in flight: async_head_exit()
 * and stop_cachemiss_threads() tell each thread to exit and wait for it;
 * a busy one (asleep in its gate's read, which the wake-up does not end)
 * gets there only once its chain has ended and completed into the ring
 * (cachemiss_loop() leaves after cachemiss_execute()).  So the call
 * returns only after the last gate opened, and the ring then holds
 * every chain's completion.  A helper opens the gates one at a time
 * while the test's thread is in async_unregister(), each once the last
 * one's completion is in; only where every completion finds its slot
 * free (the kept one waits for the user, who is in the call).
 */
struct unreg {
	struct run	*r;
	int		returned;	/* async_unregister() is back */
	int		early;		/* the gate still closed then, or -1 */
};

static void *unreg_helper(void *arg)
{
	struct unreg *u = arg;

	for (int i = 0; i < RT_GATED && !u->r->failed; i++) {
		if (!u->r->g[i].inflight)
			continue;
		if (__atomic_load_n(&u->returned, __ATOMIC_ACQUIRE)) {
			u->early = i;
			break;
		}
		gate_open(u->r, i);
	}
	return NULL;
}

static bool unreg_inflight_fits(const struct model *m)
{
	if (m->kept || !m->busy || m->busy > m->entries)
		return false;
	for (unsigned long k = 0; k < m->busy; k++)
		if (m->slot[(m->idx + k) % m->entries])
			return false;
	return true;
}

static void unreg_inflight(struct run *r)
{
	struct unreg u = { .r = r, .early = -1 };
	pthread_t t;
	long ret;

	note(r, "unregister with %lu in flight", r->m.busy);
	if (pthread_create(&t, NULL, unreg_helper, &u)) {
		fail(r, "pthread_create");
		return;
	}
	ret = sys_async_unregister(&r->ahu, sizeof(r->ahu));
	__atomic_store_n(&u.returned, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	r->n_unreg++;
	if (ret && !r->failed)
		fail(r, "async_unregister: %s", strerror(errno));
	if (u.early >= 0 && !r->failed)
		fail(r, "async_unregister returned with g%d still waiting for "
		     "its gate: 2007 waits for its busy threads", u.early);
	/* Those the helper did not open: let them end now. */
	for (int i = 0; i < RT_GATED; i++)
		if (r->g[i].inflight) {
			gate_release(r, i, true);
			close(r->g[i].pfd[0]);
			r->g[i].inflight = false;
		}
}

/* One phase: register a ring, random steps, every gate opened, the
 * slots cleared, unregister (sometimes with gates still closed). */
static void phase(struct run *r)
{
	struct model *m = &r->m;
	unsigned long entries = 1 + below(RT_RING_MAX), thr, steps;
	long ret;

	memset(m, 0, sizeof(*m));
	r->nlog = 0;
	/* A syslet that should have gone async but blocks in the caller,
	 * or a wait that never returns, ends the run (SIGALRM). */
	if (r->multi)
		__atomic_store_n(&r->phase_start, (long)now(),
				 __ATOMIC_RELAXED);
	else
		alarm(RT_SETTLE_S * 3);
	m->entries = entries;
	/* Slots the user never cleared since an earlier head, or junk:
	 * 2007 neither clears nor checks them at registration. */
	for (unsigned long i = 0; i < entries; i++) {
		m->slot[i] = below(5) == 0 ? (uintptr_t)&r->junk : 0;
		r->ring[i] = (struct syslet_uatom *)m->slot[i];
	}
	switch (below(4)) {
	case 0:
		thr = (unsigned long)-1;	/* 1024, then the clamp */
		break;
	case 1:
		thr = below(2);
		break;
	default:
		thr = below(RT_GATED + 2);
		break;
	}
	/* async_head_init(): -1 is the default; any count is cut to the
	 * ring's entries. */
	m->threads = thr == (unsigned long)-1 ? 1024 : thr;
	if (m->threads > entries)
		m->threads = entries;
	r->ahu.completion_ring = r->ring;
	r->ahu.ring_size_bytes = entries * sizeof(r->ring[0]);
	r->ahu.max_nr_threads = thr;
	note(r, "register %lu entries, max_nr_threads %ld", entries,
	     (long)thr);
	if (sys_async_register(&r->ahu, sizeof(r->ahu))) {
		fail(r, "async_register: %s", strerror(errno));
		return;
	}
	if (below(4) == 0) {
		errno = 0;
		ret = sys_async_register(&r->ahu, sizeof(r->ahu));
		if (ret != -1 || errno != EEXIST)
			fail(r, "a second async_register gave %ld (%s), "
			     "2007 gives EEXIST", ret, strerror(errno));
	}
	steps = 10 + below(40);
	for (unsigned long s = 0; s < steps && !r->failed; s++) {
		unsigned long i;

		r->steps++;
		switch (below(6)) {
		case 0:
		case 1:
			i = pick_gate(r, false);
			if (i < RT_GATED && thread_certain(m) && !m->kept)
				gate_start(r, (int)i);
			break;
		case 2:
			i = pick_gate(r, true);
			if (i < RT_GATED && !m->kept)
				gate_open(r, (int)i);
			break;
		case 3:
			if (!m->kept && (no_thread_certain(m) ||
					 thread_certain(m)))
				quick(r, true);
			else
				quick(r, false);
			break;
		case 4:
			clear_slot(r);
			break;
		default:
			if (!m->busy)
				wait_idle(r);
			else if (m->busy == 2)
				wait_busy(r);
			else
				clear_slot(r);
			break;
		}
	}
	if (!r->failed && below(2) && unreg_inflight_fits(m)) {
		unreg_inflight(r);
		goto unregistered;
	}
	/* Let everything end; the ring takes every completion. */
	for (unsigned long i = 0; i < RT_GATED && !r->failed; i++) {
		while (m->kept && !r->failed)
			clear_slot(r);
		if (r->g[i].inflight)
			gate_open(r, (int)i);
	}
	while (m->kept && !r->failed)
		clear_slot(r);
	if (!r->failed)
		wait_idle(r);
	note(r, "unregister");
	if (sys_async_unregister(&r->ahu, sizeof(r->ahu)) && !r->failed)
		fail(r, "async_unregister: %s", strerror(errno));
unregistered:
	if (!r->failed && !ring_is_model(r))
		fail(r, "the ring after async_unregister");
	errno = 0;
	if (!r->failed && (sys_async_wait(1) != -1 || errno != EINVAL))
		fail(r, "async_wait without a head: %s, 2007 gives EINVAL",
		     strerror(errno));
	for (unsigned long i = 0; i < RT_GATED; i++)
		r->g[i].inflight = false;
	if (!r->multi)
		alarm(0);
}

static struct run *alarm_run;

static void alarm_puts(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void alarm_putu(unsigned long v)
{
	char b[24], *p = b + sizeof(b);

	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	alarm_puts(p);
}

/*
 * A phase that has not ended when its alarm rings: say which, and the
 * steps that led there (the last one is what never returned), with
 * write(2) only, then die of the signal as before, so that the parent
 * reports it.  Without this a hang left nothing to go on.
 */
static void hang_report(const struct run *r)
{
	unsigned long from = r->nlog > 64 ? r->nlog - 64 : 0;

	alarm_puts("ringtest: ");
	alarm_puts(r->backend);
	alarm_puts(": phase ");
	alarm_putu(r->phase);
	alarm_puts(" has not ended in ");
	alarm_putu(RT_SETTLE_S * 3);
	alarm_puts(" s; its steps, oldest first:\n");
	for (unsigned long i = from; i < r->nlog; i++) {
		alarm_puts("    ");
		alarm_puts(r->log[i % 64]);
		alarm_puts("\n");
	}
}

static void on_alarm(int sig)
{
	hang_report(alarm_run);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* One head's phases, on the thread that registers it. */
static void run_head(struct run *r)
{
	rt_state = r->seed ? r->seed : 1;
	for (r->phase = 0; r->phase < r->phases && !r->failed; r->phase++)
		phase(r);
	if (!r->failed && r->n_unparked > 1 + r->n_handoff / RT_UNPARKED_MAX)
		fail(r, "%lu ASYNC atoms ran in the caller with a thread "
		     "free, for %lu hand-offs", r->n_unparked, r->n_handoff);
	if (r->failed) {
		fprintf(stderr, "  reproduce: ringtest --seed=%#" PRIx64
			" --backend=%s -v\n", r->seed, r->backend);
		r->status = 1;
		return;
	}
	printf("ringtest: %s: seed %#" PRIx64 ", %lu phases, %lu steps: ok "
	       "(%lu hand-offs, %lu ASYNC atoms run in the caller, every "
	       "thread busy; %lu completions into the ring, %lu wraps, %lu "
	       "kept behind a full slot; %lu waits with chains busy; %lu "
	       "unregisters with chains busy)\n", r->backend,
	       r->seed, r->phases, r->steps, r->n_handoff, r->n_inline,
	       r->n_ring, r->n_wrap, r->n_kept, r->n_waitbusy, r->n_unreg);
}

static void *head_main(void *arg)
{
	struct run *r = arg;

	run_head(r);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * --heads=N: N threads, each with a head of its own (2007's head was the
 * task's: t->ah), its own ring, pool and model, all at once, so that
 * what one head's syslets do can be seen to stay in that head: a
 * completion in another's ring, a thread of another's pool taken or
 * counted, a wait woken by another's completion each shows as a
 * mismatch of that head's model.  A phase that hangs is reported by the
 * watchdog (the loop below), as alarm() does for one head.
 */
static int run_heads(struct run *rs, unsigned long heads)
{
	pthread_t *t = calloc(heads, sizeof(*t));
	int status = 0;

	if (!t)
		return 99;
	for (unsigned long i = 0; i < heads; i++) {
		__atomic_store_n(&rs[i].phase_start, (long)now(),
				 __ATOMIC_RELAXED);
		if (pthread_create(&t[i], NULL, head_main, &rs[i])) {
			fprintf(stderr, "ringtest: pthread_create failed\n");
			_exit(99);
		}
	}
	for (;;) {
		bool all = true;

		for (unsigned long i = 0; i < heads; i++) {
			const struct run *r = &rs[i];

			if (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
				continue;
			all = false;
			if ((long)now() - __atomic_load_n(&r->phase_start,
							  __ATOMIC_RELAXED) >
			    RT_SETTLE_S * 3) {
				hang_report(r);
				signal(SIGALRM, SIG_DFL);
				raise(SIGALRM);
			}
		}
		if (all)
			break;
		usleep(100 * 1000);
	}
	for (unsigned long i = 0; i < heads; i++) {
		pthread_join(t[i], NULL);
		if (rs[i].status && status != 99)
			status = rs[i].status;
	}
	free(t);
	return status;
}

/*
 * --observe: a trace callback (with SYSLET_TRACE_UNFINISHED) installed
 * for the whole run, so that every atom takes the engines' observed loop
 * with many syslets in flight and events coming from many workers at
 * once; the model is checked as always, and at the end what the events
 * count is what syslet_get_stats() counts: atoms run, fetches that
 * faulted, hand-offs (one unfinished event and one event with handoff
 * set each).
 */
static unsigned long ob_run, ob_fault, ob_unfinished, ob_handoff;

static void ob_count(const struct syslet_event *ev, void *ctx)
{
	(void)ctx;
	if (ev->end == SYSLET_END_UNFINISHED) {
		__atomic_add_fetch(&ob_unfinished, 1, __ATOMIC_RELAXED);
		return;
	}
	if (ev->end == SYSLET_END_FAULT)
		__atomic_add_fetch(&ob_fault, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&ob_run, 1, __ATOMIC_RELAXED);
	if (ev->handoff)
		__atomic_add_fetch(&ob_handoff, 1, __ATOMIC_RELAXED);
}

static int ob_start(const char *backend)
{
	syslet_reset_stats();
	if (syslet_set_trace(ob_count, NULL) ||
	    syslet_set_trace_flags(SYSLET_TRACE_UNFINISHED)) {
		printf("ringtest: %s: --observe: no trace here\n", backend);
		return 77;
	}
	return 0;
}

static int ob_check(const char *backend)
{
	struct syslet_stats st = { .sz = sizeof(st) };
	unsigned long run = __atomic_load_n(&ob_run, __ATOMIC_ACQUIRE);
	unsigned long fault = __atomic_load_n(&ob_fault, __ATOMIC_ACQUIRE);
	unsigned long unf = __atomic_load_n(&ob_unfinished, __ATOMIC_ACQUIRE);
	unsigned long ho = __atomic_load_n(&ob_handoff, __ATOMIC_ACQUIRE);

	if (syslet_get_stats(&st))
		return 99;
	printf("ringtest: %s: observed %lu atoms, %lu faulting fetches, %lu "
	       "hand-offs (%lu unfinished events); stats %llu, %llu, %llu\n",
	       backend, run, fault, ho, unf, st.atoms, st.faults,
	       st.handoffs);
	if (st.atoms != run || st.faults != fault || st.handoffs != ho ||
	    unf != ho) {
		fprintf(stderr, "ringtest: %s: MISMATCH of the observer's "
			"counts and syslet_get_stats()'s\n", backend);
		return 1;
	}
	return 0;
}

static int run_backend(const char *backend, uint64_t seed,
		       unsigned long phases, bool verbose,
		       unsigned long heads, bool observe)
{
	static struct run r;
	struct sigaction sa = { .sa_handler = on_alarm };
	long nr;
	int err;

	err = syslet_set_backend(backend);
	if (err) {
		printf("ringtest: %s: not here (%s)\n", backend,
		       syslet_backend_error() ? syslet_backend_error() : "?");
		return 77;
	}
	nr = syslet_sysno(SYSLET_CALL_UMEM_ADD);
	if (nr < 0) {
		printf("ringtest: %s: no umem_add\n", backend);
		return 99;
	}
	if (observe && (err = ob_start(backend)))
		return err;
	memset(&r, 0, sizeof(r));
	r.backend = backend;
	r.umem_nr = (unsigned long)nr;
	r.verbose = verbose;
	r.bounded = !strcmp(backend, "kernel");
	r.seed = seed;
	r.phases = phases;
	if (heads > 1) {
		/* Big (rings, gates, logs): on the heap, not a stack. */
		struct run *rs = calloc(heads, sizeof(*rs));

		if (!rs)
			return 99;
		for (unsigned long i = 0; i < heads; i++) {
			rs[i] = r;
			rs[i].multi = true;
			/* Distinct and reproducible: head i of --seed=S
			 * runs as --seed=S+i alone would. */
			rs[i].seed = seed + i;
		}
		err = run_heads(rs, heads);
	} else {
		alarm_run = &r;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		run_head(&r);
		err = r.status;
	}
	if (!err && observe)
		err = ob_check(backend);
	return err;
}

static void usage(FILE *f)
{
	fputs("usage: ringtest [--seed=N] [--phases=N] [--heads=N] "
	      "[--backend=emul,uring,kernel] [--observe] [-v]\n"
	      "Many syslets in flight on one head (--heads: on each of N\n"
	      "heads at once, one a thread), through a model of the\n"
	      "2007 head and each backend; --observe: with a trace callback\n"
	      "installed, whose counts must be the statistics'.\n"
	      "Exit 0: no mismatch; 1: a\n"
	      "mismatch; 77: no backend here; 99: the test itself failed.\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "phases", required_argument, NULL, 'p' },
		{ "heads", required_argument, NULL, 'H' },
		{ "backend", required_argument, NULL, 'b' },
		{ "observe", no_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* The kernel only on request (--backend, or $SYSLET_BACKEND as the
	 * kernel-check guests set it): a pool thread it has just started
	 * may not be parked when a gated syslet needs it (syslet(7)), and
	 * the syslet then blocks in the caller. */
	const char *backends = getenv("SYSLET_BACKEND") &&
			       *getenv("SYSLET_BACKEND") &&
			       strcmp(getenv("SYSLET_BACKEND"), "auto") ?
			       getenv("SYSLET_BACKEND") : "emul,uring";
	uint64_t seed = 0x2007d1ffUL;
	unsigned long phases = 300, heads = 1;
	bool verbose = false, ran = false, observe = false;
	int c, status = 0;
	char *list, *save = NULL;

	while ((c = getopt_long(argc, argv, "v", lo, NULL)) != -1) {
		char *end = NULL;

		switch (c) {
		case 's':
			seed = strtoull(optarg, &end, 0);
			break;
		case 'p':
			phases = strtoul(optarg, &end, 0);
			break;
		case 'H':
			heads = strtoul(optarg, &end, 0);
			if (!heads || heads > 64) {
				fprintf(stderr, "ringtest: --heads: 1 to 64\n");
				return 99;
			}
			break;
		case 'b':
			backends = optarg;
			break;
		case 'o':
			observe = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 99;
		}
		if (end && *end) {
			fprintf(stderr, "ringtest: not a number: %s\n", optarg);
			return 99;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 99;
	}
	list = strdup(backends);
	for (char *b = strtok_r(list, ",", &save); b;
	     b = strtok_r(NULL, ",", &save)) {
		int st;
		pid_t pid;

		/* Each backend in a child: one that hangs or crashes is
		 * reported, and the next starts clean. */
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("ringtest: fork");
			return 99;
		}
		if (!pid) {
			st = run_backend(b, seed, phases, verbose, heads,
					 observe);
			fflush(stdout);
			_exit(st);
		}
		if (waitpid(pid, &st, 0) < 0) {
			perror("ringtest: waitpid");
			return 99;
		}
		if (WIFSIGNALED(st)) {
			fprintf(stderr, "ringtest: %s: killed by signal %d "
				"(a wait that never returned: SIGALRM)\n", b,
				WTERMSIG(st));
			status = 1;
			ran = true;
			continue;
		}
		st = WEXITSTATUS(st);
		if (st == 77)
			continue;
		ran = true;
		if (st)
			status = st == 99 ? 99 : 1;
	}
	free(list);
	if (!ran) {
		printf("ringtest: SKIP: none of the backends %s runs here\n",
		       backends);
		return 77;
	}
	return status;
}
