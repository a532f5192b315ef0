/* run.h: the parts of syslet-run shared between its files (loading, running, tracing). */
#ifndef SYSLET_RUN_RUN_H
#define SYSLET_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libsyslet.h"

struct srun_set;
struct srun_inject;

/* Exit statuses: 0 the syslet ended, 1 it ended because a call failed
 * (srun_failed()) or the run itself failed, 2 a usage error or an image
 * that cannot run here. */
enum { SRUN_OK = 0, SRUN_STOPPED = 1, SRUN_USAGE = 2 };

struct srun_opts {
	const char	*backend;
	const char	*entry;
	long		threads;	/* 0: the backend's default */
	long		ring;		/* entries; 0: sized to the run */
	long		jobs;		/* --each: submitting threads */
	bool		trace;
	bool		stats;
	bool		each;
	const char	*progname;
	/* --trace=SET: the calls whose lines are printed (NULL: all). */
	const struct srun_set *trace_set;
	int		timestamps;	/* -t, -tt, -ttt */
	bool		relative;	/* -r */
	bool		syscall_times;	/* -T */
	/* --inject: set in the library before the run. */
	const struct srun_inject *inject;
};

/*
 * Load an image file, or a syslet source compiled in memory (a file that
 * does not start with the ELF magic is taken as source; a `#!` first
 * line is ignored).  On failure returns NULL after printing the reason
 * (compiler diagnostics included) to stderr; *status is the exit status
 * to use.
 */
struct syslet_obj *srun_load(const char *path, const char *progname,
			     int *status);

/* The entry to run: `want`, or the only one; NULL (message printed) if
 * there is no such entry or there are several to choose from. */
const char *srun_pick_entry(const struct syslet_obj *obj, const char *want,
			    const char *progname);

/* Run entry with args (or one instance per arg with opts->each); once,
 * as the process's last work: its instances are left to the exit. */
int srun_run(const struct srun_opts *opts, const struct syslet_obj *obj,
	     const char *entry, int argc, char **argv);

/* "PROG: [ARG: ]cat stopped at atom 0 (cat.syslet:6: fd = open(...)):
 * -2 ENOENT"; arg (the --each argument) may be NULL; @nr: the number
 * the atom ran with (srun_ran_nr(), or its event's); @injected: --inject
 * chose the atom's result, which ends "(INJECTED)" as in the trace. */
void srun_stop_report(FILE *out, const char *progname, const char *arg,
		      const char *entry, const struct syslet_inst *inst,
		      const struct syslet_uatom *atom, unsigned long nr,
		      long result, bool injected);

/* @nr of srun_format_result(): a cell's value, which is only a number
 * ("-2"); some call's result, which call unknown (an errno is named). */
#define SRUN_NR_VALUE	((unsigned long)-1)
#define SRUN_NR_CALL	((unsigned long)-2)
/* What call @nr returned, as syslet_print_result(3) shows it in the
 * trace: "3", "-2 ENOENT", "0x10000000" (mmap's address); umem_add's,
 * a test's or arithmetic's value is only a number. */
void srun_format_result(char *buf, size_t len, long result, unsigned long nr);
/* The same for the whole event @ev (fcntl's flags, poll's records). */
void srun_format_event(char *buf, size_t len, const struct syslet_event *ev);

/* The call an atom numbered @nr makes, as the backend runs it
 * ("umem_add" too); NULL for a number without a name. */
const char *srun_call_name(unsigned long nr);
/* The same, a number without a name spelt as the compiler records it
 * and --stats shows it, "syscall_335", in @buf. */
const char *srun_call_label(unsigned long nr, char *buf, size_t len);
/* Whether @nr is a system call (everything but umem_add, whose results
 * are values, never errors). */
bool srun_is_call(unsigned long nr);
/* What @atom of @inst last stored (0 for an atom not of @inst). */
long srun_result(const struct syslet_inst *inst,
		 const struct syslet_uatom *atom);
/*
 * What srun_failed() learns of a program once for all its instances: per
 * atom, whether the variable its test reads only ever holds calls'
 * results (0: not known yet, 1: no, 2: yes).  Threads may share one; a
 * race computes the same answer twice.
 */
struct srun_memo {
	unsigned char	*calls_only;
	size_t		n;
};

/* 0, or -1 when there is no memory (srun_failed() then works without). */
int srun_memo_init(struct srun_memo *memo, const struct syslet_obj *obj);
void srun_memo_free(struct srun_memo *memo);
/* The number @atom ran with, as its memory tells after the run (an
 * event's nr, where there is one, is exact). */
unsigned long srun_ran_nr(const struct syslet_uatom *atom);
/* Whether a syslet that ended at @atom, run as @nr, ended because a call
 * failed: its number was past the table (-ENOSYS, not stored), or it is
 * a system call whose result is an errno.  The result in *res.  @memo:
 * the program's (srun_memo_init()), or NULL to work everything out. */
bool srun_failed(const struct syslet_inst *inst,
		 const struct syslet_uatom *atom, unsigned long nr, long *res,
		 struct srun_memo *memo);
/* Copy @len bytes at @addr, read through the kernel: false, and no
 * fault, where they are not all readable (an atom or the shell's set
 * may point anywhere). */
bool srun_peek(void *dst, const void *addr, size_t len);

/* Completions and trace events name only an atom: the instance it
 * belongs to is found by address, among the spans of atom arrays. */
struct srun_span {
	uintptr_t	lo, hi;
	size_t		id;	/* the caller's index of the instance */
};

/* s covers inst's atoms and answers id. */
void srun_span_set(struct srun_span *s, struct syslet_inst *inst, size_t id);
void srun_span_sort(struct srun_span *spans, size_t n);
/* The id of the span holding p, or -1; spans sorted. */
long srun_span_find(const struct srun_span *spans, size_t n, const void *p);
/* Keep spans sorted as instances come and go: put s in place of the span
 * that starts where it does, or among them (room for one more); drop
 * the span holding p, which then answers -1 until a span takes its
 * place. */
void srun_span_put(struct srun_span *spans, size_t *n,
		   const struct srun_span *s);
void srun_span_drop(struct srun_span *spans, size_t n, const void *p);
/* srun_span_find() and srun_span_drop() in one search. */
long srun_span_take(struct srun_span *spans, size_t n, const void *p);

#endif /* SYSLET_RUN_RUN_H */
