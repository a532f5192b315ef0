/* trace.c: syslet-run --trace and --stats, built on the engine's observer and counters. */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace.h"
#include "qualify.h"

struct slot {
	const struct syslet_inst	*inst;
	int				tag;
	/* Entered (the syslet went async there), not yet resumed. */
	const struct syslet_uatom	*pending;
	struct syslet_event		pending_ev;
	/* The atom its syslet runs next, seen by no event yet: after it
	 * went async, the call a worker or the ring is blocked in. */
	const struct syslet_uatom	*cur;
	double				t_last;	/* -T: its last event */
	/* Its last atom that ended, when --inject chose its result. */
	const struct syslet_uatom	*injected;
	/* Its last atom that ended, and the number it ran with: the
	 * atom's nr may hold another since (one it wrote itself). */
	const struct syslet_uatom	*ended;
	unsigned long			ended_nr;
	bool				final;	/* ended ended the syslet */
};

/* One row of --stats's table, strace -c's: a call by its number. */
struct callstat {
	unsigned long		nr;
	unsigned long long	calls, errors;
	double			secs;
};

struct srun_trace {
	const struct srun_opts	*opts;
	struct callstat		*calls;	/* --stats: the table's rows */
	size_t			ncalls, calls_cap;
	struct slot		*slots;
	struct srun_span	*spans;	/* event -> slot */
	size_t			nspans;
	size_t			nr;
	pthread_mutex_t		lock;	/* workers report too */
	unsigned long long	trampolines;
	unsigned long long	strays;
	double			t_prev;	/* -r: the previous line; 0: none */
	bool			closed;	/* the tail is out: no more lines */
	bool			cut;	/* srun_trace_cut(): no more events */
	/* Whose line is out up to its entered part ("read(3, "): ended by
	 * its result when nothing comes between, as strace does. */
	struct slot		*open;
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct slot *slot_of(const struct srun_trace *tr, const void *atom)
{
	long i = srun_span_find(tr->spans, tr->nspans, atom);

	return i < 0 ? NULL : &tr->slots[i];
}

static void print_next(FILE *out, const struct syslet_inst *inst,
		       const struct syslet_event *ev)
{
	long i;

	switch (ev->end) {
	case SYSLET_END_NONE:
		i = syslet_inst__atom_index(inst, ev->next);
		if (i >= 0)
			fprintf(out, " -> [%ld]", i);
		else
			fprintf(out, " -> %p", (void *)ev->next);
		break;
	case SYSLET_END_NEXT:
		fputs(" -> end", out);
		break;
	case SYSLET_END_STOP:
		fputs(" -> stop", out);
		break;
	case SYSLET_END_SIGNAL:
		fputs(" -> stopped by a signal", out);
		break;
	case SYSLET_END_FAULT:
		fputs(" -> fault", out);
		break;
	case SYSLET_END_UNFINISHED:
		break;
	}
}

/* "#TAG STAMP FILE:LINE [INDEX] ": the instance, as strace names the
 * pid, then the atom. */
static void prefix(FILE *out, const struct syslet_inst *inst, int tag,
		   const char *stamp, const struct syslet_uatom *atom)
{
	SYSLET_OPTS(syslet_atom_info, ai);

	if (tag >= 0)
		fprintf(out, "#%d ", tag);
	if (stamp)
		fputs(stamp, out);
	if (!inst || syslet_inst__atom_info(inst, atom, &ai)) {
		fprintf(out, "%p ", (void *)atom);
		return;
	}
	if (ai.line)
		fprintf(out, "%s:%u ", ai.source ? ai.source : "?", ai.line);
	fprintf(out, "[%zu] ", ai.index);
}

/* The variable of @inst at @addr, as the listing names it (&n, not
 * &count.n), or NULL: a scratch cell, or not one of the instance's. */
static const char *cell_at(const struct syslet_inst *inst, unsigned long addr)
{
	const char *name = syslet_inst__cell_at(inst, (const void *)addr);
	const char *dot = name ? strchr(name, '.') : NULL;

	return dot ? dot + 1 : name;
}

/* The buffer or data object of @inst holding @addr, and how far into
 * it, or NULL: the listing names a copy's word so (fds, bb+2). */
static const char *object_at(const struct syslet_inst *inst,
			     unsigned long addr, unsigned long *off)
{
	const struct syslet_obj *obj = syslet_inst__obj(inst);
	size_t i, n = obj ? syslet_obj__sym_count(obj) : 0;

	for (i = 0; i < n; i++) {
		SYSLET_OPTS(syslet_sym_info, si);
		size_t size;
		char *base;

		if (syslet_obj__sym_info(obj, i, &si) ||
		    (si.kind != SYSLET_SYM_BUFFER &&
		     si.kind != SYSLET_SYM_DATA))
			continue;
		/* Looking up never changes the instance. */
		base = syslet_inst__object((struct syslet_inst *)inst,
					   si.name, &size);
		if (base && addr >= (unsigned long)base &&
		    addr - (unsigned long)base < size) {
			*off = addr - (unsigned long)base;
			return si.name;
		}
	}
	return NULL;
}

/* A word that has no symbol, the scratch word a narrow element is
 * widened into, by the name the compiler gave the atom's pointer, as the
 * listing shows it: umem_add(&c[0], 0).  False without one. */
static bool print_umem_hidden(FILE *out, const struct syslet_inst *inst,
			      const struct syslet_event *ev)
{
	SYSLET_OPTS(syslet_atom_info, ai);

	if (syslet_inst__atom_info(inst, ev->atom, &ai) || !ai.arg_name[0])
		return false;
	fprintf(out, "umem_add(%s, %ld)", ai.arg_name[0], (long)ev->args[1]);
	return true;
}

/* umem_add(&n, -1) where the listing says so, instead of the address
 * strace would print: the trace knows the image's names; a word inside
 * a buffer or data object (a narrow element's copy) as the listing
 * names it, umem_add(fds+4, 0).  False when the word has no name. */
static bool print_umem_add(FILE *out, const struct syslet_inst *inst,
			   const struct syslet_event *ev)
{
	long umem = syslet_sysno(SYSLET_CALL_UMEM_ADD);
	const char *name;
	unsigned long off;

	if (!inst || umem < 0 || ev->nr != (unsigned long)umem ||
	    ev->nargs < 2)
		return false;
	if ((name = cell_at(inst, ev->args[0]))) {
		fprintf(out, "umem_add(&%s, %ld)", name, (long)ev->args[1]);
		return true;
	}
	/* A scratch copy (&%2) or a constant (&0), as the listing has it. */
	if ((name = syslet_inst__cell_label(inst, (const void *)ev->args[0]))) {
		fprintf(out, "umem_add(&%s, %ld)", name, (long)ev->args[1]);
		return true;
	}
	if (!(name = object_at(inst, ev->args[0], &off)))
		return print_umem_hidden(out, inst, ev);
	if (off)
		fprintf(out, "umem_add(%s+%lu, %ld)", name, off,
			(long)ev->args[1]);
	else
		fprintf(out, "umem_add(%s, %ld)", name, (long)ev->args[1]);
	return true;
}

void srun_print_fault(FILE *out)
{
	fputs("<fault: the atom or an argument is unreadable> = -14 EFAULT\n",
	      out);
}

void srun_print_call(FILE *out, const struct syslet_inst *inst,
		     const struct syslet_event *ev)
{
	if (!print_umem_add(out, inst, ev))
		syslet_print_call(out, ev, SYSLET_PRINT_WHOLE);
}

/*
 * One line for @ev, or the part of it @part says (syslet_print_call(3));
 * the prefix only where the line starts.  @dt: -T's time, or negative.
 */
static void line(FILE *out, const struct syslet_inst *inst, int tag,
		 const char *stamp, const struct syslet_event *ev,
		 enum syslet_print_part part, double dt)
{
	const char *where;

	if (part != SYSLET_PRINT_CONT)
		prefix(out, inst, tag, stamp, ev->atom);
	if (ev->end == SYSLET_END_FAULT) {
		srun_print_fault(out);
		return;
	}
	/* The call the atom made: its number as fetched, whatever the
	 * debug records say it was compiled as. */
	if (part != SYSLET_PRINT_WHOLE)
		syslet_print_call(out, ev, part);
	else
		srun_print_call(out, inst, ev);
	if (part == SYSLET_PRINT_ENTER)
		return;
	fputs(" = ", out);
	syslet_print_result(out, ev);
	where = ev->where == SYSLET_WHERE_CACHEMISS ? "cachemiss" :
		ev->where == SYSLET_WHERE_STEP ? "step" : "inline";
	/* (INJECTED) as strace marks a tampered call; went async where the
	 * call is on one line, the unfinished line says it otherwise. */
	fprintf(out, "%s <%s%s>", ev->injected ? " (INJECTED)" : "",
		where, ev->handoff && part != SYSLET_PRINT_EXIT ?
		", went async" : "");
	print_next(out, inst, ev);
	if (dt >= 0)
		fprintf(out, " <%.6f>", dt);
	fputc('\n', out);
}

void srun_trace_line(FILE *out, const struct syslet_inst *inst, int tag,
		     const struct syslet_event *ev)
{
	if (ev->end == SYSLET_END_UNFINISHED) {
		line(out, inst, tag, NULL, ev, SYSLET_PRINT_ENTER, -1);
		fputs(" <unfinished ...>\n", out);
	} else {
		line(out, inst, tag, NULL, ev, SYSLET_PRINT_WHOLE, -1);
	}
}

/* -t, -tt, -ttt and -r, as strace writes them ("12:00:01 ",
 * "    0.000123 ", both: "12:00:01 (+     0.000123) "); NULL: none. */
static const char *stamp(struct srun_trace *tr, char *buf, size_t len)
{
	const struct srun_opts *o = tr->opts;
	struct timespec ts;
	struct tm tm;
	double rel = 0;
	int k = 0;

	if (!o->timestamps && !o->relative)
		return NULL;
	if (o->relative) {
		double now = mono();

		/* The first line has none before it: 0, as strace -r's. */
		rel = tr->t_prev ? now - tr->t_prev : 0;
		tr->t_prev = now;
	}
	if (o->timestamps) {
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		if (o->timestamps >= 3)
			k = snprintf(buf, len, "%lld.%06ld ",
				     (long long)ts.tv_sec, ts.tv_nsec / 1000);
		else if (o->timestamps == 2)
			k = snprintf(buf, len, "%02d:%02d:%02d.%06ld ",
				     tm.tm_hour, tm.tm_min, tm.tm_sec,
				     ts.tv_nsec / 1000);
		else
			k = snprintf(buf, len, "%02d:%02d:%02d ", tm.tm_hour,
				     tm.tm_min, tm.tm_sec);
	}
	if (o->relative && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k,
			 o->timestamps ? "(+%12.6f) " : "%12.6f ", rel);
	return buf;
}

/* Another line comes: the one left open is unfinished. */
static void end_open(struct srun_trace *tr)
{
	if (!tr->open)
		return;
	fputs(" <unfinished ...>\n", stderr);
	tr->open = NULL;
}

/* Count @ev's call, which took @dt seconds, into the table (under the
 * lock); a row that cannot be had is left out, the counters still run. */
static void count_call(struct srun_trace *tr, const struct syslet_event *ev,
		       double dt)
{
	long umem = syslet_sysno(SYSLET_CALL_UMEM_ADD);
	struct callstat *c = NULL;

	for (size_t i = 0; i < tr->ncalls; i++)
		if (tr->calls[i].nr == ev->nr) {
			c = &tr->calls[i];
			break;
		}
	if (!c) {
		if (tr->ncalls == tr->calls_cap) {
			size_t cap = tr->calls_cap ? tr->calls_cap * 2 : 16;
			struct callstat *n = realloc(tr->calls,
						     cap * sizeof(*n));

			if (!n)
				return;
			tr->calls = n;
			tr->calls_cap = cap;
		}
		c = &tr->calls[tr->ncalls++];
		memset(c, 0, sizeof(*c));
		c->nr = ev->nr;
	}
	c->calls++;
	c->secs += dt > 0 ? dt : 0;
	/* umem_add's results are values, never errors. */
	if (ev->ret < 0 && ev->ret > -4096 &&
	    !(umem >= 0 && ev->nr == (unsigned long)umem))
		c->errors++;
}

static void observe(const struct syslet_event *ev, void *ctx)
{
	struct srun_trace *tr = ctx;
	const struct srun_opts *o = tr->opts;
	struct slot *s;
	SYSLET_OPTS(syslet_atom_info, ai);
	enum syslet_print_part part = SYSLET_PRINT_WHOLE;
	double now = 0, dt = -1;
	char sbuf[64];
	bool shown;

	pthread_mutex_lock(&tr->lock);
	/* Cut: an event that was under way then is neither shown nor
	 * counted, nor taken for its syslet's end (srun_trace_final()). */
	if (tr->cut)
		goto out;
	s = slot_of(tr, ev->atom);
	if (!s) {
		tr->strays++;
		goto out;
	}
	if (ev->end != SYSLET_END_UNFINISHED &&
	    !syslet_inst__atom_info(s->inst, ev->atom, &ai) &&
	    ai.role == SYSLET_ROLE_TRAMPOLINE)
		tr->trampolines++;
	/* Only the atom's own end tells that it is no longer under way. */
	s->cur = ev->end == SYSLET_END_NONE ? ev->next :
		 ev->end == SYSLET_END_UNFINISHED ? ev->atom : NULL;
	if (o->stats && ev->end != SYSLET_END_UNFINISHED &&
	    ev->end != SYSLET_END_FAULT) {
		/* As -T measures it: since the slot's previous event (or
		 * its start), the call's blocking in a worker included. */
		now = mono();
		count_call(tr, ev, now - s->t_last);
		if (!o->syscall_times)
			s->t_last = now;
	}
	if (ev->end != SYSLET_END_UNFINISHED) {
		s->injected = ev->injected ? ev->atom : NULL;
		/* A fault may have left no number fetched. */
		s->ended = ev->end == SYSLET_END_FAULT ? NULL : ev->atom;
		s->ended_nr = ev->nr;
		s->final = ev->end != SYSLET_END_NONE;
	}
	if (!o->trace || tr->closed)
		goto out;
	if (o->syscall_times && !now)
		now = mono();
	/* Faults are shown whatever the set, as strace shows signals. */
	shown = !o->trace_set || ev->end == SYSLET_END_FAULT ||
		srun_set_has(o->trace_set, ev->nr);
	if (ev->end == SYSLET_END_UNFINISHED) {
		if (shown) {
			end_open(tr);
			line(stderr, s->inst, s->tag,
			     stamp(tr, sbuf, sizeof(sbuf)), ev,
			     SYSLET_PRINT_ENTER, -1);
			/* Shown now, as strace shows a call that blocks. */
			fflush(stderr);
			tr->open = s;
			s->pending = ev->atom;
			s->pending_ev = *ev;
		}
	} else {
		/* Its first event since: where the call ended. */
		if (s->pending && ev->handoff && ev->atom == s->pending &&
		    ev->end != SYSLET_END_FAULT)
			part = tr->open == s ? SYSLET_PRINT_CONT : SYSLET_PRINT_EXIT;
		if (tr->open == s && part == SYSLET_PRINT_WHOLE)
			end_open(tr);
		s->pending = NULL;
		if (o->syscall_times)
			dt = now - s->t_last;
		if (shown) {
			if (part != SYSLET_PRINT_CONT)
				end_open(tr);
			line(stderr, s->inst, s->tag,
			     part == SYSLET_PRINT_CONT ? NULL :
			     stamp(tr, sbuf, sizeof(sbuf)), ev, part, dt);
			if (part == SYSLET_PRINT_CONT)
				tr->open = NULL;
		}
	}
	if (shown)
		fflush(stderr);
	/* The next atom's time starts once this line is out. */
	if (o->syscall_times)
		s->t_last = mono();
out:
	pthread_mutex_unlock(&tr->lock);
}

void srun_trace_submit(struct srun_trace *tr, size_t i)
{
	if (!tr || !(tr->opts->syscall_times || tr->opts->stats) ||
	    i >= tr->nr)
		return;
	pthread_mutex_lock(&tr->lock);
	tr->slots[i].t_last = mono();
	pthread_mutex_unlock(&tr->lock);
}

static const char *sig_name(int sig, char *buf, size_t len)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	case SIGPIPE: return "SIGPIPE";
	case SIGALRM: return "SIGALRM";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGVTALRM: return "SIGVTALRM";
	case SIGPROF: return "SIGPROF";
	}
	snprintf(buf, len, "signal %d", sig);
	return buf;
}

/* libsyslet's reader, the one the trace prints with: through a pipe
 * where process_vm_readv() is missing or refused. */
bool srun_peek(void *dst, const void *addr, size_t len)
{
	return syslet_read_mem(dst, addr, len) == (ssize_t)len;
}

/*
 * The call @s's syslet is in, entered by no event: a worker or the ring
 * blocked in it since the syslet went async at an earlier atom.  Its
 * arguments are read now, as the atom fetched them (nothing ran since).
 */
static bool current_call(const struct slot *s, struct syslet_event *ev)
{
	const struct syslet_uatom *a = s->cur;

	if (!a || !s->inst || syslet_inst__atom_index(s->inst, a) < 0)
		return false;
	memset(ev, 0, sizeof(*ev));
	ev->sz = sizeof(*ev);
	ev->atom = (struct syslet_uatom *)a;
	ev->flags = a->flags;
	ev->nr = a->nr;
	ev->end = SYSLET_END_UNFINISHED;
	/* Read through the kernel: an atom may have rewritten its
	 * argument pointers, and the tail must not fault the dying
	 * process. */
	while (ev->nargs < 6 && a->arg_ptr[ev->nargs] &&
	       srun_peek(&ev->args[ev->nargs], a->arg_ptr[ev->nargs],
			 sizeof(ev->args[0])))
		ev->nargs++;
	return true;
}

void srun_trace_cut(struct srun_trace *tr)
{
	if (!tr)
		return;
	syslet_set_trace(NULL, NULL);
	/* An observer already called waits for the lock, then sees it. */
	pthread_mutex_lock(&tr->lock);
	tr->cut = true;
	pthread_mutex_unlock(&tr->lock);
}

void srun_trace_killed(struct srun_trace *tr, double wall)
{
	const struct srun_opts *o = tr->opts;
	char sbuf[64];

	syslet_set_trace(NULL, NULL);
	pthread_mutex_lock(&tr->lock);
	tr->closed = true;
	if (o->trace) {
		/* As strace ends a process killed in a call: the line left
		 * open first, then the calls entered on lines of their own. */
		if (tr->open) {
			fputs(" <unfinished ...>) = ?\n", stderr);
			tr->open->pending = NULL;
			tr->open->cur = NULL;
			tr->open = NULL;
		}
		for (size_t i = 0; i < tr->nr; i++) {
			struct slot *s = &tr->slots[i];
			const char *name;

			if (!s->pending) {
				struct syslet_event ev;

				if (!current_call(s, &ev) || (o->trace_set &&
				    !srun_set_has(o->trace_set, ev.nr)))
					continue;
				line(stderr, s->inst, s->tag,
				     stamp(tr, sbuf, sizeof(sbuf)), &ev,
				     SYSLET_PRINT_ENTER, -1);
				fputs(" <unfinished ...>) = ?\n", stderr);
				continue;
			}
			name = srun_call_name(s->pending_ev.nr);
			prefix(stderr, s->inst, s->tag,
			       stamp(tr, sbuf, sizeof(sbuf)), s->pending);
			fprintf(stderr, "<... %s resumed> <unfinished ...>) = ?\n",
				name ? name : "syscall");
		}
	}
	pthread_mutex_unlock(&tr->lock);
	srun_trace_stop(tr, wall);
}

void srun_trace_died(struct srun_trace *tr, int sig)
{
	char nbuf[24];

	/* The last line of all, after the counters and the stop reports,
	 * as a run that exits ends with srun_trace_exited()'s: one place to
	 * read how it ended. */
	if (tr->opts->trace)
		fprintf(stderr, "+++ killed by %s +++\n",
			sig_name(sig, nbuf, sizeof(nbuf)));
}

struct srun_trace *srun_trace_start(const struct srun_opts *opts, size_t nr)
{
	struct srun_trace *tr;
	/* The library says whether the backend's atoms can be seen. */
	if (opts->trace && syslet_set_trace(NULL, NULL) == -ENOTSUP) {
		fprintf(stderr,
			"%s: --trace needs a backend that reports its atoms "
			"(this is %s)\n", opts->progname,
			syslet_backend_name());
		return NULL;
	}
	/* A line goes out in one write, as strace writes it, not piece by
	 * piece (stderr is unbuffered: 19 writes a line). */
	if (opts->trace)
		setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
	tr = calloc(1, sizeof(*tr));
	if (!tr || !(tr->slots = calloc(nr + 1, sizeof(*tr->slots))) ||
	    !(tr->spans = calloc(nr + 1, sizeof(*tr->spans)))) {
		/* calloc() left what was not reached NULL. */
		if (tr) {
			free(tr->slots);
			free(tr->spans);
		}
		free(tr);
		fprintf(stderr, "%s: out of memory\n", opts->progname);
		return NULL;
	}
	tr->opts = opts;
	tr->nr = nr;
	tr->t_prev = 0;		/* no line yet */
	pthread_mutex_init(&tr->lock, NULL);
	for (size_t i = 0; i < nr; i++)
		tr->slots[i].tag = nr > 1 ? (int)i : -1;
	syslet_reset_stats();
	/* A syslet going async is shown as strace shows a call that
	 * blocks: unfinished, then resumed. */
	syslet_set_trace_flags(opts->trace ? SYSLET_TRACE_UNFINISHED : 0);
	syslet_set_trace(observe, tr);
	return tr;
}

void srun_trace_add(struct srun_trace *tr, size_t i, struct syslet_inst *inst)
{
	struct srun_span sp;

	if (!tr || i >= tr->nr)
		return;
	srun_span_set(&sp, inst, i);
	pthread_mutex_lock(&tr->lock);
	/* A slot reused takes the span of the instance that had it. */
	srun_span_put(tr->spans, &tr->nspans, &sp);
	tr->slots[i].inst = inst;
	tr->slots[i].cur = NULL;
	tr->slots[i].ended = NULL;
	tr->slots[i].final = false;
	pthread_mutex_unlock(&tr->lock);
}

bool srun_trace_ended(struct srun_trace *tr, size_t i,
		      const struct syslet_uatom *atom, unsigned long *nr)
{
	bool ended;

	if (!tr || i >= tr->nr)
		return false;
	pthread_mutex_lock(&tr->lock);
	ended = tr->slots[i].inst && tr->slots[i].ended == atom;
	*nr = tr->slots[i].ended_nr;
	pthread_mutex_unlock(&tr->lock);
	return ended;
}

bool srun_trace_injected(struct srun_trace *tr, size_t i,
			 const struct syslet_uatom *atom)
{
	bool inj;

	if (!tr || i >= tr->nr)
		return false;
	pthread_mutex_lock(&tr->lock);
	inj = tr->slots[i].inst && tr->slots[i].injected == atom;
	pthread_mutex_unlock(&tr->lock);
	return inj;
}

const struct syslet_uatom *srun_trace_final(struct srun_trace *tr, size_t i)
{
	const struct syslet_uatom *a = NULL;

	if (!tr || i >= tr->nr)
		return NULL;
	pthread_mutex_lock(&tr->lock);
	if (tr->slots[i].inst && tr->slots[i].final)
		a = tr->slots[i].ended;
	pthread_mutex_unlock(&tr->lock);
	return a;
}

void srun_trace_drop(struct srun_trace *tr, size_t i, struct syslet_inst *inst)
{
	if (!tr || i >= tr->nr)
		return;
	pthread_mutex_lock(&tr->lock);
	srun_span_drop(tr->spans, tr->nspans, syslet_inst__atom(inst, 0));
	tr->slots[i].inst = NULL;
	tr->slots[i].cur = NULL;
	tr->slots[i].injected = NULL;
	tr->slots[i].ended = NULL;
	pthread_mutex_unlock(&tr->lock);
}

static void stat_line(FILE *out, const char *name, unsigned long long v)
{
	fprintf(out, "  %-22s %llu\n", name, v);
}

/* What --inject chose, over all its rules; -1 without rules. */
static long long injected_total(void)
{
	int n = syslet_get_inject(NULL, 0);
	struct syslet_inject *r = n > 0 ? calloc(n, sizeof(*r)) : NULL;
	long long sum = 0;

	if (!r)
		return -1;
	r[0].sz = sizeof(*r);
	n = syslet_get_inject(r, n);
	for (int i = 0; i < n; i++)
		sum += (long long)r[i].injected;
	free(r);
	return n > 0 ? sum : -1;
}

/* The rows of --stats, which the shell's stats command prints too: one
 * list, so that the two never differ. */
void srun_stats_rows(FILE *out, const struct syslet_stats *st,
		     unsigned long long trampolines)
{
	const char *b = syslet_backend_name();
	bool uring = b && !strcmp(b, "uring");
	long long inj;

	if (b && !strcmp(b, "kernel")) {
		/* Its atoms run in the kernel, which counts none of them:
		 * rows of zeros would say that nothing ran. */
		fprintf(out, "  (the kernel counts no atoms, threads or "
			     "completions: no counters)\n");
		return;
	}
	stat_line(out, "syslets", st->execs);
	stat_line(out, "atoms", st->atoms);
	stat_line(out, "syscalls", st->syscalls);
	stat_line(out, "umem_add", st->umem_adds);
	stat_line(out, "trampolines", trampolines);
	stat_line(out, "inline atoms", st->inline_atoms);
	stat_line(out, "cachemiss atoms", st->cachemiss_atoms);
	if (uring) {
		/* Who ran them: io_uring, a worker thread (a call io_uring
		 * has no operation for), or the ring's driver (arithmetic,
		 * calls that could not block).  The three add up. */
		unsigned long long ur = st->uring_atoms,
				   urw = st->uring_worker_atoms,
				   cm = st->cachemiss_atoms;

		stat_line(out, "  through io_uring", ur);
		stat_line(out, "  on worker threads", urw);
		stat_line(out, "  in the driver",
			  cm > ur + urw ? cm - ur - urw : 0);
	}
	stat_line(out, "went async", st->handoffs);
	stat_line(out, "completions", st->completions);
	stat_line(out, uring ? "worker threads" : "cachemiss threads",
		  st->threads);
	if (st->faults)
		stat_line(out, "faults", st->faults);
	if (st->denied)
		stat_line(out, "denied", st->denied);
	if (st->signal_stops)
		stat_line(out, "signal stops", st->signal_stops);
	if (st->deferred)
		stat_line(out, "deferred", st->deferred);
	if (st->dropped)
		stat_line(out, "dropped", st->dropped);
	inj = injected_total();
	if (inj >= 0)
		stat_line(out, "injected", (unsigned long long)inj);
}

static int by_time(const void *a, const void *b)
{
	const struct callstat *x = a, *y = b;

	if (x->secs != y->secs)
		return x->secs < y->secs ? 1 : -1;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

/* strace -c's table, its columns and its order (by time). */
static void print_table(struct srun_trace *tr)
{
	static const char rule[] = "------ ----------- ----------- --------- "
				   "--------- ----------------\n";
	unsigned long long calls = 0, errors = 0;
	double secs = 0;
	char nbuf[32];

	qsort(tr->calls, tr->ncalls, sizeof(*tr->calls), by_time);
	for (size_t i = 0; i < tr->ncalls; i++) {
		calls += tr->calls[i].calls;
		errors += tr->calls[i].errors;
		secs += tr->calls[i].secs;
	}
	fputs("% time     seconds  usecs/call     calls    errors syscall\n",
	      stderr);
	fputs(rule, stderr);
	for (size_t i = 0; i < tr->ncalls; i++) {
		const struct callstat *c = &tr->calls[i];
		const char *name = srun_call_label(c->nr, nbuf, sizeof(nbuf));

		fprintf(stderr, "%6.2f %11.6f %11llu %9llu %9.0llu %s\n",
			secs > 0 ? c->secs * 100 / secs : 0, c->secs,
			(unsigned long long)(c->secs * 1e6 / (double)c->calls),
			c->calls, c->errors, name);
	}
	fputs(rule, stderr);
	fprintf(stderr, "%6.2f %11.6f %11llu %9llu %9.0llu total\n",
		100.0, secs,
		calls ? (unsigned long long)(secs * 1e6 / (double)calls) : 0,
		calls, errors);
}

void srun_trace_stop(struct srun_trace *tr, double wall)
{
	SYSLET_OPTS(syslet_stats, st);

	syslet_set_trace(NULL, NULL);
	syslet_set_trace_flags(0);
	/* A line left open: its call never came back (a run that failed). */
	if (tr->open) {
		fputs(" <unfinished ...>\n", stderr);
		tr->open = NULL;
	}
	if (!tr->opts->stats)
		return;
	syslet_get_stats(&st);
	if (strcmp(syslet_backend_name(), "kernel"))
		print_table(tr);
	fprintf(stderr, "%s: stats (backend %s):\n", tr->opts->progname,
		syslet_backend_name());
	srun_stats_rows(stderr, &st, tr->trampolines);
	fprintf(stderr, "  %-22s %.3f ms\n", "wall time", wall * 1e3);
}

void srun_trace_exited(struct srun_trace *tr, int status)
{
	/* strace's last line, after the stop reports as after the traced
	 * process's own last words. */
	if (tr->opts->trace)
		fprintf(stderr, "+++ exited with %d +++\n", status);
}

void srun_trace_free(struct srun_trace *tr)
{
	if (!tr)
		return;
	syslet_set_trace(NULL, NULL);
	pthread_mutex_destroy(&tr->lock);
	free(tr->calls);
	free(tr->slots);
	free(tr->spans);
	free(tr);
}
