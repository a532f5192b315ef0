/* exec.c: running instances through the five calls: one, or one per argument all in flight; the stop report. */
#include <config.h>

#include <errno.h>
#include <linux/futex.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "trace.h"
#include "common/quote.h"

struct job {
	struct syslet_inst	*inst;
	struct syslet_uatom	*first;
	struct syslet_uatom	*last;	/* set when it completed */
	const char		*arg;
	/* --each: the stop report, made as the syslet ended (lane_ended()) */
	char			*report;
};

struct runner {
	const struct srun_opts	*opts;
	const char		*entry;
	const struct syslet_obj	*obj;
	char			**argv;
	struct job		*jobs;
	size_t			nr_jobs;
	struct srun_span	*index;	/* completion -> job */
	struct srun_trace	*tr;	/* NULL: neither --trace nor --stats */
	struct srun_memo	memo;	/* srun_failed()'s, for the image */
	bool			reuse;	/* --each: instances made as submitted */
	size_t			first;	/* the entry's atom (r->reuse) */
	/* The first job no lane has taken (lane_claim()), and whether a
	 * lane failed: the others then take no more. */
	size_t			next_job;
	bool			stop;
	/* Every lane sets up its head before any runs (lane_gate()). */
	pthread_mutex_t		gate_lock;
	pthread_cond_t		gate_cond;
	size_t			gate_expected, gate_arrived, gate_failed;
	int			gate_errno;	/* the first failure's */
	bool			gate_reported;	/* a lane said why */
	bool			ring_said;	/* "no memory for a ring" */
};

/*
 * One submitting thread with its own head and ring, as the kernel's heads
 * are per task: --each runs the instances on --jobs lanes, each taking the
 * next few in argument order as it is ready for them (lane_claim()).
 */
struct lane {
	struct runner		*r;
	size_t			share;		/* its ring's: jobs / lanes */
	size_t			nlanes;
	struct async_head_user	ahu;
	struct syslet_uatom	**ring;
	unsigned long		ring_entries;
	unsigned long		head;
	size_t			pending;
	bool			registered;
	/* Its thread keeps the head after a signal and never ends. */
	bool			kept;
	/* Its thread ran its share and waits for the exit (lane_park()). */
	bool			parked;
	/* 1 once its thread is about to end (a futex word: lane_join()). */
	uint32_t		ended;
	int			err;		/* -1: it failed (reported) */
	size_t			idx;
	pthread_t		thread;
	/* With r->reuse: the lane's instances by address, sorted; a freed
	 * instance's span stays, dropped, until its slot is taken again. */
	struct srun_span	*spans;
	size_t			nspans;
};

/*
 * With --trace or --stats, SIGINT, SIGTERM and SIGHUP end the run as
 * strace -c ends on them: what was counted and traced is printed, then
 * the process dies of the same signal, so that its parent sees what
 * killed it.  The handler only records the signal (the first one wins)
 * and passes it on to every submitting thread, so that each leaves its
 * async_wait() (EINTR) or has its inline chain stopped by the engine
 * after the current atom, as a signal stops a syslet in the kernel.
 * Nothing waits for the syslets still in workers: the signal ends them
 * with the process.
 */
static int srun_caught;
static pid_t *srun_lane_tids;
static size_t srun_nlanes;
/* And the signals whose default ends a process that a syslet raises on
 * itself (a write to a closed pipe, alarm(), kill(getpid(), ...)): strace
 * shows the end those make too. */
static const int srun_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM,
				 SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF };

static void srun_on_signal(int sig)
{
	int saved = errno, none = 0;

	if (__atomic_compare_exchange_n(&srun_caught, &none, sig, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		pid_t self = (pid_t)syscall(SYS_gettid), pid = getpid();

		for (size_t i = 0; i < srun_nlanes; i++) {
			pid_t t = __atomic_load_n(&srun_lane_tids[i],
						  __ATOMIC_SEQ_CST);

			if (t > 0 && t != self)
				syscall(SYS_tgkill, pid, t, sig);
		}
	}
	errno = saved;
}

static int srun_signalled(void)
{
	return __atomic_load_n(&srun_caught, __ATOMIC_SEQ_CST);
}

/*
 * A signal cut this lane's batch short, with --trace or --stats.  A
 * process-directed one stops the chains of every lane that sees it
 * pending, but only one thread runs the handler: another lane could
 * look at srun_caught before that handler set it, and start its next
 * syslet (a third syslet ran and stopped where two were in flight).
 * So wait a while for the handler; a stop signal (SIGTSTP) has none,
 * and the lane goes on after the wait.
 */
static void srun_wait_handler(void)
{
	struct timespec d = { 0, 1000 * 1000 };

	for (int i = 0; i < 1000 && !srun_signalled(); i++)
		nanosleep(&d, NULL);
}

/* Catch the signals a user ends a run with, unless they are ignored (a
 * background job's SIGINT stays ignored, as strace leaves it). */
static void srun_catch(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = srun_on_signal;
	/* No SA_RESTART: a call blocked in place returns EINTR and its
	 * chain ends, as in the kernel. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(srun_sigs) / sizeof(srun_sigs[0]); i++)
		sigaddset(&sa.sa_mask, srun_sigs[i]);
	for (size_t i = 0; i < sizeof(srun_sigs) / sizeof(srun_sigs[0]); i++) {
		sigaction(srun_sigs[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(srun_sigs[i], &sa, NULL);
	}
}

static void srun_uncatch(const struct sigaction *old)
{
	for (size_t i = 0; i < sizeof(srun_sigs) / sizeof(srun_sigs[0]); i++)
		sigaction(srun_sigs[i], &old[i], NULL);
}

/* Die of @sig as if it had never been caught; a signal that does not
 * end the process so (a parent may have left it ignored) gives the
 * shell's 128 + N. */
static void __attribute__((noreturn)) srun_die_of(int sig)
{
	struct sigaction sa;
	sigset_t set;

	fflush(stdout);
	fflush(stderr);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

void srun_format_event(char *buf, size_t len, const struct syslet_event *ev)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	int bad = !f;

	if (f) {
		bad = syslet_print_result(f, ev) != 0;
		bad |= fclose(f) != 0 || !s;
	}
	if (bad)
		snprintf(buf, len, "%ld", ev->ret);
	else
		snprintf(buf, len, "%s", s);
	free(s);
}

void srun_format_result(char *buf, size_t len, long result, unsigned long nr)
{
	struct syslet_event ev = { .sz = sizeof(ev), .nr = nr, .ret = result };

	if (nr == SRUN_NR_VALUE) {
		snprintf(buf, len, "%ld", result);
		return;
	}
	srun_format_event(buf, len, &ev);
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

const char *srun_call_label(unsigned long nr, char *buf, size_t len)
{
	const char *name = srun_call_name(nr);

	if (name)
		return name;
	snprintf(buf, len, "syscall_%lu", nr);
	return buf;
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

static bool is_errno(long v)
{
	return v < 0 && v > -4096;
}

/* The word @atom, run as @nr, reads when it is a read, umem_add(p, 0):
 * p, else NULL. */
static const void *read_of(const struct syslet_uatom *atom, unsigned long nr)
{
	unsigned long p, inc;

	if (srun_is_call(nr) || !atom->arg_ptr[0] || !atom->arg_ptr[1] ||
	    !srun_peek(&p, atom->arg_ptr[0], sizeof(p)) ||
	    !srun_peek(&inc, atom->arg_ptr[1], sizeof(inc)) || inc)
		return NULL;
	return (const void *)p;
}

/* run_next_atom() of seeds/006: whether @atom's stop test is true. */
static bool stops_on(const struct syslet_uatom *atom, long v)
{
	switch (atom->flags & SYSLET_STOP_MASK) {
	case SYSLET_STOP_ON_NONZERO:
		return v != 0;
	case SYSLET_STOP_ON_ZERO:
		return v == 0;
	case SYSLET_STOP_ON_NEGATIVE:
		return v < 0;
	case SYSLET_STOP_ON_NON_POSITIVE:
		return v <= 0;
	}
	return false;
}

/* Whether the word at @addr is a variable (not a parameter, whose value
 * the command line gives) that starts with a value that is no errno. */
static bool plain_var(const struct syslet_inst *inst, const void *addr)
{
	const struct syslet_obj *obj = syslet_inst__obj(inst);
	const char *name = syslet_inst__cell_at(inst, addr);
	struct syslet_inst *fresh;
	unsigned long *cell;
	bool var = false;
	char err[8];

	if (!name)
		return false;
	for (size_t i = 0; i < syslet_obj__sym_count(obj); i++) {
		struct syslet_sym_info si = { .sz = sizeof(si) };

		if (!syslet_obj__sym_info(obj, i, &si) && si.name &&
		    !strcmp(si.name, name))
			var = si.kind == SYSLET_SYM_VAR;
	}
	if (!var)
		return false;
	fresh = syslet_obj__instantiate(obj, err, sizeof(err));
	if (!fresh)
		return false;
	cell = syslet_inst__cell(fresh, name);
	var = cell && !is_errno((long)*cell);
	syslet_inst__free(fresh);
	return var;
}

/*
 * Whether only system calls' results are ever stored into the variable
 * at @addr: at least one atom has it for its result pointer, all such
 * atoms are calls, and no atom is handed its address, but the reads
 * (umem_add(&v, 0)) that test or copy it.  Then an errno in it is the
 * result of a call that failed, whether the test of it was fused into
 * that call (fd = open(...); if (fd < 0) stop;) or not ({ fd = open(...);
 * } if (fd < 0) stop;, or another statement between the two).
 */
static bool calls_only(const struct syslet_inst *inst, const void *addr)
{
	struct syslet_inst *in = (struct syslet_inst *)inst;
	size_t n = syslet_obj__atom_count(syslet_inst__obj(inst));
	size_t calls = 0;

	for (size_t i = 0; i < n; i++) {
		const struct syslet_uatom *a = syslet_inst__atom(in, i);

		if (!a)
			return false;
		if ((const void *)a->ret_ptr == addr) {
			if (!srun_is_call(a->nr))
				return false;
			calls++;
		}
		if (read_of(a, a->nr) == addr)
			continue;
		for (int k = 0; k < 6 && a->arg_ptr[k]; k++) {
			unsigned long w;

			if (!srun_peek(&w, a->arg_ptr[k], sizeof(w)) ||
			    w == (unsigned long)addr)
				return false;
		}
	}
	return calls > 0 && plain_var(inst, addr);
}

int srun_memo_init(struct srun_memo *memo, const struct syslet_obj *obj)
{
	memo->n = syslet_obj__atom_count(obj);
	memo->calls_only = calloc(memo->n ? memo->n : 1, 1);
	if (!memo->calls_only) {
		memo->n = 0;
		return -1;
	}
	return 0;
}

void srun_memo_free(struct srun_memo *memo)
{
	free(memo->calls_only);
	memo->calls_only = NULL;
	memo->n = 0;
}

/* calls_only() for the test @atom reads @v through: it depends on the
 * program alone, so once per image where @memo is given. */
static bool calls_only_memo(const struct syslet_inst *inst,
			    const struct syslet_uatom *atom, const void *v,
			    struct srun_memo *memo)
{
	long i = memo && memo->calls_only ?
		 syslet_inst__atom_index(inst, atom) : -1;
	unsigned char known;
	bool yes;

	if (i < 0 || (size_t)i >= memo->n)
		return calls_only(inst, v);
	known = __atomic_load_n(&memo->calls_only[i], __ATOMIC_RELAXED);
	if (known)
		return known == 2;
	yes = calls_only(inst, v);
	__atomic_store_n(&memo->calls_only[i], yes ? 2 : 1, __ATOMIC_RELAXED);
	return yes;
}

/* A test of a variable, not a copy of it that a later atom tests: its
 * role in the image, or without debug records a result stored nowhere. */
static bool bare_test(const struct syslet_inst *inst,
		      const struct syslet_uatom *atom)
{
	SYSLET_OPTS(syslet_atom_info, ai);

	if (syslet_inst__atom_info(inst, atom, &ai) == 0 &&
	    ai.role != SYSLET_ROLE_UNKNOWN)
		return ai.role == SYSLET_ROLE_TEST;
	return !atom->ret_ptr;
}

/*
 * The number in the atom now is what it ran with, even when an earlier
 * atom rewrote it; not when the atom rewrote it itself.  A umem_add
 * whose target is its own nr left umem_add + inc there (and its result):
 * that one is known from its arguments, which it does not change.  What
 * a call wrote over its own number through a pointer only an observer
 * saw (struct syslet_event's nr, srun_trace_ended()).
 */
unsigned long srun_ran_nr(const struct syslet_uatom *atom)
{
	long umem = syslet_sysno(SYSLET_CALL_UMEM_ADD);
	unsigned long p, inc;

	if (umem >= 0 && atom->arg_ptr[0] && atom->arg_ptr[1] &&
	    srun_peek(&p, atom->arg_ptr[0], sizeof(p)) &&
	    p == (unsigned long)&atom->nr &&
	    srun_peek(&inc, atom->arg_ptr[1], sizeof(inc)) &&
	    atom->nr - inc == (unsigned long)umem)
		return (unsigned long)umem;
	return atom->nr;
}

bool srun_failed(const struct syslet_inst *inst,
		 const struct syslet_uatom *atom, unsigned long nr, long *res,
		 struct srun_memo *memo)
{
	const void *v;

	if (nr >= (unsigned long)syslet_syscall_count()) {
		*res = -ENOSYS;
		return true;
	}
	*res = srun_result(inst, atom);
	if (!is_errno(*res))
		return false;
	if (srun_is_call(nr))
		return true;
	/* A test that ended the syslet on a variable that holds what a
	 * call returned: the call failed, as when the test is fused.  It
	 * ended it by its stop (without SKIP), or, a bare test (no copy),
	 * by a NULL next when its test let it go on (next_uatom() of
	 * seeds/006): `if (fd < 0) stop;` as a program's last statement,
	 * whose atom needs no stop flag, both of its ways ending there. */
	v = read_of(atom, nr);
	return v && (stops_on(atom, *res) ?
		     !(atom->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) :
		     !atom->next && bare_test(inst, atom)) &&
	       calls_only_memo(inst, atom, v, memo);
}

/*
 * The call that failed with the values it ran with, as strace shows it:
 * open("/nonexist", O_RDONLY) = -2 ENOENT says which path failed, where
 * the statement only names the variable.  The arguments are read now,
 * through the kernel, as the atom fetched them: nothing ran after the
 * atom that ended the syslet.  Only a result stored into a cell the call
 * also read (n = read(fd, buf, n)) replaced its argument: then no call
 * is shown (false), rather than a value it did not run with.
 */
static bool print_failed_call(FILE *out, const struct syslet_uatom *atom,
			      unsigned long nr, long result)
{
	struct syslet_event ev = { .sz = sizeof(ev) };

	ev.atom = (struct syslet_uatom *)atom;
	ev.flags = atom->flags;
	ev.nr = nr;
	ev.ret = result;
	ev.end = SYSLET_END_STOP;
	while (ev.nargs < 6 && atom->arg_ptr[ev.nargs]) {
		const void *p = atom->arg_ptr[ev.nargs];

		if (p == (const void *)atom->ret_ptr ||
		    !srun_peek(&ev.args[ev.nargs], p, sizeof(ev.args[0])))
			return false;
		ev.nargs++;
	}
	return syslet_print_call(out, &ev, SYSLET_PRINT_WHOLE) == 0;
}

void srun_stop_report(FILE *out, const char *progname, const char *arg,
		      const char *entry, const struct syslet_inst *inst,
		      const struct syslet_uatom *atom, unsigned long nr,
		      long result, bool injected)
{
	SYSLET_OPTS(syslet_atom_info, ai);
	const char *ran = srun_call_name(nr);
	char res[48], num[48], label[48];

	/* A test of a variable that a failed call wrote (srun_failed()):
	 * its value is that call's errno. */
	const char *var = srun_is_call(nr) ? NULL :
			  syslet_inst__cell_at(inst, read_of(atom, nr));

	srun_format_result(res, sizeof(res), result, var ? SRUN_NR_CALL : nr);
	if (nr >= (unsigned long)syslet_syscall_count()) {
		snprintf(num, sizeof(num), "syscall %lu, past the table", nr);
		ran = num;
	} else if (!ran) {
		snprintf(num, sizeof(num), "syscall %lu", nr);
		ran = num;
	}
	if (arg) {
		/* Quoted when empty or with a control byte: a file name
		 * from a list may hold a newline, which split the report's
		 * one line in two, or an escape, which the terminal ran.
		 * Cut past PATH_MAX bytes, which no path that opens has:
		 * a 120 KB argument was 120 KB of report. */
		fprintf(out, "%s: %s: ", progname,
			common_quote_max(arg, PATH_MAX));
	} else
		fprintf(out, "%s: ", progname);
	if (syslet_inst__atom_info(inst, atom, &ai)) {
		fprintf(out, "%s stopped: %s: %s%s\n", entry, ran, res,
			injected ? " (INJECTED)" : "");
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
		/* The atom's number was rewritten before it ran (in the
		 * image or in memory): what it was compiled as, the debug
		 * name, is not what it ran; a number without a name is
		 * the compiler's syscall_335, as --stats names it. */
		if (!ai.syscall || strcmp(ai.syscall, srun_call_label(
				nr, label, sizeof(label))))
			fprintf(out, "; it ran %s", ran);
		fputc(')', out);
	} else {
		fprintf(out, " (%s)", ran);
	}
	fputs(": ", out);
	if (var)
		fprintf(out, "%s = ", var);
	else if (print_failed_call(out, atom, nr, result))
		fputs(" = ", out);
	/* Not the call's own failure: --inject chose it. */
	fprintf(out, "%s%s\n", res, injected ? " (INJECTED)" : "");
}

/* The instances of the run, kept until the process ends (srun_run);
 * volatile, or the compiler drops the store to a variable nothing reads
 * and leak checkers see the instances lost. */
static struct job *volatile srun_left;
/* Lane 0's ring, its head left to the exit (lane_main()), and the
 * lanes whose threads wait for it with theirs (lane_park()). */
static struct syslet_uatom **volatile srun_left_ring;
static struct lane *volatile srun_left_lanes;

static struct job *job_of(const struct runner *r,
			  const struct syslet_uatom *atom)
{
	long i = srun_span_find(r->index, r->nr_jobs, atom);

	return i < 0 ? NULL : &r->jobs[i];
}

/* The number job @j's last atom ran with: as the observer saw it run,
 * where one watches (--trace, --stats, --inject), else srun_ran_nr(). */
static unsigned long job_nr(const struct runner *r, const struct job *j)
{
	unsigned long nr;

	if (srun_trace_ended(r->tr, (size_t)(j - r->jobs), j->last, &nr))
		return nr;
	return srun_ran_nr(j->last);
}

/* A --each argument that its parameter does not take: which of them,
 * among thousands a shell's glob or $(seq) gave. */
static void each_bind_error(const char *pn, int i, int argc, const char *err)
{
	fprintf(stderr, "%s: --each argument %d of %d: %s\n", pn, i + 1, argc,
		err);
}

/*
 * --each makes each instance as its syslet is submitted, and frees it as
 * soon as it has ended without a stop to report, so that later instances
 * take its slot, its pages already in memory: 1,000 instances made up
 * front took 2,000 page faults, the most of a cached run's time, where a
 * loop over the files reuses one buffer.  With --trace or --stats too:
 * kept, 20,000 instances took 170 MB.  Every argument is bound first, to
 * one instance made for that: a bad one is still reported before
 * anything runs.  A string
 * parameter takes any argument, so then the first one is bound alone,
 * for the message of an entry that does not take one parameter.
 */
static int setup_reuse(struct runner *r, int argc, char **argv)
{
	const char *pn = r->opts->progname;
	struct syslet_param par = { .sz = sizeof(par) };
	struct syslet_inst *inst;
	char err[256];
	int check = argc;
	long idx;

	if (syslet_obj__entry_params(r->obj, r->entry) == 1 &&
	    !syslet_obj__entry_param(r->obj, r->entry, 0, &par) &&
	    par.type == SYSLET_PARAM_STR)
		check = argc > 0;
	for (int i = 0; i < argc; i++)
		r->jobs[i].arg = argv[i];
	inst = syslet_obj__instantiate(r->obj, err, sizeof(err));
	if (!inst) {
		fprintf(stderr, "%s: %s\n", pn, err);
		return -1;
	}
	for (int i = 0; i < check; i++) {
		if (syslet_inst__bind(inst, r->entry, 1, &argv[i], err,
				      sizeof(err))) {
			each_bind_error(pn, i, argc, err);
			syslet_inst__free(inst);
			return -1;
		}
	}
	/* The same in every instance: looked up by name once, not per
	 * file (lane_make()). */
	idx = syslet_inst__atom_index(inst, syslet_inst__entry(inst,
							       r->entry));
	syslet_inst__free(inst);
	if (idx < 0) {
		fprintf(stderr, "%s: %s: %s\n", pn, r->entry,
			strerror((int)-idx));
		return -1;
	}
	r->first = (size_t)idx;
	return 0;
}

static int setup(struct runner *r, const struct syslet_obj *obj, int argc,
		 char **argv)
{
	const char *pn = r->opts->progname;
	char err[256];

	r->nr_jobs = r->opts->each ? (size_t)argc : 1;
	r->reuse = r->opts->each;
	r->jobs = calloc(r->nr_jobs + 1, sizeof(*r->jobs));
	/* With r->reuse each lane keeps its own index (lane_take()): this
	 * one, zeroed by calloc, cost a page fault every 170 files. */
	r->index = r->reuse ? NULL : calloc(r->nr_jobs + 1, sizeof(*r->index));
	if (!r->jobs || (!r->reuse && !r->index)) {
		fprintf(stderr, "%s: out of memory\n", pn);
		return -1;
	}
	r->obj = obj;
	r->argv = argv;
	srun_memo_init(&r->memo, obj);	/* without it: slower, as right */
	if (r->reuse)
		return setup_reuse(r, argc, argv);
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
		if (bad && r->opts->each) {
			each_bind_error(pn, (int)i, argc, err);
			return -1;
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
	size_t n = l->share;

	/* A lane that takes more than its share finds the slots of those
	 * that ended free again: cached files end as they are submitted. */
	l->ring_entries = r->opts->ring ? (unsigned long)r->opts->ring :
			  n < 64 ? 64 : n;
	l->ring = calloc(l->ring_entries, sizeof(*l->ring));
	if (!l->ring) {
		/* Every lane asks for the same ring: one says so. */
		if (!__atomic_exchange_n(&r->ring_said, true, __ATOMIC_RELAXED))
			fprintf(stderr, "%s: no memory for a ring of %lu entries\n",
				pn, l->ring_entries);
		__atomic_store_n(&r->gate_reported, true, __ATOMIC_RELAXED);
		return -ENOMEM;
	}
	l->ahu.completion_ring = l->ring;
	l->ahu.ring_size_bytes = l->ring_entries * sizeof(*l->ring);
	l->ahu.max_nr_threads = r->opts->threads ?
				(unsigned long)r->opts->threads : -1UL;
	/* Reported by run_lanes(): with other lanes set up, the run goes
	 * on with fewer. */
	if (sys_async_register(&l->ahu, sizeof(l->ahu)))
		return -errno;
	l->registered = true;
	return 0;
}

/* Make and bind job @i's instance (r->reuse); -1: reported. */
static int lane_make(struct lane *l, size_t i)
{
	struct runner *r = l->r;
	struct job *j = &r->jobs[i];
	struct srun_span sp;
	char err[256];

	j->inst = syslet_obj__instantiate(r->obj, err, sizeof(err));
	if (!j->inst ||
	    syslet_inst__bind(j->inst, r->entry, 1, &r->argv[i], err,
			      sizeof(err))) {
		fprintf(stderr, "%s: %s\n", r->opts->progname, err);
		return -1;
	}
	j->first = syslet_inst__atom(j->inst, r->first);
	srun_trace_add(r->tr, i, j->inst);
	/* A slot new to the lane adds a span: at most one per job (a lane
	 * may take the rest of the jobs: room for all). */
	srun_span_set(&sp, j->inst, i);
	srun_span_put(l->spans, &l->nspans, &sp);
	return 0;
}

/* The job whose live instance holds @atom (r->reuse), or NULL; its span
 * dropped (lane_ended() would: one search, not two). */
static struct job *lane_take(struct lane *l, const struct syslet_uatom *atom)
{
	long i = srun_span_take(l->spans, l->nspans, atom);

	return i < 0 ? NULL : &l->r->jobs[i];
}

/*
 * Job @j's syslet has ended (r->reuse): its instance goes now and its
 * slot to a later one.  A stop is reported from the instance, so its
 * report is made now, to be printed by report() in argument order: kept
 * to the end instead, every instance that failed held its buffers, and
 * 200 missing files with a 16 MiB buffer took 3.2 GB (under ulimit -v,
 * 'cannot map an instance' and no report at all).  Without memory for
 * the text, the instance stays and is reported from there.
 */
static void lane_ended(struct lane *l, struct job *j, bool taken)
{
	struct runner *r = l->r;
	unsigned long nr;
	long res;

	if (!r->reuse)
		return;
	nr = job_nr(r, j);
	if (srun_failed(j->inst, j->last, nr, &res, &r->memo)) {
		char *text = NULL;
		size_t len;
		FILE *mem = open_memstream(&text, &len);

		if (!mem)
			return;
		srun_stop_report(mem, r->opts->progname, j->arg, r->entry,
				 j->inst, j->last, nr, res,
				 srun_trace_injected(r->tr,
						     (size_t)(j - r->jobs),
						     j->last));
		if (fclose(mem) || !text || !len) {
			free(text);
			return;
		}
		j->report = text;
	}
	if (!taken)
		srun_span_drop(l->spans, l->nspans, j->last);
	srun_trace_drop(l->r->tr, (size_t)(j - l->r->jobs), j->inst);
	syslet_inst__free(j->inst);
	j->inst = NULL;
}

/* Take every completion the ring holds, in order, clearing the slots. */
static int drain(struct lane *l)
{
	struct runner *r = l->r;
	int got = 0;

	while (l->ring[l->head]) {
		struct syslet_uatom *a = l->ring[l->head];
		struct job *j = r->reuse ? lane_take(l, a) : job_of(r, a);

		l->ring[l->head] = NULL;
		l->head = (l->head + 1) % l->ring_entries;
		got++;
		/* With r->reuse, only the lane's own instances are found
		 * (lane_take()); one lane else. */
		if (!j || j->last) {
			fprintf(stderr, "%s: stray completion %p in the ring\n",
				r->opts->progname, (void *)a);
			continue;
		}
		j->last = a;
		l->pending--;
		lane_ended(l, j, true);
	}
	return got;
}

/* Syslets handed to the library at once (syslet_exec_batch: the engine
 * checks its fault handler and masks signals once for all of them). */
#define SUBMIT_BATCH	256
#define SUBMIT_REUSE	64
/* ... shared among the lanes, down to this many a lane. */
#define SUBMIT_REUSE_MIN	16
/* The smallest share a lane takes at once (lane_claim()). */
#define CLAIM_MIN	32

/* Wait for the lane's syslets in flight and take their completions: 0,
 * -1 (async_wait failed; said if @say) or -3 (a signal ends the run). */
static int wait_pending(struct lane *l, bool say)
{
	while (l->pending) {
		/* The syslets that ended before the signal are taken, so
		 * that their stops are reported. */
		if (srun_signalled()) {
			drain(l);
			return -3;
		}
		if (drain(l))
			continue;
		if (sys_async_wait(1) < 0) {
			if (errno == EINTR)
				continue;
			if (say)
				fprintf(stderr, "%s: async_wait: %s\n",
					l->r->opts->progname, strerror(errno));
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

/*
 * Take the next jobs for lane @l, at most @want, the first to *@first:
 * how many, 0 once none are left or a lane failed.  Fixed halves left a
 * lane that started late, or that the scheduler slowed, finishing alone
 * while the other idled (1,000 cached files, 2 lanes, a loaded machine:
 * one lane idle 0.2-3.6 ms at the end of 2.5-6.5 ms); taken a chunk at a
 * time, the lanes end within a chunk of each other.  Near the end the
 * chunks shrink to half of what is left per lane, as OpenMP's guided
 * schedule does, down to CLAIM_MIN: each chunk costs the engine a few
 * system calls (283 in all where chunks of 64 made 264 and of 8, 484).
 */
static size_t lane_claim(struct lane *l, size_t want, size_t *first)
{
	struct runner *r = l->r;
	size_t at = __atomic_load_n(&r->next_job, __ATOMIC_RELAXED), n;
	/* A few instances are shared as fixed shares shared them, one
	 * lane's each: those that loop or block in place (a sync read of
	 * a terminal) hold one lane each, not all on the first lane. */
	size_t least = (r->nr_jobs + l->nlanes - 1) / l->nlanes;

	if (least > CLAIM_MIN)
		least = CLAIM_MIN;
	if (least > want)
		least = want;
	do {
		if (at >= r->nr_jobs || __atomic_load_n(&r->stop,
							__ATOMIC_RELAXED))
			return 0;
		n = (r->nr_jobs - at) / (2 * l->nlanes);
		if (n > want)
			n = want;
		if (n < least)
			n = least;
		if (n > r->nr_jobs - at)
			n = r->nr_jobs - at;
	} while (!__atomic_compare_exchange_n(&r->next_job, &at, at + n, true,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	*first = at;
	return n;
}

/* 0, -1 (a call to the backend failed: reported) or -3 (a signal ends
 * the run). */
static int submit_and_wait(struct lane *l)
{
	const char *pn = l->r->opts->progname;
	/* A quarter of the ring at a time, so that it does not fill while
	 * submitting; one by one when each syslet's submission is timed
	 * (-T). */
	size_t chunk = l->ring_entries / 4 ? l->ring_entries / 4 : 1;
	bool failed = false;

	if (chunk > SUBMIT_BATCH)
		chunk = SUBMIT_BATCH;
	/* Instances made as they go (r->reuse): a small chunk lets the
	 * next take the slots of the syslets that ended meanwhile (1,000
	 * cached files, 2 jobs: 910 page faults at 125, 680 at 64, 550 at
	 * 32, 480 at 16, for the same CPU time, when each instance took
	 * its faults).  Each chunk costs the engine its fault handler's
	 * check and its signal mask set and restored (4 system calls) and
	 * on uring 3 io_uring_enter for an open/read/close syslet: 64 a
	 * chunk, now that new slots come in a few to a call and the
	 * engine's records are small, makes 290 calls where 32 made 387
	 * (422 before those), for 108-114 page faults (32: 103-111, and
	 * 109-112 before; 128: 116-125).
	 *
	 * Those are a lane's: the lanes make theirs at once, and each new
	 * slot's two pages are brought in (MADV_POPULATE_WRITE) and zeroed
	 * by the kernel, 1.6-1.8 us a page on this VM, where a slot taken
	 * again is zeroed by hand in under 0.1 us.  So SUBMIT_REUSE is
	 * shared out: with --jobs=2 (1,000 cached files), 64 a lane made
	 * 128 instances live at once and brought in 256-266 pages (410-470
	 * us of the lanes' time, measured around the calls), 32 a lane
	 * 72-128 pages (104-201 us), for 502 system calls where there were
	 * 368 (39 more io_uring_enter, 16 more checks of the fault
	 * handler, mask, process and file-system IDs): the lanes' CPU
	 * time, median of 60 runs, 3.90 ms then, 3.59 now. */
	if (l->r->reuse) {
		size_t most = SUBMIT_REUSE / l->nlanes;

		if (most < SUBMIT_REUSE_MIN)
			most = SUBMIT_REUSE_MIN;
		if (chunk > most)
			chunk = most;
	}
	if (l->r->opts->syscall_times)
		chunk = 1;
	/* made: the jobs below it have their instance (r->reuse). */
	for (size_t i = 0, end = 0, made = 0;;) {
		struct syslet_uatom *atoms[SUBMIT_BATCH], *done[SUBMIT_BATCH];
		int errs[SUBMIT_BATCH];
		size_t n;
		long k;

		if (srun_signalled())
			return -3;
		/* A batch cut short by a signal: the rest of it first. */
		if (i == end) {
			n = lane_claim(l, chunk, &i);
			if (!n)
				break;
			end = i + n;
			made = i;
		}
		n = end - i < chunk ? end - i : chunk;
		/*
		 * The rest of a batch that a stop signal cut short (SIGTSTP,
		 * then SIGCONT) was made with it: made again, each of those
		 * instances was lost in its slot, and the lane's spans, room
		 * for one a job, overran into the heap ('stray completion'
		 * and a crash).
		 */
		for (size_t m = 0; m < n; m++) {
			if (l->r->reuse && i + m >= made &&
			    lane_make(l, i + m))
				return -1;
			atoms[m] = l->r->jobs[i + m].first;
			srun_trace_submit(l->r->tr, i + m);
		}
		if (i + n > made)
			made = i + n;
		/* Fewer than n when a signal ended one: the rest next. */
		k = syslet_exec_batch(atoms, n, done, errs);
		if (k < 0) {
			fprintf(stderr, "%s: async_exec: %s\n", pn,
				strerror(errno));
			return -1;
		}
		/* Every syslet of the batch ran, after one that failed too:
		 * each is taken (its stop reported, or waited for) before
		 * the lane ends on the failure. */
		for (long m = 0; m < k; m++) {
			struct job *j = &l->r->jobs[i + (size_t)m];

			j->last = done[m];
			if (j->last) {
				lane_ended(l, j, false);
				continue;
			}
			if (errs[m]) {
				/* --each: whose syslet it was. */
				if (j->arg)
					fprintf(stderr, "%s: %s: ", pn,
						common_quote_max(j->arg,
								 PATH_MAX));
				else
					fprintf(stderr, "%s: ", pn);
				fprintf(stderr, "async_exec: %s\n",
					strerror(errs[m]));
				failed = true;
				continue;
			}
			l->pending++;
		}
		i += (size_t)k;
		drain(l);
		if (failed)
			return -1;
		/* The loop's test then ends the lane. */
		if ((size_t)k < n && l->r->tr)
			srun_wait_handler();
	}
	return wait_pending(l, true);
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

/*
 * Wait until every lane has tried to set up its head: true when all did.
 * A lane that could not (EMFILE under a tight ulimit -n, EAGAIN for a
 * ring, no memory) fails them all before anything runs, so that
 * run_lanes() runs every instance again on the lanes that could, rather
 * than leave one lane's instances unrun while the others ran theirs.
 */
static bool lane_gate(struct runner *r, int err)
{
	bool all;

	pthread_mutex_lock(&r->gate_lock);
	r->gate_arrived++;
	if (err) {
		if (!r->gate_failed++)
			r->gate_errno = -err;
	}
	pthread_cond_broadcast(&r->gate_cond);
	while (r->gate_arrived < r->gate_expected)
		pthread_cond_wait(&r->gate_cond, &r->gate_lock);
	all = !r->gate_failed;
	pthread_mutex_unlock(&r->gate_lock);
	return all;
}

/*
 * Lane @l (1..) has run its share and keeps its head for the exit: its
 * thread waits for it, as a thread that kept its head after a signal
 * does, rather than end.  An ending thread gives its stack's pages back
 * (glibc's madvise()) and its head would have to be unregistered first:
 * each of those a call that, in a process of several threads, flushes
 * the TLB of every CPU it ran on, and all of it undone by the exit a
 * moment later.  lane_join() takes it as joined: nothing of the lane is
 * used again, and its ring stays reachable (srun_left_lanes).
 */
static void lane_park(struct lane *l)
{
	if (srun_lane_tids)
		__atomic_store_n(&srun_lane_tids[l->idx], 0,
				 __ATOMIC_SEQ_CST);
	/* A signal the run catches may still come here: its handler only
	 * records it (srun_signalled()), for the caller's thread. */
	__atomic_store_n(&l->parked, true, __ATOMIC_SEQ_CST);
	__atomic_store_n(&l->ended, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &l->ended, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	for (;;)
		pause();
}

static void *lane_main(void *arg)
{
	struct lane *l = arg;
	int err;

	if (srun_lane_tids)
		__atomic_store_n(&srun_lane_tids[l->idx],
				 (pid_t)syscall(SYS_gettid), __ATOMIC_SEQ_CST);
	/* Room for a span per job, of which only the first nspans are
	 * ever read: not zeroed, so that the pages of those never written
	 * are never touched (calloc's memset took a page fault every 170
	 * files in each lane). */
	if (l->r->reuse &&
	    !(l->spans = reallocarray(NULL, l->r->nr_jobs + 1,
				      sizeof(*l->spans)))) {
		fprintf(stderr, "%s: out of memory\n", l->r->opts->progname);
		__atomic_store_n(&l->r->gate_reported, true, __ATOMIC_RELAXED);
		err = -ENOMEM;
	} else {
		err = lane_register(l);
	}
	/* -4: no lane ran; run_lanes() says why and what it does. */
	l->err = lane_gate(l->r, err) ? submit_and_wait(l) : -4;
	/* Failed part-way: the syslets in flight end first and are taken
	 * from the ring, so that report() tells what they did. */
	if (l->err == -1) {
		/* The other lanes take no more, as one lane would not. */
		__atomic_store_n(&l->r->stop, true, __ATOMIC_RELAXED);
		wait_pending(l, false);
	}
	/* After a signal, workers may still run syslets that complete into
	 * this ring: unregistering would wait for them.  The process ends
	 * instead, ring and head with it. */
	if (l->err == 0 && !srun_signalled()) {
		/*
		 * The process ends once the run is reported (srun_run()):
		 * a head with nothing in flight (every syslet taken or
		 * ended, wait_pending()) goes with the exit, which
		 * unregisters it as the kernel's does.  Unregistered here
		 * it cost the engine's handler check, its mask set and
		 * restored, and the ring unmapped and closed: 7 system
		 * calls on uring.  Lane 0 runs on the caller's thread; the
		 * others' threads then wait for the exit too (lane_park()).
		 * The rings are kept reachable, as the instances are.
		 */
		if (!l->idx)
			srun_left_ring = l->ring;
		else
			lane_park(l);
	} else if (l->err != -3 && !srun_signalled()) {
		lane_unregister(l);
	}
	if (srun_lane_tids)
		__atomic_store_n(&srun_lane_tids[l->idx], 0,
				 __ATOMIC_SEQ_CST);
	/* A thread that ends with its head registered unregisters it, and
	 * so waits for the chains in flight, as 2007's exit did
	 * (sys_async_unregister(3)): a lane thread that kept its head
	 * stays until the process ends. */
	if (l->registered && l->idx) {
		__atomic_store_n(&l->kept, true, __ATOMIC_SEQ_CST);
		for (;;)
			pause();
	}
	__atomic_store_n(&l->ended, 1, __ATOMIC_RELEASE);
	/* Lane 0 is the caller's, and nobody joins it. */
	if (l->idx)
		syscall(SYS_futex, &l->ended, FUTEX_WAKE_PRIVATE, 1, NULL,
			NULL, 0);
	return NULL;
}

/* Join a lane; after a signal, give up on one that has not come back
 * within seconds (it can only be stuck in a call no signal interrupts):
 * false then, and the lane stays allocated. */
static bool lane_join(struct lane *l)
{
	/* Waits of 100 ms that the kernel times (a futex's relative
	 * timeout), not deadlines read from the clock: the first read in
	 * a process maps the vDSO's data, two page faults. */
	for (int waited = 0;;) {
		struct timespec ts = { 0, 100000000L };

		if (__atomic_load_n(&l->kept, __ATOMIC_SEQ_CST))
			return false;
		if (__atomic_load_n(&l->ended, __ATOMIC_ACQUIRE)) {
			if (!__atomic_load_n(&l->parked, __ATOMIC_SEQ_CST))
				pthread_join(l->thread, NULL);
			return true;
		}
		syscall(SYS_futex, &l->ended, FUTEX_WAIT_PRIVATE, 0, &ts,
			NULL, 0);
		if (srun_signalled() && ++waited >= 30)
			return false;
	}
}

/* Lanes 1.. on threads of their own, lane 0 here. */
static int run_lanes(struct runner *r, size_t nlanes)
{
	struct lane *lanes = calloc(nlanes, sizeof(*lanes));
	size_t started = 1;	/* lane 0 runs here */
	bool kept = false;
	int err = 0;

	if (!lanes) {
		/* Nothing ran: as setup() without memory, status 2. */
		fprintf(stderr, "%s: out of memory\n", r->opts->progname);
		return -2;
	}
	/* Where the signal handler finds the lanes (kept: it may run
	 * until the process ends). */
	if (r->tr && !srun_lane_tids) {
		srun_lane_tids = calloc(nlanes, sizeof(*srun_lane_tids));
		if (srun_lane_tids)
			__atomic_store_n(&srun_nlanes, nlanes,
					 __ATOMIC_SEQ_CST);
	}
	for (size_t i = 0; i < nlanes; i++) {
		lanes[i].r = r;
		lanes[i].idx = i;
		lanes[i].nlanes = nlanes;
		lanes[i].share = (r->nr_jobs + nlanes - 1) / nlanes;
	}
	r->next_job = 0;
	r->stop = false;
	r->gate_expected = nlanes;
	r->gate_arrived = r->gate_failed = 0;
	r->gate_reported = false;
	for (size_t i = 1; i < nlanes; i++) {
		int e = pthread_create(&lanes[i].thread, NULL, lane_main,
				       &lanes[i]);

		if (!e) {
			started = i + 1;
			continue;
		}
		/*
		 * The lanes not started have no head either: those that
		 * did (waiting at the gate, their shares fixed) give theirs
		 * back and the run starts again on as many, rather than
		 * hand the rest to a lane that may be past its share.
		 */
		pthread_mutex_lock(&r->gate_lock);
		r->gate_expected = i;
		if (!r->gate_failed)
			r->gate_errno = e;
		r->gate_failed += nlanes - i;
		pthread_cond_broadcast(&r->gate_cond);
		pthread_mutex_unlock(&r->gate_lock);
		break;
	}
	lane_main(&lanes[0]);
	err = lanes[0].err;
	for (size_t i = 1; i < started; i++) {
		if (!lane_join(&lanes[i])) {
			/* Kept its head after a signal, or still running:
			 * the lanes must stay.  Every lane is waited for
			 * first: one that had not yet seen the signal went
			 * on taking completions while report() read them,
			 * and a stop the trace showed had no report. */
			kept = true;
			continue;
		}
		if (lanes[i].err < err)
			err = lanes[i].err;
	}
	if (srun_signalled()) {
		/* The completions written since each lane's last look at
		 * its ring are taken too, from the lanes that are back
		 * (one stuck in a call is left alone). */
		for (size_t i = 0; i < started; i++)
			if (lanes[i].ring &&
			    (__atomic_load_n(&lanes[i].kept, __ATOMIC_SEQ_CST) ||
			     __atomic_load_n(&lanes[i].ended,
					     __ATOMIC_ACQUIRE)))
				drain(&lanes[i]);
	}
	if (kept)
		return -3;
	for (size_t i = 0; i < started; i++) {
		free(lanes[i].spans);
		if (lanes[i].parked)
			srun_left_lanes = lanes;
	}
	if (srun_left_lanes != lanes)
		free(lanes);
	if (err == -4) {
		size_t ok = nlanes - r->gate_failed;

		if (!ok) {
			/* As before anything runs: a usage error (exit 2). */
			if (!r->gate_reported)
				fprintf(stderr, "%s: async_register: %s\n",
					r->opts->progname,
					strerror(r->gate_errno));
			return -2;
		}
		fprintf(stderr,
			"%s: --each: %zu of %zu submitting threads could not "
			"set up a head (%s): running on %zu\n",
			r->opts->progname, r->gate_failed, nlanes,
			strerror(r->gate_errno), ok);
		return run_lanes(r, ok);
	}
	return err;
}

static int report(struct runner *r)
{
	int status = SRUN_OK;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		struct job *j = &r->jobs[i];
		unsigned long nr;
		long res;

		if (j->report) {
			status = SRUN_STOPPED;
			fputs(j->report, stderr);
			continue;
		}
		/* Went async and ended on a nocomplete atom: its end is not
		 * known, as asked.  Freed at its end: nothing to report. */
		if (!j->last || !j->inst)
			continue;
		/* A test or an arithmetic atom ends a syslet normally,
		 * whatever its value. */
		nr = job_nr(r, j);
		if (!srun_failed(j->inst, j->last, nr, &res, &r->memo))
			continue;
		status = SRUN_STOPPED;
		srun_stop_report(stderr, r->opts->progname, j->arg, r->entry,
				 j->inst, j->last, nr, res,
				 srun_trace_injected(r->tr,
						     (size_t)(j - r->jobs),
						     j->last));
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
	struct runner r = { .opts = opts, .entry = entry,
			    .gate_lock = PTHREAD_MUTEX_INITIALIZER,
			    .gate_cond = PTHREAD_COND_INITIALIZER };
	struct srun_trace *tr = NULL;
	struct sigaction old_sa[sizeof(srun_sigs) / sizeof(srun_sigs[0])];
	bool caught = false;
	int status = SRUN_USAGE, err, sig;
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
	/* With --inject alone the observer only tells which stops were
	 * injected, for their reports. */
	if (opts->trace || opts->stats || opts->inject) {
		tr = srun_trace_start(opts, r.nr_jobs);
		if (!tr)
			goto out;
		/* Instances made as they go (r.reuse) are added then. */
		for (size_t i = 0; !r.reuse && i < r.nr_jobs; i++)
			srun_trace_add(tr, i, r.jobs[i].inst);
		r.tr = tr;
	}
	if (tr && (opts->trace || opts->stats)) {
		srun_catch(old_sa);
		caught = true;
	}
	/* Only the trace shows the time: the clock's first read in a
	 * process maps the vDSO's data pages, two page faults. */
	t0 = tr ? now() : 0;
	lanes = opts->each && opts->jobs > 1 ? (size_t)opts->jobs : 1;
	err = run_lanes(&r, lanes < r.nr_jobs ? lanes : r.nr_jobs);
	sig = srun_signalled();
	if (sig) {
		/* What was counted and traced, the stops of the syslets
		 * that had ended (each once: the others have no last atom
		 * and no report), then the signal's own end; the instances
		 * stay, syslets may still run in them. */
		/* The lanes are back and took what their rings held
		 * (run_lanes()); the trace ends here, an event under way
		 * included, so that it shows no end that is not reported. */
		srun_trace_cut(tr);
		/* An end the trace showed whose completion no lane took
		 * (the worker wrote it after the rings' last drain): its
		 * stop is reported as the trace tells it. */
		for (size_t i = 0; i < r.nr_jobs; i++)
			if (r.jobs[i].inst && !r.jobs[i].last)
				r.jobs[i].last = (struct syslet_uatom *)
					srun_trace_final(tr, i);
		srun_trace_killed(tr, now() - t0);
		report(&r);
		srun_trace_died(tr, sig);
		srun_die_of(sig);
	}
	if (err) {
		status = err == -2 ? SRUN_USAGE : SRUN_STOPPED;
		/* A failure part-way, said already: what ran is told too,
		 * what --stats counted and the stops of the syslets that
		 * ended before it, as at a run's end. */
		if (err == -1) {
			if (tr)
				srun_trace_stop(tr, now() - t0);
			report(&r);
			if (tr)
				srun_trace_exited(tr, status);
		}
		goto out;
	}
	if (tr)
		srun_trace_stop(tr, now() - t0);
	status = report(&r);
	if (tr)
		srun_trace_exited(tr, status);
out:
	if (caught) {
		srun_uncatch(old_sa);
		/* Caught after the run had ended: it still ends us. */
		sig = srun_signalled();
		if (sig)
			srun_die_of(sig);
	}
	srun_trace_free(tr);
	/*
	 * The process ends when this returns: the instances are left for
	 * the exit to take back, all at once.  Freed one by one, each slab
	 * went back by a munmap of its own while the engine's threads were
	 * still there (a TLB flush on each CPU they ran on): 1 ms for 1000
	 * instances, a tenth of syslet-run --each's own time.  Kept
	 * reachable, so that leak checkers see no loss.
	 */
	srun_left = r.jobs;
	free(r.index);
	srun_memo_free(&r.memo);
	return status;
}
