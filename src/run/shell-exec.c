/* shell-exec.c: running atoms for the shell: whole chains through async_exec, single atoms through syslet_step. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run/run.h"
#include "run/trace.h"
#include "run/shell-exec.h"

/*
 * Events come from the calling thread and from cachemiss workers, also
 * after async_exec returned: the observer stays installed for the whole
 * session and records into sh->exec only while that is set.  The session
 * is found through shl_exec_sh, not the observer's context, so that a
 * worker still running at the end finds none.
 */
static pthread_mutex_t shl_exec_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shell *shl_exec_sh;
/* The trampolines run since the session began or stats reset: the
 * engine's counters do not know the compiler's roles; --stats counts
 * them in its observer the same way. */
static unsigned long long shl_trampolines;

/*
 * Chains that went async and were not waited for: a worker may still run
 * their instances, which are freed (with the program they belong to)
 * only once their last atom ran.  The observer sees that atom.  Global,
 * so that instances still running when the session ends stay reachable
 * until the process exits.
 */
struct shl_flight {
	struct syslet_inst	*inst;
	struct shl_prog		*prog;	/* a reference, once kept */
	bool			done;	/* its last atom ran */
	int			tid;	/* the worker of its last atom */
	bool			signalled;
	/* The atom it runs (or is blocked in): the next of its last
	 * event; NULL where no event told (shl_exec_keep). */
	const struct syslet_uatom *at;
};

static struct shl_flight *shl_flights;
static size_t shl_nflights;

static struct shl_flight *shl_flight_of(const struct syslet_uatom *atom)
{
	size_t i;

	for (i = 0; i < shl_nflights; i++)
		if (syslet_inst__atom_index(shl_flights[i].inst, atom) >= 0)
			return &shl_flights[i];
	return NULL;
}

static struct shl_flight *shl_flight_add_locked(struct syslet_inst *inst,
						bool done)
{
	struct shl_flight *f = realloc(shl_flights, (shl_nflights + 1) *
					       sizeof(*f));

	if (!f)
		shl_oom();
	shl_flights = f;
	f = &shl_flights[shl_nflights++];
	memset(f, 0, sizeof(*f));
	f->inst = inst;
	f->done = done;
	return f;
}

void shl_print_event(struct shell *sh, FILE *out, struct syslet_inst *inst,
		     const struct syslet_event *ev)
{
	SYSLET_OPTS(syslet_atom_info, ai);
	bool have = inst && syslet_inst__atom_info(inst, ev->atom, &ai) == 0;

	(void)sh;
	/* Atoms of a program: the line --trace prints. */
	if (!have || !ai.source || strcmp(ai.source, SHL_INPUT) != 0) {
		srun_trace_line(out, inst, -1, ev);
		return;
	}
	/* A statement typed at the prompt: no file or atom to point to. */
	if (ev->end == SYSLET_END_FAULT) {
		srun_print_fault(out);
		return;
	}
	/* The session's variables by name, as in a program's trace. */
	srun_print_call(out, inst, ev);
	fputs(" = ", out);
	syslet_print_result(out, ev);
	fputs(ev->injected ? " (INJECTED)" : "", out);
	if (ev->where == SYSLET_WHERE_CACHEMISS)
		fputs(" <cachemiss>", out);
	if (ev->handoff)
		fputs(" <went async>", out);
	if (ev->end == SYSLET_END_SIGNAL)
		fputs(" <stopped by a signal>", out);
	fputc('\n', out);
}

static void shl_exec_on_event(const struct syslet_event *ev, void *ctx)
{
	struct shell *sh;
	struct shl_exec *x;
	struct shl_flight *f;
	struct syslet_inst *inst = NULL;
	SYSLET_OPTS(syslet_atom_info, ai);

	(void)ctx;
	pthread_mutex_lock(&shl_exec_lock);
	sh = shl_exec_sh;
	if (!sh) {
		pthread_mutex_unlock(&shl_exec_lock);
		return;
	}
	f = shl_nflights ? shl_flight_of(ev->atom) : NULL;
	if (f) {
		inst = f->inst;
		f->tid = ev->tid;
		f->at = ev->next;
		if (ev->end != SYSLET_END_NONE)
			f->done = true;
	}
	x = sh->exec;
	if (x && syslet_inst__atom_index(x->inst, ev->atom) >= 0) {
		inst = x->inst;
		x->last = *ev;
		x->at = ev->next;
		if (ev->end != SYSLET_END_NONE)
			x->done = true;
		x->have_last = true;
		if (syslet_inst__atom_info(x->inst, ev->atom, &ai) == 0 &&
		    ai.role == SYSLET_ROLE_CALL) {
			x->last_call = *ev;
			x->have_call = true;
		}
	}
	if (inst && ev->end != SYSLET_END_UNFINISHED &&
	    syslet_inst__atom_info(inst, ev->atom, &ai) == 0 &&
	    ai.role == SYSLET_ROLE_TRAMPOLINE)
		shl_trampolines++;
	/* The line names the instance whose atom it is: a syslet that
	 * went async reports after its run has ended (sh->exec NULL), or
	 * while a later one runs. */
	if (shl_traced(sh, ev) && !sh->stepping) {
		flockfile(sh->out);
		shl_print_event(sh, sh->out, inst, ev);
		funlockfile(sh->out);
	}
	pthread_mutex_unlock(&shl_exec_lock);
}

unsigned long long shl_exec_trampolines(bool reset)
{
	unsigned long long n;

	pthread_mutex_lock(&shl_exec_lock);
	n = shl_trampolines;
	if (reset)
		shl_trampolines = 0;
	pthread_mutex_unlock(&shl_exec_lock);
	return n;
}

void shl_exec_init(struct shell *sh)
{
	pthread_mutex_lock(&shl_exec_lock);
	shl_exec_sh = sh;
	pthread_mutex_unlock(&shl_exec_lock);
	syslet_set_trace(shl_exec_on_event, NULL);
}

void shl_exec_fini(struct shell *sh)
{
	pthread_mutex_lock(&shl_exec_lock);
	syslet_set_trace(NULL, NULL);
	sh->exec = NULL;
	shl_exec_sh = NULL;
	pthread_mutex_unlock(&shl_exec_lock);
}

void shl_exec_keep(struct syslet_inst *inst, struct shl_prog *prog)
{
	struct shl_flight *f;
	size_t i;

	pthread_mutex_lock(&shl_exec_lock);
	for (i = 0, f = NULL; !f && i < shl_nflights; i++)
		if (shl_flights[i].inst == inst)
			f = &shl_flights[i];
	/* Not seen going async: assume it runs. */
	if (!f)
		f = shl_flight_add_locked(inst, false);
	if (!f->prog)
		f->prog = shl_prog_get(prog);
	pthread_mutex_unlock(&shl_exec_lock);
}

struct syslet_inst *shl_exec_kept(const struct syslet_uatom *atom)
{
	struct shl_flight *f;

	pthread_mutex_lock(&shl_exec_lock);
	f = shl_flight_of(atom);
	pthread_mutex_unlock(&shl_exec_lock);
	return f ? f->inst : NULL;
}

/*
 * How many kept chains may still run: not seen ending, no completion of
 * theirs in the ring (a backend without observers shows only that).
 * With stop, a signal goes to the worker of each, once its worker is
 * known: the engine ends the chain before its next atom, as the kernel
 * does; one blocked in a call that no signal interrupts runs on.
 */
static size_t shl_running(const struct syslet_ring *ring, bool stop)
{
	size_t i, n = 0;

	pthread_mutex_lock(&shl_exec_lock);
	for (i = 0; i < shl_nflights; i++) {
		struct shl_flight *f = &shl_flights[i];

		if (!f->done && ring && shl_ring_find(ring, f->inst) >= 0)
			f->done = true;
		if (f->done)
			continue;
		n++;
		if (stop && f->tid > 0 && !f->signalled) {
			syscall(SYS_tgkill, getpid(), f->tid, SIGINT);
			f->signalled = true;
		}
	}
	pthread_mutex_unlock(&shl_exec_lock);
	return n;
}

size_t shl_exec_end_flights(struct shell *sh, const struct syslet_ring *ring)
{
	const struct timespec tick = { 0, 10000000 };
	size_t n = shl_running(ring, false), left;
	unsigned int waited;

	if (!n)
		return 0;
	fprintf(sh->err, "%s: %zu syslet%s still running in a worker; "
		"stopping %s\n", sh->prog, n, n == 1 ? "" : "s",
		n == 1 ? "it" : "them");
	/* A second at most: a worker not known yet shows in its events. */
	for (waited = 0; (left = shl_running(ring, true)) && waited < 100;
	     waited++)
		nanosleep(&tick, NULL);
	if (left)
		fprintf(sh->err, "%s: %zu syslet%s blocked in a system call; "
			"%s with the process\n", sh->prog, left,
			left == 1 ? "" : "s", left == 1 ? "it ends" : "they end");
	return left;
}

void shl_exec_info(struct shell *sh, const struct syslet_ring *ring)
{
	size_t i, n;

	/* Those whose completion is in the ring have ended. */
	shl_running(ring, false);
	pthread_mutex_lock(&shl_exec_lock);
	for (i = n = 0; i < shl_nflights; i++)
		n += !shl_flights[i].done;
	if (!n)
		fputs("in flight: none\n", sh->out);
	else
		fprintf(sh->out, "in flight: %zu syslet%s (wait, ring)\n", n,
			n == 1 ? "" : "s");
	for (i = 0; i < shl_nflights; i++) {
		const struct shl_flight *f = &shl_flights[i];
		SYSLET_OPTS(syslet_atom_info, ai);

		if (f->done)
			continue;
		/* The atom it is at, as break and step name atoms. */
		if (!f->at || syslet_inst__atom_info(f->inst, f->at, &ai)) {
			fputs("  at an atom not known yet\n", sh->out);
			continue;
		}
		/* A statement typed at the prompt: its line and atom are
		 * those of the shell's wrapper, which mean nothing. */
		if (ai.source && !strcmp(ai.source, SHL_INPUT) && ai.text) {
			fprintf(sh->out, "  typed at the prompt: %s\n", ai.text);
			continue;
		}
		fprintf(sh->out, "  [%zu]", ai.index);
		if (ai.syscall)
			fprintf(sh->out, " %s", ai.syscall);
		if (ai.line)
			fprintf(sh->out, " (%s:%u%s%s)", ai.source ? ai.source : "",
				ai.line, ai.text ? ": " : "",
				ai.text ? ai.text : "");
		fputc('\n', sh->out);
	}
	pthread_mutex_unlock(&shl_exec_lock);
}

void shl_exec_free_flights(bool all)
{
	size_t i, k = 0;

	pthread_mutex_lock(&shl_exec_lock);
	for (i = 0; i < shl_nflights; i++) {
		struct shl_flight *f = &shl_flights[i];

		if (all || f->done) {
			syslet_inst__free(f->inst);
			shl_prog_free(f->prog);
		} else {
			/* Left to the process's exit, still reachable. */
			shl_flights[k++] = *f;
		}
	}
	shl_nflights = k;
	if (!k) {
		free(shl_flights);
		shl_flights = NULL;
	}
	pthread_mutex_unlock(&shl_exec_lock);
}

static void shl_exec_begin(struct shell *sh, struct shl_exec *x,
			   struct syslet_inst *inst)
{
	memset(x, 0, sizeof(*x));
	x->inst = inst;
	pthread_mutex_lock(&shl_exec_lock);
	sh->exec = x;
	pthread_mutex_unlock(&shl_exec_lock);
}

static void shl_exec_end(struct shell *sh, struct shl_exec *x)
{
	pthread_mutex_lock(&shl_exec_lock);
	sh->exec = NULL;
	/* From here on its events go to its flight: none is missed. */
	if (x->async)
		shl_flight_add_locked(x->inst, x->done)->at = x->at;
	pthread_mutex_unlock(&shl_exec_lock);
}

long shl_ring_find(const struct syslet_ring *ring,
		   const struct syslet_inst *inst)
{
	unsigned long i;

	for (i = 0; i < ring->entries; i++)
		if (ring->slots[i] &&
		    syslet_inst__atom_index(inst, ring->slots[i]) >= 0)
			return (long)i;
	return -1;
}

static bool shl_exec_done(struct shl_exec *x)
{
	bool done;

	pthread_mutex_lock(&shl_exec_lock);
	done = x->done;
	pthread_mutex_unlock(&shl_exec_lock);
	return done;
}

/* Wait for a chain that went async: its last event, then its slot (the
 * engine fills the slot after reporting the atom). */
static void shl_exec_wait(struct shell *sh, struct shl_exec *x,
			  struct syslet_ring *ring)
{
	const struct timespec ms = { 0, 1000000 };
	unsigned int tries = 0;
	long slot;

	for (;;) {
		bool done = shl_exec_done(x);

		slot = shl_ring_find(ring, x->inst);
		if (slot >= 0) {
			x->end = ring->slots[slot];
			ring->slots[slot] = NULL;
			x->async = false;
			return;
		}
		if (shl_interrupted) {
			x->interrupted = true;
			return;
		}
		if (done) {
			/* nocomplete: nothing will come. */
			if ((x->last.flags & SYSLET_NO_COMPLETE) ||
			    ++tries > 1000) {
				x->async = false;
				return;
			}
			nanosleep(&ms, NULL);
			continue;
		}
		if (sys_async_wait(1) < 0 && errno != EINTR) {
			shl_error(sh, "async_wait: %s", strerror(errno));
			return;
		}
	}
}

int shl_exec_chain(struct shell *sh, struct shl_exec *x,
		   struct syslet_inst *inst, struct syslet_uatom *atom,
		   bool wait)
{
	struct syslet_ring *ring = shl_ring(sh);
	int err;

	memset(x, 0, sizeof(*x));
	if (!ring)
		return -1;
	shl_exec_begin(sh, x, inst);
	x->at = atom;	/* until an event says where it went */
	shl_interrupted = 0;
	errno = 0;
	x->end = sys_async_exec(atom);
	err = x->end ? 0 : errno;
	if (!x->end && err) {
		shl_exec_end(sh, x);
		shl_error(sh, "async_exec: %s", strerror(err));
		return -1;
	}
	x->async = x->went_async = x->end == NULL;
	if (x->async && wait)
		shl_exec_wait(sh, x, ring);
	shl_exec_end(sh, x);
	x->interrupted = x->interrupted || shl_interrupted != 0;
	shl_interrupted = 0;
	return 0;
}

struct syslet_uatom *shl_exec_step(struct shell *sh, struct shl_exec *x,
				   struct syslet_inst *inst,
				   struct syslet_uatom *atom)
{
	struct syslet_uatom *next;

	memset(x, 0, sizeof(*x));
	x->inst = inst;
	x->last.sz = sizeof(x->last);
	sh->stepping = true;
	next = syslet_step(atom, &x->last);
	sh->stepping = false;
	x->have_last = true;
	x->end = atom;
	return next;
}

void shl_exec_steps(struct shell *sh, struct shl_exec *x,
		    struct syslet_inst *inst, struct syslet_uatom *atom)
{
	SYSLET_OPTS(syslet_atom_info, ai);
	struct shl_exec one;

	memset(x, 0, sizeof(*x));
	x->inst = inst;
	shl_interrupted = 0;
	while (atom) {
		if (shl_interrupted) {
			x->interrupted = true;
			break;
		}
		atom = shl_exec_step(sh, &one, inst, atom);
		x->last = one.last;
		x->have_last = true;
		x->end = one.end;
		if (syslet_inst__atom_info(inst, one.last.atom, &ai) == 0 &&
		    ai.role == SYSLET_ROLE_CALL) {
			x->last_call = one.last;
			x->have_call = true;
		}
		if (shl_traced(sh, &one.last))
			shl_print_event(sh, sh->out, inst, &one.last);
	}
	x->done = true;
	x->interrupted = x->interrupted || one.last.end == SYSLET_END_SIGNAL;
	shl_interrupted = 0;
}
