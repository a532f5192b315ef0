/* exec.c: running instances through the five calls: one, or one per argument all in flight; the stop report. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "trace.h"

struct job {
	struct syslet_inst	*inst;
	struct syslet_uatom	*first;
	struct syslet_uatom	*last;	/* set when it completed */
	const char		*arg;
};

struct runner {
	const struct srun_opts	*opts;
	const char		*entry;
	struct job		*jobs;
	size_t			nr_jobs;
	struct srun_span	*index;	/* completion -> job */
};

/*
 * One submitting thread with its own head and ring, as the kernel's heads
 * are per task: --each splits the instances into --jobs contiguous lanes.
 */
struct lane {
	struct runner		*r;
	size_t			lo, hi;		/* its jobs */
	struct async_head_user	ahu;
	struct syslet_uatom	**ring;
	unsigned long		ring_entries;
	unsigned long		head;
	size_t			pending;
	bool			registered;
	int			err;		/* -1: it failed (reported) */
	pthread_t		thread;
};

void srun_format_result(char *buf, size_t len, long result, bool call)
{
	const char *name = call && result < 0 && result > -4096 ?
			   syslet_errno_name((int)-result) : NULL;

	if (name)
		snprintf(buf, len, "%ld %s", result, name);
	else
		snprintf(buf, len, "%ld", result);
}

const char *srun_call_name(unsigned long nr)
{
	long umem = syslet_sysno(SYSLET_CALL_UMEM_ADD);

	if (umem >= 0 && nr == (unsigned long)umem)
		return "umem_add";
	if (nr > (unsigned long)LONG_MAX)
		return NULL;
	return syslet_syscall_name((long)nr);
}

bool srun_is_call(unsigned long nr)
{
	long umem = syslet_sysno(SYSLET_CALL_UMEM_ADD);

	return umem < 0 || nr != (unsigned long)umem;
}

long srun_result(const struct syslet_inst *inst,
		 const struct syslet_uatom *atom)
{
	long res = 0;

	syslet_inst__result(inst, atom, &res);
	return res;
}

bool srun_failed(const struct syslet_inst *inst,
		 const struct syslet_uatom *atom, long *res)
{
	/* The number in the atom now: what it ran with, even when an
	 * earlier atom rewrote it. */
	unsigned long nr = atom->nr;

	if (nr >= (unsigned long)syslet_syscall_count()) {
		*res = -ENOSYS;
		return true;
	}
	*res = srun_result(inst, atom);
	return srun_is_call(nr) && *res < 0 && *res > -4096;
}

void srun_stop_report(FILE *out, const char *progname, const char *arg,
		      const char *entry, const struct syslet_inst *inst,
		      const struct syslet_uatom *atom, long result)
{
	SYSLET_OPTS(syslet_atom_info, ai);
	const char *ran = srun_call_name(atom->nr);
	char res[48], num[48];

	srun_format_result(res, sizeof(res), result, srun_is_call(atom->nr));
	if (atom->nr >= (unsigned long)syslet_syscall_count()) {
		snprintf(num, sizeof(num), "syscall %lu, past the table",
			 atom->nr);
		ran = num;
	} else if (!ran) {
		snprintf(num, sizeof(num), "syscall %lu", atom->nr);
		ran = num;
	}
	if (arg)
		fprintf(out, "%s: %s: ", progname, arg);
	else
		fprintf(out, "%s: ", progname);
	if (syslet_inst__atom_info(inst, atom, &ai)) {
		fprintf(out, "%s stopped: %s: %s\n", entry, ran, res);
		return;
	}
	fprintf(out, "%s stopped at atom %zu", entry, ai.index);
	if (ai.line) {
		fprintf(out, " (%s:%u", ai.source ? ai.source : "?", ai.line);
		if (ai.text) {
			size_t n = strlen(ai.text);

			/* The statement, without its terminator. */
			while (n && (ai.text[n - 1] == ';' ||
				     ai.text[n - 1] == ' '))
				n--;
			fprintf(out, ": %.*s", (int)n, ai.text);
		}
		/* The atom's number was rewritten before it ran. */
		if (!ai.syscall || strcmp(ai.syscall, ran))
			fprintf(out, "; it ran %s", ran);
		fputc(')', out);
	} else {
		fprintf(out, " (%s)", ran);
	}
	fprintf(out, ": %s\n", res);
}

static struct job *job_of(const struct runner *r,
			  const struct syslet_uatom *atom)
{
	long i = srun_span_find(r->index, r->nr_jobs, atom);

	return i < 0 ? NULL : &r->jobs[i];
}

static int setup(struct runner *r, const struct syslet_obj *obj, int argc,
		 char **argv)
{
	const char *pn = r->opts->progname;
	char err[256];

	r->nr_jobs = r->opts->each ? (size_t)argc : 1;
	r->jobs = calloc(r->nr_jobs + 1, sizeof(*r->jobs));
	r->index = calloc(r->nr_jobs + 1, sizeof(*r->index));
	if (!r->jobs || !r->index) {
		fprintf(stderr, "%s: out of memory\n", pn);
		return -1;
	}
	for (size_t i = 0; i < r->nr_jobs; i++) {
		struct job *j = &r->jobs[i];
		int bad;

		j->inst = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!j->inst) {
			fprintf(stderr, "%s: %s\n", pn, err);
			return -1;
		}
		if (r->opts->each) {
			j->arg = argv[i];
			bad = syslet_inst__bind(j->inst, r->entry, 1, &argv[i],
						err, sizeof(err));
		} else {
			bad = syslet_inst__bind(j->inst, r->entry, argc, argv,
						err, sizeof(err));
		}
		if (bad) {
			fprintf(stderr, "%s: %s\n", pn, err);
			return -1;
		}
		j->first = syslet_inst__entry(j->inst, r->entry);
		srun_span_set(&r->index[i], j->inst, i);
	}
	srun_span_sort(r->index, r->nr_jobs);
	return 0;
}

static int lane_register(struct lane *l)
{
	struct runner *r = l->r;
	const char *pn = r->opts->progname;
	size_t n = l->hi - l->lo;

	l->ring_entries = r->opts->ring ? (unsigned long)r->opts->ring :
			  n < 64 ? 64 : n;
	l->ring = calloc(l->ring_entries, sizeof(*l->ring));
	if (!l->ring) {
		fprintf(stderr, "%s: no memory for a ring of %lu entries\n",
			pn, l->ring_entries);
		return -1;
	}
	l->ahu.completion_ring = l->ring;
	l->ahu.ring_size_bytes = l->ring_entries * sizeof(*l->ring);
	l->ahu.max_nr_threads = r->opts->threads ?
				(unsigned long)r->opts->threads : -1UL;
	if (sys_async_register(&l->ahu, sizeof(l->ahu))) {
		fprintf(stderr, "%s: async_register: %s\n", pn,
			strerror(errno));
		return -1;
	}
	l->registered = true;
	return 0;
}

/* Take every completion the ring holds, in order, clearing the slots. */
static int drain(struct lane *l)
{
	struct runner *r = l->r;
	int got = 0;

	while (l->ring[l->head]) {
		struct syslet_uatom *a = l->ring[l->head];
		struct job *j = job_of(r, a);

		l->ring[l->head] = NULL;
		l->head = (l->head + 1) % l->ring_entries;
		got++;
		if (!j || j->last || j < r->jobs + l->lo ||
		    j >= r->jobs + l->hi) {
			fprintf(stderr, "%s: stray completion %p in the ring\n",
				r->opts->progname, (void *)a);
			continue;
		}
		j->last = a;
		l->pending--;
	}
	return got;
}

static int submit_and_wait(struct lane *l)
{
	const char *pn = l->r->opts->progname;

	for (size_t i = l->lo; i < l->hi; i++) {
		struct job *j = &l->r->jobs[i];

		errno = 0;
		j->last = sys_async_exec(j->first);
		if (j->last)
			continue;
		if (errno) {
			fprintf(stderr, "%s: async_exec: %s\n", pn,
				strerror(errno));
			return -1;
		}
		l->pending++;
		/* Keep the ring from filling while submitting. */
		drain(l);
	}
	while (l->pending) {
		if (drain(l))
			continue;
		if (sys_async_wait(1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: async_wait: %s\n", pn,
				strerror(errno));
			return -1;
		}
		/* async_wait() also returns once nothing is busy: what is
		 * still pending ended on a nocomplete atom, and nothing more
		 * will come (after one last look at the ring). */
		if (!drain(l))
			break;
	}
	return 0;
}

static void lane_unregister(struct lane *l)
{
	if (l->registered && sys_async_unregister(&l->ahu, sizeof(l->ahu)))
		fprintf(stderr, "%s: async_unregister: %s\n",
			l->r->opts->progname, strerror(errno));
	l->registered = false;
	free(l->ring);
	l->ring = NULL;
}

static void *lane_main(void *arg)
{
	struct lane *l = arg;

	/* A head that cannot be set up is a usage error (exit 2), as
	 * before anything runs. */
	l->err = lane_register(l) ? -2 : submit_and_wait(l) ? -1 : 0;
	lane_unregister(l);
	return NULL;
}

/* Lanes 1.. on threads of their own, lane 0 here. */
static int run_lanes(struct runner *r, size_t nlanes)
{
	struct lane *lanes = calloc(nlanes, sizeof(*lanes));
	int err = 0;

	if (!lanes) {
		fprintf(stderr, "%s: out of memory\n", r->opts->progname);
		return -1;
	}
	for (size_t i = 0; i < nlanes; i++) {
		lanes[i].r = r;
		lanes[i].lo = r->nr_jobs * i / nlanes;
		lanes[i].hi = r->nr_jobs * (i + 1) / nlanes;
	}
	for (size_t i = 1; i < nlanes; i++)
		if (pthread_create(&lanes[i].thread, NULL, lane_main,
				   &lanes[i])) {
			/* Fewer threads: this one takes the rest. */
			lanes[i - 1].hi = r->nr_jobs;
			nlanes = i;
			break;
		}
	lane_main(&lanes[0]);
	err = lanes[0].err;
	for (size_t i = 1; i < nlanes; i++) {
		pthread_join(lanes[i].thread, NULL);
		if (lanes[i].err < err)
			err = lanes[i].err;
	}
	free(lanes);
	return err;
}

static int report(struct runner *r)
{
	int status = SRUN_OK;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		struct job *j = &r->jobs[i];
		long res;

		/* Went async and ended on a nocomplete atom: its end is not
		 * known, as asked. */
		if (!j->last)
			continue;
		/* A test or an arithmetic atom ends a syslet normally,
		 * whatever its value. */
		if (!srun_failed(j->inst, j->last, &res))
			continue;
		status = SRUN_STOPPED;
		srun_stop_report(stderr, r->opts->progname, j->arg, r->entry,
				 j->inst, j->last, res);
	}
	return status;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int srun_run(const struct srun_opts *opts, const struct syslet_obj *obj,
	     const char *entry, int argc, char **argv)
{
	struct runner r = { .opts = opts, .entry = entry };
	struct srun_trace *tr = NULL;
	int status = SRUN_USAGE, err;
	size_t lanes;
	double t0;

	if (opts->each) {
		int n = syslet_obj__entry_params(obj, entry);

		if (n != 1) {
			fprintf(stderr,
				"%s: --each binds one parameter per instance; %s takes %d\n",
				opts->progname, entry, n);
			return SRUN_USAGE;
		}
		if (!argc) {
			fprintf(stderr, "%s: --each needs at least one ARG\n",
				opts->progname);
			return SRUN_USAGE;
		}
	}
	if (setup(&r, obj, argc, argv))
		goto out;
	if (opts->trace || opts->stats) {
		struct syslet_inst **insts = calloc(r.nr_jobs, sizeof(*insts));

		for (size_t i = 0; insts && i < r.nr_jobs; i++)
			insts[i] = r.jobs[i].inst;
		tr = insts ? srun_trace_start(opts, insts, r.nr_jobs) : NULL;
		free(insts);
		if (!tr)
			goto out;
	}
	t0 = now();
	lanes = opts->each && opts->jobs > 1 ? (size_t)opts->jobs : 1;
	err = run_lanes(&r, lanes < r.nr_jobs ? lanes : r.nr_jobs);
	if (err) {
		status = err == -2 ? SRUN_USAGE : SRUN_STOPPED;
		goto out;
	}
	if (tr)
		srun_trace_stop(tr, now() - t0);
	status = report(&r);
out:
	srun_trace_free(tr);
	for (size_t i = 0; r.jobs && i < r.nr_jobs; i++)
		syslet_inst__free(r.jobs[i].inst);
	free(r.jobs);
	free(r.index);
	return status;
}
