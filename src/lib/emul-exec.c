/* emul-exec.c: the emul engine's atom loop: fetch, run, store, stop test and SKIP, as kernel/async.c did. */
#include <config.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "emul.h"
#include "emul-fault.h"
#include "interp.h"
#include "common/systab.h"

/*
 * How often the engine looks for pending signals.  One look is a
 * syscall (rt_sigpending), as dear as a cheap atom, so it is paid for out
 * of a budget: an atom that made a syscall costs EMUL_SIG_SYSCALL, any
 * other one 1.  That is a look every 64 syscall atoms (some microseconds:
 * at 32, the looks alone cost 3 ns of a 105 ns getppid atom; at 64, 1.5)
 * or every 256 umem_add atoms.  A call that may block runs with
 * the caller's signals open, so a signal interrupts it; it then ends the
 * chain at once.
 * After a call that can signal its own caller (kill(getpid(), ...)), and
 * after a system call that failed (a write to a closed pipe raises
 * SIGPIPE), the engine looks at once, so a signal the syslet raises itself
 * stops it exactly where the kernel would; one from outside is seen within
 * the budget, which from outside cannot be told from a signal that took a
 * few microseconds longer to arrive.  Whether a signal arrived is only
 * ever read from the signal state, never from an atom's result: a call
 * may well return -EINTR's value (umem_add counting down does).
 */
#define EMUL_SIG_BUDGET		INTERP_SIG_BUDGET
#define EMUL_SIG_SYSCALL	INTERP_SIG_SYSCALL

/* The rules themselves (copy_uatom, run_next_atom, sys_umem_add, the
 * signal test, the fast loop) are the interpreter's (interp.h), shared
 * with the uring engine; this file decides where a call runs. */
#define emul_fetch	interp_fetch
#define emul_goes_on	interp_goes_on
#define emul_umem	interp_umem

long emul_umem_add(unsigned long *p, unsigned long inc)
{
	return emul_umem(p, inc);
}

/* The counters of a chain still running are added to the statistics
 * every so many atoms (syslet_get_stats(3)): a syslet that loops in a
 * worker is seen to run, and is counted when a signal ends the program. */
#define EMUL_FLUSH_ATOMS	16384

/* signal_pending(): a signal arrived that the caller's own mask lets
 * through and that would act (interp_signal_pending).  Inline, the
 * caller's signals are blocked while the chain runs so that one that
 * arrives stays pending until we look; workers block everything and
 * carry the mask of the thread that called async_exec. */
static bool emul_signal_pending(struct emul_run *run)
{
	if (run->mode == EMUL_RUN_STEP)
		return false;
	/* A worker holds the process's signals back for the program's
	 * threads: only one sent to it ends its chain. */
	return interp_signal_pending_for(&run->user_mask,
					 run->mode == EMUL_RUN_WORKER);
}

/* A call that may block, run here: the caller's own signal mask is put
 * back around it so that a signal interrupts it as it would in the
 * kernel.  A call that ran with the caller's signals open fails with
 * EINTR only because a signal came (and its handler has run by now, so
 * it is no longer pending), and a wait for a child knows when the
 * child's SIGCHLD came with it (emul_block_open()): that is
 * run->interrupted, and the chain ends after this atom. */
static long emul_block_here(struct emul_run *run, const struct emul_atom *a,
			    enum emul_policy pol, long partial)
{
	struct timespec t0, t1;
	long ret;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t0);
	if (run->mode != EMUL_RUN_INLINE) {
		ret = emul_block_call(a, pol, partial,
				      run->mode == EMUL_RUN_WORKER ?
				      &run->user_mask : NULL);
	} else {
		bool intr;

		ret = emul_block_open(a, pol, partial, &run->user_mask, &intr);
		if (intr)
			run->interrupted = true;
	}
	/* A call that slept (the coarse clock ticked): the program ran
	 * meanwhile and may have replaced the fault handler. */
	clock_gettime(CLOCK_MONOTONIC_COARSE, &t1);
	if (t0.tv_nsec != t1.tv_nsec || t0.tv_sec != t1.tv_sec)
		emul_fault_own();
	return ret;
}

/* The signals a fault raises: the engine's handling needs them open. */
static void emul_sync_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGSEGV);
	sigaddset(set, SIGBUS);
	sigaddset(set, SIGFPE);
	sigaddset(set, SIGILL);
	sigaddset(set, SIGTRAP);
	sigaddset(set, SIGSYS);
}

/*
 * rt_sigprocmask() (or i386's older sigprocmask()) from an atom.  While
 * atoms run, the thread's own mask holds every signal back but the
 * synchronous ones, which the engine's fault handling needs; the caller's
 * mask is *@mask, and that is the one the atom changes, in the kernel's
 * order: the new set is read (-EFAULT), the change made (-EINVAL for a
 * bad @how), the old mask written (-EFAULT).  It takes effect for the
 * signal checks at once and in the thread when async_exec returns.
 * Without a caller's mask (@mask NULL: a step) the call is made, and the
 * synchronous signals opened again.
 */
long emul_atom_sigmask(sigset_t *mask, const struct emul_atom *a)
{
	/* The kernel's sigset: 64 bits, the first of glibc's sigset_t. */
	unsigned long cur[8 / sizeof(long)], set[8 / sizeof(long)];
	/* The calls' how is an int: the upper half is no part of it. */
	int how = (int)a->args[0];
	const unsigned long *setp = (const unsigned long *)a->args[1];
	unsigned long *oldp = (unsigned long *)a->args[2];
	bool rt = (long)a->nr == SYS_rt_sigprocmask;
	/* Words of the call's set: the old call has one (signals 1..32 on
	 * i386); the rest of the mask is left as it is. */
	unsigned int n = rt ? 8 / sizeof(long) : 1;

	if (!mask) {
		sigset_t sync;
		long r = emul_raw_syscall(a);

		emul_sync_signals(&sync);
		emul_sigmask(SIG_UNBLOCK, &sync, NULL);
		return r;
	}
	if (rt && a->args[3] != 8)
		return -EINVAL;
	memcpy(cur, mask, sizeof(cur));
	if (setp) {
		unsigned long now[8 / sizeof(long)];

		memcpy(now, cur, sizeof(now));
		for (unsigned int i = 0; i < n; i++)
			if (emul_get(&set[i], &setp[i]))
				return -EFAULT;
		for (unsigned int i = 0; i < n; i++) {
			switch (how) {
			case SIG_BLOCK:
				now[i] |= set[i];
				break;
			case SIG_UNBLOCK:
				now[i] &= ~set[i];
				break;
			case SIG_SETMASK:
				now[i] = set[i];
				break;
			default:
				return -EINVAL;
			}
		}
		/* SIGKILL and SIGSTOP are never blocked. */
		now[0] &= ~((1UL << (SIGKILL - 1)) | (1UL << (SIGSTOP - 1)));
		memcpy(mask, now, sizeof(now));
	}
	if (oldp)
		for (unsigned int i = 0; i < n; i++)
			if (emul_put(&oldp[i], cur[i]))
				return -EFAULT;
	return 0;
}

/*
 * __exec_atom(): returns the result; *store says whether it goes to
 * *ret_ptr (not for nr >= NR_syscalls, which the kernel answered before
 * storing).  Inline, an ASYNC atom, or one that would block (unless
 * SYNC), is handed to a worker if one is free; then run->handed_off.
 * *injected: the result is a rule's of syslet_set_inject(), the call was
 * not made.  That is decided where the atom runs, once: not again when
 * a worker resumes an atom whose attempt inline would have blocked.
 */
/* Counters of the loop, kept apart from *run so that they can live in
 * registers across the calls (a syscall clobbers memory). */
struct emul_ctr {
	struct emul_lstats	st;
	unsigned int		budget;
};

static inline __attribute__((always_inline)) long
emul_exec(struct emul_run *run, struct emul_ctr *c, struct syslet_uatom *u,
	  const struct emul_atom *a, long partial, bool resumed, bool *store,
	  bool *injected)
{
	struct emul_profile *prof = emul_prof;
	enum emul_policy pol;
	struct emul_try t;
	long ret;

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
	if (__builtin_expect(interp_inject_on(), 0) &&
	    (!resumed || !run->h_blocked) && interp_injected(a->nr, &ret)) {
		*injected = true;
		return ret;
	}
	pol = (enum emul_policy)(prof->policy[a->nr] & EMUL_P_MASK);
	if (prof->policy[a->nr] & EMUL_P_SIGCHECK)
		c->budget = 0;
	switch (pol) {
	case EMUL_P_UMEM:
		c->st.umem++;
		return emul_umem((unsigned long *)a->args[0], a->args[1]);
	case EMUL_P_DENY:
		c->st.denied++;
		return -EPERM;
	case EMUL_P_NONE:
		return -ENOSYS;
	case EMUL_P_ARGS:
		/* The deny list by argument: prctl(PR_SET_SECCOMP, ...). */
		if (systab_denied_args(prof->profile, (long)a->nr, a->args,
				       a->nargs)) {
			c->st.denied++;
			return -EPERM;
		}
		break;
	default:
		break;
	}
	/* A worker that could not take on the caller's credentials acts
	 * for nobody (emul.c, take_creds()). */
	if (__builtin_expect(run->creds_lost, 0)) {
		c->st.denied++;
		return -EPERM;
	}
	/* A resumed atom was counted by the attempt that blocked: one atom,
	 * one syscall, however many times the engine had to try it.  An
	 * async atom handed off before any attempt is counted here. */
	if (!resumed || !run->h_blocked)
		c->st.syscalls++;
	c->budget = c->budget > EMUL_SIG_SYSCALL ?
			  c->budget - (EMUL_SIG_SYSCALL - 1) : 0;
	/* Never blocks: the same call inline, SYNC or in a worker. */
	if (pol == EMUL_P_INLINE || pol == EMUL_P_ARGS) {
		run->pos_fd = -1;
		return emul_raw_syscall(a);
	}
	if (pol == EMUL_P_SIGACTION) {
		long r = emul_raw_syscall(a);

		/* It may have replaced the engine's fault handler: take it
		 * back, and keep what the atom set as the program's. */
		emul_fault_own();
		return r;
	}
	if (pol == EMUL_P_SIGMASK) {
		/* A signal it lets through ends the chain after it. */
		c->budget = 0;
		return emul_atom_sigmask(run->mode == EMUL_RUN_STEP ? NULL :
					 &run->user_mask, a);
	}
	/*
	 * A call that may wait, in a worker or where the chain must wait
	 * for it: what ran before it shows in the statistics first, as
	 * they are read while it waits (syslet-run --stats of a run that
	 * is killed then printed up to 255 atoms too few).
	 */
	if (run->mode != EMUL_RUN_INLINE || resumed) {
		run->pos_fd = -1;
		emul_stats_flush(&c->st);
		return emul_block_here(run, a, pol, partial);
	}
	if (a->flags & SYSLET_SYNC) {
		run->pos_fd = -1;
		emul_stats_flush(&c->st);
		return emul_block_here(run, a, pol, 0);
	}
	/* The file position is known when this chain opened the file and
	 * only read it since: a short read then tells the end of the file
	 * from the end of what is cached without another call. */
	t.pos = -1;
	t.mask = run->mode == EMUL_RUN_STEP ? NULL : &run->user_mask;
	if (pol == EMUL_P_READ && run->pos_fd >= 0 &&
	    (long)a->args[0] == run->pos_fd)
		t.pos = run->pos;
	run->pos_fd = -1;
	emul_try_call(a, pol, &t);
	if (!t.blocked) {
		if (pol == EMUL_P_OPEN && t.ret >= 0) {
			run->pos_fd = t.ret;
			run->pos = 0;
		} else if (t.pos >= 0 && t.ret >= 0) {
			run->pos_fd = (long)a->args[0];
			run->pos = t.pos + t.ret;
		}
		return t.ret;
	}
	run->h_uatom = u;
	run->h_atom = *a;
	run->h_partial = t.partial;
	run->h_blocked = true;
	if (emul_handoff(run))
		return 0;
	/* The pool is at its limit: like the kernel with no ready thread,
	 * block right here and go on synchronously. */
	emul_stats_flush(&c->st);
	return emul_block_here(run, a, pol, t.partial);
}

static void emul_event(struct emul_run *run, struct syslet_uatom *u,
		       const struct emul_atom *a, long ret, bool stored,
		       struct syslet_uatom *next, enum syslet_end end,
		       int marks, struct syslet_event *out)
{
	interp_event(u, a, ret, stored, next, end,
		     run->mode == EMUL_RUN_INLINE ? SYSLET_WHERE_INLINE :
		     run->mode == EMUL_RUN_WORKER ? SYSLET_WHERE_CACHEMISS :
						    SYSLET_WHERE_STEP,
		     marks, out);
}

/*
 * exec_atom(): the main loop.  @resume: *a is already fetched (a worker
 * picking up a handed-off syslet at its blocking atom, with @partial bytes
 * already moved).  Returns the last atom run; on a fault fetching an atom
 * *err = -EFAULT and the last atom that did run (NULL if none).
 */
/*
 * The common case with nobody tracing or stepping: atoms whose call never
 * blocks (or umem_add), one after the other, with the same fetch, store,
 * signal, stop and SKIP rules as the full loop below but nothing else, so
 * that a chain of cheap calls costs what the calls cost.  Returns the
 * last atom it ran; *done when the chain ended there, else *up is the
 * next atom, not yet run, for the full loop.
 */
static __attribute__((noinline)) struct syslet_uatom *
emul_fast(struct emul_run *run, struct emul_ctr *c, struct syslet_uatom **up,
	  unsigned long *last_flags, bool *done)
{
	struct interp_fast f;
	struct syslet_uatom *last;
	unsigned long n;

	f.tab = emul_prof->policy;
	f.nr_syscalls = emul_prof->nr_syscalls;
	f.user_mask = run->mode == EMUL_RUN_STEP ? NULL : &run->user_mask;
	f.own_only = run->mode == EMUL_RUN_WORKER;
	f.raised_only = false;
	f.limit = EMUL_FLUSH_ATOMS;
	f.up = *up;
	f.last_flags = *last_flags;
	f.budget = c->budget;
	f.nsys = f.numem = 0;
	last = interp_fast(&f);
	if (f.signalled) {
		c->st.sigstops++;
		run->sig_ended = true;
	}
	n = f.nsys + f.numem;
	if (f.nsys)
		run->pos_fd = -1;
	c->st.syscalls += f.nsys;
	c->st.umem += f.numem;
	c->st.atoms += n;
	if (run->mode == EMUL_RUN_WORKER)
		c->st.cm += n;
	else
		c->st.inl += n;
	c->budget = f.budget;
	*last_flags = f.last_flags;
	*up = f.up;
	*done = f.done;
	/* A long chain shows in the statistics while it runs. */
	if (!f.done && n >= EMUL_FLUSH_ATOMS)
		emul_stats_flush(&c->st);
	return last;
}

static inline __attribute__((always_inline)) struct syslet_uatom *
emul_loop_c(struct emul_run *run, struct emul_ctr *c, struct syslet_uatom *u,
	    struct emul_atom *a, bool resume, long partial, long *err,
	    unsigned long *last_flags, struct syslet_event *step_ev)
{
	struct syslet_uatom *last = NULL, *next;
	enum syslet_end end;
	bool stored;
	long ret;
	bool resumed;
	bool injected = false;
	bool fast = run->mode != EMUL_RUN_STEP && !step_ev &&
		    !interp_inject_on() &&
		    !__atomic_load_n(&emul_trace_fn, __ATOMIC_RELAXED);

	for (;;) {
		if (fast && !resume) {
			bool done;
			struct syslet_uatom *l;

			l = emul_fast(run, c, &u, last_flags, &done);
			if (l)
				last = l;
			if (done)
				return last;
		}
		if (!resume && emul_fetch(a, u)) {
			struct emul_atom z;

			memset(&z, 0, sizeof(z));
			c->st.faults++;
			if (emul_trace_fn || step_ev)
				emul_event(run, u, &z, -EFAULT, false, NULL,
					   SYSLET_END_FAULT, 0, step_ev);
			*err = -EFAULT;
			return last;
		}
		ret = emul_exec(run, c, u, a, partial, resume, &stored,
				&injected);
		resumed = resume;
		resume = false;
		partial = 0;
		if (run->handed_off)
			return NULL;
		last = u;
		*last_flags = a->flags;
		c->st.atoms++;
		if (run->mode == EMUL_RUN_WORKER)
			c->st.cm++;
		else
			c->st.inl++;
		if (stored && a->ret_ptr && emul_put(a->ret_ptr, (unsigned long)ret)) {
			ret = -EFAULT;
			stored = false;
		} else if (!a->ret_ptr) {
			stored = false;
		}
		/* A failed call may have raised a signal (SIGPIPE). */
		if (__builtin_expect((unsigned long)ret > -4096UL, 0) &&
		    a->nr != emul_prof->umem_nr)
			c->budget = 0;
		if (run->interrupted || (c->budget-- == 0 &&
					 (c->budget = EMUL_SIG_BUDGET,
					  emul_stats_flush(&c->st),
					  emul_signal_pending(run)))) {
			run->interrupted = false;
			run->sig_ended = true;
			c->st.sigstops++;
			next = NULL;
			end = SYSLET_END_SIGNAL;
		} else if (emul_goes_on(a->flags, ret)) {
			next = a->next;
			end = next ? SYSLET_END_NONE : SYSLET_END_NEXT;
		} else if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
			next = interp_after(u);
			end = SYSLET_END_NONE;
		} else {
			next = NULL;
			end = SYSLET_END_STOP;
		}
		if (__builtin_expect(emul_trace_fn != NULL || step_ev != NULL, 0))
			emul_event(run, u, a, ret, stored, next, end,
				   (resumed ? INTERP_EV_HANDOFF : 0) |
				   (injected ? INTERP_EV_INJECTED : 0),
				   step_ev);
		injected = false;
		if (!next || run->mode == EMUL_RUN_STEP)
			return last;
		u = next;
	}
}

static struct syslet_uatom *emul_loop(struct emul_run *run,
				      struct syslet_uatom *u,
				      struct emul_atom *a, bool resume,
				      long partial, long *err,
				      unsigned long *last_flags,
				      struct syslet_event *step_ev)
{
	struct emul_ctr c = { run->st, run->sig_budget };
	struct syslet_uatom *last;

	last = emul_loop_c(run, &c, u, a, resume, partial, err, last_flags,
			   step_ev);
	run->st = c.st;
	run->sig_budget = c.budget;
	return last;
}

struct syslet_uatom *emul_run_chain(struct emul_run *run,
				    struct syslet_uatom *u, long *err)
{
	struct emul_atom a;
	unsigned long lf = 0;
	struct syslet_uatom *last;

	run->sig_budget = EMUL_SIG_BUDGET;
	run->pos_fd = -1;
	last = emul_loop(run, u, &a, false, 0, err, &lf, NULL);
	return *err ? NULL : last;
}

struct syslet_uatom *emul_run_rest(struct emul_run *run, bool *no_complete)
{
	unsigned long lf = run->h_atom.flags;
	long err = 0;
	struct syslet_uatom *last;

	run->sig_budget = EMUL_SIG_BUDGET;
	run->pos_fd = -1;
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

	emul_fault_own();
	memset(&run, 0, sizeof(run));
	run.mode = EMUL_RUN_STEP;
	run.sig_budget = EMUL_SIG_BUDGET;
	run.pos_fd = -1;
	if (!ev)
		ev = &local;
	emul_loop(&run, u, &a, false, 0, &err, &lf, ev);
	emul_stats_flush(&run.st);
	return err ? NULL : ev->next;
}
