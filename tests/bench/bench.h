/* bench.h: what the benchmark's contenders share: the file set, timing, results. */
#ifndef SYSLET_BENCH_H
#define SYSLET_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#define BENCH_BUFSZ 4096

struct bench_files {
	char		**paths;
	size_t		nr;
	size_t		total_bytes;	/* what every contender must read */
	const char	*slo;		/* readfile.slo: the per-file syslet */
	long		threads;	/* pool size for threads and emul */
	void		*ready;		/* bench_split's start barrier */
	double		*started;	/* bench_split: when the clock began */
};

/* Called by a contender right before its clock starts: with
 * bench_split, waits until every thread is set up. */
void bench_ready(const struct bench_files *f);

double bench_now(void);

/*
 * What one run of a contender cost: wall-clock seconds, and the CPU time
 * of the whole process meanwhile (every thread's, io_uring's own workers
 * included, user and system).  On a machine loaded by other work the
 * wall clock mostly measures the scheduler; CPU time is disturbed far
 * less, though it counts parallel work once per CPU and not the time
 * spent waiting for a disk.
 */
struct bench_time {
	double	wall, cpu;
	double	cpu_from, cpu_to;	/* the process's CPU clock then */
};

struct bench_clock {
	double	wall, cpu;
};

void bench_clock_start(struct bench_clock *c);
void bench_clock_stop(const struct bench_clock *c, struct bench_time *t);

/* Run @fn on @nthreads threads, each on a contiguous share of the files
 * (its own ring or head), all started at once; the bytes read, or -1. */
long bench_split(const struct bench_files *f, int nthreads,
		 long (*fn)(const struct bench_files *f, const void *arg,
			    struct bench_time *t),
		 const void *arg, struct bench_time *t);

/* Each contender reads every file once and returns the bytes it read,
 * or -1 when it cannot run here (the reason printed to stderr); *t
 * is the time of the I/O itself. */
long bench_sync(const struct bench_files *f, struct bench_time *t);
long bench_threads(const struct bench_files *f, struct bench_time *t);
/* liburing, linked openat/read/close with direct descriptors, @depth
 * files in flight (0: all of them). */
long bench_uring(const struct bench_files *f, size_t depth,
		 struct bench_time *t);
/* liburing making the uring syslet engine's round trips: openat, read
 * once it completed, close once that did, with the descriptors the
 * program sees; all files in flight. */
long bench_uring_rt(const struct bench_files *f, struct bench_time *t);
/* One instance of readfile.slo per file on syslet backend @backend, all
 * submitted (syslet_exec_batch) before the first completion is reaped; -1 (and a message)
 * when the backend cannot run here. */
long bench_syslets(const struct bench_files *f, const char *backend,
		   struct bench_time *t);
/* The synchronous loop making the calls the emul engine must make for the
 * same work: signals masked around each syslet, openat2 RESOLVE_CACHED,
 * preadv2 RWF_NOWAIT (the plain call when they would block), a buffer of
 * its own per file.  No engine can run the syslets faster inline. */
long bench_floor(const struct bench_files *f, struct bench_time *t);

/* Atom costs, in ns. */
struct bench_atom_costs {
	double	umem;		/* a umem_add atom */
	double	umem_round_max;	/* the slowest round's best of it */
	double	getppid_atom;	/* a getppid atom, chain in the caches */
	double	getppid_cold;	/* the same, chain far bigger than them */
	double	getppid_bare;	/* the bare syscall */
	/* A syslet of one getppid atom, per syslet: by async_exec, and in
	 * batches (syslet_exec_batch): what entering the engine costs. */
	double	one_exec, one_batch;
};
/* On each of @backends[0..@n), into @c[0..@n), their samples taken in
 * turn (the bare call is measured on its own); a backend that fails has
 * umem -1. */
int bench_atoms(const char *const *backends, size_t n,
		struct bench_atom_costs *c);
/* A bare getppid() syscall, ns: best of a few runs of many calls. */
double bench_bare_syscall(void);

#endif /* SYSLET_BENCH_H */
