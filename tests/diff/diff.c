/* diff.c: the differential test (difftest): random atom graphs through the reference (ref.c) and through every backend present, compared word for word. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libsyslet.h>
#include "diff.h"

/*
 * Each graph starts from the same memory, the same pipe contents and the
 * same ring for the reference and for the backend, and every observable
 * is compared: what async_exec returned (atom, NULL, errno; odd graphs
 * go in by syslet_exec_batch), the ring
 * after the syslet ended and after a full slot was cleared, every byte
 * of the arena (atoms, cells, results) and what the pipes hold.
 *
 * The work runs in a child process: a backend that crashes, exits (a
 * denied call that ran) or hangs is reported by the parent with the graph
 * it was running and the command line that runs that graph alone.
 * Uses only libsyslet's public calls, so that the same program runs in the
 * kernel-check guests against the kernel backend.
 */

#define DIFF_DEFAULT_SEED	0x5eed2007ULL
#define DIFF_HANG_SECONDS	120
#define DIFF_JUNK		((struct syslet_uatom *)1)

struct opts {
	uint64_t	seed;
	unsigned long	from, count;
	unsigned int	ring_index;
	const char	*backends;
	int		verbose;
	unsigned int	max_reports;
	unsigned int	hang;	/* seconds without progress: a HANG */
	bool		observe;	/* a trace callback on every run */
	bool		step;		/* syslet_step() instead of exec */
};

/* Where in a graph the child is (a HANG says which). */
enum phase { PH_NONE, PH_REF, PH_BACKEND };

/* Shared with the parent: where the child is, and what the parent needs
 * to generate the same graph again for a HANG's dump. */
struct progress {
	volatile unsigned long	graph;
	volatile unsigned long	beat;
	volatile unsigned int	ring_index;
	volatile int		done;	/* the child returned normally */
	volatile int		phase;	/* enum phase */
	volatile unsigned long	umem_nr, nr_syscalls;
	char			backend[16];
};

static struct progress *prog;

/*
 * --observe: a trace callback installed for every run, which sends the
 * engines down their observed loop (interp_fast() never runs then), and
 * the events it gets checked against the reference's run: one per atom
 * that ran and one for a fetch that faulted, each taking the next one's
 * atom, the last one ending as the reference's chain ended.
 */
#define DIFF_OBS_MAX	(REF_MAX_ATOMS + 8)

struct obs_event {
	unsigned long	atom, next;
	enum syslet_end	end;
	int		handoff;
};

static struct obs_event obs_ev[DIFF_OBS_MAX];
static unsigned int obs_n;
/* syslet_get_stats() around each run: what it added. */
static bool obs_on;
static struct syslet_stats obs_st0, obs_st1;

static void obs_record(const struct syslet_event *ev, void *ctx)
{
	unsigned int i = __atomic_fetch_add(&obs_n, 1, __ATOMIC_RELAXED);

	(void)ctx;
	if (i < DIFF_OBS_MAX) {
		obs_ev[i].atom = (unsigned long)ev->atom;
		obs_ev[i].next = (unsigned long)ev->next;
		obs_ev[i].end = ev->end;
		obs_ev[i].handoff = ev->handoff;
	}
}

static void die(const char *what)
{
	fprintf(stderr, "difftest: %s: %s\n", what, strerror(errno));
	exit(99);
}

static int memfd(void)
{
#ifdef SYS_memfd_create
	int fd = (int)syscall(SYS_memfd_create, "syslet-diff", 0);

	if (fd >= 0)
		return fd;
#endif
	return open("/tmp", O_TMPFILE | O_RDWR, 0600);
}

static void arena_init(struct diff_arena *ar)
{
	static const unsigned char prot[DIFF_NPAGES] = {
		[DIFF_PG_A0] = DIFF_RW, [DIFF_PG_A1] = DIFF_RW,
		[DIFF_PG_GAP1] = DIFF_NONE, [DIFF_PG_B] = DIFF_RO,
		[DIFF_PG_D0] = DIFF_RW, [DIFF_PG_D1] = DIFF_RW,
		[DIFF_PG_GAP2] = DIFF_NONE, [DIFF_PG_R] = DIFF_RO,
	};
	unsigned long resv_len;
	unsigned char *resv;
	int fd, p[2];

	ar->page = (unsigned long)sysconf(_SC_PAGESIZE);
	ar->size = DIFF_NPAGES * ar->page;
	resv_len = (2 * DIFF_GUARD + DIFF_NPAGES) * ar->page;
	resv = mmap(NULL, resv_len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (resv == MAP_FAILED)
		die("mmap of the reservation");
	ar->resv_lo = (unsigned long)resv;
	ar->resv_hi = ar->resv_lo + resv_len;
	ar->base = resv + DIFF_GUARD * ar->page;
	fd = memfd();
	if (fd < 0 || ftruncate(fd, (off_t)ar->size))
		die("memory for the arena");
	if (mmap(ar->base, ar->size, PROT_NONE, MAP_SHARED | MAP_FIXED, fd,
		 0) == MAP_FAILED)
		die("mmap of the arena");
	ar->alias = mmap(NULL, ar->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
	if (ar->alias == MAP_FAILED)
		die("mmap of the arena's alias");
	close(fd);
	memcpy(ar->prot, prot, sizeof(prot));
	for (int i = 0; i < DIFF_NPAGES; i++) {
		int pr = prot[i] == DIFF_RW ? PROT_READ | PROT_WRITE :
			 prot[i] == DIFF_RO ? PROT_READ : PROT_NONE;

		if (mprotect(ar->base + i * ar->page, ar->page, pr))
			die("mprotect");
	}

	if (pipe2(p, O_NONBLOCK))
		die("pipe");
	ar->fd.in_rd = p[0], ar->fd.in_wr = p[1];
	if (pipe2(p, O_NONBLOCK))
		die("pipe");
	ar->fd.out_rd = p[0], ar->fd.out_wr = p[1];
	if (pipe2(p, O_NONBLOCK))
		die("pipe");
	ar->fd.empty_rd = p[0], ar->fd.empty_wr = p[1];
	if (pipe2(p, O_NONBLOCK))
		die("pipe");
	ar->fd.eof_rd = p[0];
	close(p[1]);
	if (pipe2(p, O_NONBLOCK))
		die("pipe");
	ar->fd.epipe_wr = p[1];
	close(p[0]);
	if (pipe(p))
		die("pipe");
	ar->fd.blk_rd = p[0], ar->fd.blk_wr = p[1];
	if (pipe(p))
		die("pipe");
	ar->fd.late_rd = p[0], ar->fd.late_wr = p[1];
	if (pipe(p))
		die("pipe");
	ar->fd.tight_rd = p[0], ar->fd.tight_wr = p[1];
	/* One page: the least a pipe holds, so that pipe(7)'s room is
	 * exact (one buffer, written from its start, merged into). */
	if (fcntl(p[1], F_SETPIPE_SZ, (int)ar->page) >= 0 &&
	    fcntl(p[1], F_GETPIPE_SZ) == (int)ar->page)
		ar->tight_cap = ar->page;
	ref_probe(ar);
}

/*
 * The top of user space, as the reference finds it on its own (never the
 * engine's), and the page below it, mapped read-write where nothing is
 * there yet: an atom in it may end at the top, and runs, or past it, and
 * its fetch fails (copy_uatom()'s access_ok() of the whole atom).
 */
static void top_page_init(struct diff_arena *ar)
{
	void *m;

	ar->user_top = ref_user_top();
	if (!ar->user_top)
		return;
	m = mmap((void *)(ar->user_top - ar->page), ar->page,
		 PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m == (void *)(ar->user_top - ar->page))
		ar->top_pg = (unsigned long)m;
	else if (m != MAP_FAILED)
		munmap(m, ar->page);
}

/* The top page's atom: its words below the top, the rest filler. */
static void top_load(const struct diff_arena *ar, const struct diff_graph *g)
{
	if (!ar->top_pg)
		return;
	memset((void *)ar->top_pg, 0xff, ar->page);
	if (g->top_at)
		memcpy((void *)g->top_at, g->top_words,
		       ar->user_top - g->top_at);
}

/* What the driver writes into the late pipe (diff.h). */
const unsigned char diff_late_feed[DIFF_LATE_FEED] =
	"the late pipe's feed, in one write once async_exec() returned NULL";

/* Bytes in a blocking pipe, without waiting. */
static int pipe_count(int fd)
{
	int n = 0;

	if (ioctl(fd, FIONREAD, &n))
		die("FIONREAD");
	return n;
}

/* Exactly what a blocking pipe holds (at most @max bytes kept). */
static int pipe_take(int fd, unsigned char *buf, int max)
{
	int n = pipe_count(fd);

	for (int got = 0; got < n;) {
		unsigned char junk[4096];
		int want = n - got < (int)sizeof(junk) ? n - got
						       : (int)sizeof(junk);
		ssize_t r = read(fd, junk, (size_t)want);

		if (r <= 0)
			die("read of a blocking pipe");
		if (buf && got < max)
			memcpy(buf + got, junk,
			       (size_t)(got + r > max ? max - got : r));
		got += (int)r;
	}
	return n;
}

/* Bytes in the blocking pipe; read without waiting through FIONREAD. */
static int blk_count(const struct diff_arena *ar)
{
	int n = 0;

	if (ioctl(ar->fd.blk_rd, FIONREAD, &n))
		die("FIONREAD");
	return n;
}

static size_t drain(int fd, unsigned char *buf)
{
	unsigned char junk[4096];
	size_t n = 0;

	for (;;) {
		ssize_t r = buf ? read(fd, buf + n, DIFF_PIPE_MAX - n)
				: read(fd, junk, sizeof(junk));

		if (r <= 0)
			return n;
		if (buf) {
			n += (size_t)r;
			if (n == DIFF_PIPE_MAX)
				return n;
		}
	}
}

/* Everything the tight pipe gave its reader during one run. */
static struct {
	uint64_t	hash;
	unsigned long	len;
} tight_got;

/* Read what the tight pipe holds now (its only reader: never waits). */
static void tight_take(const struct diff_arena *ar)
{
	for (int n = pipe_count(ar->fd.tight_rd); n > 0;) {
		unsigned char buf[4096];
		ssize_t r = read(ar->fd.tight_rd, buf,
				 (size_t)n < sizeof(buf) ? (size_t)n
							 : sizeof(buf));

		if (r <= 0)
			die("read of the tight pipe");
		tight_got.hash = diff_hash(tight_got.hash, buf, (size_t)r);
		tight_got.len += (unsigned long)r;
		n -= (int)r;
	}
}

/* The same start for every run: the arena and the pipes. */
static void load(const struct diff_arena *ar, const struct diff_graph *g)
{
	memcpy(ar->alias, g->image, ar->size);
	top_load(ar, g);
	drain(ar->fd.in_rd, NULL);
	drain(ar->fd.out_rd, NULL);
	drain(ar->fd.empty_rd, NULL);
	for (int n = blk_count(ar); n > 0;) {
		unsigned char junk[4096];
		ssize_t r = read(ar->fd.blk_rd, junk,
				 (size_t)n < sizeof(junk) ? (size_t)n
							  : sizeof(junk));

		if (r <= 0)
			die("read of the blocking pipe");
		n -= (int)r;
	}
	pipe_take(ar->fd.late_rd, NULL, 0);
	pipe_take(ar->fd.tight_rd, NULL, 0);
	tight_got.hash = DIFF_HASH0;
	tight_got.len = 0;
	if (ar->tight_cap && g->tight_room < ar->tight_cap) {
		unsigned long fill = ar->tight_cap - g->tight_room;
		unsigned char buf[65536];

		for (unsigned long i = 0; i < fill; i++)
			buf[i] = diff_tight_byte(i);
		if (write(ar->fd.tight_wr, buf, fill) != (ssize_t)fill)
			die("write to the tight pipe");
	}
	if (write(ar->fd.blk_wr, "blocking", DIFF_BLK_FILL) != DIFF_BLK_FILL)
		die("write to the blocking pipe");
	if (g->in_fill &&
	    write(ar->fd.in_wr, g->in_data, g->in_fill) != (ssize_t)g->in_fill)
		die("write to the input pipe");
}

static void capture(const struct diff_arena *ar, struct diff_outcome *o)
{
	memcpy(o->mem, ar->alias, ar->size);
	if (ar->top_pg)
		memcpy(o->top_mem, (void *)(ar->user_top - sizeof(o->top_mem)),
		       sizeof(o->top_mem));
	o->in_len = drain(ar->fd.in_rd, o->in_left);
	o->out_len = drain(ar->fd.out_rd, o->out);
	o->empty_len = drain(ar->fd.empty_rd, o->empty);
	o->blk_len = blk_count(ar);
	/* Exactly what it holds, so that the read cannot wait; load()
	 * fills it again. */
	for (int n = 0; n < o->blk_len;) {
		ssize_t r = read(ar->fd.blk_rd, o->blk + n,
				 (size_t)(o->blk_len - n));

		if (r <= 0)
			die("read of the blocking pipe");
		n += (int)r;
	}
	o->late_len = pipe_take(ar->fd.late_rd, o->late, DIFF_LATE_FEED);
	tight_take(ar);
	o->tight_len = tight_got.len;
	o->tight_hash = tight_got.hash;
}

static void outcome_alloc(const struct diff_arena *ar, struct diff_outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->mem = malloc(ar->size);
	o->in_left = malloc(DIFF_PIPE_MAX);
	o->out = malloc(DIFF_PIPE_MAX);
	o->empty = malloc(DIFF_PIPE_MAX);
	o->blk = malloc(DIFF_PIPE_MAX);
	if (!o->mem || !o->in_left || !o->out || !o->empty || !o->blk)
		die("malloc");
}

/* The backend's run, from the ring state the model holds. */
struct head {
	struct async_head_user	ahu;
	struct syslet_uatom	*ring[DIFF_RING];
	struct ref_ring		model;
};

/*
 * Two threads at most, but on the kernel as many as the ring has slots
 * (its limit): there a read of the late pipe that finds no parked thread
 * sleeps in the caller, as in 2007, and the driver, which feeds the pipe
 * only once async_exec() returned, waits for it for good.  With two, the
 * worker of the last graph, on its way back to the pool, and the thread
 * carrying the caller's context could be all the head had; with four,
 * async_exec() makes a thread whenever none is parked.  (Graph 1820's
 * HANG in the x86_64 guest, difftest32, that this was first taken for
 * was the reference's own read: ref.c, ref_probe().)
 */
static int head_register(struct head *h)
{
	memset(h, 0, sizeof(*h));
	h->ahu.completion_ring = h->ring;
	h->ahu.ring_size_bytes = sizeof(h->ring);
	h->ahu.max_nr_threads =
		!strcmp(syslet_backend_name(), "kernel") ? DIFF_RING : 2;
	return sys_async_register(&h->ahu, sizeof(h->ahu)) ? -errno : 0;
}

static void head_unregister(struct head *h)
{
	if (sys_async_unregister(&h->ahu, sizeof(h->ahu)))
		die("async_unregister");
}

/* A syslet that goes async and completes: moves the ring's index on. */
static void advance_ring(struct head *h, unsigned long umem_nr)
{
	static unsigned long cell, zero;
	static unsigned long *cellp = &cell;
	struct syslet_uatom a;

	memset(&a, 0, sizeof(a));
	a.flags = SYSLET_ASYNC;
	a.nr = umem_nr;
	a.arg_ptr[0] = (unsigned long *)&cellp;
	a.arg_ptr[1] = &zero;
	errno = 0;
	if (sys_async_exec(&a) || errno)
		die("async_exec of the ring advance");
	while (!h->ring[h->model.idx])
		sys_async_wait(1);
	h->ring[h->model.idx] = NULL;
	h->model.idx = (h->model.idx + 1) % DIFF_RING;
}

/*
 * The feeder of a SYNC read of the late pipe, which sleeps in the caller
 * inside async_exec() (diff.h): it writes the feed once the caller is
 * seen asleep in that read, in /proc/self/task/TID/syscall of the task
 * that called async_exec() (task_self(): on the kernel not the TID's
 * task, which after a hand-off sleeps in async_exec() for good): the read
 * itself where an engine makes the atom's call from the caller's
 * thread (emul, uring), async_exec() in interruptible sleep for the
 * kernel, whose atom's read runs inside that call.
 */
struct feeder {
	const struct diff_arena	*ar;
	pid_t			tid;
	long			exec_nr;
	int			stop;	/* async_exec() is back */
	int			fed;
	pthread_t		th;
};

/* One read of /proc/PID/task/TID/FILE into @buf, NUL-terminated. */
static bool task_line(pid_t pid, pid_t tid, const char *file, char *buf,
		      size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)pid,
		 (int)tid, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return true;
}

/* The same for a thread of this process. */
static bool proc_line(pid_t tid, const char *file, char *buf, size_t len)
{
	return task_line(getpid(), tid, file, buf, len);
}

static bool caller_in_late_read(const struct feeder *f)
{
	char buf[512], *p;
	unsigned long a0;
	long nr;

	if (!proc_line(f->tid, "syscall", buf, sizeof(buf)) ||
	    sscanf(buf, "%ld %lx", &nr, &a0) != 2)
		return false;
	if (nr == SYS_read && a0 == (unsigned long)f->ar->fd.late_rd)
		return true;
	if (nr != f->exec_nr || !proc_line(f->tid, "stat", buf, sizeof(buf)))
		return false;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

static void *feeder_main(void *arg)
{
	struct feeder *f = arg;

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		if (caller_in_late_read(f)) {
			if (write(f->ar->fd.late_wr, diff_late_feed,
				  DIFF_LATE_FEED) != DIFF_LATE_FEED)
				die("write of the late pipe's feed");
			__atomic_store_n(&f->fed, 1, __ATOMIC_RELEASE);
			break;
		}
		usleep(50);
	}
	return NULL;
}

/*
 * The tight pipe's reader (diff.h): it begins once async_exec() returned
 * NULL (go), or, for a graph whose SYNC write of it sleeps in the caller,
 * once /proc shows the caller asleep in that write: the call itself for
 * emul and uring (a plain write, or pwritev2 for the rest of one that
 * went in partly), for the kernel async_exec() asleep at pipe_write.
 * Then it reads whatever comes until the syslet ended (stop).
 */
struct drainer {
	const struct diff_arena	*ar;
	pid_t			tid;
	long			exec_nr;
	bool			kernel;
	int			go, stop;
	pthread_t		th;
};

/*
 * On the kernel the caller is not found by its TID: once a syslet went
 * async, the program's context runs on a pool task, while the TID it
 * answers to (gettid()) stays with the task that waits for it (asleep in
 * async_exec() too).  /proc/thread-self names the task itself; a SYNC
 * atom runs in it, inside async_exec(), until the chain ends or goes
 * async, so the task that called async_exec() is the one to watch.
 */
static pid_t task_self(void)
{
	char link[64];
	const char *t;
	ssize_t n = readlink("/proc/thread-self", link, sizeof(link) - 1);

	if (n > 0) {
		link[n] = 0;
		t = strrchr(link, '/');
		if (t && atoi(t + 1) > 0)
			return (pid_t)atoi(t + 1);
	}
	return (pid_t)syscall(SYS_gettid);
}

static bool caller_in_tight_write(const struct drainer *d)
{
	char buf[512];
	unsigned long a0;
	long nr;

	if (d->kernel)
		return proc_line(d->tid, "syscall", buf, sizeof(buf)) &&
		       sscanf(buf, "%ld", &nr) == 1 && nr == d->exec_nr &&
		       proc_line(d->tid, "wchan", buf, sizeof(buf)) &&
		       !strcmp(buf, "pipe_write");
	if (!proc_line(d->tid, "syscall", buf, sizeof(buf)) ||
	    sscanf(buf, "%ld %lx", &nr, &a0) != 2)
		return false;
	return (nr == SYS_write || nr == SYS_pwritev2) &&
	       a0 == (unsigned long)d->ar->fd.tight_wr;
}

static void *drainer_main(void *arg)
{
	struct drainer *d = arg;
	bool reading = false;

	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
		struct pollfd p = { .fd = d->ar->fd.tight_rd, .events = POLLIN };

		if (!reading) {
			reading = __atomic_load_n(&d->go, __ATOMIC_ACQUIRE) ||
				  caller_in_tight_write(d);
			if (!reading) {
				usleep(50);
				continue;
			}
		}
		if (poll(&p, 1, 2) == 1)
			tight_take(d->ar);
	}
	return NULL;
}

static void drainer_start(struct drainer *d, const struct diff_arena *ar)
{
	d->ar = ar;
	d->tid = task_self();
	d->exec_nr = syslet_sysno(SYSLET_CALL_ASYNC_EXEC);
	d->kernel = !strcmp(syslet_backend_name(), "kernel");
	if (pthread_create(&d->th, NULL, drainer_main, d))
		die("pthread_create of the tight pipe's reader");
}

/*
 * Whether a thread asleep in a pipe's write shows it in /proc: its call
 * (emul, uring), and for the kernel, whose atoms' calls run inside
 * async_exec(), the kernel function it sleeps in (wchan, which needs
 * kallsyms).  A thread of ours sleeps in a write of a full pipe.
 */
struct probe {
	int	p[2];
	pid_t	tid;
};

static void *probe_writer(void *arg)
{
	struct probe *pr = arg;
	char b = 0;

	__atomic_store_n(&pr->tid, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_RELEASE);
	if (write(pr->p[1], &b, 1) != 1)
		die("write of the probe's pipe");
	return NULL;
}

static bool tight_sync_ok(const struct diff_arena *ar)
{
	struct probe pr = { .tid = 0 };
	unsigned char buf[65536];
	bool seen = false;
	pthread_t th;

	if (!ar->proc_syscall || !ar->tight_cap)
		return false;
	if (strcmp(syslet_backend_name(), "kernel"))
		return true;
	if (pipe(pr.p))
		die("pipe");
	memset(buf, 0, sizeof(buf));
	if (fcntl(pr.p[1], F_SETPIPE_SZ, (int)ar->page) < 0 ||
	    write(pr.p[1], buf, ar->page) != (ssize_t)ar->page)
		die("the probe's pipe");
	if (pthread_create(&th, NULL, probe_writer, &pr))
		die("pthread_create of the probe");
	for (int i = 0; i < 4000 && !seen; i++) {
		pid_t tid = __atomic_load_n(&pr.tid, __ATOMIC_ACQUIRE);

		if (tid)
			seen = proc_line(tid, "wchan", (char *)buf,
					 sizeof(buf)) &&
			       !strcmp((char *)buf, "pipe_write");
		usleep(500);
	}
	pipe_take(pr.p[0], NULL, 0);
	pthread_join(th, NULL);
	close(pr.p[0]);
	close(pr.p[1]);
	return seen;
}

/* Whether this machine shows a thread's call in /proc (the feeder's
 * only way to see the caller asleep). */
static bool proc_syscall_ok(void)
{
	char buf[512];
	long nr;

	return proc_line((pid_t)syscall(SYS_gettid), "syscall", buf,
			 sizeof(buf)) && sscanf(buf, "%ld", &nr) == 1;
}

static void obs_stats(struct syslet_stats *st)
{
	st->sz = sizeof(*st);
	if (obs_on && syslet_get_stats(st))
		die("syslet_get_stats");
}

/*
 * @batch: the syslet goes in by syslet_exec_batch() (a batch of one),
 * which must do what async_exec does; odd graphs take that path, so that
 * a graph's --from reproduces its path too.
 */
static void run_backend(const struct diff_arena *ar, struct head *h,
			const struct diff_graph *g, bool batch, bool feed_sync,
			bool drain_sync, struct diff_outcome *o)
{
	struct syslet_uatom *done, *entry = (struct syslet_uatom *)g->entry;
	unsigned int junk = h->model.idx;
	struct feeder f = { .ar = ar };
	struct drainer d = { .go = 0 };
	bool reader = false;

	memset(h->ring, 0, sizeof(h->ring));
	if (g->ring_junk)
		h->ring[junk] = DIFF_JUNK;
	load(ar, g);
	if (feed_sync) {
		f.tid = task_self();
		f.exec_nr = syslet_sysno(SYSLET_CALL_ASYNC_EXEC);
		if (pthread_create(&f.th, NULL, feeder_main, &f))
			die("pthread_create of the feeder");
	}
	if (drain_sync) {
		drainer_start(&d, ar);
		reader = true;
	}
	__atomic_store_n(&obs_n, 0, __ATOMIC_RELEASE);
	obs_stats(&obs_st0);
	errno = 0;
	if (batch) {
		int err = 0;
		long k = syslet_exec_batch(&entry, 1, &done, &err);

		if (k != 1)
			die("syslet_exec_batch of one syslet");
		o->ret = (unsigned long)done;
		o->err = done ? 0 : err;
	} else {
		done = sys_async_exec(entry);
		o->ret = (unsigned long)done;
		o->err = done ? 0 : errno;
	}
	if (feed_sync) {
		__atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
		pthread_join(f.th, NULL);
	}
	/* The syslet is in flight: now, and not before, the tight pipe's
	 * reader (diff.h). */
	if (!done && !o->err) {
		__atomic_store_n(&d.go, 1, __ATOMIC_RELEASE);
		if (!reader)
			drainer_start(&d, ar);
		reader = true;
	}
	/* The syslet is in flight: now, and not before, the late pipe's
	 * feed (a read of it that went async waits for this), unless the
	 * feeder wrote it already. */
	if (!done && !o->err && !f.fed &&
	    write(ar->fd.late_wr, diff_late_feed, DIFF_LATE_FEED) !=
		    DIFF_LATE_FEED)
		die("write of the late pipe's feed");
	if (!done && !o->err)
		while (sys_async_wait(1) < 0 && errno == EINTR)
			;
	if (reader) {
		__atomic_store_n(&d.stop, 1, __ATOMIC_RELEASE);
		pthread_join(d.th, NULL);
	}
	memcpy(o->ring1, h->ring, sizeof(o->ring1));
	if (g->ring_junk && h->ring[junk] == DIFF_JUNK) {
		h->ring[junk] = NULL;
		sys_async_wait(0);
	}
	memcpy(o->ring2, h->ring, sizeof(o->ring2));
	capture(ar, o);
	memset(h->ring, 0, sizeof(h->ring));
	obs_stats(&obs_st1);
}

/*
 * What is wrong with the events of --observe against the reference's
 * run @ref, in @buf; NULL when nothing is.  @went_async: async_exec
 * returned NULL.  With SYSLET_TRACE_UNFINISHED, a syslet that went async
 * shows one more event, before the rest: the atom it went async at,
 * whose own event (handoff set, the only one) comes next.
 */
static const char *obs_check(const struct diff_outcome *ref, bool went_async,
			     char *buf, size_t len)
{
	unsigned int n = __atomic_load_n(&obs_n, __ATOMIC_ACQUIRE), m = 0;
	unsigned long want = ref->atoms + (ref->end == REF_END_FAULT);
	unsigned long handoffs = 0;
	static struct obs_event run[DIFF_OBS_MAX];
	static const enum syslet_end ends[REF_NR_ENDS] = {
		[REF_END_NULL] = SYSLET_END_NEXT,
		[REF_END_STOP] = SYSLET_END_STOP,
		[REF_END_FAULT] = SYSLET_END_FAULT,
	};
	const struct obs_event *last;

	if (n > DIFF_OBS_MAX)
		n = DIFF_OBS_MAX;
	for (unsigned int i = 0; i < n; i++) {
		if (obs_ev[i].end != SYSLET_END_UNFINISHED) {
			handoffs += obs_ev[i].handoff != 0;
			run[m++] = obs_ev[i];
			continue;
		}
		if (i + 1 >= n || obs_ev[i + 1].atom != obs_ev[i].atom ||
		    !obs_ev[i + 1].handoff || obs_ev[i].next) {
			snprintf(buf, len, "trace event %u: unfinished at atom "
				 "%#lx, then %s at %#lx (handoff %d)", i,
				 obs_ev[i].atom, i + 1 < n ? "an event" :
				 "none", i + 1 < n ? obs_ev[i + 1].atom : 0,
				 i + 1 < n ? obs_ev[i + 1].handoff : 0);
			return buf;
		}
	}
	if (handoffs != (went_async ? 1 : 0) || n - m != handoffs) {
		snprintf(buf, len, "%lu events with handoff and %u unfinished "
			 "for a syslet that %s", handoffs, n - m,
			 went_async ? "went async" : "ran in the caller");
		return buf;
	}
	if (m != want) {
		snprintf(buf, len, "%u trace events for %lu atoms run and %d "
			 "faulting fetch", m, ref->atoms,
			 ref->end == REF_END_FAULT);
		return buf;
	}
	if (obs_st1.atoms - obs_st0.atoms != ref->atoms ||
	    obs_st1.faults - obs_st0.faults != (ref->end == REF_END_FAULT) ||
	    obs_st1.handoffs - obs_st0.handoffs != handoffs) {
		snprintf(buf, len, "stats: %llu atoms, %llu faults and %llu "
			 "handoffs for %lu atoms run, %d faulting fetch and "
			 "%lu handoffs", obs_st1.atoms - obs_st0.atoms,
			 obs_st1.faults - obs_st0.faults,
			 obs_st1.handoffs - obs_st0.handoffs, ref->atoms,
			 ref->end == REF_END_FAULT, handoffs);
		return buf;
	}
	if (!m)
		return NULL;
	for (unsigned int i = 0; i + 1 < m; i++) {
		if (run[i].end != SYSLET_END_NONE ||
		    run[i].next != run[i + 1].atom) {
			snprintf(buf, len, "trace event %u: atom %#lx end %d "
				 "next %#lx, then event %u at atom %#lx", i,
				 run[i].atom, (int)run[i].end,
				 run[i].next, i + 1, run[i + 1].atom);
			return buf;
		}
	}
	last = &run[m - 1];
	if (last->end != ends[ref->end] || last->next ||
	    (ref->end != REF_END_FAULT && last->atom != ref->last)) {
		snprintf(buf, len, "last trace event: atom %#lx end %d next "
			 "%#lx; the reference ended at %#lx (%s)", last->atom,
			 (int)last->end, last->next, ref->last,
			 ref->end == REF_END_NULL ? "NULL next" :
			 ref->end == REF_END_STOP ? "a stop" : "a fault");
		return buf;
	}
	return NULL;
}

/*
 * --step: the graph run one atom at a time by syslet_step(), in the
 * caller, as syslet-run -i steps it.  A step never goes async, so every
 * graph is stepped but those that wait for the driver's feeder or
 * drainer (a read of the late pipe, a write of the tight pipe that
 * sleeps: nobody would feed or drain them).  The memory and the pipes
 * must be the reference's; what async_exec() would have returned is
 * what the last step says (its atom, or EFAULT from a fetch that
 * faulted), and nothing is completed: step_expect() turns the
 * reference's outcome of a graph that went async into that.  Such a
 * graph read the late pipe and wrote the tight one only after it went
 * async, where the driver feeds the one and drains the other: for it
 * run_step() feeds and drains from the start (@async).
 */
static bool step_ok(const struct diff_outcome *ref)
{
	return !ref->late_sync && !ref->tight_sync && !ref->late_waited &&
	       !ref->tight_waited && ref->atoms < REF_MAX_ATOMS;
}

static void step_expect(const struct diff_outcome *ref,
			const struct diff_graph *g, unsigned int junk,
			struct diff_outcome *exp)
{
	*exp = *ref;
	if (!ref->async)
		return;
	exp->ret = ref->end == REF_END_FAULT ? 0 : ref->last;
	exp->err = ref->end == REF_END_FAULT ? EFAULT : 0;
	memset(exp->ring1, 0, sizeof(exp->ring1));
	memset(exp->ring2, 0, sizeof(exp->ring2));
	if (g->ring_junk)
		exp->ring1[junk] = (unsigned long)DIFF_JUNK;
}

static void run_step(const struct diff_arena *ar, struct head *h,
		     const struct diff_graph *g, bool async,
		     struct diff_outcome *o)
{
	struct syslet_uatom *u = (struct syslet_uatom *)g->entry;
	struct syslet_event ev = { .sz = sizeof(ev) };
	unsigned int junk = h->model.idx;
	struct drainer d = { .go = 1 };

	memset(h->ring, 0, sizeof(h->ring));
	if (g->ring_junk)
		h->ring[junk] = DIFF_JUNK;
	load(ar, g);
	if (async) {
		if (write(ar->fd.late_wr, diff_late_feed, DIFF_LATE_FEED) !=
		    DIFF_LATE_FEED)
			die("write of the late pipe's feed");
		drainer_start(&d, ar);
	}
	__atomic_store_n(&obs_n, 0, __ATOMIC_RELEASE);
	obs_stats(&obs_st0);
	/* At least once: a NULL entry is a fetch that faults. */
	for (unsigned int k = 0; k <= REF_MAX_ATOMS; k++) {
		errno = 0;
		u = syslet_step(u, &ev);
		if (!u && errno)
			die("syslet_step");
		if (!u)
			break;
	}
	if (async) {
		__atomic_store_n(&d.stop, 1, __ATOMIC_RELEASE);
		pthread_join(d.th, NULL);
	}
	o->ret = ev.end == SYSLET_END_FAULT ? 0 : (unsigned long)ev.atom;
	o->err = ev.end == SYSLET_END_FAULT ? EFAULT : 0;
	memcpy(o->ring1, h->ring, sizeof(o->ring1));
	if (g->ring_junk && h->ring[junk] == DIFF_JUNK) {
		h->ring[junk] = NULL;
		sys_async_wait(0);
	}
	memcpy(o->ring2, h->ring, sizeof(o->ring2));
	capture(ar, o);
	memset(h->ring, 0, sizeof(h->ring));
	obs_stats(&obs_st1);
}

static enum ref_status run_ref(const struct diff_arena *ar,
			       const struct ref_ring *model,
			       const struct diff_graph *g, unsigned long no_thread,
			       struct diff_outcome *o, struct ref_ring *after,
			       const char **why)
{
	struct ref_ring rr = *model;
	unsigned int junk = model->idx;
	enum ref_status st;
	unsigned long tight_len;
	uint64_t tight_hash;

	memset(rr.slot, 0, sizeof(rr.slot));
	rr.waiting = false;
	if (g->ring_junk)
		rr.slot[junk] = (unsigned long)DIFF_JUNK;
	load(ar, g);
	st = ref_run(ar, g->entry, no_thread, &rr, o, why);
	memcpy(o->ring1, rr.slot, sizeof(o->ring1));
	if (g->ring_junk && rr.slot[junk] == (unsigned long)DIFF_JUNK) {
		rr.slot[junk] = 0;
		ref_ring_cleared(&rr);
	}
	memcpy(o->ring2, rr.slot, sizeof(o->ring2));
	/* The tight pipe is the reference's model (it has no reader). */
	tight_len = o->tight_len;
	tight_hash = o->tight_hash;
	capture(ar, o);
	o->tight_len = tight_len;
	o->tight_hash = tight_hash;
	*after = rr;
	return st;
}

static const char *region(const struct diff_arena *ar, unsigned long off)
{
	static const char *const names[DIFF_NPAGES] = {
		"A0 (atoms)", "A1 (atoms)", "gap", "B (ro atoms, cells)",
		"D0 (fuel, data)", "D1 (data)", "gap", "R (ro data)",
	};

	return names[off / ar->page];
}

static void report(const struct opts *op, const char *backend,
		   const struct diff_arena *ar, const struct diff_graph *g,
		   unsigned long index, unsigned int ring_index,
		   const struct diff_outcome *ref,
		   const struct diff_outcome *got, const char *what)
{
	const size_t W = sizeof(unsigned long);
	unsigned int shown = 0;

	fprintf(stderr,
		"difftest: MISMATCH (%s) on %s: seed %#" PRIx64 " graph %lu "
		"(ring index %u; the reference ran %lu atoms)\n"
		"  reproduce: difftest --seed=%#" PRIx64 " --from=%lu --count=1 "
		"--ring-index=%u --backend=%s%s%s -v\n",
		what, backend, op->seed, index, ring_index, ref->atoms,
		op->seed, index, ring_index, backend,
		op->observe ? " --observe" : "", op->step ? " --step" : "");
	fprintf(stderr, "  async_exec: reference %#lx errno %d, %s %#lx "
		"errno %d\n", ref->ret, ref->err, backend, got->ret, got->err);
	for (int i = 0; i < DIFF_RING; i++)
		if (ref->ring1[i] != got->ring1[i] ||
		    ref->ring2[i] != got->ring2[i])
			fprintf(stderr, "  ring[%d]: reference %#lx then %#lx, "
				"%s %#lx then %#lx\n", i, ref->ring1[i],
				ref->ring2[i], backend, got->ring1[i],
				got->ring2[i]);
	for (size_t off = 0; off < ar->size && shown < 12; off += W) {
		unsigned long a, b;

		memcpy(&a, ref->mem + off, W);
		memcpy(&b, got->mem + off, W);
		if (a == b)
			continue;
		fprintf(stderr, "  word %#lx (%s +%#lx): reference %#lx, "
			"%s %#lx\n", (unsigned long)ar->base + off,
			region(ar, off), off % ar->page, a, backend, b);
		shown++;
	}
	if (ref->in_len != got->in_len || ref->out_len != got->out_len ||
	    ref->empty_len != got->empty_len || ref->blk_len != got->blk_len ||
	    ref->late_len != got->late_len)
		fprintf(stderr, "  pipes (input left, output, other, "
			"blocking, late): reference %zu %zu %zu %d %d, %s %zu "
			"%zu %zu %d %d\n", ref->in_len, ref->out_len,
			ref->empty_len, ref->blk_len, ref->late_len, backend,
			got->in_len, got->out_len, got->empty_len,
			got->blk_len, got->late_len);
	if (ref->tight_len != got->tight_len ||
	    ref->tight_hash != got->tight_hash)
		fprintf(stderr, "  the tight pipe got (from its fill of %lu "
			"bytes): reference %lu bytes (hash %#" PRIx64 "), %s "
			"%lu (hash %#" PRIx64 ")\n",
			ar->tight_cap - g->tight_room, ref->tight_len,
			ref->tight_hash, backend, got->tight_len,
			got->tight_hash);
	if (op->verbose) {
		fputs("  the graph as generated:\n", stderr);
		gen_dump(ar, g, g->image, stderr);
		fputs("  after the reference:\n", stderr);
		gen_dump(ar, g, ref->mem, stderr);
	}
}

static const char *compare(const struct diff_outcome *a,
			   const struct diff_outcome *b, size_t size)
{
	if (a->ret != b->ret || a->err != b->err)
		return "async_exec's result";
	if (memcmp(a->ring1, b->ring1, sizeof(a->ring1)) ||
	    memcmp(a->ring2, b->ring2, sizeof(a->ring2)))
		return "the ring";
	if (memcmp(a->mem, b->mem, size) ||
	    memcmp(a->top_mem, b->top_mem, sizeof(a->top_mem)))
		return "memory";
	if (a->in_len != b->in_len || memcmp(a->in_left, b->in_left, a->in_len))
		return "the input pipe";
	if (a->out_len != b->out_len || memcmp(a->out, b->out, a->out_len))
		return "the output pipe";
	if (a->empty_len != b->empty_len ||
	    memcmp(a->empty, b->empty, a->empty_len))
		return "the third pipe";
	if (a->blk_len != b->blk_len ||
	    memcmp(a->blk, b->blk, (size_t)a->blk_len))
		return "the blocking pipe";
	if (a->late_len != b->late_len ||
	    memcmp(a->late, b->late, (size_t)a->late_len))
		return "the late pipe";
	if (a->tight_len != b->tight_len || a->tight_hash != b->tight_hash)
		return "the tight pipe";
	return NULL;
}

/*
 * A call that may block may send the rest of a syslet to a cachemiss
 * thread in any backend: whether it does is the backend's to decide (the
 * kernel when the call sleeps; uring issues every read and write through
 * io_uring and returns NULL at once).  For such a backend, a syslet the
 * reference ran in the caller may instead go async at one of its reads
 * or writes: async_exec then returns NULL and the syslet's last atom
 * comes through the ring (none for NO_COMPLETE), a fetch that fails
 * afterwards included (the modelled difference of ref_run()).  Memory
 * and pipes are compared as strictly as ever.  emul's calls on the
 * test's non-blocking pipes never block, and it must stay in the caller.
 */
static bool backend_async_at_calls(const char *backend)
{
	return !strcmp(backend, "uring");
}

/*
 * The kernel hands an ASYNC atom's chain to a parked pool thread, and
 * with none parked (max_nr_threads of them busy: the worker of the last
 * chain may not be back yet, which a preemptible kernel shows) the atom
 * runs in the caller, as in 2007.  So for the kernel, a graph the
 * reference sent async may also have run in the caller up to a later
 * ASYNC atom, or to its end.  Rare, or ASYNC is broken: at most one
 * graph in DIFF_IN_PLACE_MAX of those that went async.
 */
#define DIFF_IN_PLACE_MAX	20

static bool backend_may_lack_thread(const char *backend)
{
	return !strcmp(backend, "kernel");
}

static void as_async(const struct ref_ring *model, const struct diff_graph *g,
		     const struct diff_outcome *ref, struct diff_outcome *alt,
		     struct ref_ring *after)
{
	struct ref_ring rr = *model;
	unsigned int junk = model->idx;

	*alt = *ref;
	alt->ret = 0;
	alt->err = 0;
	/* It went async: the driver fed the late pipe, which the syslet,
	 * in the reference never waiting for it, did not read from. */
	if (!ref->late_fed) {
		alt->late_len = DIFF_LATE_FEED;
		memcpy(alt->late, diff_late_feed, DIFF_LATE_FEED);
	}
	memset(rr.slot, 0, sizeof(rr.slot));
	rr.waiting = false;
	if (g->ring_junk)
		rr.slot[junk] = (unsigned long)DIFF_JUNK;
	if (!ref->last_nc) {
		if (rr.slot[rr.idx]) {
			rr.waiting = true;
			rr.waiting_atom = ref->last;
		} else {
			rr.slot[rr.idx] = ref->last;
			rr.idx = (rr.idx + 1) % DIFF_RING;
		}
	}
	memcpy(alt->ring1, rr.slot, sizeof(alt->ring1));
	if (g->ring_junk && rr.slot[junk] == (unsigned long)DIFF_JUNK) {
		rr.slot[junk] = 0;
		ref_ring_cleared(&rr);
	}
	memcpy(alt->ring2, rr.slot, sizeof(alt->ring2));
	*after = rr;
}

/* Did @got run as the reference does when its first ASYNC atoms find
 * no thread?  Then the model moves on as that run left it. */
static bool in_place(const struct diff_arena *ar, struct head *h,
		     const struct diff_graph *g, const struct diff_outcome *got,
		     struct ref_ring *after)
{
	static struct diff_outcome alt;
	bool same = false;

	if (!alt.mem)
		outcome_alloc(ar, &alt);
	for (unsigned long k = 1; k <= DIFF_MAX_ATOMS && !same; k++) {
		const char *why = NULL;

		if (run_ref(ar, &h->model, g, k, &alt, after, &why) != REF_OK)
			break;
		same = !compare(&alt, got, ar->size);
		if (!alt.async)
			break;	/* ran in the caller to its end */
	}
	if (same)
		h->model = *after;
	return same;
}

struct counts {
	unsigned long	run, mismatches, unsafe, endless, atoms, async;
	unsigned long	async_at_call, in_place, late, late_sync;
	unsigned long	tight, tight_sync, top, not_stepped, stepped_async;
	unsigned long	end[REF_NR_ENDS];
};

/* All graphs through one backend; 0 ok, 1 mismatches, 77 absent. */
static int run_backend_all(const struct opts *op, struct diff_arena *ar,
			   const char *backend, struct counts *c)
{
	static char obs_why[256];
	struct diff_outcome ref, got;
	struct diff_graph g;
	struct head h;
	long err;
	int reported = 0;

	err = syslet_set_backend(backend);
	if (!err)
		err = head_register(&h);
	if (err) {
		printf("difftest: %s: not here (%s)\n", backend,
		       syslet_backend_error() ? syslet_backend_error()
					      : strerror((int)-err));
		return 77;
	}
	obs_on = op->observe;
	if (op->observe && (syslet_set_trace(obs_record, NULL) ||
			    syslet_set_trace_flags(SYSLET_TRACE_UNFINISHED))) {
		printf("difftest: %s: --observe: no trace here\n", backend);
		head_unregister(&h);
		return 77;
	}
	ar->umem_nr = (unsigned long)syslet_sysno(SYSLET_CALL_UMEM_ADD);
	ar->nr_syscalls = ar->umem_nr + 1;
	ar->tight_sync_ok = tight_sync_ok(ar);
	prog->umem_nr = ar->umem_nr;
	prog->nr_syscalls = ar->nr_syscalls;
	snprintf(prog->backend, sizeof(prog->backend), "%s", backend);
	outcome_alloc(ar, &ref);
	outcome_alloc(ar, &got);
	g.image = malloc(ar->size);
	if (!g.image)
		die("malloc");
	while (h.model.idx != op->ring_index % DIFF_RING)
		advance_ring(&h, ar->umem_nr);
	for (unsigned long i = op->from; i < op->from + op->count; i++) {
		struct ref_ring after;
		const char *why = NULL, *bad;
		enum ref_status st;

		prog->graph = i;
		prog->ring_index = h.model.idx;
		prog->beat++;
		gen_graph(ar, op->seed, i, &g);
		if (op->verbose > 2) {
			fprintf(stderr, "difftest: graph %lu:\n", i);
			gen_dump(ar, &g, g.image, stderr);
		}
		prog->phase = PH_REF;
		st = run_ref(ar, &h.model, &g, 0, &ref, &after, &why);
		prog->phase = PH_NONE;
		if (st != REF_OK) {
			if (st == REF_UNSAFE)
				c->unsafe++;
			else
				c->endless++;
			if (op->verbose > 1)
				fprintf(stderr, "difftest: graph %lu skipped: %s\n",
					i, why);
			continue;
		}
		c->run++;
		c->atoms += ref.atoms;
		c->async += ref.async;
		c->late += ref.late_waited;
		c->late_sync += ref.late_sync;
		c->tight += ref.tight_waited;
		c->tight_sync += ref.tight_sync;
		c->top += g.top_at != 0;
		c->end[ref.end]++;
		prog->phase = PH_BACKEND;
		if (op->step && !step_ok(&ref)) {
			c->not_stepped++;
			continue;
		}
		if (op->step) {
			struct diff_outcome exp;

			c->stepped_async += ref.async;
			step_expect(&ref, &g, h.model.idx, &exp);
			run_step(ar, &h, &g, ref.async, &got);
			bad = compare(&exp, &got, ar->size);
			if (!bad && op->observe)
				bad = obs_check(&ref, false, obs_why,
						sizeof(obs_why));
			/* Nothing completed: the head's model stays. */
			if (!bad)
				continue;
			c->mismatches++;
			if ((unsigned int)reported++ < op->max_reports)
				report(op, backend, ar, &g, i, h.model.idx,
				       &exp, &got, bad);
			continue;
		}
		run_backend(ar, &h, &g, i & 1, ref.late_sync, ref.tight_sync,
			    &got);
		bad = compare(&ref, &got, ar->size);
		if (!bad && op->observe)
			bad = obs_check(&ref, !got.ret && !got.err, obs_why,
					sizeof(obs_why));
		if (!bad) {
			h.model = after;
			continue;
		}
		if (backend_async_at_calls(backend) && !ref.async &&
		    ref.io_calls && ref.last && !got.ret && !got.err) {
			struct diff_outcome alt;

			as_async(&h.model, &g, &ref, &alt, &after);
			if (!compare(&alt, &got, ar->size)) {
				h.model = after;
				c->async_at_call++;
				continue;
			}
		}
		if (backend_may_lack_thread(backend) && ref.async &&
		    in_place(ar, &h, &g, &got, &after)) {
			c->in_place++;
			continue;
		}
		c->mismatches++;
		if ((unsigned int)reported++ < op->max_reports)
			report(op, backend, ar, &g, i, h.model.idx, &ref, &got,
			       bad);
		/* Start the next graph from a ring both sides agree on. */
		head_unregister(&h);
		if (head_register(&h))
			die("async_register");
	}
	head_unregister(&h);
	if (c->in_place && c->in_place * DIFF_IN_PLACE_MAX > c->async) {
		fprintf(stderr, "difftest: %s: %lu of the %lu graphs that went "
			"async ran in the caller: more than one in %d, so "
			"SYSLET_ASYNC does not hand off\n", backend,
			c->in_place, c->async, DIFF_IN_PLACE_MAX);
		return 1;
	}
	return c->mismatches ? 1 : 0;
}

static int child(const struct opts *op, struct diff_arena *arp)
{
	struct diff_arena ar = *arp;
	char *list = strdup(op->backends), *save = NULL;
	int status = 0, ran = 0;
	struct timespec t0, t1;

	memset(&ar, 0, sizeof(ar));
	arena_init(&ar);
	top_page_init(&ar);
	ar.proc_syscall = proc_syscall_ok();
	if (op->verbose)
		printf("difftest: the top of user space is %#lx (found by the "
		       "reference), the page below it %s\n", ar.user_top,
		       ar.top_pg ? "mapped by the test" : "not the test's");
	if (op->verbose)
		printf("difftest: access_ok() %s (ref_probe())\n",
		       ar.access_ok_all ? "lets every buffer through: a "
		       "32-bit process under a 64-bit kernel" :
		       "refuses kernel space");
	/* A write to a pipe without reader must answer -EPIPE, and the
	 * signal it raises is ignored: it must not end anything. */
	signal(SIGPIPE, SIG_IGN);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (char *b = strtok_r(list, ",", &save); b;
	     b = strtok_r(NULL, ",", &save)) {
		struct counts c = { 0 };
		int r = run_backend_all(op, &ar, b, &c);

		if (r == 77)
			continue;
		ran++;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("difftest: %s: seed %#" PRIx64 ", graphs %lu..%lu: %lu "
		       "compared (%lu atoms), %lu mismatches; %lu skipped "
		       "(%lu unsafe, %lu endless); %.1f s\n", b, op->seed,
		       op->from, op->from + op->count - 1, c.run, c.atoms,
		       c.mismatches, c.unsafe + c.endless, c.unsafe,
		       c.endless, (double)(t1.tv_sec - t0.tv_sec) +
				   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
		if (op->step)
			printf("difftest: %s: --step: %lu of them went async "
			       "in the reference; %lu waited for the driver, "
			       "not stepped\n", b, c.stepped_async,
			       c.not_stepped);
		if (c.in_place)
			printf("difftest: %s: %lu of the %lu graphs that went "
			       "async ran in the caller (no parked thread)\n",
			       b, c.in_place, c.async);
		fflush(stdout);
		t0 = t1;
		if (op->verbose)
			printf("difftest: %s: chains that went async %lu (%lu "
			       "at a read that waited for the late pipe, %lu "
			       "more at a read or write, %lu ran in the "
			       "caller: no parked thread); %lu SYNC reads of "
			       "the late pipe waited in the caller; %lu went "
			       "async at a write of the tight pipe that "
			       "sleeps, %lu SYNC ones slept in the caller; "
			       "ended at a "
			       "NULL next %lu, by a stop %lu, by a fault %lu; "
			       "%lu had an atom at the top of user space\n",
			       b, c.async, c.late, c.async_at_call, c.in_place,
			       c.late_sync, c.tight, c.tight_sync,
			       c.end[REF_END_NULL],
			       c.end[REF_END_STOP], c.end[REF_END_FAULT], c.top);
		if (r)
			status = 1;
	}
	free(list);
	if (!ran) {
		printf("difftest: SKIP: none of the backends %s runs here\n",
		       op->backends);
		return 77;
	}
	return status;
}

static void usage(FILE *f)
{
	fputs("usage: difftest [--seed=N] [--count=N] [--from=N] [--graph=N]\n"
	      "                [--ring-index=N] [--backend=emul,uring,kernel]\n"
	      "                [--max-reports=N] [--hang=SECONDS] [--observe]\n"
	      "                [--step] [-v]\n"
	      "Random atom graphs through the reference interpreter and each\n"
	      "backend, compared word for word.  --graph=N runs graph N alone\n"
	      "(--from=N --count=1); -vvv dumps each graph before it runs.\n"
	      "--observe: with a trace callback installed (the engines'\n"
	      "observed loop), its events checked against the reference's\n"
	      "atoms too.  --step: the graphs the reference ran in the caller\n"
	      "run by syslet_step(), one atom at a time.\n"
	      "Exit 0: no mismatch; 1: mismatches (each printed with the\n"
	      "command that reproduces it), or a HANG: no graph done for\n"
	      "--hang seconds (120), reported with where each of the child's\n"
	      "threads waits, and the graph; 77: no backend here;\n"
	      "99: the test itself failed.\n", f);
}

/*
 * A HANG: where each thread of the child is (its call and arguments as
 * /proc shows them, its state and what it waits in), then the graph,
 * generated again here from the same arena (made before the fork, at
 * the same address) and the backend's call numbers.
 */
static void hang_report(pid_t pid, struct diff_arena *ar, const struct opts *op)
{
	static const char *const phases[] = {
		[PH_NONE] = "between graphs",
		[PH_REF] = "in the reference (ref.c)",
		[PH_BACKEND] = "in the backend's run",
	};
	char path[64], sc[256], st[512], wchan[64];
	struct diff_graph g;
	struct dirent *d;
	DIR *dir;

	fprintf(stderr, "difftest: HANG: the child (pid %d) is %s; its "
		"threads (/proc: syscall; state, wchan):\n", (int)pid,
		phases[prog->phase <= PH_BACKEND ? prog->phase : PH_NONE]);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		char *p = NULL;
		pid_t tid = (pid_t)atoi(d->d_name);

		if (d->d_name[0] == '.')
			continue;
		if (!task_line(pid, tid, "syscall", sc, sizeof(sc)))
			sc[0] = 0;
		if (task_line(pid, tid, "stat", st, sizeof(st)))
			p = strrchr(st, ')');
		if (!task_line(pid, tid, "wchan", wchan, sizeof(wchan)))
			wchan[0] = 0;
		sc[strcspn(sc, "\n")] = 0;
		fprintf(stderr, "  task %s: %s; %c, %s\n", d->d_name,
			sc[0] ? sc : "?", p && p[1] ? p[2] : '?',
			wchan[0] ? wchan : "?");
	}
	if (dir)
		closedir(dir);
	ar->umem_nr = prog->umem_nr;
	ar->nr_syscalls = prog->nr_syscalls;
	g.image = malloc(ar->size);
	if (!g.image || !ar->umem_nr)
		return;
	gen_graph(ar, op->seed, prog->graph, &g);
	fprintf(stderr, "  graph %lu as generated:\n", prog->graph);
	gen_dump(ar, &g, g.image, stderr);
	free(g.image);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "from", required_argument, NULL, 'f' },
		{ "graph", required_argument, NULL, 'g' },
		{ "ring-index", required_argument, NULL, 'r' },
		{ "backend", required_argument, NULL, 'b' },
		{ "max-reports", required_argument, NULL, 'm' },
		{ "hang", required_argument, NULL, 'H' },
		{ "observe", no_argument, NULL, 'o' },
		{ "step", no_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts op = {
		.seed = DIFF_DEFAULT_SEED, .count = 30000,
		.backends = "emul,uring,kernel", .max_reports = 5,
		.hang = DIFF_HANG_SECONDS,
	};
	unsigned long last_beat = 0;
	struct diff_arena ar;
	int c, st;
	unsigned int idle = 0;
	pid_t pid;

	while ((c = getopt_long(argc, argv, "v", lo, NULL)) != -1) {
		char *end = NULL;

		switch (c) {
		case 's':
			op.seed = strtoull(optarg, &end, 0);
			break;
		case 'n':
			op.count = strtoul(optarg, &end, 0);
			break;
		case 'f':
			op.from = strtoul(optarg, &end, 0);
			break;
		case 'g':
			op.from = strtoul(optarg, &end, 0);
			op.count = 1;
			break;
		case 'r':
			op.ring_index = (unsigned int)strtoul(optarg, &end, 0);
			break;
		case 'm':
			op.max_reports = (unsigned int)strtoul(optarg, &end, 0);
			break;
		case 'H':
			op.hang = (unsigned int)strtoul(optarg, &end, 0);
			if (!op.hang && !*end) {
				fprintf(stderr, "difftest: --hang: at least 1 "
					"second\n");
				return 99;
			}
			break;
		case 'b':
			op.backends = optarg;
			break;
		case 'o':
			op.observe = true;
			break;
		case 'S':
			op.step = true;
			break;
		case 'v':
			op.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 99;
		}
		if (end && *end) {
			fprintf(stderr, "difftest: not a number: %s\n", optarg);
			return 99;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 99;
	}
	prog = mmap(NULL, sizeof(*prog), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (prog == MAP_FAILED)
		die("mmap");
	/* Before the fork, so that the parent knows the arena's address and
	 * descriptors and can dump the graph of a HANG. */
	memset(&ar, 0, sizeof(ar));
	arena_init(&ar);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		st = child(&op, &ar);
		fflush(stdout);
		prog->done = 1;
		_exit(st);
	}
	/* The parent: a watchdog, and the report of a child that died. */
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			die("waitpid");
		sleep(1);
		if (prog->beat != last_beat) {
			last_beat = prog->beat;
			idle = 0;
		} else if (++idle >= op.hang) {
			hang_report(pid, &ar, &op);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			fprintf(stderr, "difftest: HANG: %s on seed %#" PRIx64
				" graph %lu ran for %u s\n", prog->backend,
				op.seed, prog->graph, idle);
			goto lost;
		}
	}
	if (WIFEXITED(st) && prog->done)
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		fprintf(stderr, "difftest: CRASH: %s died of signal %d on seed %#"
			PRIx64 " graph %lu\n", prog->backend, WTERMSIG(st),
			op.seed, prog->graph);
	else
		fprintf(stderr, "difftest: EXIT: %s exited with %d on seed %#"
			PRIx64 " graph %lu (a denied call that ran?)\n",
			prog->backend, WEXITSTATUS(st), op.seed, prog->graph);
lost:
	fprintf(stderr, "  reproduce: difftest --seed=%#" PRIx64 " --from=%lu "
		"--count=1 --ring-index=%u --backend=%s%s%s -v\n", op.seed,
		prog->graph, prog->ring_index, prog->backend,
		op.observe ? " --observe" : "", op.step ? " --step" : "");
	return 1;
}
