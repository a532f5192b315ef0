/* helpers.h: shared helpers of the runtime conformance tests (exit 0 pass, 77 skip, 1 fail). */
#ifndef RT_HELPERS_H
#define RT_HELPERS_H

/*
 * Each test checks one group of the kernel's syslet rules against the
 * backend $SYSLET_BACKEND selects (default auto), through the public API
 * only, so that the same programs run in a guest on the kernel backend.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <libsyslet.h>

/* ioprio_set(2)'s constants, which glibc does not declare. */
#ifndef IOPRIO_WHO_PROCESS
#define IOPRIO_WHO_PROCESS	1
#endif
#ifndef IOPRIO_CLASS_BE
#define IOPRIO_CLASS_BE		2
#endif
#ifndef IOPRIO_VALUE
#define IOPRIO_VALUE(cls, data)	(((cls) << 13) | (data))
#endif

#define RT_PASS 0
#define RT_FAIL 1
#define RT_SKIP 77

static int rt_failures;

#define rt_check(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,	\
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			rt_failures++;					\
		}							\
	} while (0)

/* An int function's failure: the negative value, and errno the same. */
#define rt_check_err(expr, e)						\
	do {								\
		long r_;						\
									\
		errno = 0;						\
		r_ = (long)(expr);					\
		rt_check(r_ == -(e) && errno == (e),			\
			 "returned %ld, errno %d, expected -%d", r_,	\
			 errno, (e));					\
	} while (0)

#define rt_die(...)							\
	do {								\
		fprintf(stderr, "ERROR %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		exit(RT_FAIL);						\
	} while (0)

/* Choose the backend now; skip when it cannot run here. */
static inline const char *rt_init(void)
{
	int err = syslet_backend_init();

	if (err) {
		fprintf(stderr, "SKIP: no backend: %s\n",
			syslet_backend_error() ? syslet_backend_error() : "?");
		exit(RT_SKIP);
	}
	return syslet_backend_name();
}

static inline int rt_is_emul(void)
{
	const char *n = syslet_backend_name();

	return n && !strcmp(n, "emul");
}

static inline int rt_done(const char *name)
{
	if (rt_failures) {
		fprintf(stderr, "%s: %d check(s) failed (backend %s)\n", name,
			rt_failures, syslet_backend_name());
		return RT_FAIL;
	}
	printf("%s: ok (backend %s)\n", name, syslet_backend_name());
	return RT_PASS;
}

/*
 * A connected pair of blocking stream sockets: a Unix socket pair, or,
 * in a kernel built without Unix sockets (the guests' tinyconfig), a TCP
 * connection on loopback, which the stream tests compare alike (each
 * check is the atom against the same call made directly).  Returns 0,
 * or -1 with errno.
 */
#include <netinet/in.h>
#include <sys/socket.h>

static inline int rt_stream_pair(int sv[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int l, e;

	if (!socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 0;
	if (errno != EAFNOSUPPORT)
		return -1;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		return -1;
	sv[0] = sv[1] = -1;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &alen))
		goto fail;
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (sv[0] < 0 || connect(sv[0], (struct sockaddr *)&a, sizeof(a)))
		goto fail;
	sv[1] = accept(l, NULL, NULL);
	if (sv[1] < 0)
		goto fail;
	close(l);
	return 0;
fail:
	e = errno;
	close(l);
	if (sv[0] >= 0)
		close(sv[0]);
	errno = e;
	return -1;
}

/* Fill an atom by hand: up to six argument pointers, NULL-terminated. */
static inline void rt_atom(struct syslet_uatom *a, unsigned long nr,
			   long *ret, unsigned long flags,
			   struct syslet_uatom *next, unsigned long *a0,
			   unsigned long *a1, unsigned long *a2)
{
	memset(a, 0, sizeof(*a));
	a->flags = flags;
	a->nr = nr;
	a->ret_ptr = ret;
	a->next = next;
	a->arg_ptr[0] = a0;
	a->arg_ptr[1] = a0 ? a1 : NULL;
	a->arg_ptr[2] = a0 && a1 ? a2 : NULL;
}

static inline unsigned long rt_umem_nr(void)
{
	long nr = syslet_sysno(SYSLET_CALL_UMEM_ADD);

	if (nr < 0)
		rt_die("no syscall number for umem_add");
	return (unsigned long)nr;
}

/* A one-byte read of a fresh, empty pipe: an atom that blocks until
 * someone writes to pr->pfd[1].  The cells live in *pr, so it must stay
 * where it is while the atom may run. */
/* A byte a thread writes to @fd @ms milliseconds after rt_late_write(). */
struct rt_late {
	int	fd;
	long	ms;
};

struct rt_pipe_read {
	struct syslet_uatom	atom;
	int			pfd[2];
	unsigned long		fd, buf, len;
	long			ret;
	char			c;
	struct rt_late		late;
};

static inline void rt_pipe_read_init(struct rt_pipe_read *pr)
{
	memset(pr, 0, sizeof(*pr));
	if (pipe(pr->pfd))
		rt_die("pipe: %s", strerror(errno));
	pr->fd = (unsigned long)pr->pfd[0];
	pr->buf = (unsigned long)&pr->c;
	pr->len = 1;
	pr->late.fd = pr->pfd[1];
	pr->late.ms = 50;
	rt_atom(&pr->atom, __NR_read, &pr->ret, 0, NULL, &pr->fd, &pr->buf,
		&pr->len);
}

/* Submit it: it must go async (NULL, errno untouched), or die. */
static inline void rt_pipe_read_exec(struct rt_pipe_read *pr)
{
	struct syslet_uatom *done;

	errno = 0;
	done = sys_async_exec(&pr->atom);
	if (done || errno)
		rt_die("the pipe read did not go async: %p %s", (void *)done,
		       strerror(errno));
}

static inline void *rt_late_main(void *arg)
{
	const struct rt_late *l = arg;
	struct timespec ts = { l->ms / 1000, l->ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
	if (write(l->fd, "w", 1) != 1)
		rt_die("late write: %s", strerror(errno));
	return NULL;
}

/*
 * Start the thread that writes @l's byte, with @sig blocked in it when
 * non-zero: a timer's signal is the process's, and a test whose handler
 * must run in the program's thread keeps it from the writer (on the
 * kernel backend, after a hand-off, the program's TID is a worker with
 * every signal blocked, and the kernel gives a process signal to any
 * thread that takes it: in the writer, which has no head, a handler's
 * async_exec() answered EINVAL).  rt_pipe_write_join() joins it.
 */
static inline void rt_late_write(struct rt_late *l, int sig, pthread_t *t)
{
	sigset_t s, old;

	sigemptyset(&s);
	if (sig)
		sigaddset(&s, sig);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	if (pthread_create(t, NULL, rt_late_main, l))
		rt_die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* A thread writes the byte 50 ms from now, when the read waits
 * (async_wait() or not); rt_pipe_write_join() joins it. */
static inline void rt_pipe_write_late(struct rt_pipe_read *pr, pthread_t *t)
{
	rt_late_write(&pr->late, 0, t);
}

static inline void rt_pipe_write_join(pthread_t t)
{
	pthread_join(t, NULL);
}

/* Until *@slot holds a completion: waiting in async_wait() (@in_wait),
 * or asleep a millisecond at a time, 10 s at most (on uring, the
 * progress thread drives the ring then). */
static inline void rt_wait_slot(struct syslet_uatom *const *slot,
				int in_wait)
{
	struct timespec ms = { 0, 1000 * 1000 };

	if (in_wait) {
		while (!__atomic_load_n(slot, __ATOMIC_ACQUIRE))
			if (sys_async_wait(1))
				rt_die("async_wait: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < 10000 && !__atomic_load_n(slot, __ATOMIC_ACQUIRE);
	     i++)
		nanosleep(&ms, NULL);
}

/* A ring of 8 slots that tests take completions from in order. */
struct rt_ring8 {
	struct syslet_uatom	*slot[8];
	unsigned long		next;
};

/* The chain at @a run to its end, inline or through @r: its last atom. */
static inline struct syslet_uatom *rt_run(struct rt_ring8 *r,
					  struct syslet_uatom *a)
{
	struct syslet_uatom *done;

	errno = 0;
	done = sys_async_exec(a);
	if (!done) {
		if (errno)
			rt_die("async_exec: %s", strerror(errno));
		rt_wait_slot(&r->slot[r->next], 1);
		done = r->slot[r->next];
		r->slot[r->next] = NULL;
		r->next = (r->next + 1) % 8;
	}
	return done;
}

/* One atom of call @nr with the @n arguments at @x, run to its end
 * through @r: its result. */
static inline long rt_run1(struct rt_ring8 *r, unsigned long nr,
			   unsigned long *x, int n)
{
	struct syslet_uatom a, *done;
	long ret = -12345;

	memset(&a, 0, sizeof(a));
	a.nr = nr;
	a.ret_ptr = &ret;
	for (int i = 0; i < n; i++)
		a.arg_ptr[i] = &x[i];
	done = rt_run(r, &a);
	if (done != &a)
		rt_die("the atom's chain ended at %p, not the atom", (void *)done);
	return ret;
}

/* A child process that exits with @code 100 ms from now: a wait4() of
 * it waits. */
static inline pid_t rt_child_exits_later(int code)
{
	struct timespec later = { 0, 100 * 1000 * 1000 };
	pid_t c;

	fflush(NULL);
	c = fork();
	if (c < 0)
		rt_die("fork: %s", strerror(errno));
	if (c == 0) {
		nanosleep(&later, NULL);
		_exit(code);
	}
	return c;
}

/* Seconds on the monotonic clock. */
static inline double rt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void rt_pipe_read_close(struct rt_pipe_read *pr)
{
	close(pr->pfd[0]);
	close(pr->pfd[1]);
}

/*
 * The chain at @a run to its end through @r, on a worker: either @a is
 * ASYNC (the caller's to set), or, @blocked, it runs behind a pipe read
 * that waits until a thread writes the byte 50 ms later.  The caller
 * sleeps in async_wait() (@waits) or a millisecond at a time meanwhile.
 * Its last atom.
 */
static inline struct syslet_uatom *rt_exec_behind(struct rt_ring8 *r,
						  struct syslet_uatom *a,
						  int blocked, int waits)
{
	static struct rt_pipe_read pr;
	struct syslet_uatom *done;
	pthread_t t;

	if (blocked) {
		rt_pipe_read_init(&pr);
		pr.atom.next = a;
		rt_pipe_write_late(&pr, &t);
	}
	errno = 0;
	done = sys_async_exec(blocked ? &pr.atom : a);
	if (!done && errno)
		rt_die("async_exec: %s", strerror(errno));
	if (!done) {
		rt_wait_slot(&r->slot[r->next], waits);
		done = r->slot[r->next];
		r->slot[r->next] = NULL;
		r->next = (r->next + 1) % 8;
	}
	if (blocked) {
		rt_pipe_write_join(t);
		rt_pipe_read_close(&pr);
	}
	return done;
}

/*
 * Wait for the child @pid that runs the case @name, @secs seconds at
 * most (a hung engine kills it and fails), and fold its status into
 * *@worst: a crash or RT_FAIL fails, RT_SKIP skips.  RT_FAIL if it had
 * to be killed, else RT_PASS.
 */
static inline int rt_case_wait(pid_t pid, const char *name, int secs,
			       int *worst)
{
	pid_t w = 0;
	int st = 0;

	for (int i = 0; i < secs * 10 && w != pid; i++) {
		w = waitpid(pid, &st, WNOHANG);
		if (w != pid)
			usleep(100000);
	}
	if (w != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		fprintf(stderr, "FAIL: %s: the child did not end in %d s\n",
			name, secs);
		*worst = RT_FAIL;
		return RT_FAIL;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) == RT_FAIL)
		*worst = RT_FAIL;
	else if (WEXITSTATUS(st) == RT_SKIP && *worst == RT_PASS)
		*worst = RT_SKIP;
	return RT_PASS;
}

/* How often @a appears in the ring's @n slots, each taken out (a
 * completion reported twice counts twice). */
static inline int rt_taken(struct syslet_uatom **ring, int n,
			   const struct syslet_uatom *a)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (ring[i] == a) {
			k++;
			ring[i] = NULL;
		}
	return k;
}

/* Register a ring of @entries for this thread, or die. */
static inline void rt_register(struct async_head_user *ahu,
			       struct syslet_uatom **ring,
			       unsigned long entries, unsigned long maxthr)
{
	memset(ring, 0, entries * sizeof(*ring));
	ahu->completion_ring = ring;
	ahu->ring_size_bytes = entries * sizeof(*ring);
	ahu->max_nr_threads = maxthr;
	if (sys_async_register(ahu, sizeof(*ahu)))
		rt_die("sys_async_register: %s", strerror(errno));
}

static inline void rt_unregister(struct async_head_user *ahu)
{
	if (sys_async_unregister(ahu, sizeof(*ahu)))
		rt_die("sys_async_unregister: %s", strerror(errno));
}

/* Pop every completion in the ring, in order; returns how many. */
static inline unsigned long rt_drain(struct syslet_uatom **ring,
				     unsigned long entries,
				     unsigned long *idx,
				     struct syslet_uatom **out,
				     unsigned long max)
{
	unsigned long n = 0;

	while (ring[*idx]) {
		struct syslet_uatom *a =
			__atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE);

		if (out && n < max)
			out[n] = a;
		__atomic_store_n(&ring[*idx], NULL, __ATOMIC_RELEASE);
		*idx = (*idx + 1) % entries;
		n++;
	}
	return n;
}

/* Run the chain at @a once.  If it went async, wait for it and check
 * that its one completion, the chain's last atom @last (2007's
 * exec_atom() completes last_uatom), is in the ring.  Returns 1 if it
 * went async, 0 if it ran to its end inline. */
static inline int rt_handoff(struct syslet_uatom **ring, unsigned long entries,
			     unsigned long *idx, struct syslet_uatom *a,
			     struct syslet_uatom *last)
{
	struct syslet_uatom *done, *got[4];
	unsigned long n;

	errno = 0;
	done = sys_async_exec(a);
	if (errno)
		rt_die("async_exec: %s", strerror(errno));
	if (done)
		return 0;
	if (sys_async_wait(~0UL))
		rt_die("async_wait: %s", strerror(errno));
	n = rt_drain(ring, entries, idx, got, 4);
	rt_check(n == 1 && got[0] == last,
		 "%lu completions in the ring, the first %p, want one: %p",
		 n, n ? (void *)got[0] : NULL, (void *)last);
	return 1;
}

/* Runs @a, an ASYNC getppid atom storing into @ret whose ring holds 4,
 * until three went async, at most 20 times: how many went.  (On the
 * kernel: the program then runs on a pool thread, and its ID's home
 * sleeps in the first async_exec().) */
static inline int rt_handoffs(struct syslet_uatom **ring, unsigned long *idx,
			      struct syslet_uatom *a, const long *ret)
{
	int went = 0;

	for (int i = 0; i < 20 && went < 3; i++) {
		went += rt_handoff(ring, 4, idx, a, a);
		rt_check(*ret == (long)getppid(), "getppid gave %ld", *ret);
	}
	return went;
}

/* pipe(@p) and fork(), flushed first; dies if either fails. */
static inline pid_t rt_fork_pipe(int p[2])
{
	pid_t c;

	if (pipe(p))
		rt_die("pipe: %s", strerror(errno));
	fflush(NULL);
	c = fork();
	if (c < 0)
		rt_die("fork: %s", strerror(errno));
	return c;
}

/* SIGALRM every @us microseconds (less than a second) from now on;
 * 0 stops it. */
static inline void rt_itimer(long us)
{
	struct itimerval it = { { 0, us }, { 0, us } };

	if (setitimer(ITIMER_REAL, &it, NULL))
		rt_die("setitimer: %s", strerror(errno));
}

struct rt_watch {
	const char		*file;
	const char *volatile	*what;
	unsigned int		secs;
};

static inline void *rt_watchdog_main(void *arg)
{
	const struct rt_watch *w = arg;
	struct timespec ts = { w->secs, 0 };

	nanosleep(&ts, NULL);
	fprintf(stderr, "FAIL %s: %s: still running after %u s, deadlocked "
		"(backend %s)\n", w->file, *w->what, w->secs,
		syslet_backend_name());
	_exit(RT_FAIL);
}

/* A thread that fails the test @file if it still runs @secs from now,
 * naming *@what, the test's current step.  It blocks every signal, so
 * that process signals go to the test's own thread. */
static inline void rt_watchdog(const char *file, const char *volatile *what,
			       unsigned int secs)
{
	static struct rt_watch w;
	sigset_t all, old;
	pthread_t t;

	w.file = file;
	w.what = what;
	w.secs = secs;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, NULL, rt_watchdog_main, &w))
		rt_die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * Seccomp filters for the tests that need a call refused.  The program
 * @f (@n instructions) is loaded after no_new_privs, for the calling
 * thread or, with SECCOMP_FILTER_FLAG_TSYNC in @flags, for every thread
 * of the process (workers made already included).  Returns 0, or -1
 * with errno when the kernel has no seccomp filter or refuses it.
 */
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

#if defined(__x86_64__)
#define RT_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define RT_AUDIT_ARCH	AUDIT_ARCH_I386
#endif

static inline int rt_seccomp_load(struct sock_filter *f, unsigned short n,
				  unsigned int flags)
{
	struct sock_fprog prog = { n, f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags,
			    &prog);
}

/* Call @nr of this build's ABI answered with @action (SECCOMP_RET_ERRNO
 * | errno, SECCOMP_RET_TRAP), every other call allowed, as
 * rt_seccomp_load() loads it.  A call made in the other ABI (int $0x80
 * from a 64-bit program) is not this number's call, and is allowed. */
static inline int rt_seccomp_refuse(unsigned int nr, unsigned int action,
				    unsigned int flags)
{
#ifdef RT_AUDIT_ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RT_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return rt_seccomp_load(f, sizeof(f) / sizeof(f[0]), flags);
#else
	(void)nr, (void)action, (void)flags;
	errno = ENOSYS;	/* no AUDIT_ARCH_ value known for this build */
	return -1;
#endif
}

#endif /* RT_HELPERS_H */
