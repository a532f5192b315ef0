/* shell-exec.c: running atoms for the shell: whole chains through async_exec, single atoms through syslet_step. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "common/systab.h"
#include "run/decode.h"
#include "run/run.h"
#include "run/trace.h"
#include "run/shell-exec.h"

/*
 * Events come from the calling thread and from cachemiss workers, also
 * after async_exec returned: the observer stays installed for the whole
 * session and records into sh->exec only while that is set.
 */
static pthread_mutex_t shl_exec_lock = PTHREAD_MUTEX_INITIALIZER;

void shl_print_event(struct shell *sh, FILE *out, struct syslet_inst *inst,
		     const struct syslet_event *ev)
{
	struct syslet_atom_info ai;
	bool have = inst && syslet_inst__atom_info(inst, ev->atom, &ai) == 0;
	const char *name;
	char res[64];

	(void)sh;
	/* Atoms of a program: the line --trace prints. */
	if (!have || !ai.source || strcmp(ai.source, SHL_INPUT) != 0) {
		srun_trace_line(out, inst, -1, ev);
		return;
	}
	/* A statement typed at the prompt: no file or atom to point to. */
	if (ev->end == SYSLET_END_FAULT) {
		fputs("<fault: the atom or an argument is unreadable> = "
		      "-14 EFAULT\n", out);
		return;
	}
	name = srun_call_name(ev->nr);
	srun_decode_call(out, name, (long)ev->nr, ev->args, (int)ev->nargs,
			 ev->ret);
	srun_format_result(res, sizeof(res), ev->ret, srun_is_call(ev->nr));
	fprintf(out, " = %s", res);
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
	struct shell *sh = ctx;
	struct shl_exec *x;
	struct syslet_atom_info ai;

	pthread_mutex_lock(&shl_exec_lock);
	x = sh->exec;
	if (x && syslet_inst__atom_index(x->inst, ev->atom) >= 0) {
		x->last = *ev;
		if (ev->end != SYSLET_END_NONE)
			x->done = true;
		x->have_last = true;
		if (syslet_inst__atom_info(x->inst, ev->atom, &ai) == 0 &&
		    ai.role == SYSLET_ROLE_CALL) {
			x->last_call = *ev;
			x->have_call = true;
		}
	}
	if (sh->trace && !sh->stepping) {
		flockfile(sh->out);
		shl_print_event(sh, sh->out, x ? x->inst : NULL, ev);
		funlockfile(sh->out);
	}
	pthread_mutex_unlock(&shl_exec_lock);
}

void shl_exec_init(struct shell *sh)
{
	syslet_set_trace(shl_exec_on_event, sh);
}

void shl_exec_fini(struct shell *sh)
{
	pthread_mutex_lock(&shl_exec_lock);
	syslet_set_trace(NULL, NULL);
	sh->exec = NULL;
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

static void shl_exec_end(struct shell *sh)
{
	pthread_mutex_lock(&shl_exec_lock);
	sh->exec = NULL;
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
	shl_interrupted = 0;
	errno = 0;
	x->end = sys_async_exec(atom);
	err = x->end ? 0 : errno;
	if (!x->end && err) {
		shl_exec_end(sh);
		shl_error(sh, "async_exec: %s", strerror(err));
		return -1;
	}
	x->async = x->end == NULL;
	if (x->async && wait)
		shl_exec_wait(sh, x, ring);
	shl_exec_end(sh);
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
	struct syslet_atom_info ai;
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
		if (sh->trace)
			shl_print_event(sh, sh->out, inst, &one.last);
	}
	x->done = true;
	x->interrupted = x->interrupted || one.last.end == SYSLET_END_SIGNAL;
	shl_interrupted = 0;
}
