/* ringclosed.c: a program that closes the uring backend's ring descriptor behind its back (a daemon closing every descriptor it does not know) gets EBADF from async_wait() and can still unregister: async_wait() spun for ever at full CPU, its signals never let in. */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "helpers.h"

static int ringclosed(void)
{
	struct async_head_user ahu;
	struct syslet_uatom *ring[8];
	struct rt_pipe_read pr, pr2;
	struct rlimit rl;
	long r;

	if (syslet_set_backend("uring")) {
		fprintf(stderr, "SKIP: the uring backend does not run here: %s\n",
			syslet_backend_error() ? syslet_backend_error() : "?");
		return RT_SKIP;
	}
	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_init(&pr);
	rt_pipe_read_init(&pr2);
	rt_pipe_read_exec(&pr);
	/* Everything above the pipes goes: the ring and its eventfd are
	 * near the top of the limit. */
	if (getrlimit(RLIMIT_NOFILE, &rl))
		rt_die("getrlimit: %s", strerror(errno));
	for (long fd = pr2.pfd[1] + 1;
	     fd < (long)(rl.rlim_cur < 1048576 ? rl.rlim_cur : 1048576); fd++)
		close((int)fd);
	/* The read the kernel already had completes: its ring is mapped. */
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	r = sys_async_wait(1);
	rt_check(r == 0 && ring[0] == &pr.atom && pr.ret == 1,
		 "the read submitted before: async_wait %ld (%s), slot %p",
		 r, strerror(errno), (void *)ring[0]);
	/* One submitted after cannot be: async_wait() says why. */
	rt_pipe_read_exec(&pr2);
	if (write(pr2.pfd[1], "y", 1) != 1)
		rt_die("write: %s", strerror(errno));
	errno = 0;
	r = sys_async_wait(1);
	rt_check(r == -1 && errno == EBADF,
		 "async_wait() on a closed ring: %ld, %s", r, strerror(errno));
	errno = 0;
	r = sys_async_wait(1);
	rt_check(r == -1 && errno == EBADF,
		 "async_wait() again: %ld, %s", r, strerror(errno));
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "async_unregister: %s", strerror(errno));
	rt_pipe_read_close(&pr);
	rt_pipe_read_close(&pr2);
	return rt_done("ringclosed");
}

/* The test in a child, which the parent kills after 20 s: the old wait
 * spun with every signal blocked, alarm() included. */
int main(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		rt_die("fork: %s", strerror(errno));
	if (!pid)
		_exit(ringclosed());
	for (int i = 0; i < 200; i++) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : RT_FAIL;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	fprintf(stderr, "FAIL: async_wait() on a closed ring did not return in 20 s\n");
	return RT_FAIL;
}
