/* trace.c: syslet-run --trace and --stats, built on the engine's observer and counters. */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

struct slot {
	const struct syslet_inst	*inst;
	int				tag;
};

struct srun_trace {
	const struct srun_opts	*opts;
	struct slot		*slots;
	struct srun_span	*spans;	/* event -> slot */
	size_t			nr;
	pthread_mutex_t		lock;	/* workers report too */
	unsigned long long	trampolines;
	unsigned long long	strays;
};

static const struct slot *slot_of(const struct srun_trace *tr,
				  const void *atom)
{
	long i = srun_span_find(tr->spans, tr->nr, atom);

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
	}
}

void srun_trace_line(FILE *out, const struct syslet_inst *inst, int tag,
		     const struct syslet_event *ev)
{
	SYSLET_OPTS(syslet_atom_info, ai);
	char res[48];
	const char *where;

	if (tag >= 0)
		fprintf(out, "#%d ", tag);
	if (syslet_inst__atom_info(inst, ev->atom, &ai)) {
		fprintf(out, "%p ", (void *)ev->atom);
		memset(&ai, 0, sizeof(ai));
		ai.nr = (long)ev->nr;
	} else {
		if (ai.line)
			fprintf(out, "%s:%u ", ai.source ? ai.source : "?",
				ai.line);
		fprintf(out, "[%zu] ", ai.index);
	}
	if (ev->end == SYSLET_END_FAULT) {
		fputs("<fault: the atom or an argument is unreadable> = -14 EFAULT\n",
		      out);
		return;
	}
	/* The call the atom made: its number as fetched, whatever the
	 * debug records say it was compiled as. */
	syslet_print_call(out, ev);
	srun_format_result(res, sizeof(res), ev->ret, srun_is_call(ev->nr));
	where = ev->where == SYSLET_WHERE_CACHEMISS ? "cachemiss" :
		ev->where == SYSLET_WHERE_STEP ? "step" : "inline";
	fprintf(out, " = %s <%s%s>", res, where,
		ev->handoff ? ", went async" : "");
	print_next(out, inst, ev);
	fputc('\n', out);
}

static void observe(const struct syslet_event *ev, void *ctx)
{
	struct srun_trace *tr = ctx;
	const struct slot *s;
	SYSLET_OPTS(syslet_atom_info, ai);

	pthread_mutex_lock(&tr->lock);
	s = slot_of(tr, ev->atom);
	if (!s) {
		tr->strays++;
	} else {
		if (!syslet_inst__atom_info(s->inst, ev->atom, &ai) &&
		    ai.role == SYSLET_ROLE_TRAMPOLINE)
			tr->trampolines++;
		if (tr->opts->trace) {
			srun_trace_line(stderr, s->inst, s->tag, ev);
			fflush(stderr);
		}
	}
	pthread_mutex_unlock(&tr->lock);
}

struct srun_trace *srun_trace_start(const struct srun_opts *opts,
				    struct syslet_inst *const *insts,
				    size_t nr)
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
	pthread_mutex_init(&tr->lock, NULL);
	for (size_t i = 0; i < nr; i++) {
		struct syslet_inst *in = insts[i];

		srun_span_set(&tr->spans[i], in, i);
		tr->slots[i].inst = in;
		tr->slots[i].tag = nr > 1 ? (int)i : -1;
	}
	srun_span_sort(tr->spans, nr);
	syslet_reset_stats();
	syslet_set_trace(observe, tr);
	return tr;
}

static void stat_line(const char *name, unsigned long long v)
{
	fprintf(stderr, "  %-22s %llu\n", name, v);
}

void srun_trace_stop(struct srun_trace *tr, double wall)
{
	SYSLET_OPTS(syslet_stats, st);

	syslet_set_trace(NULL, NULL);
	if (!tr->opts->stats)
		return;
	syslet_get_stats(&st);
	fprintf(stderr, "%s: stats (backend %s):\n", tr->opts->progname,
		syslet_backend_name());
	stat_line("syslets", st.execs);
	stat_line("atoms", st.atoms);
	stat_line("syscalls", st.syscalls);
	stat_line("umem_add", st.umem_adds);
	stat_line("trampolines", tr->trampolines);
	stat_line("inline atoms", st.inline_atoms);
	stat_line("cachemiss atoms", st.cachemiss_atoms);
	stat_line("went async", st.handoffs);
	stat_line("completions", st.completions);
	stat_line("cachemiss threads", st.threads);
	if (st.faults)
		stat_line("faults", st.faults);
	if (st.denied)
		stat_line("denied", st.denied);
	if (st.signal_stops)
		stat_line("signal stops", st.signal_stops);
	fprintf(stderr, "  %-22s %.3f ms\n", "wall time", wall * 1e3);
}

void srun_trace_free(struct srun_trace *tr)
{
	if (!tr)
		return;
	syslet_set_trace(NULL, NULL);
	pthread_mutex_destroy(&tr->lock);
	free(tr->slots);
	free(tr->spans);
	free(tr);
}
