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

/* Atom costs, in ns: umem_add atoms, getppid atoms, bare getppid. */
int bench_atoms(double *umem_ns, double *getppid_atom_ns,
		double *getppid_ns);

#endif /* SYSLET_BENCH_H */
