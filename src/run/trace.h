/* trace.h: syslet-run --trace (a line per atom) and --stats (counters at the end). */
#ifndef SYSLET_RUN_TRACE_H
#define SYSLET_RUN_TRACE_H

#include "run.h"

struct srun_trace;

/* Start observing the engine for @nr instances (all of one image), each
 * traced from srun_trace_add() to srun_trace_drop(); NULL, with a message
 * printed, when the backend cannot be observed. */
struct srun_trace *srun_trace_start(const struct srun_opts *opts, size_t nr);
/* Instance @i is made (before it starts) or about to be freed (after its
 * syslet ended): its atoms are traced as instance i's, or no more. */
void srun_trace_add(struct srun_trace *tr, size_t i, struct syslet_inst *inst);
void srun_trace_drop(struct srun_trace *tr, size_t i, struct syslet_inst *inst);
/* Instance i is about to be started: -T times its first atom from now. */
void srun_trace_submit(struct srun_trace *tr, size_t i);
/* Stop observing; with --stats print the counters and the wall time. */
void srun_trace_stop(struct srun_trace *tr, double wall);
/* The run ended with syslet-run's @status, its stops reported: with
 * --trace "+++ exited with 1 +++", as strace's last line. */
void srun_trace_exited(struct srun_trace *tr, int status);
/* The run ends on a signal: with --trace, the calls still unfinished,
 * as strace ends a killed process; then what srun_trace_stop() prints.
 * The stops of the syslets that ended come next, then
 * srun_trace_died(). */
void srun_trace_killed(struct srun_trace *tr, double wall);
/* A signal ends the run: no event is seen from now on (nor one already
 * under way), so that srun_trace_ended() tells the ends the trace
 * showed; srun_trace_killed() then prints the tail. */
void srun_trace_cut(struct srun_trace *tr);
/* With --trace, "+++ killed by SIGTERM +++": the last line, after the
 * stop reports, as srun_trace_exited()'s is. */
void srun_trace_died(struct srun_trace *tr, int sig);
void srun_trace_free(struct srun_trace *tr);
/* Whether instance i's @atom last ended with a result --inject chose
 * (false without @tr). */
/* Whether slot @i's last atom to end was @atom, and the number it ran
 * with (its event's) in *nr. */
bool srun_trace_ended(struct srun_trace *tr, size_t i,
		      const struct syslet_uatom *atom, unsigned long *nr);
/* Slot @i's atom that ended its syslet, as an event showed, while its
 * instance is live (its completion not taken yet); NULL else. */
const struct syslet_uatom *srun_trace_final(struct srun_trace *tr, size_t i);
bool srun_trace_injected(struct srun_trace *tr, size_t i,
			 const struct syslet_uatom *atom);
/* The counters' rows that --stats prints (and the shell's stats): @st
 * from syslet_get_stats(3), @trampolines counted by an observer. */
void srun_stats_rows(FILE *out, const struct syslet_stats *st,
		     unsigned long long trampolines);

/* Print one trace line for ev, whose atom belongs to inst (shared with
 * the shell, which traces its steps the same way): the whole call, or
 * for an event of SYSLET_TRACE_UNFINISHED the call entered. */
void srun_trace_line(FILE *out, const struct syslet_inst *inst, int tag,
		     const struct syslet_event *ev);

/* The whole call of @ev as a trace line shows it: umem_add()'s word by
 * the name the listing gives it in @inst (&count, &%2, &0, fds+4), every
 * other call as syslet_print_call(3) prints it. */
void srun_print_call(FILE *out, const struct syslet_inst *inst,
		     const struct syslet_event *ev);

/* What a trace line shows for an atom that faulted (SYSLET_END_FAULT):
 * no call was fetched whole, so no call is shown. */
void srun_print_fault(FILE *out);

#endif /* SYSLET_RUN_TRACE_H */
