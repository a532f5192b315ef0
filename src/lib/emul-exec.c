/* emul-exec.c: the emul engine's atom loop: fetch, run, store, stop test and SKIP, as kernel/async.c did. */
#include <config.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "emul.h"
#include "emul-fault.h"

/* Atoms between two looks at pending signals when no syscall ran. */
#define EMUL_SIG_BUDGET 256

/*
 * copy_uatom(): the fixed fields, then the arguments through arg_ptr[]
 * up to the first NULL pointer (the rest are zero and the pointers after
 * it are not even read: atoms may be packed tightly).  private is never
 * touched.  Any unreadable word gives -EFAULT and the atom does not run.
 */
static inline int emul_fetch(struct emul_atom *a, const struct syslet_uatom *u)
{
	unsigned long p;
	int err;
	unsigned int i;

	err = emul_get(&a->flags, &u->flags);
	err |= emul_get(&a->nr, &u->nr);
	err |= emul_get((unsigned long *)&a->ret_ptr, &u->ret_ptr);
	err |= emul_get((unsigned long *)&a->next, &u->next);
	for (i = 0; i < 6; i++) {
		err |= emul_get(&p, &u->arg_ptr[i]);
		if (!p)
			break;
		if (emul_get(&a->args[i], (const void *)p))
			return -EFAULT;
	}
	a->nargs = i;
	for (; i < 6; i++)
		a->args[i] = 0;
	return err;
}

/* run_next_atom(): a switch on the masked flags, so an atom with two stop
 * flags matches no case and never stops. */
static inline int emul_goes_on(unsigned long flags, long ret)
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

/* The generic sys_umem_add(): read, add, write back; inc 0 only reads. */
static inline long emul_umem(unsigned long *p, unsigned long inc)
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

long emul_umem_add(unsigned long *p, unsigned long inc)
{
	return emul_umem(p, inc);
}

/* signal_pending(): a signal the user does not block arrived.  Inline,
 * the caller's signals are blocked while the chain runs so that one that
 * arrives stays pending until we look; workers block everything. */
static bool emul_signal_pending(struct emul_run *run)
{
	sigset_t pend;

	if (run->mode == EMUL_RUN_STEP)
		return false;
	if (sigpending(&pend))
		return false;
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&pend, s) == 1 &&
		    sigismember(&run->user_mask, s) != 1)
			return true;
	return false;
}

/* A call that may block, run here: the caller's own signal mask is put
 * back around it so that a signal interrupts it as it would in the
 * kernel (the chain then stops on -EINTR). */
static long emul_block_here(struct emul_run *run, const struct emul_atom *a,
			    enum emul_policy pol, long partial)
{
	sigset_t blocked;
	long ret;

	if (run->mode != EMUL_RUN_INLINE)
		return emul_block_call(a, pol, partial);
	pthread_sigmask(SIG_SETMASK, &run->user_mask, &blocked);
	ret = emul_block_call(a, pol, partial);
	pthread_sigmask(SIG_SETMASK, &blocked, NULL);
	return ret;
}

/*
 * __exec_atom(): returns the result; *store says whether it goes to
 * *ret_ptr (not for nr >= NR_syscalls, which the kernel answered before
 * storing).  Inline, an ASYNC atom, or one that would block (unless
 * SYNC), is handed to a worker if one is free; then run->handed_off.
 */
static long emul_exec(struct emul_run *run, struct syslet_uatom *u,
		      const struct emul_atom *a, long partial, bool resumed,
		      bool *store)
{
	struct emul_profile *prof = emul_prof;
	enum emul_policy pol;
	struct emul_try t;

	*store = true;
	if (run->mode == EMUL_RUN_INLINE && (a->flags & SYSLET_ASYNC)) {
		run->h_uatom = u;
		run->h_atom = *a;
		run->h_partial = 0;
		run->h_blocked = false;
		if (emul_handoff(run))
			return 0;
	}
	if (a->nr >= prof->nr_syscalls) {
		*store = false;
		return -ENOSYS;
	}
	pol = (enum emul_policy)prof->policy[a->nr];
	switch (pol) {
	case EMUL_P_UMEM:
		run->st.umem++;
		return emul_umem((unsigned long *)a->args[0], a->args[1]);
	case EMUL_P_DENY:
		run->st.denied++;
		return -EPERM;
	case EMUL_P_NONE:
		return -ENOSYS;
	default:
		break;
	}
	run->st.syscalls++;
	run->sig_budget = 0;
	if (run->mode != EMUL_RUN_INLINE || resumed)
		return emul_block_here(run, a, pol, partial);
	if (a->flags & SYSLET_SYNC)
		return emul_block_here(run, a, pol, 0);
	emul_try_call(a, pol, &t);
	if (!t.blocked)
		return t.ret;
	run->h_uatom = u;
	run->h_atom = *a;
	run->h_partial = t.partial;
	run->h_blocked = true;
	if (emul_handoff(run))
		return 0;
	/* The pool is at its limit: like the kernel with no ready thread,
	 * block right here and go on synchronously. */
	return emul_block_here(run, a, pol, t.partial);
}

static void emul_event(struct emul_run *run, struct syslet_uatom *u,
		       const struct emul_atom *a, long ret, bool stored,
		       struct syslet_uatom *next, enum syslet_end end,
		       int handoff, struct syslet_event *out)
{
	struct syslet_event ev;
	struct syslet_event *e = out ? out : &ev;

	e->atom = u;
	e->flags = a->flags;
	e->nr = a->nr;
	memcpy(e->args, a->args, sizeof(e->args));
	e->nargs = a->nargs;
	e->where = run->mode == EMUL_RUN_INLINE ? SYSLET_WHERE_INLINE :
		   run->mode == EMUL_RUN_WORKER ? SYSLET_WHERE_CACHEMISS :
						  SYSLET_WHERE_STEP;
	e->end = end;
	e->ret = ret;
	e->ret_stored = stored;
	e->handoff = handoff;
	e->next = next;
	e->tid = (int)emul_gettid();
	e->seq = 0;
	if (emul_trace_fn)
		emul_trace_emit(e);
}

/*
 * exec_atom(): the main loop.  @resume: *a is already fetched (a worker
 * picking up a handed-off syslet at its blocking atom, with @partial bytes
 * already moved).  Returns the last atom run; on a fault fetching an atom
 * *err = -EFAULT and the last atom that did run (NULL if none).
 */
static struct syslet_uatom *emul_loop(struct emul_run *run,
				      struct syslet_uatom *u,
				      struct emul_atom *a, bool resume,
				      long partial, long *err,
				      unsigned long *last_flags,
				      struct syslet_event *step_ev)
{
	struct syslet_uatom *last = NULL, *next;
	enum syslet_end end;
	bool stored;
	long ret;
	bool resumed;

	for (;;) {
		if (!resume && emul_fetch(a, u)) {
			struct emul_atom z;

			memset(&z, 0, sizeof(z));
			run->st.faults++;
			if (emul_trace_fn || step_ev)
				emul_event(run, u, &z, -EFAULT, false, NULL,
					   SYSLET_END_FAULT, 0, step_ev);
			*err = -EFAULT;
			return last;
		}
		ret = emul_exec(run, u, a, partial, resume, &stored);
		resumed = resume;
		resume = false;
		partial = 0;
		if (run->handed_off)
			return NULL;
		last = u;
		*last_flags = a->flags;
		run->st.atoms++;
		if (run->mode == EMUL_RUN_WORKER)
			run->st.cm++;
		else
			run->st.inl++;
		if (stored && a->ret_ptr && emul_put(a->ret_ptr, (unsigned long)ret)) {
			ret = -EFAULT;
			stored = false;
		} else if (!a->ret_ptr) {
			stored = false;
		}
		if (ret == -EINTR || (run->sig_budget-- == 0 &&
				      (run->sig_budget = EMUL_SIG_BUDGET,
				       emul_signal_pending(run)))) {
			run->st.sigstops++;
			next = NULL;
			end = SYSLET_END_SIGNAL;
		} else if (emul_goes_on(a->flags, ret)) {
			next = a->next;
			end = next ? SYSLET_END_NONE : SYSLET_END_NEXT;
		} else if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
			next = u + 1;
			end = SYSLET_END_NONE;
		} else {
			next = NULL;
			end = SYSLET_END_STOP;
		}
		if (__builtin_expect(emul_trace_fn != NULL || step_ev != NULL, 0))
			emul_event(run, u, a, ret, stored, next, end, resumed,
				   step_ev);
		if (!next || run->mode == EMUL_RUN_STEP)
			return last;
		u = next;
	}
}

struct syslet_uatom *emul_run_chain(struct emul_run *run,
				    struct syslet_uatom *u, long *err)
{
	struct emul_atom a;
	unsigned long lf = 0;
	struct syslet_uatom *last;

	run->sig_budget = EMUL_SIG_BUDGET;
	last = emul_loop(run, u, &a, false, 0, err, &lf, NULL);
	return *err ? NULL : last;
}

struct syslet_uatom *emul_run_rest(struct emul_run *run, bool *no_complete)
{
	unsigned long lf = run->h_atom.flags;
	long err = 0;
	struct syslet_uatom *last;

	run->sig_budget = EMUL_SIG_BUDGET;
	last = emul_loop(run, run->h_uatom, &run->h_atom, true,
			 run->h_blocked ? run->h_partial : 0, &err, &lf, NULL);
	/* A fault fetching a later atom: the kernel queued nothing; we queue
	 * the last atom that ran so the completion is not lost. */
	if (!last)
		last = run->h_uatom;
	*no_complete = (lf & SYSLET_NO_COMPLETE) != 0;
	return last;
}

struct syslet_uatom *emul_step(struct syslet_uatom *u, struct syslet_event *ev)
{
	struct emul_run run;
	struct emul_atom a;
	struct syslet_event local;
	unsigned long lf = 0;
	long err = 0;

	memset(&run, 0, sizeof(run));
	run.mode = EMUL_RUN_STEP;
	run.sig_budget = EMUL_SIG_BUDGET;
	if (!ev)
		ev = &local;
	emul_loop(&run, u, &a, false, 0, &err, &lf, ev);
	emul_stats_flush(&run.st);
	return err ? NULL : ev->next;
}
