/* nothreads.c: with no thread to be had (clone of a thread refused), a syslet that waits still completes, without async_wait, as with no ready cachemiss thread in 2007. */
#include "helpers.h"
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

/*
 * A process at its limit of threads (RLIMIT_NPROC, a cgroup's pids.max):
 * the 2007 kernel's refill of the cachemiss pool failed silently, and an
 * atom that blocked then blocked the caller and the syslet ran on
 * synchronously: async_exec() returned its last atom.  Nothing was ever
 * left in flight with nobody to complete it.  Here clone() of a thread
 * fails with EAGAIN through a seccomp filter (clone3() with ENOSYS, so
 * that the C library falls back to clone()); processes may still be
 * forked.  Each syslet waits for a child process: either async_exec()
 * returns its last atom, or it returns NULL and the completion reaches
 * the ring while the program only looks at the ring, as a program of
 * 2007 might.
 */

#define ENTRIES	8
#define CLONE_THREAD_FLAG 0x00010000

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

	return rt_seccomp_load(f, sizeof(f) / sizeof(f[0]), 0);
}

static void *nothing(void *arg)
{
	return arg;
}

/* The syslet @first, whose last atom is @last: it ran synchronously, or
 * its completion comes into the ring without async_wait (10 s). */
static void expect_done(const char *what, struct syslet_uatom *first,
			struct syslet_uatom *last, struct syslet_uatom **ring,
			unsigned long *idx)
{
	struct timespec ms = { 0, 1000 * 1000 };
	struct syslet_uatom *done;
	int i;

	errno = 0;
	done = sys_async_exec(first);
	if (done) {
		rt_check(done == last, "%s: async_exec returned %p, want %p",
			 what, (void *)done, (void *)last);
		return;
	}
	rt_check(errno == 0, "%s: async_exec: %s", what, strerror(errno));
	for (i = 0; i < 10000 &&
	     !__atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE); i++)
		nanosleep(&ms, NULL);
	rt_check(ring[*idx] == last,
		 "%s: went async and its completion is not in the ring after "
		 "%d ms without async_wait: %p", what, i, (void *)ring[*idx]);
	if (ring[*idx])
		rt_drain(ring, ENTRIES, idx, NULL, 0);
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct timespec later = { 0, 100 * 1000 * 1000 };
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct syslet_uatom w;
	unsigned long idx = 0, pid, statp, zero = 0;
	pthread_t t;
	long r = 0;
	int status = 0;
	pid_t c;

	if (!strcmp(rt_init(), "kernel")) {
		/* Its pool threads are the kernel's, and it refuses
		 * async_exec() under a seccomp filter (syslet(7)). */
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
	rt_register(&ahu, ring, ENTRIES, 4);

	/* A pipe that a child process writes to later. */
	rt_pipe_read_init(&pr);
	fflush(NULL);
	c = fork();
	if (c < 0)
		rt_die("fork: %s", strerror(errno));
	if (c == 0) {
		nanosleep(&later, NULL);
		_exit(write(pr.pfd[1], "n", 1) == 1 ? 0 : 1);
	}
	expect_done("read of a pipe", &pr.atom, &pr.atom, ring, &idx);
	rt_check(pr.ret == 1 && pr.c == 'n', "read of a pipe: ret %ld",
		 pr.ret);
	waitpid(c, NULL, 0);
	rt_pipe_read_close(&pr);

	/* wait4() of a child that exits later: a call that io_uring lacks,
	 * made by a worker where there is one. */
	c = rt_child_exits_later(3);
	pid = (unsigned long)c;
	statp = (unsigned long)&status;
	rt_atom(&w, SYS_wait4, &r, 0, NULL, &pid, &statp, &zero);
	w.arg_ptr[3] = &zero;
	expect_done("wait4 of a child", &w, &w, ring, &idx);
	rt_check(r == c && WIFEXITED(status) && WEXITSTATUS(status) == 3,
		 "wait4 of a child: ret %ld status %#x", r, status);

	rt_unregister(&ahu);
	return rt_done("nothreads");
}
