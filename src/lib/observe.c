/* observe.c: the engine's observers: trace callback, statistics and single-stepping. */
#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "api.h"
#include "emul.h"
#include "interp.h"
#include "once.h"

syslet_trace_fn emul_trace_fn;
void *emul_trace_ctx;
static unsigned long long trace_seq;

/* Emitters between loading the callback and its return; the thread's
 * own depth of callbacks (one may call syslet_set_trace()). */
static unsigned long trace_active;
static __thread unsigned int trace_inside;

/*
 * Off, then every call of the old callback returns, then the new pair:
 * a worker never calls one callback with another's ctx (fn and ctx are
 * two words), and once this returns the caller may free the old ctx
 * (syslet-run frees nothing, but prints its statistics while workers
 * still run: a worker once read the new NULL ctx with the old fn).
 * Sequentially consistent on both sides: an emitter that saw the old fn
 * counted itself first, so the wait sees it.  From inside a callback
 * it cannot wait for itself, and does not wait.
 */
int syslet_set_trace(syslet_trace_fn fn, void *ctx)
{
	const struct backend *b;
	long err;

	__atomic_store_n(&emul_trace_fn, NULL, __ATOMIC_SEQ_CST);
	if (!trace_inside)
		while (__atomic_load_n(&trace_active, __ATOMIC_SEQ_CST))
			sched_yield();
	__atomic_store_n(&emul_trace_ctx, ctx, __ATOMIC_RELEASE);
	__atomic_store_n(&emul_trace_fn, fn, __ATOMIC_RELEASE);
	b = backend_get(&err);
	return api_err(b && b->observed ? 0 : -ENOTSUP);
}

unsigned int interp_trace_flags;

int syslet_set_trace_flags(unsigned int flags)
{
	if (flags & ~SYSLET_TRACE_UNFINISHED)
		return api_err(-EINVAL);
	__atomic_store_n(&interp_trace_flags, flags, __ATOMIC_RELEASE);
	return 0;
}

void emul_trace_emit(struct syslet_event *ev)
{
	syslet_trace_fn fn;

	ev->seq = __atomic_add_fetch(&trace_seq, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&trace_active, 1, __ATOMIC_SEQ_CST);
	fn = __atomic_load_n(&emul_trace_fn, __ATOMIC_SEQ_CST);
	if (fn) {
		trace_inside++;
		fn(ev, __atomic_load_n(&emul_trace_ctx, __ATOMIC_ACQUIRE));
		trace_inside--;
	}
	__atomic_sub_fetch(&trace_active, 1, __ATOMIC_RELEASE);
}

/*
 * Statistics are counted per thread, each thread writing only its own
 * block with plain (relaxed, lock-free) stores, so counting costs an add,
 * not a locked instruction on a line every worker shares.  Readers sum
 * the blocks; a thread that exits folds its block into gone; a reset
 * only moves the base that readers subtract, so it never races a writer.
 */
struct emul_tstats {
	struct syslet_stats	s;
	struct emul_tstats	*next, **pprev;
};

/* The counters: every field after sz, all unsigned long long. */
#define EMUL_STATS_FIRST offsetof(struct syslet_stats, execs)
#define EMUL_NSTATS ((sizeof(struct syslet_stats) - EMUL_STATS_FIRST) / \
		     sizeof(unsigned long long))
_Static_assert((sizeof(struct syslet_stats) - EMUL_STATS_FIRST) %
	       sizeof(unsigned long long) == 0,
	       "struct syslet_stats holds only counters after sz");
#define EMUL_COUNTERS(st) \
	((unsigned long long *)((char *)(st) + EMUL_STATS_FIRST))

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static struct emul_tstats *stats_live;
static struct syslet_stats stats_gone, stats_base;
static pthread_key_t stats_key;
static struct lib_once stats_once = LIB_ONCE_INIT;
static __thread struct emul_tstats *stats_mine;

static void stats_thread_exit(void *arg)
{
	struct emul_tstats *t = arg;
	unsigned long long *g = EMUL_COUNTERS(&stats_gone);
	const unsigned long long *f = EMUL_COUNTERS(&t->s);

	pthread_mutex_lock(&stats_lock);
	for (size_t i = 0; i < EMUL_NSTATS; i++)
		g[i] += __atomic_load_n(&f[i], __ATOMIC_RELAXED);
	*t->pprev = t->next;
	if (t->next)
		t->next->pprev = t->pprev;
	pthread_mutex_unlock(&stats_lock);
	stats_mine = NULL;
	free(t);
}

static void stats_key_init(void)
{
	(void)pthread_key_create(&stats_key, stats_thread_exit);
}

static struct emul_tstats *stats_self(void)
{
	struct emul_tstats *t = stats_mine;

	if (__builtin_expect(t != NULL, 1))
		return t;
	lib_once(&stats_once, stats_key_init);
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	pthread_mutex_lock(&stats_lock);
	t->next = stats_live;
	if (t->next)
		t->next->pprev = &t->next;
	t->pprev = &stats_live;
	stats_live = t;
	pthread_mutex_unlock(&stats_lock);
	(void)pthread_setspecific(stats_key, t);
	stats_mine = t;
	return t;
}

static inline void stats_bump(unsigned long long *f, unsigned long n)
{
	__atomic_store_n(f, __atomic_load_n(f, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

/*
 * Out of memory for a thread's block: its counts go straight into gone,
 * under the lock, so that no count is lost (syslet-run --stats would
 * print a total short by them with nothing said).
 */
static void stats_add_gone(unsigned int off, unsigned long n)
{
	pthread_mutex_lock(&stats_lock);
	*(unsigned long long *)((char *)&stats_gone + off) += n;
	pthread_mutex_unlock(&stats_lock);
}

void emul_stats_add(unsigned int off, unsigned long n)
{
	struct emul_tstats *t = stats_self();

	if (t)
		stats_bump((unsigned long long *)((char *)&t->s + off), n);
	else
		stats_add_gone(off, n);
}

/* A run counts in plain locals and adds them here once. */
void emul_stats_flush(struct emul_lstats *ls)
{
	struct emul_tstats *t = stats_self();
	struct syslet_stats *s = t ? &t->s : &stats_gone;

	if (!t)
		pthread_mutex_lock(&stats_lock);
	stats_bump(&s->atoms, ls->atoms);
	stats_bump(&s->syscalls, ls->syscalls);
	stats_bump(&s->umem_adds, ls->umem);
	stats_bump(&s->inline_atoms, ls->inl);
	stats_bump(&s->cachemiss_atoms, ls->cm);
	stats_bump(&s->faults, ls->faults);
	stats_bump(&s->signal_stops, ls->sigstops);
	stats_bump(&s->denied, ls->denied);
	stats_bump(&s->uring_atoms, ls->ur);
	stats_bump(&s->uring_worker_atoms, ls->urw);
	stats_bump(&s->handoffs, ls->handoffs);
	stats_bump(&s->completions, ls->completions);
	if (!t)
		pthread_mutex_unlock(&stats_lock);
	memset(ls, 0, sizeof(*ls));
}

/* The sum over all threads, live and gone; stats_lock held. */
static void stats_sum_locked(unsigned long long *sum)
{
	const unsigned long long *g = EMUL_COUNTERS(&stats_gone);

	for (size_t i = 0; i < EMUL_NSTATS; i++)
		sum[i] = g[i];
	for (struct emul_tstats *t = stats_live; t; t = t->next) {
		const unsigned long long *f = EMUL_COUNTERS(&t->s);

		for (size_t i = 0; i < EMUL_NSTATS; i++)
			sum[i] += __atomic_load_n(&f[i], __ATOMIC_RELAXED);
	}
}

int syslet_get_stats(struct syslet_stats *st)
{
	struct syslet_stats sum = { .sz = sizeof(sum) };
	unsigned long long *dst = EMUL_COUNTERS(&sum);
	const unsigned long long *base = EMUL_COUNTERS(&stats_base);

	if (!api_sz_ok(st, sizeof(*st)))
		return api_err(-EINVAL);
	pthread_mutex_lock(&stats_lock);
	stats_sum_locked(dst);
	for (size_t i = 0; i < EMUL_NSTATS; i++)
		dst[i] -= base[i];
	pthread_mutex_unlock(&stats_lock);
	api_sz_copy(st, &sum, sizeof(sum));
	return 0;
}

void syslet_reset_stats(void)
{
	pthread_mutex_lock(&stats_lock);
	stats_sum_locked(EMUL_COUNTERS(&stats_base));
	pthread_mutex_unlock(&stats_lock);
}

struct syslet_uatom *syslet_step(struct syslet_uatom *atom,
				 struct syslet_event *ev)
{
	struct syslet_event mine = { .sz = sizeof(mine) };
	struct syslet_uatom *next;
	int err;

	if (ev && !api_sz_ok(ev, sizeof(*ev)))
		return api_null(EINVAL);
	err = emul_init();
	if (err) {
		mine.atom = atom;
		mine.end = SYSLET_END_FAULT;
		mine.ret = -ENOSYS;
		next = api_null(err < 0 ? -err : ENOSYS);
	} else {
		next = emul_step(atom, &mine);
		errno = 0;
	}
	if (ev)
		api_sz_copy(ev, &mine, sizeof(mine));
	return next;
}
