/* uring-eagain.c: a syslet whose io_uring_enter() the kernel refused for now (EAGAIN: no memory for its requests) still completes into the ring without async_wait(): the progress thread enters it at its next look, where it went to sleep in the ring with the SQE never entered and the program polling its ring waited for ever. */
#include <sys/wait.h>
#include "helpers.h"

/* This thread's io_uring_enter() calls that submit without waiting
 * (async_exec()'s) fail with EAGAIN from now on; the progress thread,
 * started before, is not filtered. */
static int refuse_submit(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 3, 0),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAGAIN),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return rt_seccomp_load(f, sizeof(f) / sizeof(f[0]), 0);
}

/* Whether the slot gets @a within @ms, the ring polled, no library call. */
static int polled(struct syslet_uatom **slot, struct syslet_uatom *a, int ms)
{
	for (int i = 0; i < ms; i++) {
		if (__atomic_load_n(slot, __ATOMIC_ACQUIRE) == a)
			return 1;
		usleep(1000);
	}
	return 0;
}

static int child(void)
{
	struct async_head_user ahu;
	struct syslet_uatom *ring[8];
	struct rt_pipe_read a, b;
	pthread_t t;

	if (syslet_set_backend("uring"))
		return RT_SKIP;
	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_init(&a);
	rt_pipe_read_init(&b);
	/* A first read, fed late: the progress thread, started for it,
	 * sleeps in the ring meanwhile (8 looks of a millisecond). */
	rt_pipe_read_exec(&a);
	rt_pipe_write_late(&a, &t);
	rt_check(polled(&ring[0], &a.atom, 5000) && a.ret == 1,
		 "the first read: slot %p, read %ld", (void *)ring[0], a.ret);
	pthread_join(t, NULL);
	ring[0] = NULL;
	if (refuse_submit())
		return RT_SKIP;
	/* The second one's SQE is not entered by async_exec(). */
	rt_pipe_read_exec(&b);
	rt_pipe_write_late(&b, &t);
	rt_check(polled(&ring[1], &b.atom, 3000) && b.ret == 1,
		 "the read whose io_uring_enter() said EAGAIN never completed: "
		 "slot %p, read %ld", (void *)ring[1], b.ret);
	pthread_join(t, NULL);
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "async_unregister: %s", strerror(errno));
	return rt_done("uring-eagain");
}

int main(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		rt_die("fork: %s", strerror(errno));
	if (!pid) {
		alarm(20);
		_exit(child());
	}
	if (waitpid(pid, &st, 0) < 0)
		rt_die("waitpid: %s", strerror(errno));
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "FAIL: the child died of signal %d\n",
			WTERMSIG(st));
		return RT_FAIL;
	}
	if (WEXITSTATUS(st) == RT_SKIP)
		fprintf(stderr, "SKIP: no uring backend or no seccomp filter here\n");
	return WEXITSTATUS(st);
}
