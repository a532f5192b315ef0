/* drivealone.c: with no thread to be had, a signal sent to the process while async_exec() runs the caller's syslet ends it at an atom, its completion in the ring or its last atom returned, never left in flight with nobody to run it; without one, the loop costs what it costs. */
#include "helpers.h"
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/wait.h>

/*
 * A process at its limit of threads: the 2007 kernel had no ready
 * cachemiss thread and ran the syslet on in the caller, where a pending
 * signal stopped exec_atom() after the atom it came in (signal_pending()
 * of the caller, for a signal sent to the process too), and async_exec()
 * returned that atom.  emul does so; uring, which has let the syslet go
 * async before it finds that no progress thread can be started, drives
 * it in the caller (drive_alone()) and returns NULL with the completion
 * in the ring.  A signal sent to the process (kill(), here from a child,
 * as Ctrl-C or a timer's) stopped that drive and left the syslet in
 * flight: the ring stayed empty until the program's next call into the
 * library, and a program that only looks at the ring, as 2007's might,
 * waited for ever.  The syslet: an ASYNC umem_add counting passes and a
 * loop gate counting from -N up to 0, 200 million passes, running when
 * the signal comes 20 ms in.  Threads are refused as in nothreads.c.
 */

/* Far more than 20 ms of passes anywhere (emul runs them in the caller
 * at full speed): the signal always comes during the loop. */
#define N		(200UL * 1000 * 1000)
#define ENTRIES		8
#define CLONE_THREAD_FLAG 0x00010000

static volatile sig_atomic_t hits;

static void on_usr1(int sig)
{
	(void)sig;
	hits++;
}

static int refuse_threads(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD_FLAG, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAGAIN),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}

static void *nothing(void *arg)
{
	return arg;
}

/* A child that sends @sig to this process (@tgkill: to its thread)
 * 20 ms from now. */
static pid_t kick_later(int sig, int tgkill)
{
	struct timespec ms20 = { 0, 20 * 1000 * 1000 };
	pid_t p = getpid(), c;

	fflush(NULL);
	c = fork();
	if (c < 0)
		rt_die("fork: %s", strerror(errno));
	if (c == 0) {
		nanosleep(&ms20, NULL);
		if (tgkill)
			syscall(SYS_tgkill, p, p, sig);
		else
			kill(p, sig);
		_exit(0);
	}
	return c;
}

static void run(const char *how, int tgkill, struct syslet_uatom **ring,
		unsigned long *idx)
{
	struct timespec ms = { 0, 1000 * 1000 };
	struct syslet_uatom a[2], *done;
	unsigned long n = 0, c = -N, one = 1;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	long rn = 0, rc = 0;
	int i = 0, h0 = hits;
	pid_t k;

	rt_atom(&a[0], rt_umem_nr(), &rn, SYSLET_ASYNC, &a[1], &pn, &one,
		NULL);
	rt_atom(&a[1], rt_umem_nr(), &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	k = kick_later(SIGUSR1, tgkill);
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(errno == 0, "%s: async_exec: %s", how, strerror(errno));
	if (!done) {
		/* Only the ring is looked at, as a 2007 program might. */
		for (; i < 3000 &&
		       !__atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE); i++)
			nanosleep(&ms, NULL);
		done = ring[*idx];
		rt_check(done != NULL,
			 "%s: async_exec returned NULL after %lu of %lu "
			 "passes and no completion came in %d ms without "
			 "async_wait", how, n, N, i);
		if (done)
			rt_drain(ring, ENTRIES, idx, NULL, 0);
	}
	waitpid(k, NULL, 0);
	if (!done)
		return;
	/* The signal came during the loop: it ended there, at an atom. */
	rt_check(n < N && ((done == &a[1] && c == -N + n) ||
			   (done == &a[0] && c == -N + n - 1)),
		 "%s: ended at %p (a0 %p, a1 %p) after %lu of %lu passes, "
		 "gate %ld", how, (void *)done, (void *)&a[0], (void *)&a[1],
		 n, N, (long)c);
	rt_check(hits == h0 + 1, "%s: the handler ran %d times", how,
		 (int)(hits - h0));
}

/* No signal: the loop runs to its end, at the cost of the loop (emul
 * tried to create a worker at every ASYNC atom, and waited for one). */
static void run_quiet(struct syslet_uatom **ring, unsigned long *idx)
{
	const unsigned long m = 50000;
	struct syslet_uatom a[2], *done;
	unsigned long n = 0, c = -m, one = 1;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	struct timespec t0, t1;
	long rn = 0, rc = 0;
	double dt;

	rt_atom(&a[0], rt_umem_nr(), &rn, SYSLET_ASYNC, &a[1], &pn, &one,
		NULL);
	rt_atom(&a[1], rt_umem_nr(), &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	done = sys_async_exec(&a[0]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dt = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	rt_check(errno == 0, "no signal: async_exec: %s", strerror(errno));
	if (!done) {
		/* drive_alone(): the completion is in the ring already. */
		done = __atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE);
		if (done)
			rt_drain(ring, ENTRIES, idx, NULL, 0);
	}
	rt_check(done == &a[1] && n == m && c == 0,
		 "no signal: ended at %p (gate %p) after %lu of %lu passes",
		 (void *)done, (void *)&a[1], n, m);
	rt_check(dt < 2.0, "no signal: %lu passes took %.2f s", m, dt);
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct async_head_user ahu;
	struct sigaction sa;
	unsigned long idx = 0;
	pthread_t t;

	if (!strcmp(rt_init(), "kernel")) {
		printf("SKIP: the kernel backend makes its own threads\n");
		return RT_SKIP;
	}
	if (refuse_threads()) {
		printf("SKIP: no seccomp filter here: %s\n", strerror(errno));
		return RT_SKIP;
	}
	if (pthread_create(&t, NULL, nothing, NULL) == 0) {
		pthread_join(t, NULL);
		printf("SKIP: threads are still created\n");
		return RT_SKIP;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	rt_register(&ahu, ring, ENTRIES, -1UL);
	run("kill() of the process", 0, ring, &idx);
	run("tgkill() of the caller", 1, ring, &idx);
	run_quiet(ring, &idx);
	rt_unregister(&ahu);
	return rt_done("drivealone");
}
