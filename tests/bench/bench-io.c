/* bench-io.c: the contenders for open+read+close of many small files: sync loop, threads, io_uring, emul syslets. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "bench.h"
#include "libsyslet.h"

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void bench_clock_start(struct bench_clock *c)
{
	c->cpu = cpu_now();
	c->wall = bench_now();
}

void bench_clock_stop(const struct bench_clock *c, struct bench_time *t)
{
	t->wall = bench_now() - c->wall;
	t->cpu_from = c->cpu;
	t->cpu_to = cpu_now();
	t->cpu = t->cpu_to - c->cpu;
}

struct split {
	struct bench_files	f;
	long			(*fn)(const struct bench_files *f,
				      const void *arg, struct bench_time *t);
	const void		*arg;
	pthread_barrier_t	*start;
	long			got;
	struct bench_time	t;
	double			started;
};

static void *split_main(void *arg)
{
	struct split *s = arg;

	s->got = s->fn(&s->f, s->arg, &s->t);
	return NULL;
}

void bench_ready(const struct bench_files *f)
{
	if (f->ready)
		pthread_barrier_wait(f->ready);
	if (f->started)
		*f->started = bench_now();
}

long bench_split(const struct bench_files *f, int nthreads,
		 long (*fn)(const struct bench_files *f, const void *arg,
			    struct bench_time *t),
		 const void *arg, struct bench_time *t)
{
	struct split s[64];
	pthread_t tid[64];
	pthread_barrier_t start;
	long total = 0;
	double t0, cpu0 = -1, cpu1 = -1;
	int n = nthreads < 64 ? nthreads : 64;

	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++) {
		s[i].f = *f;
		s[i].f.paths = f->paths + f->nr * (size_t)i / (size_t)n;
		s[i].f.nr = f->nr * (size_t)(i + 1) / (size_t)n -
			    f->nr * (size_t)i / (size_t)n;
		s[i].f.ready = &start;
		s[i].f.started = &s[i].started;
		s[i].fn = fn;
		s[i].arg = arg;
		s[i].start = &start;
		if (pthread_create(&tid[i], NULL, split_main, &s[i]))
			return -1;
	}
	/* The clock covers all of them, from the first one's start (each
	 * set up its ring or head before the barrier) to the last one's
	 * end, as each measured them: this thread may well be scheduled
	 * late on a loaded machine. */
	pthread_barrier_wait(&start);
	t0 = -1;
	t->wall = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		total = s[i].got < 0 || total < 0 ? -1 : total + s[i].got;
		if (t0 < 0 || s[i].started < t0)
			t0 = s[i].started;
		/* CPU time: the whole process's (it is one clock for all
		 * threads), from the first one's start to the last one's
		 * end, as they read it (not as this thread did, late). */
		if (cpu0 < 0 || s[i].t.cpu_from < cpu0)
			cpu0 = s[i].t.cpu_from;
		if (s[i].t.cpu_to > cpu1)
			cpu1 = s[i].t.cpu_to;
	}
	t->cpu = cpu1 - cpu0;
	for (int i = 0; i < n; i++)
		if (s[i].started + s[i].t.wall - t0 > t->wall)
			t->wall = s[i].started + s[i].t.wall - t0;
	pthread_barrier_destroy(&start);
	return total;
}

static long read_one(const char *path, char *buf)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, BENCH_BUFSZ);
	close(fd);
	return n;
}

long bench_sync(const struct bench_files *f, struct bench_time *t)
{
	static char buf[BENCH_BUFSZ];
	struct bench_clock c;
	long total = 0;

	bench_clock_start(&c);
	for (size_t i = 0; i < f->nr; i++) {
		long n = read_one(f->paths[i], buf);

		if (n < 0)
			return -1;
		total += n;
	}
	bench_clock_stop(&c, t);
	return total;
}

long bench_floor(const struct bench_files *f, struct bench_time *t)
{
	struct open_how how = { .flags = O_RDONLY,
				.resolve = RESOLVE_CACHED };
	char *bufs = malloc(f->nr * BENCH_BUFSZ);
	sigset_t all, old;
	long total = 0;
	struct bench_clock c;

	if (!bufs)
		return -1;
	/* Touched before the clock: the syslets' instances, made again run
	 * after run, find their pages (libsyslet keeps emptied slabs). */
	memset(bufs, 0, f->nr * BENCH_BUFSZ);
	sigfillset(&all);
	bench_clock_start(&c);
	for (size_t i = 0; i < f->nr; i++) {
		struct iovec iov = { bufs + i * BENCH_BUFSZ, BENCH_BUFSZ };
		ssize_t n;
		long fd;

		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &old, 8);
		fd = syscall(SYS_openat2, AT_FDCWD, f->paths[i], &how,
			     sizeof(how));
		if (fd < 0 && errno == EAGAIN)
			fd = open(f->paths[i], O_RDONLY);
		if (fd < 0) {
			total = -1;
			break;
		}
		n = preadv2((int)fd, &iov, 1, -1, RWF_NOWAIT);
		if (n < 0 && errno == EAGAIN)
			n = read((int)fd, iov.iov_base, BENCH_BUFSZ);
		close((int)fd);
		syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, 8);
		if (n < 0) {
			total = -1;
			break;
		}
		total += n;
	}
	bench_clock_stop(&c, t);
	free(bufs);
	return total;
}

struct pool {
	const struct bench_files	*f;
	atomic_size_t			next;
	atomic_long			total;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	char buf[BENCH_BUFSZ];
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->f->nr) {
		long n = read_one(p->f->paths[i], buf);

		atomic_fetch_add(&p->total, n < 0 ? -(1L << 40) : n);
	}
	return NULL;
}

long bench_threads(const struct bench_files *f, struct bench_time *t)
{
	struct pool p = { .f = f };
	pthread_t tid[64];
	long n = f->threads < 64 ? f->threads : 64;
	struct bench_clock c;

	bench_clock_start(&c);
	for (long i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, worker, &p)) {
			n = i;
			break;
		}
	for (long i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	bench_clock_stop(&c, t);
	return atomic_load(&p.total) < 0 ? -1 : atomic_load(&p.total);
}

#ifdef HAVE_LIBURING
long bench_uring(const struct bench_files *f, size_t depth,
		 struct bench_time *t)
{
	struct io_uring ring;
	struct io_uring_params p;
	char (*bufs)[BENCH_BUFSZ];
	long total = 0;
	size_t sent = 0, done = 0;
	unsigned int inflight = 0;
	int *free_slots, nfree;
	struct bench_clock c;
	int ret;

	/* Files in flight, three linked SQEs each. */
	if (!depth || depth > f->nr)
		depth = f->nr;
	nfree = (int)depth;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = (unsigned)(depth * 3);
	ret = io_uring_queue_init_params((unsigned)(depth * 3), &ring, &p);
	if (ret) {
		fprintf(stderr, "bench: io_uring: %s\n", strerror(-ret));
		return -1;
	}
	ret = io_uring_register_files_sparse(&ring, (unsigned)depth);
	bufs = malloc(sizeof(*bufs) * depth);
	free_slots = malloc(sizeof(*free_slots) * depth);
	if (ret || !bufs || !free_slots) {
		fprintf(stderr, "bench: io_uring direct descriptors: %s\n",
			strerror(ret ? -ret : ENOMEM));
		io_uring_queue_exit(&ring);
		free(bufs);
		free(free_slots);
		return -1;
	}
	for (int i = 0; i < (int)depth; i++)
		free_slots[i] = i;
	bench_ready(f);
	bench_clock_start(&c);
	while (done < f->nr) {
		struct io_uring_cqe *cqe;

		while (sent < f->nr && nfree) {
			int slot = free_slots[--nfree];
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			io_uring_prep_openat_direct(sqe, AT_FDCWD,
						    f->paths[sent], O_RDONLY,
						    0, (unsigned)slot);
			sqe->flags |= IOSQE_IO_LINK;
			sqe->user_data = 0;
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_read(sqe, slot, bufs[slot], BENCH_BUFSZ, 0);
			sqe->flags |= IOSQE_FIXED_FILE | IOSQE_IO_LINK;
			sqe->user_data = 1;
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_close_direct(sqe, (unsigned)slot);
			sqe->user_data = 2 | (uint64_t)slot << 8;
			sent++;
			inflight++;
		}
		io_uring_submit_and_wait(&ring, 1);
		while (io_uring_peek_cqe(&ring, &cqe) == 0) {
			unsigned long kind = cqe->user_data & 0xff;

			if (cqe->res < 0 && kind != 2)
				total = -(1L << 40);
			if (kind == 1 && cqe->res > 0)
				total += cqe->res;
			if (kind == 2) {
				free_slots[nfree++] = (int)(cqe->user_data >> 8);
				inflight--;
				done++;
			}
			io_uring_cqe_seen(&ring, cqe);
		}
	}
	bench_clock_stop(&c, t);
	/* Now, not when the ring's teardown ends, some time after the
	 * exit: until then its table holds the files open, and their
	 * dentries and inodes outlive the next drop_caches, so that the
	 * next "uncached" run would open every file from the cache. */
	io_uring_unregister_files(&ring);
	io_uring_queue_exit(&ring);
	free(bufs);
	free(free_slots);
	return total < 0 ? -1 : total;
}

/* The next step of file @i after its step @st completed with @res: 1
 * read, 2 close, 3 done. */
static void rt_prep(struct io_uring *ring, const struct bench_files *f,
		    char (*bufs)[BENCH_BUFSZ], int *fds, size_t i, int st)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe) {
		io_uring_submit(ring);
		sqe = io_uring_get_sqe(ring);
	}
	if (st == 0)
		io_uring_prep_openat(sqe, AT_FDCWD, f->paths[i], O_RDONLY, 0);
	else if (st == 1)
		io_uring_prep_read(sqe, fds[i], bufs[i], BENCH_BUFSZ, 0);
	else
		io_uring_prep_close(sqe, fds[i]);
	io_uring_sqe_set_data64(sqe, (uint64_t)i << 2 | (uint64_t)st);
}

long bench_uring_rt(const struct bench_files *f, struct bench_time *t)
{
	struct io_uring ring;
	struct io_uring_params p;
	char (*bufs)[BENCH_BUFSZ];
	int *fds;
	long total = 0;
	size_t done = 0;
	struct bench_clock c;
	int ret;

	/* One SQE and at most one CQE per file at a time. */
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = (unsigned)f->nr;
	ret = io_uring_queue_init_params(f->nr < 4096 ? (unsigned)f->nr : 4096,
					 &ring, &p);
	if (ret) {
		fprintf(stderr, "bench: io_uring: %s\n", strerror(-ret));
		return -1;
	}
	bufs = malloc(sizeof(*bufs) * f->nr);
	fds = malloc(sizeof(*fds) * f->nr);
	if (!bufs || !fds) {
		io_uring_queue_exit(&ring);
		free(bufs);
		free(fds);
		return -1;
	}
	bench_ready(f);
	bench_clock_start(&c);
	for (size_t i = 0; i < f->nr; i++)
		rt_prep(&ring, f, bufs, fds, i, 0);
	while (done < f->nr) {
		struct io_uring_cqe *cqe;
		unsigned int head, n = 0;

		io_uring_submit_and_wait(&ring, 1);
		io_uring_for_each_cqe(&ring, head, cqe) {
			size_t i = (size_t)(cqe->user_data >> 2);
			int st = (int)(cqe->user_data & 3);

			n++;
			if (cqe->res < 0 && st != 2) {
				total = -(1L << 40);
				done++;
				continue;
			}
			if (st == 0)
				fds[i] = cqe->res;
			else if (st == 1)
				total += cqe->res;
			if (st == 2)
				done++;
			else
				rt_prep(&ring, f, bufs, fds, i, st + 1);
		}
		io_uring_cq_advance(&ring, n);
	}
	bench_clock_stop(&c, t);
	io_uring_queue_exit(&ring);
	free(bufs);
	free(fds);
	return total < 0 ? -1 : total;
}
#else
long bench_uring(const struct bench_files *f, size_t depth,
		 struct bench_time *t)
{
	(void)f;
	(void)depth;
	(void)t;
	fprintf(stderr, "bench: built without liburing\n");
	return -1;
}

long bench_uring_rt(const struct bench_files *f, struct bench_time *t)
{
	(void)f;
	(void)t;
	fprintf(stderr, "bench: built without liburing\n");
	return -1;
}
#endif

/* Instances are made and bound before the clock starts, as the seeds'
 * async-test built its atoms up front. */
long bench_syslets(const struct bench_files *f, const char *backend,
		   struct bench_time *t)
{
	static struct syslet_obj *obj;
	static pthread_mutex_t obj_lock = PTHREAD_MUTEX_INITIALIZER;
	struct syslet_inst **inst;
	struct syslet_uatom **ring, **first_of, **done;
	int *errs;
	struct async_head_user ahu;
	char err[256];
	size_t pending = 0, head = 0;
	long total = 0;
	struct bench_clock c;

	pthread_mutex_lock(&obj_lock);
	if (!obj)
		obj = syslet_obj__open_file(f->slo, err, sizeof(err));
	pthread_mutex_unlock(&obj_lock);
	if (!obj) {
		fprintf(stderr, "bench: %s\n", err);
		bench_ready(f);
		return -1;
	}
	inst = calloc(f->nr, sizeof(*inst));
	ring = calloc(f->nr, sizeof(*ring));
	first_of = calloc(f->nr, sizeof(*first_of));
	done = calloc(f->nr, sizeof(*done));
	errs = calloc(f->nr, sizeof(*errs));
	if (!inst || !ring || !first_of || !done || !errs)
		return -1;
	for (size_t i = 0; i < f->nr; i++) {
		inst[i] = syslet_obj__instantiate(obj, err, sizeof(err));
		if (!inst[i] || syslet_inst__bind(inst[i], "readfile", 1,
						  &f->paths[i], err,
						  sizeof(err))) {
			fprintf(stderr, "bench: %s\n", err);
			return -1;
		}
	}
	/* With bench_split, the caller chose it before the threads. */
	if (strcmp(syslet_backend_name() ? syslet_backend_name() : "",
		   backend) && syslet_set_backend(backend)) {
		fprintf(stderr, "bench: %s\n", syslet_backend_error() ?
			syslet_backend_error() : backend);
		bench_ready(f);
		return -1;
	}
	ahu.completion_ring = ring;
	ahu.ring_size_bytes = f->nr * sizeof(*ring);
	/* The emul engine's pool is its thread count; the uring engine's
	 * bound is the syslets in flight: all of them, as liburing's. */
	ahu.max_nr_threads = strcmp(backend, "emul") ?
			     -1UL : (unsigned long)f->threads;
	if (sys_async_register(&ahu, sizeof(ahu))) {
		perror("bench: async_register");
		bench_ready(f);
		return -1;
	}
	for (size_t i = 0; i < f->nr; i++)
		first_of[i] = syslet_inst__entry(inst[i], "readfile");
	bench_ready(f);
	bench_clock_start(&c);
	/* All of them in one call, as a program submitting many would
	 * (the per-call price of async_exec is then paid once); a signal
	 * may end a batch early. */
	for (size_t i = 0; i < f->nr;) {
		long k = syslet_exec_batch(first_of + i, f->nr - i, done + i,
					   errs + i);

		if (k < 0) {
			perror("bench: syslet_exec_batch");
			return -1;
		}
		for (size_t m = i; m < i + (size_t)k; m++) {
			if (errs[m]) {
				fprintf(stderr, "bench: async_exec: %s\n",
					strerror(errs[m]));
				return -1;
			}
			pending += !done[m];
		}
		i += (size_t)k;
	}
	while (pending) {
		if (!ring[head]) {
			sys_async_wait(1);
			continue;
		}
		ring[head] = NULL;
		head = (head + 1) % f->nr;
		pending--;
	}
	bench_clock_stop(&c, t);
	sys_async_unregister(&ahu, sizeof(ahu));
	for (size_t i = 0; i < f->nr; i++) {
		long n = (long)*syslet_inst__cell(inst[i], "readfile.n");

		total = n < 0 || total < 0 ? -1 : total + n;
		syslet_inst__free(inst[i]);
	}
	free(inst);
	free(ring);
	free(first_of);
	free(done);
	free(errs);
	return total;
}
