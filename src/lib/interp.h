/* interp.h: the atom interpreter's rules every engine shares: copy_uatom, umem_add, the stop test and next/SKIP, trace events, fault injection. */
#ifndef SYSLET_INTERP_H
#define SYSLET_INTERP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "emul.h"
#include "emul-fault.h"

/*
 * These are the kernel's rules (kernel/async.c of the seeds) written once.
 * An engine decides only where a call runs: in place, in a worker thread,
 * or through io_uring; what is fetched, stored and taken next is decided
 * here, the same way for all of them.
 */

/*
 * The address of field @f (arg_ptr[@i] for INTERP_UARG) of the atom at
 * user address @u.  An atom may sit at any address: the kernel reads its
 * words with get_user(), which x86 allows misaligned, and the tests place
 * atoms so.  Our loads are single movs too, but a C member access through
 * a misaligned struct pointer is undefined (UBSan stops on it), so the
 * address is computed as an integer, which also wraps as the kernel's
 * does for an atom near the top of the address space (32-bit); the code
 * generated is the same.
 */
#define INTERP_UFIELD(u, f)                                             \
	((const void *)((uintptr_t)(u) + offsetof(struct syslet_uatom, f)))
#define INTERP_UARG(u, i)                                               \
	((const void *)((uintptr_t)(u) +                                \
			offsetof(struct syslet_uatom, arg_ptr) +        \
			(i) * sizeof(unsigned long *)))

/* The atom after @u in memory (SYSLET_SKIP_TO_NEXT_ON_STOP).  Like the
 * field addresses above it wraps at the top of the address space, as the
 * kernel's pointer arithmetic does (-fno-strict-overflow): the result is
 * then an address that faults, not undefined behaviour. */
static inline struct syslet_uatom *interp_after(const struct syslet_uatom *u)
{
	return (struct syslet_uatom *)((uintptr_t)u + sizeof(*u));
}

/*
 * copy_uatom(): the fixed fields, then the arguments through arg_ptr[]
 * up to the first NULL pointer (the rest are zero and the pointers after
 * it are not even read: atoms may be packed tightly).  private is never
 * touched, but the whole atom, private included, must lie in user space
 * (copy_uatom()'s access_ok(uatom, sizeof(*uatom))): one whose last words
 * are past its end gives -EFAULT although no word read is.  Any
 * unreadable word gives -EFAULT and the atom does not run.
 */
static inline __attribute__((always_inline)) int
interp_fetch(struct emul_atom *a, const struct syslet_uatom *u)
{
	unsigned long p;
	int err;
	unsigned int i;

	if (__builtin_expect(!emul_range_ok(u, sizeof(*u)), 0)) {
		memset(a, 0, sizeof(*a));
		return -EFAULT;
	}
	err = emul_get(&a->flags, INTERP_UFIELD(u, flags));
	err |= emul_get(&a->nr, INTERP_UFIELD(u, nr));
	err |= emul_get((unsigned long *)&a->ret_ptr,
			INTERP_UFIELD(u, ret_ptr));
	err |= emul_get((unsigned long *)&a->next, INTERP_UFIELD(u, next));
	/* The words past the first NULL are zero: all six cleared by a
	 * few fixed stores, then those fetched written, cheaper than a
	 * loop over the rest (one atom runs in tens of instructions). */
	memset(a->args, 0, sizeof(a->args));
	for (i = 0; i < 6; i++) {
		err |= emul_get(&p, INTERP_UARG(u, i));
		if (!p)
			break;
		if (emul_get(&a->args[i], (const void *)p))
			return -EFAULT;
	}
	a->nargs = i;
	return err;
}

/* run_next_atom(): a switch on the masked flags, so an atom with two stop
 * flags matches no case and never stops. */
static inline int interp_goes_on(unsigned long flags, long ret)
{
	switch (flags & SYSLET_STOP_MASK) {
	case SYSLET_STOP_ON_NONZERO:
		return !ret;
	case SYSLET_STOP_ON_ZERO:
		return ret != 0;
	case SYSLET_STOP_ON_NEGATIVE:
		return ret >= 0;
	case SYSLET_STOP_ON_NON_POSITIVE:
		return ret > 0;
	}
	return 1;
}

/* next_uatom(): the atom after @u that ran with @flags and gave @ret;
 * NULL ends the chain, *end says why. */
static inline struct syslet_uatom *
interp_next(struct syslet_uatom *u, const struct emul_atom *a, long ret,
	    enum syslet_end *end)
{
	if (interp_goes_on(a->flags, ret)) {
		*end = a->next ? SYSLET_END_NONE : SYSLET_END_NEXT;
		return a->next;
	}
	if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
		*end = SYSLET_END_NONE;
		return interp_after(u);
	}
	*end = SYSLET_END_STOP;
	return NULL;
}

/* The generic sys_umem_add(): read, add, write back; inc 0 only reads. */
static inline long interp_umem(unsigned long *p, unsigned long inc)
{
	unsigned long v;

	if (emul_get(&v, p))
		return -EFAULT;
	if (!inc)
		return (long)v;
	v += inc;
	if (emul_put(p, v))
		return -EFAULT;
	return (long)v;
}

/* __exec_atom()'s store: -EFAULT when *ret_ptr cannot be written.  Sets
 * *stored to whether the value landed. */
static inline long interp_store(const struct emul_atom *a, long ret,
				bool *stored)
{
	*stored = false;
	if (!a->ret_ptr)
		return ret;
	if (emul_put(a->ret_ptr, (unsigned long)ret))
		return -EFAULT;
	*stored = true;
	return ret;
}

/* Marks of an event: the syslet's first event since it went async at
 * this atom (handoff), a result that was injected. */
#define INTERP_EV_HANDOFF	0x1
#define INTERP_EV_INJECTED	0x2

/* A trace event for an atom that ran (or, with end FAULT, could not be
 * read; with end UNFINISHED, is about to run elsewhere); the callback is
 * only called when one is set. */
static inline void interp_event(struct syslet_uatom *u,
				const struct emul_atom *a, long ret,
				bool stored, struct syslet_uatom *next,
				enum syslet_end end, enum syslet_where where,
				int marks, struct syslet_event *out)
{
	struct syslet_event ev;
	struct syslet_event *e = out ? out : &ev;

	e->sz = sizeof(*e);
	e->atom = u;
	e->flags = a->flags;
	e->nr = a->nr;
	memcpy(e->args, a->args, sizeof(e->args));
	e->nargs = a->nargs;
	e->where = where;
	e->end = end;
	e->ret = ret;
	e->ret_stored = stored;
	e->handoff = (marks & INTERP_EV_HANDOFF) != 0;
	e->injected = (marks & INTERP_EV_INJECTED) != 0;
	e->next = next;
	e->tid = (int)emul_gettid();
	e->seq = 0;
	if (emul_trace_fn)
		emul_trace_emit(e);
}

/* The flags of syslet_set_trace_flags() (observe.c). */
extern unsigned int interp_trace_flags;

/* The event that says a syslet goes async at atom @u (fetched into @a),
 * before anyone else can run it: with SYSLET_TRACE_UNFINISHED only. */
static inline void interp_unfinished(struct syslet_uatom *u,
				     const struct emul_atom *a)
{
	if (__atomic_load_n(&emul_trace_fn, __ATOMIC_RELAXED) &&
	    (__atomic_load_n(&interp_trace_flags, __ATOMIC_RELAXED) &
	     SYSLET_TRACE_UNFINISHED))
		interp_event(u, a, 0, false, NULL, SYSLET_END_UNFINISHED,
			     SYSLET_WHERE_INLINE, INTERP_EV_HANDOFF, NULL);
}

/*
 * Fault injection (syslet_set_inject).  The rules are one immutable
 * table, published whole: a chain reads the table it found, and a table
 * replaced is kept (reachable, never freed) since a worker may still
 * read it.  Only the counters change, atomically.  No table: no rule,
 * and the only cost is the test of the pointer, made where an atom is
 * about to run outside the fast loop (which the engines do not enter
 * while a table is set).
 */
struct interp_rule {
	long			ret;
	unsigned long		first, last, step;	/* step 0: no rule */
	unsigned long long	calls, injected;
};

struct interp_inject {
	unsigned long		n;		/* rules for numbers below n */
	struct interp_inject	*older;		/* replaced tables */
	struct interp_rule	rule[];
};

extern struct interp_inject *interp_inject_tab;

static inline bool interp_inject_on(void)
{
	return __atomic_load_n(&interp_inject_tab, __ATOMIC_RELAXED) != NULL;
}

bool interp_inject_hit(struct interp_inject *t, unsigned long nr, long *ret);

/* Whether the atom calling @nr is to fail now, and with what (*ret):
 * counts the run.  Called once per run of an atom, where it runs. */
static inline bool interp_injected(unsigned long nr, long *ret)
{
	struct interp_inject *t = __atomic_load_n(&interp_inject_tab,
						  __ATOMIC_ACQUIRE);

	if (__builtin_expect(t == NULL, 1))
		return false;
	return interp_inject_hit(t, nr, ret);
}

/*
 * How often the engines look for pending signals.  One look is a syscall
 * (rt_sigpending), as dear as a cheap atom, so it is paid for out of a
 * budget: an atom that made a syscall costs INTERP_SIG_SYSCALL, any other
 * one 1: a look every 64 syscall atoms or 256 umem_add atoms.  After a
 * failed call (a write to a closed pipe raises SIGPIPE) the look is at
 * once.
 */
#define INTERP_SIG_BUDGET	256
#define INTERP_SIG_SYSCALL	4

/* signal_pending() as the caller of async_exec would see it: a signal its
 * own mask (@user_mask) lets through and whose disposition acts (a
 * handler, or a default that stops, ends or dumps the process).  Ignored
 * ones stay pending while the engine blocks signals, and go when it
 * unblocks them, as they never would have been queued. */
bool interp_signal_pending(const sigset_t *user_mask);
/* The same, counting with @own_only only the signals sent to this thread
 * (tgkill(), a SIGPIPE its own call raised), not those for the process:
 * what a thread that runs a syslet that went async looks at (syslet(7)
 * SIGNALS: the process's signals act in the program's threads). */
bool interp_signal_pending_for(const sigset_t *user_mask, bool own_only);

/* The fast loop's state: in, out, or both. */
struct interp_fast {
	const unsigned char	*tab;	/* in: policy per number */
	unsigned long		nr_syscalls;
	const sigset_t		*user_mask;	/* in: NULL, no signal looks */
	bool			own_only;	/* in: this thread's alone */
	/* in: look only after a failed call (a signal it raised), not
	 * every budget's worth of atoms */
	bool			raised_only;
	unsigned long		limit;	/* in: atoms at most this call */
	struct syslet_uatom	*up;	/* in: first atom; out: next, unrun */
	unsigned long		last_flags;	/* of the last atom run */
	unsigned int		budget;	/* signal-look budget */
	unsigned long		nsys, numem;	/* added to */
	bool			done;	/* out: the chain ended */
	bool			signalled;	/* out: ended by a signal */
};

/* Run atoms from fp->up while the fast loop can; the last atom run, or
 * NULL when none. */
struct syslet_uatom *interp_fast(struct interp_fast *fp);

#endif /* SYSLET_INTERP_H */
