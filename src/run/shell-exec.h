/* shell-exec.h: how the shell runs atoms: whole chains as a full run does, or one atom at a time. */
#ifndef SYSLET_RUN_SHELL_EXEC_H
#define SYSLET_RUN_SHELL_EXEC_H

#include "libsyslet.h"
#include "run/shell-prog.h"

/* What one execution did, as seen through the engine's trace events. */
struct shl_exec {
	struct syslet_inst	*inst;
	struct syslet_event	last;		/* the last atom that ran */
	struct syslet_event	last_call;	/* the last of role "call" */
	bool			have_last, have_call;
	struct syslet_uatom	*end;	/* async_exec's answer */
	struct syslet_uatom	*at;	/* the atom it runs next */
	bool			async;	/* went to a cachemiss worker */
	bool			went_async;	/* async_exec returned NULL */
	bool			done;	/* its last atom ran */
	bool			interrupted;	/* Ctrl-C while it ran */
};

/* Observe the engine for the session (trace on prints every atom). */
/* Trampoline atoms run since the start or the last reset (@reset: zero
 * the count after reading it). */
unsigned long long shl_exec_trampolines(bool reset);
void shl_exec_init(struct shell *sh);
void shl_exec_fini(struct shell *sh);

/* A chain that went async and was not waited for: its instance (and a
 * reference to prog) is kept until nothing runs in it. */
void shl_exec_keep(struct syslet_inst *inst, struct shl_prog *prog);
/* The kept instance that atom belongs to, or NULL. */
struct syslet_inst *shl_exec_kept(const struct syslet_uatom *atom);
/* At the end of the session: stop the kept chains still running (a
 * signal to their worker); the number that would not stop (blocked in a
 * call), said on sh->err.  ring: the session's, or NULL. */
size_t shl_exec_end_flights(struct shell *sh, const struct syslet_ring *ring);
/* For `info`: how many kept chains still run, and the atom each is at
 * (the call it is blocked in). */
void shl_exec_info(struct shell *sh, const struct syslet_ring *ring);
/* Free the kept instances that ended (all: every one, nothing runs). */
void shl_exec_free_flights(bool all);

/* Hand the chain from atom to sys_async_exec, exactly as a full run does
 * (registering the session's ring first).  With wait, a chain that went
 * async is waited for (Ctrl-C stops waiting) and its completion taken
 * out of the ring.  0, or -1 (message printed). */
int shl_exec_chain(struct shell *sh, struct shl_exec *x,
		   struct syslet_inst *inst, struct syslet_uatom *atom,
		   bool wait);
/* The whole chain from atom through shl_exec_step(), in this thread, so
 * that Ctrl-C interrupts a blocking call (-EINTR) or stops the chain
 * before its next atom; trace on prints every atom. */
void shl_exec_steps(struct shell *sh, struct shl_exec *x,
		    struct syslet_inst *inst, struct syslet_uatom *atom);
/* The ring slot holding an atom of inst, or -1. */
long shl_ring_find(const struct syslet_ring *ring,
		   const struct syslet_inst *inst);
/* Run one atom with syslet_step(): the same fetch, stop and skip logic,
 * synchronously.  Returns the next atom, NULL at the end (x->last.end
 * says why). */
struct syslet_uatom *shl_exec_step(struct shell *sh, struct shl_exec *x,
				   struct syslet_inst *inst,
				   struct syslet_uatom *atom);

#endif /* SYSLET_RUN_SHELL_EXEC_H */
