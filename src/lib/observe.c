/* observe.c: the engine's observers: trace callback, statistics and single-stepping. */
#include <config.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "emul.h"

syslet_trace_fn emul_trace_fn;
void *emul_trace_ctx;
static unsigned long long trace_seq;
static struct syslet_stats totals;

void syslet_set_trace(syslet_trace_fn fn, void *ctx)
{
	/* ctx first: a worker that sees the new fn must see its ctx. */
	__atomic_store_n(&emul_trace_ctx, ctx, __ATOMIC_RELEASE);
	__atomic_store_n(&emul_trace_fn, fn, __ATOMIC_RELEASE);
}

void emul_trace_emit(struct syslet_event *ev)
{
	syslet_trace_fn fn = __atomic_load_n(&emul_trace_fn, __ATOMIC_ACQUIRE);

	ev->seq = __atomic_add_fetch(&trace_seq, 1, __ATOMIC_RELAXED);
	if (fn)
		fn(ev, __atomic_load_n(&emul_trace_ctx, __ATOMIC_ACQUIRE));
}

void emul_stats_add(unsigned int off, unsigned long n)
{
	unsigned long long *f = (unsigned long long *)((char *)&totals + off);

	__atomic_add_fetch(f, n, __ATOMIC_RELAXED);
}

/* A run counts in plain locals and adds them here once, so that the
 * per-atom cost is an increment, not an atomic operation. */
void emul_stats_flush(struct emul_lstats *ls)
{
#define FLUSH(local, field)                                             \
	do {                                                            \
		if (ls->local)                                          \
			EMUL_STAT_ADD(field, ls->local);                \
	} while (0)
	FLUSH(atoms, atoms);
	FLUSH(syscalls, syscalls);
	FLUSH(umem, umem_adds);
	FLUSH(inl, inline_atoms);
	FLUSH(cm, cachemiss_atoms);
	FLUSH(faults, faults);
	FLUSH(sigstops, signal_stops);
	FLUSH(denied, denied);
#undef FLUSH
	memset(ls, 0, sizeof(*ls));
}

void syslet_get_stats(struct syslet_stats *st)
{
	unsigned long long *dst = (unsigned long long *)st;
	unsigned long long *src = (unsigned long long *)&totals;

	for (size_t i = 0; i < sizeof(*st) / sizeof(*dst); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void syslet_reset_stats(void)
{
	unsigned long long *f = (unsigned long long *)&totals;

	for (size_t i = 0; i < sizeof(totals) / sizeof(*f); i++)
		__atomic_store_n(&f[i], 0, __ATOMIC_RELAXED);
}

struct syslet_uatom *syslet_step(struct syslet_uatom *atom,
				 struct syslet_event *ev)
{
	if (emul_init()) {
		if (ev) {
			memset(ev, 0, sizeof(*ev));
			ev->atom = atom;
			ev->end = SYSLET_END_FAULT;
			ev->ret = -ENOSYS;
		}
		return NULL;
	}
	return emul_step(atom, ev);
}
