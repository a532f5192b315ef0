/* vforkhead.c: a vfork() child, which runs on its parent's memory, hands nothing to the parent's head and cannot wait on it or tear it down: the parent's syslets and head go on as before. */
#include "helpers.h"
#include <signal.h>
#include <sys/wait.h>

/*
 * 2007's copy_process() gave every child a task without a head
 * (async_init()), a vfork() child too: its async_exec(), async_wait()
 * and async_unregister() failed with EINVAL, and the parent's head, its
 * pool and its syslets in flight were the parent's alone.  A user-space
 * engine keeps the head in the thread's own variables, which a vfork()
 * child shares with the parent's thread (fork()'s child handler does
 * not run for it).  The child's syslet must not go to the parent's
 * workers (one made there would be a thread of the child, killed with
 * the syslet when the child exits, and the parent's head would wait for
 * it for ever), nor may the child wait on the parent's head or free
 * it.  On emul and uring the child's syslet runs in place and its
 * async_register() finds the parent's thread's head (EEXIST); the
 * kernel backend answers EINVAL and makes the child a head of its own,
 * as 2007 did (syslet(7) DIFFERENCES).
 */

#define ENTRIES	8

static struct syslet_uatom *ring[ENTRIES];
/* Written by the child, in the parent's memory. */
static struct syslet_uatom *c_exec;
static long c_exec_err, c_wait, c_wait_err, c_unreg, c_unreg_err, c_pid;
static long c_reg, c_reg_err;
/* The child's calls: which it reached. */
static const char *c_in = "its start";

int main(void)
{
	static struct syslet_uatom a;
	static long r = -12345;
	struct syslet_uatom *done = NULL;
	static struct syslet_uatom *cring[ENTRIES];
	struct async_head_user ahu, cahu = {
		.completion_ring = cring,
		.ring_size_bytes = sizeof(cring),
		.max_nr_threads = 2,
	};
	struct rt_pipe_read pr;
	unsigned long idx = 0;
	pid_t pid;
	int st;

	rt_init();
	/* A parent whose head waits for ever fails here, not in the
	 * harness's timeout. */
	alarm(20);
	rt_register(&ahu, ring, ENTRIES, 2);
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	rt_atom(&a, __NR_getpid, &r, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	pid = vfork();
	if (pid < 0)
		rt_die("vfork: %s", strerror(errno));
	if (!pid) {
		/* The parent is suspended until the child exits: a child
		 * that waits for ever ends here. */
		alarm(5);
		c_pid = syscall(SYS_getpid);
		errno = 0;
		c_in = "async_exec";
		c_exec = sys_async_exec(&a);
		c_exec_err = errno;
		errno = 0;
		c_in = "async_wait";
		c_wait = sys_async_wait(0);
		c_wait_err = errno;
		errno = 0;
		c_in = "async_unregister";
		c_unreg = sys_async_unregister(&ahu, sizeof(ahu));
		c_unreg_err = errno;
		errno = 0;
		c_in = "async_register";
		c_reg = sys_async_register(&cahu, sizeof(cahu));
		c_reg_err = errno;
		c_in = NULL;
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid)
		rt_die("waitpid: %s", strerror(errno));
	if (!WIFEXITED(st))
		rt_die("the vfork() child was killed by signal %d in %s: "
		       "async_exec %p (errno %ld, r %ld), async_wait %ld "
		       "(errno %ld)", WIFSIGNALED(st) ? WTERMSIG(st) : 0,
		       c_in ? c_in : "_exit", (void *)c_exec, c_exec_err, r,
		       c_wait, c_wait_err);
	if (!strcmp(syslet_backend_name(), "kernel")) {
		rt_check(!c_exec && c_exec_err == EINVAL && r == -12345,
			 "the child's async_exec: %p, errno %ld, r %ld; "
			 "want NULL, EINVAL, nothing run", (void *)c_exec,
			 c_exec_err, r);
		rt_check(c_reg == 0, "the child's async_register: %ld, "
			 "errno %ld; want a head of its own", c_reg, c_reg_err);
	} else {
		rt_check(c_exec == &a && r == c_pid,
			 "the child's ASYNC getpid: async_exec %p (errno %ld), "
			 "r %ld; want %p, run in place in the child (%ld)",
			 (void *)c_exec, c_exec_err, r, (void *)&a, c_pid);
		rt_check(c_reg == -1 && c_reg_err == EEXIST,
			 "the child's async_register: %ld, errno %ld; want "
			 "EEXIST (the parent's thread's head)", c_reg,
			 c_reg_err);
	}
	rt_check(c_wait == -1 && c_wait_err == EINVAL,
		 "the child's async_wait: %ld, errno %ld; want EINVAL", c_wait,
		 c_wait_err);
	rt_check(c_unreg == -1 && c_unreg_err == EINVAL,
		 "the child's async_unregister: %ld, errno %ld; want EINVAL",
		 c_unreg, c_unreg_err);
	/* The parent's head: its read completes, alone, into its ring. */
	if (write(pr.pfd[1], "v", 1) != 1)
		rt_die("write: %s", strerror(errno));
	while (!__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
		 done == &pr.atom && pr.ret == 1 && pr.c == 'v',
		 "the parent's read: completion %p, ret %ld", (void *)done,
		 pr.ret);
	rt_check(sys_async_wait(0) == 0, "async_wait(0): %s",
		 strerror(errno));
	rt_check(!rt_drain(ring, ENTRIES, &idx, &done, 1),
		 "a completion %p the parent did not start", (void *)done);
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "the parent's async_unregister: %s", strerror(errno));
	alarm(0);
	rt_pipe_read_close(&pr);
	return rt_done("vforkhead");
}
