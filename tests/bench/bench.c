/* bench.c: the seeds' benchmark (open+read+close of many small files) against today's alternatives, and the cost of one atom. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/openat2.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
	int			reps;		/* cached runs, best of */
	int			cold_reps;	/* uncached runs, best of */
	bool			keep;
	const char		*only;	/* run only rows naming this */
	long			jobs;	/* syslet-run --each --jobs */
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

/* Runs dropped, drops repeated, and runs that began with some files
 * still in the dentry cache all the same. */
static unsigned int drop_runs, drop_again, drop_warm;

/* How many files a path walk still finds without I/O: openat2() with
 * RESOLVE_CACHED fails with EAGAIN, touching nothing, for the others. */
static size_t still_cached(const struct bench_files *f)
{
	struct open_how how = { .flags = O_RDONLY,
				.resolve = RESOLVE_CACHED };
	size_t n = 0;

	for (size_t i = 0; i < f->nr; i++) {
		long fd = syscall(SYS_openat2, AT_FDCWD, f->paths[i], &how,
				  sizeof(how));

		if (fd >= 0) {
			close((int)fd);
			n++;
		}
	}
	return n;
}

/* The seeds used drop_caches; where that is not allowed (containers,
 * non-root) dropping each file's pages is the next best thing, though
 * it leaves the directory and inode caches warm. */
static void drop_caches(const struct bench_files *f)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd >= 0 && write(fd, "3\n", 2) == 2) {
		/*
		 * A file still open somewhere keeps its dentry and inode
		 * (an io_uring whose teardown is still under way holds the
		 * files it had: a process's that just exited), and a dentry
		 * used since the last scan survives one: then the run would
		 * open from the cache and read from the disk.  Dropped again
		 * until no file resolves without I/O, for a while.
		 */
		drop_runs++;
		for (int k = 0; k < 50 && still_cached(f); k++) {
			drop_again++;
			usleep(10000);
			if (pwrite(fd, "2\n", 2, 0) != 2)
				break;
		}
		drop_warm += still_cached(f) != 0;
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

/* An in-process contender. */
struct contender {
	const char	*name;
	long		(*fn)(const struct bench_files *f, const void *arg,
			      struct bench_time *t);
	const void	*arg;
	bool		syslet;		/* a syslet backend */
	bool		info;		/* shown, not one of the targets' peers */
	bool		cached_only;
};

/*
 * Each contender's best wall-clock time of reps runs in t[i] (negative
 * when it cannot run, or is skipped: t[i] < 0 on entry), and the least
 * CPU time of one of them in cpu[i].  The runs go in rounds, one of each
 * contender a round, each round starting one contender further on: on a
 * machine shared with other work the load changes within seconds, and
 * run one contender after the other, each had its own load: the ratios
 * of one run of the benchmark against another moved by 2-3x.  Rounds
 * give every contender a share of each spell of load.
 */
static void best_of_all(const struct cfg *c, const struct contender *con,
			size_t n, bool cold, double *t, double *cpu)
{
	bool *live = calloc(n, sizeof(*live));
	int reps = cold ? c->cold_reps : c->reps;

	if (!live)
		return;
	for (size_t i = 0; i < n; i++) {
		live[i] = t[i] >= 0;
		t[i] = cpu[i] = -1;
	}
	for (int r = 0; r < reps; r++) {
		for (size_t k = 0; k < n; k++) {
			size_t i = (k + (size_t)r) % n;
			const struct contender *o = &con[i];
			struct bench_time tm = { .wall = 0 };
			long got;

			if (!live[i])
				continue;
			if (cold) {
				drop_caches(&c->f);
			} else if (o->fn(&c->f, o->arg, &tm) < 0) {
				/* The warm-up: it cannot run here. */
				live[i] = false;
				continue;
			}
			got = o->fn(&c->f, o->arg, &tm);
			if (got >= 0 && (size_t)got != c->f.total_bytes)
				fprintf(stderr, "bench: %s read %ld bytes, "
					"expected %zu\n", o->name, got,
					c->f.total_bytes);
			if (got < 0 || (size_t)got != c->f.total_bytes) {
				live[i] = false;
				t[i] = cpu[i] = -1;
				continue;
			}
			if (t[i] < 0 || tm.wall < t[i])
				t[i] = tm.wall;
			if (cpu[i] < 0 || tm.cpu < cpu[i])
				cpu[i] = tm.cpu;
		}
	}
	free(live);
}

static long run_sync(const struct bench_files *f, const void *arg,
		    struct bench_time *s)
{
	(void)arg;
	return bench_sync(f, s);
}

static long run_threads(const struct bench_files *f, const void *arg,
			struct bench_time *s)
{
	(void)arg;
	return bench_threads(f, s);
}

static long run_uring(const struct bench_files *f, const void *arg,
		    struct bench_time *s)
{
	return bench_uring(f, *(const size_t *)arg, s);
}

static long run_uring_rt(const struct bench_files *f, const void *arg,
			 struct bench_time *s)
{
	(void)arg;
	return bench_uring_rt(f, s);
}

static long run_syslets(const struct bench_files *f, const void *arg,
			struct bench_time *s)
{
	return bench_syslets(f, arg, s);
}

/* The backend a syslet row runs on. */
static const char *syslet_of(const struct contender *k);

/* The same on several threads: struct split_arg. */
struct split_arg {
	int		nthreads;
	const char	*backend;	/* NULL: liburing */
	size_t		depth;
};

static long run_split(const struct bench_files *f, const void *arg,
		    struct bench_time *s)
{
	const struct split_arg *sa = arg;

	if (sa->backend) {
		if (syslet_set_backend(sa->backend))
			return -1;
		return bench_split(f, sa->nthreads, run_syslets, sa->backend,
				   s);
	}
	return bench_split(f, sa->nthreads, run_uring, &sa->depth, s);
}

static const char *syslet_of(const struct contender *k)
{
	return k->fn == run_split ? ((const struct split_arg *)k->arg)->backend
				  : (const char *)k->arg;
}

static long run_floor(const struct bench_files *f, const void *arg,
		    struct bench_time *s)
{
	(void)arg;
	return bench_floor(f, s);
}

/* The whole-process rows must time the programs, not a wrapper script
 * that starts a shell first (libtool's, in a build tree). */
static bool is_program(const char *path)
{
	unsigned char m[4] = { 0 };
	FILE *fp = fopen(path, "rb");
	bool ok;

	if (!fp)
		return false;
	ok = fread(m, 1, 4, fp) == 4 && !memcmp(m, "\177ELF", 4);
	fclose(fp);
	if (!ok)
		fprintf(stderr, "bench: %s is not an ELF program (a libtool "
			"wrapper?): its whole-process rows are left out\n",
			path);
	return ok;
}

/* Syslet backends the library has, except auto. */
static const char *backends[8];
static size_t nr_backends;

/* One run of the program @argv: its wall-clock time, or -1 (said). */
static double spawn_once(const struct cfg *c, char **argv, bool cold)
{
	posix_spawn_file_actions_t fa;
	double t0;
	pid_t pid;
	int st;

	if (cold)
		drop_caches(&c->f);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = bench_now();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) {
		perror(argv[0]);
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "bench: %s failed\n", argv[0]);
		return -1;
	}
	return bench_now() - t0;
}

/*
 * The best of reps runs of the plain program (@best[0], when @plain_ok)
 * and of syslet-run on each backend (@best[b + 1], its --backend= option
 * in @opt[b] put in @sr[2]), in rounds as best_of_all() runs the
 * in-process rows, so that the programs compared share the machine's
 * spells of load.
 */
static void spawn_rounds(const struct cfg *c, char **pl, char **sr,
			 char opt[][48], bool plain_ok, bool sr_ok, bool cold,
			 double *best)
{
	size_t n = 1 + nr_backends;
	bool live[9];

	for (size_t k = 0; k < n; k++) {
		live[k] = k ? sr_ok : plain_ok;
		best[k] = -1;
	}
	for (int r = 0; r < (cold ? c->cold_reps : c->reps); r++) {
		for (size_t j = 0; j < n; j++) {
			size_t k = (j + (size_t)r) % n;
			double t;

			if (!live[k])
				continue;
			if (k)
				sr[2] = opt[k - 1];
			t = spawn_once(c, k ? sr : pl, cold);
			if (t < 0) {
				live[k] = false;
				best[k] = -1;
				continue;
			}
			if (best[k] < 0 || t < best[k])
				best[k] = t;
		}
	}
}

/* @cpu: the process's CPU time in that row's best run (negative: not
 * measured). */
static void row(const char *name, double t, double base, double cpu)
{
	if (t < 0)
		printf("  %-50s %12s\n", name, "n/a");
	else if (base <= 0)
		printf("  %-50s %9.3f ms\n", name, t * 1e3);
	else if (cpu < 0)
		printf("  %-50s %9.3f ms %7.2fx\n", name, t * 1e3, base / t);
	else
		printf("  %-50s %9.3f ms %7.2fx  cpu %9.3f ms\n", name,
		       t * 1e3, base / t, cpu * 1e3);
}

static unsigned int nr_targets;

/* A target that was measured in this run, met or not. */
static bool counted(bool met)
{
	nr_targets++;
	return met;
}

static const char *verdict(bool met)
{
	return met ? "met" : "MISSED";
}

static void list_backends(void)
{
	const char *const *n = syslet_backend_list();

	/* Only those that can run here (the kernel's needs the patch). */
	for (size_t i = 0; n[i] && nr_backends < 8; i++)
		if (strcmp(n[i], "auto") && !syslet_set_backend(n[i]))
			backends[nr_backends++] = n[i];
}

/* Whole processes: the plain loop program, then syslet-run --each on
 * each backend; proc[cold][0] the plain one.  one[][]: the same with
 * the first file only, what a process costs whatever it reads (start-up,
 * the backend's set-up, the image, exit). */
static void whole_processes(const struct cfg *c, double proc[2][9],
			    double one[2][9])
{
	char **sr = calloc(c->f.nr + 6, sizeof(char *));
	char jobs[32];
	char **pl = calloc(c->f.nr + 2, sizeof(char *));
	char opt[8][48];
	bool plain_ok = c->plain && is_program(c->plain);
	bool sr_ok = c->syslet_run && is_program(c->syslet_run);

	for (int cold = 0; cold < 2; cold++)
		for (int i = 0; i < 9; i++)
			proc[cold][i] = one[cold][i] = -1;
	if (!sr || !pl)
		goto out;
	sr[0] = (char *)c->syslet_run;
	sr[1] = (char *)"--each";
	snprintf(jobs, sizeof(jobs), "--jobs=%ld", c->jobs);
	sr[3] = jobs;
	sr[4] = (char *)c->f.slo;
	pl[0] = (char *)c->plain;
	for (size_t i = 0; i < c->f.nr; i++)
		sr[i + 5] = pl[i + 1] = c->f.paths[i];
	for (size_t b = 0; b < nr_backends; b++)
		snprintf(opt[b], sizeof(opt[b]), "--backend=%s", backends[b]);
	for (int cold = 0; cold < 2; cold++)
		spawn_rounds(c, pl, sr, opt, plain_ok, sr_ok, cold, proc[cold]);
	/* One file: the lists end after it for these runs. */
	if (c->f.nr > 1) {
		sr[6] = pl[2] = NULL;
		for (int cold = 0; cold < 2; cold++)
			spawn_rounds(c, pl, sr, opt, plain_ok, sr_ok, cold,
				     one[cold]);
	}
out:
	free(sr);
	free(pl);
}

static void usage(FILE *out)
{
	fputs("Usage: bench --slo=readfile.slo [--syslet-run=PATH] [--plain=PATH]\n"
	      "             [--files=N] [--threads=N] [--reps=N] [--cold-reps=N]\n"
	      "             [--dir=DIR] [--keep]\n"
	      "             [--only=TEXT]  (rows whose name has TEXT; for profiling)\n",
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
		{ "cold-reps", required_argument, NULL, 'C' },
		{ "dir", required_argument, NULL, 'd' },
		{ "keep", no_argument, NULL, 'k' },
		{ "only", required_argument, NULL, 'o' },
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
		case 'C': c->cold_reps = atoi(optarg); break;
		case 'd': c->dir = optarg; break;
		case 'k': c->keep = true; break;
		case 'o': c->only = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (!c->f.slo || !c->f.nr || c->f.threads <= 0 || c->reps <= 0 ||
	    c->cold_reps <= 0) {
		usage(stderr);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* Cached runs take milliseconds, and on a loaded machine most are
	 * preempted: the best of many.  Uncached ones drop the caches
	 * first, which takes far longer than the run. */
	struct cfg c = { .f = { .nr = 1000, .threads = 16 }, .reps = 30,
			 .cold_reps = 5 };
	static const size_t depth64 = 64, depth_all = 0;
	struct contender con[24];
	struct split_arg lsplit, ssplit[8];
	char lname[96], snames[8][96];
	long ncpus;
	size_t ncon = 0, npeers;
	double t[24][2], cpu[24][2], proc[2][9], one[2][9], bare, la0[3];
	struct bench_atom_costs ac[8];
	char label[96], names[8][64];
	bool all_met = true;

	if (parse(&c, argc, argv) || make_files(&c))
		return 2;
	list_backends();
	con[ncon++] = (struct contender){ .name = "synchronous loop",
					  .fn = run_sync };
	snprintf(label, sizeof(label), "thread pool (%ld)", c.f.threads);
	con[ncon++] = (struct contender){ .name = strdup(label),
					  .fn = run_threads };
	con[ncon++] = (struct contender){
		.name = "liburing, linked open/read/close, 64 in flight",
		.fn = run_uring, .arg = &depth64 };
	con[ncon++] = (struct contender){
		.name = "liburing, linked open/read/close, all in flight",
		.fn = run_uring, .arg = &depth_all };
	con[ncon++] = (struct contender){
		.name = "liburing, unlinked open/read/close, all in flight",
		.fn = run_uring_rt };
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	c.jobs = ncpus;
	if (ncpus > 1) {
		/* Every CPU, as the thread pool uses them: informational
		 * rows, not among the peers. */
		lsplit = (struct split_arg){ .nthreads = (int)ncpus };
		snprintf(lname, sizeof(lname),
			 "liburing, all in flight, %ld threads (info)", ncpus);
		con[ncon++] = (struct contender){ .name = lname,
						  .fn = run_split,
						  .arg = &lsplit,
						  .info = true };
	}
	npeers = ncon;
	for (size_t b = 0; b < nr_backends; b++) {
		snprintf(names[b], sizeof(names[b]), "syslets, %s backend",
			 backends[b]);
		con[ncon++] = (struct contender){ .name = names[b],
						  .fn = run_syslets,
						  .arg = backends[b],
						  .syslet = true };
	}
	for (size_t b = 0; ncpus > 1 && b < nr_backends; b++) {
		if (!strcmp(backends[b], "kernel"))
			continue;
		ssplit[b] = (struct split_arg){ .nthreads = (int)ncpus,
						.backend = backends[b] };
		snprintf(snames[b], sizeof(snames[b]),
			 "syslets, %s backend, %ld submitting threads",
			 backends[b], ncpus);
		con[ncon++] = (struct contender){ .name = snames[b],
						  .fn = run_split,
						  .arg = &ssplit[b],
						  .syslet = true };
	}
	con[ncon++] = (struct contender){
		.name = "loop making the emul engine's calls (its floor)",
		.fn = run_floor, .cached_only = true };

	/* Every ratio depends on what entering the kernel costs here and
	 * now: measured first, and again at the end. */
	if (getloadavg(la0, 3) != 3)
		la0[0] = -1;
	bare = bench_bare_syscall();
	for (int cold = 0; cold < 2; cold++) {
		double tc[24], cc[24];

		for (size_t i = 0; i < ncon; i++)
			tc[i] = (con[i].cached_only && cold) ||
				(c.only && !strstr(con[i].name, c.only)) ?
				-1 : 0;
		best_of_all(&c, con, ncon, cold, tc, cc);
		for (size_t i = 0; i < ncon; i++) {
			t[i][cold] = tc[i];
			cpu[i][cold] = cc[i];
		}
	}
	if (c.only && !strstr("syslet-run --each", c.only))
		c.syslet_run = c.plain = NULL;
	whole_processes(&c, proc, one);
	if ((c.only && !strstr("atom", c.only)) ||
	    bench_atoms(backends, nr_backends, ac))
		for (size_t b = 0; b < nr_backends; b++)
			ac[b].umem = ac[b].getppid_atom = ac[b].getppid_cold =
				ac[b].getppid_bare = -1;
	{
		double b2 = bench_bare_syscall();

		bare = b2 < bare ? b2 : bare;
	}

	printf("syslet benchmark: open+read+close of %zu files of 512..4096 "
	       "bytes (%zu bytes), best of %d runs cached, %d uncached,\n"
	       "each round one run of every contender\n",
	       c.f.nr, c.f.total_bytes, c.reps, c.cold_reps);
	{
		double la[3];

		/* The other work on the machine: wall-clock ratios mean
		 * little when it exceeds the CPUs. */
		if (la0[0] >= 0)
			printf("load average at the start: %.2f %.2f %.2f\n",
			       la0[0], la0[1], la0[2]);
		if (getloadavg(la, 3) == 3)
			printf("load average at the end: %.2f %.2f %.2f on %ld "
			       "CPUs\n", la[0], la[1], la[2], ncpus);
	}
	printf("uncached: %s", drop_method ? drop_method : "-");
	if (drop_runs)
		printf(" (%u runs; dropped again %u times until no file "
		       "resolved from the dentry cache; runs that began with "
		       "some still there: %u)", drop_runs, drop_again,
		       drop_warm);
	printf("\n");
	printf("whole processes: %s, %s\n", c.plain ? c.plain : "-",
	       c.syslet_run ? c.syslet_run : "-");
	for (int cold = 0; cold < 2; cold++) {
		printf("\n%s; a bare getppid syscall costs %.1f ns here "
		       "(ratio: speed against the synchronous loop; cpu: the "
		       "process's CPU time, less disturbed by load)\n",
		       cold ? "uncached" : "cached", bare);
		for (size_t i = 0; i < ncon; i++)
			if (!(con[i].cached_only && cold))
				row(con[i].name, t[i][cold], t[0][cold],
				    cpu[i][cold]);
		printf("  whole processes (ratio: against the plain program):\n");
		row("plain C loop program", proc[cold][0], proc[cold][0], -1);
		for (size_t b = 0; b < nr_backends; b++) {
			snprintf(label, sizeof(label),
				 "syslet-run --each --jobs=%ld --backend=%s",
				 c.jobs, backends[b]);
			row(label, proc[cold][b + 1], proc[cold][0], -1);
		}
		printf("  the same with one file (what a process costs "
		       "whatever it reads):\n");
		row("plain C loop program", one[cold][0], one[cold][0], -1);
		for (size_t b = 0; b < nr_backends; b++) {
			snprintf(label, sizeof(label),
				 "syslet-run --each --jobs=%ld --backend=%s",
				 c.jobs, backends[b]);
			row(label, one[cold][b + 1], one[cold][0], -1);
		}
	}
	printf("\ncost of one atom; a bare getppid syscall costs %.1f ns\n",
	       bare);
	for (size_t b = 0; b < nr_backends; b++) {
		if (ac[b].umem < 0) {
			printf("  %-6s n/a\n", backends[b]);
			continue;
		}
		printf("  %-6s umem_add %6.2f ns (slowest round %.2f), getppid "
		       "atom %7.2f ns (cold chain %7.2f ns), bare %7.2f ns: "
		       "atom/bare %.3f\n",
		       backends[b], ac[b].umem, ac[b].umem_round_max,
		       ac[b].getppid_atom,
		       ac[b].getppid_cold, ac[b].getppid_bare,
		       ac[b].getppid_atom / ac[b].getppid_bare);
		printf("  %-6s a one-atom getppid syslet: %7.1f ns by "
		       "async_exec, %7.1f ns in batches of 100 "
		       "(syslet_exec_batch)\n", backends[b], ac[b].one_exec,
		       ac[b].one_batch);
	}

	printf("\ntargets (bare getppid %.1f ns)\n", bare);
	for (int cold = 0; cold < 2; cold++) {
		double peer = -1, sl = -1;
		size_t pi = 0, si = 0;

		for (size_t i = 0; i < npeers; i++)
			if (!con[i].info && t[i][cold] > 0 &&
			    (peer < 0 || t[i][cold] < peer)) {
				peer = t[i][cold];
				pi = i;
			}
		for (size_t i = npeers; i < ncon; i++)
			if (con[i].syslet && t[i][cold] > 0 &&
			    strcmp(syslet_of(&con[i]), "kernel") &&
			    (sl < 0 || t[i][cold] < sl)) {
				sl = t[i][cold];
				si = i;
			}
		if (peer > 0 && sl > 0) {
			printf("  %s: best stock syslet backend (%s) >= 1.00x "
			       "the best of loop/pool/liburing (%s): %.2fx %s\n",
			       cold ? "uncached" : "cached",
			       con[si].name, con[pi].name,
			       peer / sl, verdict(peer / sl >= 1.0));
			all_met &= counted(peer / sl >= 1.0);
			for (size_t i = 0; i < npeers; i++)
				if (con[i].info && t[i][cold] > 0)
					printf("    (against %s: %.2fx)\n",
					       con[i].name, t[i][cold] / sl);
		}
	}
	for (int cold = 0; cold < 2; cold++) {
		double best = -1;
		size_t bi = 0;

		for (size_t b = 0; b < nr_backends; b++)
			if (strcmp(backends[b], "kernel") &&
			    proc[cold][b + 1] > 0 &&
			    (best < 0 || proc[cold][b + 1] < best)) {
				best = proc[cold][b + 1];
				bi = b;
			}
		if (best < 0)
			continue;
		for (size_t i = npeers; i < ncon; i++) {
			double in, rest;

			/* The same backend with as many submitting threads:
			 * what --each adds to it is the process, loading
			 * and its instances. */
			if (!con[i].syslet ||
			    strcmp(syslet_of(&con[i]), backends[bi]) ||
			    (c.jobs > 1 ? con[i].fn != run_split :
					  con[i].fn != run_syslets))
				continue;
			in = t[i][cold];
			if (in > 0) {
				printf("  %s: syslet-run --each (%s, %ld jobs) "
				       "within 10%% of in-process (%s): %.2f of "
				       "it %s\n", cold ? "uncached" : "cached",
				       backends[bi], c.jobs, con[i].name,
				       best / in, verdict(best <= in * 1.10));
				all_met &= counted(best <= in * 1.10);
				/* What bounds it: the process itself, and
				 * what it does for each file beyond the
				 * in-process row, which makes its instances
				 * before its clock starts, in a process
				 * whose memory has served earlier runs. */
				rest = best - one[cold][bi + 1] - in;
				/* Parts of rows measured apart can add up
				 * to more than the whole (uncached). */
				if (one[cold][bi + 1] > 0 && rest >= 0)
					printf("    (of its %.3f ms: a one-file "
					       "run %.3f ms, in-process %.3f ms, "
					       "the rest %.3f ms: %zu instances "
					       "made, bound and freed, in a new "
					       "process's memory)\n",
					       best * 1e3,
					       one[cold][bi + 1] * 1e3, in * 1e3,
					       rest * 1e3, c.f.nr);
				else if (one[cold][bi + 1] > 0)
					printf("    (of its %.3f ms: a one-file "
					       "run %.3f ms, in-process %.3f ms: "
					       "no rest beyond these rows' "
					       "spread)\n", best * 1e3,
					       one[cold][bi + 1] * 1e3, in * 1e3);
				/* The floor of any whole process here: the
				 * plain program reading one file, which does
				 * nothing of ours. */
				if (one[cold][0] > 0)
					printf("    (a process alone, the plain "
					       "C program reading one file: "
					       "%.3f ms, %.2f of in-process; "
					       "the target allows %.3f ms "
					       "beyond it)\n", one[cold][0] * 1e3,
					       one[cold][0] / in, in * 0.1e3);
			}
		}
		if (proc[cold][0] > 0) {
			printf("  %s: syslet-run --each (%s) >= the plain C "
			       "loop program: %.2fx %s\n",
			       cold ? "uncached" : "cached", backends[bi],
			       proc[cold][0] / best,
			       verdict(proc[cold][0] / best >= 1.0));
			all_met &= counted(proc[cold][0] / best >= 1.0);
		}
	}
	for (size_t b = 0; b < nr_backends; b++) {
		if (ac[b].umem < 0)
			continue;
		printf("  %s: umem_add atom < 10 ns: %.2f ns %s\n",
		       backends[b], ac[b].umem, verdict(ac[b].umem < 10));
		/* The kernel backend's getppid runs in the caller too, but
		 * not as a syscall of its own: no "bare" to compare. */
		printf("  %s: getppid atom within 5%% of the bare call: "
		       "%+.1f%% %s\n", backends[b],
		       (ac[b].getppid_atom / ac[b].getppid_bare - 1) * 100,
		       verdict(ac[b].getppid_atom <=
			       ac[b].getppid_bare * 1.05));
		all_met &= counted(ac[b].umem < 10) &
			   counted(ac[b].getppid_atom <=
				   ac[b].getppid_bare * 1.05);
	}
	/* With --only most rows are not run: say so rather than "met". */
	if (!nr_targets)
		printf("  all targets: none measured\n");
	else
		printf("  all targets: %s (%u measured)\n",
		       all_met ? "met" : "not all met", nr_targets);
	remove_files(&c);
	return 0;
}
