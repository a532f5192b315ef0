/* bench.c: the seeds' benchmark (open+read+close of many small files) against today's alternatives, and the cost of one atom. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "libsyslet.h"

extern char **environ;

struct cfg {
	struct bench_files	f;
	const char		*dir;
	const char		*syslet_run;
	const char		*plain;
	int			reps;
	bool			keep;
};

static const char *drop_method;

static int make_files(struct cfg *c)
{
	static char tmpl[] = "bench-files.XXXXXX";
	char buf[BENCH_BUFSZ];
	unsigned int seed = 2007;

	if (!c->dir) {
		c->dir = mkdtemp(tmpl);
		if (!c->dir) {
			perror("bench: mkdtemp");
			return -1;
		}
	} else if (mkdir(c->dir, 0755) && errno != EEXIST) {
		perror(c->dir);
		return -1;
	}
	c->f.paths = calloc(c->f.nr + 1, sizeof(char *));
	if (!c->f.paths)
		return -1;
	for (size_t i = 0; i < c->f.nr; i++) {
		size_t len = 512 + (size_t)rand_r(&seed) % (BENCH_BUFSZ - 511);
		int fd;

		if (asprintf(&c->f.paths[i], "%s/f%04zu", c->dir, i) < 0)
			return -1;
		for (size_t k = 0; k < len; k++)
			buf[k] = (char)('a' + (i + k) % 26);
		fd = open(c->f.paths[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
			perror(c->f.paths[i]);
			return -1;
		}
		close(fd);
		c->f.total_bytes += len;
	}
	sync();
	return 0;
}

static void remove_files(struct cfg *c)
{
	for (size_t i = 0; c->f.paths && i < c->f.nr; i++) {
		if (!c->keep)
			unlink(c->f.paths[i]);
		free(c->f.paths[i]);
	}
	free(c->f.paths);
	if (!c->keep)
		rmdir(c->dir);
}

/* The seeds used drop_caches; where that is not allowed (containers,
 * non-root) dropping each file's pages is the next best thing, though
 * it leaves the directory and inode caches warm. */
static void drop_caches(const struct bench_files *f)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0 && write(fd, "3\n", 2) == 2) {
		close(fd);
		drop_method = "echo 3 > /proc/sys/vm/drop_caches";
		return;
	}
	if (fd >= 0)
		close(fd);
	drop_method = "posix_fadvise(POSIX_FADV_DONTNEED) per file "
		      "(drop_caches not permitted here)";
	for (size_t i = 0; i < f->nr; i++) {
		fd = open(f->paths[i], O_RDONLY);
		if (fd >= 0) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			close(fd);
		}
	}
}

typedef long (*contender_fn)(const struct bench_files *f, double *secs);

/* Best time of reps runs; negative when the contender cannot run. */
static double best_of(const struct cfg *c, contender_fn fn, bool cold)
{
	double best = -1;

	for (int r = 0; r < c->reps; r++) {
		double secs = 0;
		long got;

		if (cold)
			drop_caches(&c->f);
		else
			fn(&c->f, &secs);	/* warm up */
		got = fn(&c->f, &secs);
		if (got < 0)
			return -1;
		if ((size_t)got != c->f.total_bytes) {
			fprintf(stderr, "bench: read %ld bytes, expected %zu\n",
				got, c->f.total_bytes);
			return -1;
		}
		if (best < 0 || secs < best)
			best = secs;
	}
	return best;
}

static double spawn_time(const struct cfg *c, char **argv, bool cold)
{
	double best = -1;

	for (int r = 0; r < c->reps; r++) {
		posix_spawn_file_actions_t fa;
		double t0;
		pid_t pid;
		int st;

		if (cold)
			drop_caches(&c->f);
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
						 0);
		t0 = bench_now();
		if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) {
			perror(argv[0]);
			return -1;
		}
		posix_spawn_file_actions_destroy(&fa);
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			fprintf(stderr, "bench: %s failed\n", argv[0]);
			return -1;
		}
		t0 = bench_now() - t0;
		if (best < 0 || t0 < best)
			best = t0;
	}
	return best;
}

static void row(const char *name, double t, double base)
{
	if (t < 0)
		printf("  %-44s %12s\n", name, "n/a");
	else
		printf("  %-44s %9.3f ms %7.2fx\n", name, t * 1e3, base / t);
}

static const char *verdict(bool met)
{
	return met ? "met" : "MISSED";
}

static int whole_processes(const struct cfg *c, double res[2][2])
{
	char **sr = calloc(c->f.nr + 4, sizeof(char *));
	char **pl = calloc(c->f.nr + 2, sizeof(char *));

	if (!sr || !pl)
		return -1;
	sr[0] = (char *)c->syslet_run;
	sr[1] = (char *)"--each";
	sr[2] = (char *)c->f.slo;
	pl[0] = (char *)c->plain;
	for (size_t i = 0; i < c->f.nr; i++)
		sr[i + 3] = pl[i + 1] = c->f.paths[i];
	for (int cold = 0; cold < 2; cold++) {
		res[cold][0] = c->plain ? spawn_time(c, pl, cold) : -1;
		res[cold][1] = c->syslet_run ? spawn_time(c, sr, cold) : -1;
	}
	free(sr);
	free(pl);
	return 0;
}

static void usage(FILE *out)
{
	fputs("Usage: bench --slo=readfile.slo [--syslet-run=PATH] [--plain=PATH]\n"
	      "             [--files=N] [--threads=N] [--reps=N] [--dir=DIR] [--keep]\n",
	      out);
}

static int parse(struct cfg *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slo", required_argument, NULL, 's' },
		{ "syslet-run", required_argument, NULL, 'r' },
		{ "plain", required_argument, NULL, 'p' },
		{ "files", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ "reps", required_argument, NULL, 'R' },
		{ "dir", required_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 's': c->f.slo = optarg; break;
		case 'r': c->syslet_run = optarg; break;
		case 'p': c->plain = optarg; break;
		case 'n': c->f.nr = strtoul(optarg, NULL, 10); break;
		case 't': c->f.threads = strtol(optarg, NULL, 10); break;
		case 'R': c->reps = atoi(optarg); break;
		case 'd': c->dir = optarg; break;
		case 'k': c->keep = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (!c->f.slo || !c->f.nr || c->f.threads <= 0 || c->reps <= 0) {
		usage(stderr);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cfg c = { .f = { .nr = 1000, .threads = 16 }, .reps = 5 };
	static const struct {
		const char *name;
		contender_fn fn;
	} con[] = {
		{ "synchronous loop", bench_sync },
		{ "thread pool", bench_threads },
		{ "io_uring (linked openat/read/close, direct)", bench_uring },
		{ "emul syslets (one instance per file)", bench_emul },
		{ "loop making the engine's calls (floor)", bench_floor },
	};
	double t[5][2], proc[2][2];
	struct bench_atom_costs ac = { -1, -1, -1, -1 };
	double umem, patom, pbare;
	char label[64];

	if (parse(&c, argc, argv) || make_files(&c))
		return 2;
	/* The floor is the cached case's: uncached it is just a loop. */
	for (int i = 0; i < 5; i++)
		for (int cold = 0; cold < 2; cold++)
			t[i][cold] = i == 4 && cold ? -1 :
				     best_of(&c, con[i].fn, cold);
	whole_processes(&c, proc);
	if (bench_atoms(&ac))
		ac.umem = ac.getppid_atom = ac.getppid_cold =
			ac.getppid_bare = -1;
	umem = ac.umem;
	patom = ac.getppid_atom;
	pbare = ac.getppid_bare;

	printf("syslet benchmark: open+read+close of %zu files of 512..4096 bytes "
	       "(%zu bytes), best of %d\n", c.f.nr, c.f.total_bytes, c.reps);
	printf("backend: %s; pool: %ld threads; uncached: %s\n",
	       syslet_backend_name(), c.f.threads,
	       drop_method ? drop_method : "-");
	for (int cold = 0; cold < 2; cold++) {
		printf("\n%s (ratio: speed against the synchronous loop)\n",
		       cold ? "uncached" : "cached");
		for (int i = 0; i < 5 - cold; i++) {
			snprintf(label, sizeof(label), "%s", con[i].name);
			if (i == 1)
				snprintf(label, sizeof(label), "thread pool (%ld)",
					 c.f.threads);
			row(label, t[i][cold], t[0][cold]);
		}
		printf("  whole processes:\n");
		row("plain C loop program", proc[cold][0], proc[cold][0]);
		row("syslet-run --each", proc[cold][1], proc[cold][0]);
	}
	printf("\ncost of one atom\n");
	printf("  umem_add atom            %8.2f ns\n", umem);
	printf("  getppid atom             %8.2f ns   (a chain of 1000, in the caches)\n",
	       patom);
	printf("  getppid atom, cold       %8.2f ns   (a chain of 100000: 8.8 MB of atoms)\n",
	       ac.getppid_cold);
	printf("  bare getppid syscall     %8.2f ns   (atom/bare %.3f)\n",
	       pbare, pbare > 0 ? patom / pbare : 0);

	printf("\ntargets\n");
	if (t[3][0] > 0 && t[0][0] > 0)
		printf("  emul cached >= 1.00x loop: %.2fx %s\n",
		       t[0][0] / t[3][0], verdict(t[0][0] / t[3][0] >= 1.0));
	if (t[3][0] > 0 && t[4][0] > 0)
		printf("  (cached, the loop making the engine's calls: %.2fx; "
		       "emul against it: %.2fx)\n", t[0][0] / t[4][0],
		       t[4][0] / t[3][0]);
	if (t[3][1] > 0 && t[0][1] > 0) {
		double best = t[1][1];

		if (t[2][1] > 0 && (best < 0 || t[2][1] < best))
			best = t[2][1];
		printf("  emul uncached >= 1.34x loop: %.2fx %s\n",
		       t[0][1] / t[3][1], verdict(t[0][1] / t[3][1] >= 1.34));
		if (best > 0)
			printf("  emul uncached within 10%% of the best of threads/io_uring: "
			       "%.2f of best %s\n", t[3][1] / best,
			       verdict(t[3][1] <= best * 1.10));
	}
	if (umem > 0)
		printf("  umem_add atom < 10 ns: %.2f ns %s\n", umem,
		       verdict(umem < 10));
	if (patom > 0 && pbare > 0)
		printf("  getppid atom within 5%% of bare syscall: %+.1f%% %s\n",
		       (patom / pbare - 1) * 100, verdict(patom <= pbare * 1.05));
	remove_files(&c);
	return 0;
}
