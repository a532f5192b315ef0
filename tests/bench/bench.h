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
};

double bench_now(void);

/* Each contender reads every file once and returns the bytes it read,
 * or -1 when it cannot run here (the reason printed to stderr); *secs
 * is the time of the I/O itself. */
long bench_sync(const struct bench_files *f, double *secs);
long bench_threads(const struct bench_files *f, double *secs);
long bench_uring(const struct bench_files *f, double *secs);
long bench_emul(const struct bench_files *f, double *secs);
/* The synchronous loop making the calls the emul engine must make for the
 * same work: signals masked around each syslet, openat2 RESOLVE_CACHED,
 * preadv2 RWF_NOWAIT (the plain call when they would block), a buffer of
 * its own per file.  No engine can run the syslets faster inline. */
long bench_floor(const struct bench_files *f, double *secs);

/* Atom costs, in ns. */
struct bench_atom_costs {
	double	umem;		/* a umem_add atom */
	double	getppid_atom;	/* a getppid atom, chain in the caches */
	double	getppid_cold;	/* the same, chain far bigger than them */
	double	getppid_bare;	/* the bare syscall */
};
int bench_atoms(struct bench_atom_costs *c);

#endif /* SYSLET_BENCH_H */
