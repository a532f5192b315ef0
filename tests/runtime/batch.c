/* batch.c: syslet_exec_batch() runs syslets as that many async_exec calls would: results, -EFAULT, async ones, a signal that ends one, no ring; uring pipelines a long batch and settles a short one. */
#include "helpers.h"
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>

/*
 * A batch is N calls of async_exec for the price of one: the same
 * results, the same -EFAULT for an atom that cannot be read (also after
 * the program put its own SIGSEGV handler in, the EFAULT promise), async
 * syslets completing into the ring, and, on the user-space backends, a
 * syslet that a signal ends ends the batch after it, so that the
 * handler runs before the rest start.
 */

#define N	16

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

static void on_segv(int sig)
{
	(void)sig;
	_exit(3);	/* the engine's fault reached the program */
}

/* getppid, then getpid into its cells. */
struct two {
	struct syslet_uatom	a[2];
	long			ppid, pid;
};

static void two_build(struct two *t, unsigned long flags)
{
	memset(t, 0, sizeof(*t));
	t->ppid = t->pid = -1;
	rt_atom(&t->a[0], SYS_getppid, &t->ppid, flags, &t->a[1], NULL, NULL,
		NULL);
	rt_atom(&t->a[1], SYS_getpid, &t->pid, 0, NULL, NULL, NULL, NULL);
}

static int user_space(void)
{
	const char *b = syslet_backend_name();

	return b && strcmp(b, "kernel");
}

/* Inline syslets, one with an unreadable argument in the middle. */
static void results(void *bad)
{
	struct syslet_uatom *ring[N], *atoms[N], *done[N];
	struct async_head_user ahu;
	struct two t[N];
	int errs[N];
	long n;

	rt_register(&ahu, ring, N, -1UL);
	for (int i = 0; i < N; i++) {
		two_build(&t[i], 0);
		atoms[i] = &t[i].a[0];
	}
	/* Syslet 5's second atom reads its argument from an unmapped page. */
	t[5].a[1].nr = SYS_close;
	t[5].a[1].arg_ptr[0] = bad;
	memset(errs, 0x55, sizeof(errs));
	n = syslet_exec_batch(atoms, N, done, errs);
	rt_check(n == N, "ran %ld of %d: %s", n, N, strerror(errno));
	for (int i = 0; i < N && n == N; i++) {
		if (i == 5) {
			rt_check(!done[i] && errs[i] == EFAULT &&
				 t[i].ppid == getppid() && t[i].pid == -1,
				 "bad syslet: %p errno %d ppid %ld pid %ld",
				 (void *)done[i], errs[i], t[i].ppid, t[i].pid);
			continue;
		}
		rt_check(done[i] == &t[i].a[1] && !errs[i] &&
			 t[i].ppid == getppid() && t[i].pid == getpid(),
			 "syslet %d: %p errno %d ppid %ld pid %ld", i,
			 (void *)done[i], errs[i], t[i].ppid, t[i].pid);
	}
	rt_check(syslet_exec_batch(atoms, 0, done, errs) == 0, "n 0");
	rt_unregister(&ahu);
}

/* The program's own SIGSEGV handler, put in after the first call: a bad
 * atom in a batch still gives EFAULT. */
static void own_handler(void *bad)
{
	struct syslet_uatom *ring[N], *atoms[2], *done[2];
	struct async_head_user ahu;
	struct sigaction sa;
	struct two t[2];
	int errs[2];
	long n;

	rt_register(&ahu, ring, N, -1UL);
	two_build(&t[0], 0);
	sys_async_exec(&t[0].a[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	two_build(&t[0], 0);
	two_build(&t[1], 0);
	atoms[0] = &t[0].a[0];
	atoms[1] = bad;
	n = syslet_exec_batch(atoms, 2, done, errs);
	rt_check(n == 2 && done[0] == &t[0].a[1] && !errs[0] && !done[1] &&
		 errs[1] == EFAULT, "own SIGSEGV handler: n %ld, %p %d, %p %d",
		 n, (void *)done[0], errs[0], (void *)done[1], errs[1]);
	signal(SIGSEGV, SIG_DFL);
	rt_unregister(&ahu);
}

/* ASYNC syslets: NULL and errno 0, then their completions, each once. */
static void async_ones(void)
{
	struct syslet_uatom *ring[N], *atoms[N], *done[N], *out[N];
	struct async_head_user ahu;
	unsigned long idx = 0, seen = 0;
	struct two t[N];
	int errs[N];
	long n;

	rt_register(&ahu, ring, N, -1UL);
	for (int i = 0; i < N; i++) {
		two_build(&t[i], i % 2 ? SYSLET_ASYNC : 0);
		atoms[i] = &t[i].a[0];
	}
	n = syslet_exec_batch(atoms, N, done, errs);
	rt_check(n == N, "async: ran %ld", n);
	for (int i = 0; i < N; i++)
		rt_check(!errs[i] && (i % 2 ? !done[i] || done[i] == &t[i].a[1]
				      : done[i] == &t[i].a[1]),
			 "async: syslet %d: %p errno %d", i, (void *)done[i],
			 errs[i]);
	for (int i = 0; i < N; i++)
		if (!done[i])
			seen++;
	while (seen) {
		unsigned long k = rt_drain(ring, N, &idx, out, N);

		for (unsigned long j = 0; j < k; j++)
			rt_check(out[j]->nr == SYS_getpid,
				 "async: completion %p", (void *)out[j]);
		seen = k > seen ? 0 : seen - k;
		if (seen)
			sys_async_wait(1);
	}
	for (int i = 0; i < N; i++)
		rt_check(t[i].pid == getpid(), "async: syslet %d pid %ld", i,
			 t[i].pid);
	rt_unregister(&ahu);
}

/* Syslet 3 signals its own thread: the user-space backends end the batch
 * after it, and the handler has run when the call returns. */
struct sig {
	struct syslet_uatom	a[3];
	unsigned long		pid, tid, sig;
	long			r;
};

static void signal_ends(void)
{
	struct syslet_uatom *ring[N], *atoms[N], *done[N];
	struct async_head_user ahu;
	struct two t[N];
	struct sig s;
	int errs[N];
	long n;

	signal(SIGUSR1, on_sig);
	got = 0;
	rt_register(&ahu, ring, N, -1UL);
	for (int i = 0; i < N; i++) {
		two_build(&t[i], 0);
		atoms[i] = &t[i].a[0];
	}
	memset(&s, 0, sizeof(s));
	s.sig = SIGUSR1;
	rt_atom(&s.a[0], SYS_getpid, (long *)&s.pid, 0, &s.a[1], NULL, NULL,
		NULL);
	rt_atom(&s.a[1], SYS_gettid, (long *)&s.tid, 0, &s.a[2], NULL, NULL,
		NULL);
	rt_atom(&s.a[2], SYS_tgkill, &s.r, 0, NULL, &s.pid, &s.tid, &s.sig);
	atoms[3] = &s.a[0];
	n = syslet_exec_batch(atoms, N, done, errs);
	rt_check(got == SIGUSR1, "the handler did not run by the return");
	rt_check(done[3] == &s.a[2] && !errs[3] && s.r == 0,
		 "signalling syslet: %p errno %d tgkill %ld", (void *)done[3],
		 errs[3], s.r);
	if (user_space()) {
		rt_check(n == 4, "ran %ld, not up to the signalled one", n);
		for (int i = 4; i < N; i++)
			rt_check(t[i].ppid == -1, "syslet %d ran", i);
		/* The caller goes on with the rest. */
		n = syslet_exec_batch(atoms + 4, N - 4, done + 4, errs + 4);
		rt_check(n == N - 4, "the rest: ran %ld", n);
	} else {
		rt_check(n == N, "ran %ld", n);
	}
	for (int i = 0; i < N; i++)
		rt_check(i == 3 || t[i].pid == getpid(), "syslet %d pid %ld",
			 i, t[i].pid);
	rt_unregister(&ahu);
	signal(SIGUSR1, SIG_DFL);
}

/*
 * The uring backend hands a long batch's SQEs to the kernel as it goes
 * and takes what completed meanwhile: when a batch of 256 syslets
 * (openat of /dev/null, then close) returns, its first ones have
 * completed into the ring already, with no async_wait.  Before, the
 * whole batch waited for the caller's first async_wait, the first
 * syslet's close for the last one's open.
 */
#define P	256

struct oc {
	struct syslet_uatom	a[2];
	unsigned long		dfd, path, flags;
	long			fd, r;
};

/* @n syslets that open /dev/null and close it, their first atoms in
 * @atoms. */
static void oc_build(struct oc *o, int n, struct syslet_uatom **atoms)
{
	for (int i = 0; i < n; i++) {
		o[i].dfd = (unsigned long)(long)AT_FDCWD;
		o[i].path = (unsigned long)"/dev/null";
		o[i].flags = O_RDONLY;
		o[i].fd = o[i].r = -2;
		rt_atom(&o[i].a[0], SYS_openat, &o[i].fd, 0, &o[i].a[1],
			&o[i].dfd, &o[i].path, &o[i].flags);
		rt_atom(&o[i].a[1], SYS_close, &o[i].r, 0, NULL,
			(unsigned long *)&o[i].fd, NULL, NULL);
		atoms[i] = &o[i].a[0];
	}
}

/* Threads of this process now. */
static int nr_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * uring: @n open/close syslets in a batch on a head of their own, all
 * waited for and checked; *early: how many of the *async that went
 * async had completed when the batch returned, *tasks: the threads of
 * the process then.
 */
static void oc_run(const char *what, struct oc *o, int n,
		   struct syslet_uatom **ring, unsigned long *early,
		   unsigned long *async, int *tasks)
{
	struct syslet_uatom **atoms = calloc((size_t)n, sizeof(*atoms));
	struct syslet_uatom **done = calloc((size_t)n, sizeof(*done));
	int *errs = calloc((size_t)n, sizeof(*errs));
	struct async_head_user ahu;
	unsigned long idx = 0, seen;
	long k;

	if (!atoms || !done || !errs)
		rt_die("%s: out of memory", what);
	rt_register(&ahu, ring, (unsigned long)n, -1UL);
	oc_build(o, n, atoms);
	k = syslet_exec_batch(atoms, (size_t)n, done, errs);
	rt_check(k == n, "%s: ran %ld of %d", what, k, n);
	*async = 0;
	for (int i = 0; i < n && k == n; i++)
		*async += !done[i];
	*early = rt_drain(ring, (unsigned long)n, &idx, NULL, 0);
	*tasks = nr_tasks();
	for (seen = *early; seen < *async;) {
		sys_async_wait(1);
		seen += rt_drain(ring, (unsigned long)n, &idx, NULL, 0);
	}
	for (int i = 0; i < n && k == n; i++)
		rt_check(o[i].fd >= 0 && o[i].r == 0,
			 "%s: syslet %d: open %ld close %ld", what, i,
			 o[i].fd, o[i].r);
	rt_unregister(&ahu);
	free(atoms);
	free(done);
	free(errs);
}

static bool on_uring(void)
{
	const char *b = syslet_backend_name();

	return b && !strcmp(b, "uring");
}

static void pipelined(void)
{
	static struct oc o[P];
	static struct syslet_uatom *ring[P];
	unsigned long early, async;
	int tasks;

	if (!on_uring())
		return;
	oc_run("pipelined", o, P, ring, &early, &async, &tasks);
	rt_check(early >= P / 4, "pipelined: %lu of %lu async syslets of a "
		 "batch of %d complete when it returns", early, async, P);
}

/* uring: a batch whose syslets end as soon as the kernel has them
 * (opens and closes of /dev/null) has their completions in the ring
 * when it returns, and no progress thread was started for them. */
static void settled(void)
{
	static struct oc o[N];
	static struct syslet_uatom *ring[N];
	unsigned long early, async;
	int before = nr_tasks(), tasks;

	if (!on_uring())
		return;
	oc_run("settled", o, N, ring, &early, &async, &tasks);
	rt_check(early == async, "settled: %lu of %lu async syslets "
		 "complete when the batch returns", early, async);
	rt_check(tasks == before, "settled: %d threads, %d before the "
		 "batch", tasks, before);
}

static void no_ring(void)
{
	struct two t;
	struct syslet_uatom *atoms[1] = { &t.a[0] }, *done[1];
	int errs[1];

	two_build(&t, 0);
	errno = 0;
	rt_check(syslet_exec_batch(atoms, 1, done, errs) == -EINVAL &&
		 errno == EINVAL, "no ring: errno %d", errno);
}

int main(void)
{
	void *bad;

	rt_init();
	/* Kept mapped, PROT_NONE: an unmapped hole is where the next mmap
	 * goes (ASan's allocator in the sanitizer build), and the bad
	 * pointer would silently become a good one. */
	bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	no_ring();
	settled();
	results(bad);
	async_ones();
	signal_ends();
	own_handler(bad);
	pipelined();
	return rt_done("batch");
}
