/* enterdenied.c: the uring backend after a seccomp filter started refusing io_uring_enter (EPERM or ENOSYS, as a sandbox set up late): a syslet in flight completes into the ring once, one submitted after completes once (or returns inline), async_wait() succeeds and async_unregister() returns; nothing hangs. */
#include <signal.h>
#include <sys/wait.h>
#include "helpers.h"

static int refuse_enter(int err)
{
	return rt_seccomp_refuse(__NR_io_uring_enter,
				 SECCOMP_RET_ERRNO | (unsigned int)err, 0);
}

static int child(int err)
{
	struct async_head_user ahu;
	struct syslet_uatom *ring[8];
	struct rt_pipe_read a, b;
	struct syslet_uatom *done;
	int got_a = 0, got_b = 0, b_inline = 0, failed = 0;
	long r;

	if (syslet_set_backend("uring"))
		return RT_SKIP;
	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_init(&a);
	rt_pipe_read_init(&b);
	rt_pipe_read_exec(&a);
	if (refuse_enter(err))
		return RT_SKIP;
	if (write(a.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	/* One more, after the filter: async, inline, or refused. */
	errno = 0;
	done = sys_async_exec(&b.atom);
	if (done == &b.atom)
		b_inline = 1;
	else if (done || errno)
		failed = 1;
	if (write(b.pfd[1], "y", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int round = 0; round < 50; round++) {
		errno = 0;
		r = sys_async_wait(1);
		got_a += rt_taken(ring, 8, &a.atom);
		got_b += rt_taken(ring, 8, &b.atom);
		if (r < 0) {
			fprintf(stderr, "%s: async_wait: %s\n", strerror(err),
				strerror(errno));
			break;
		}
		if (got_a && (got_b || b_inline || failed))
			break;
	}
	rt_check(got_a <= 1 && got_b <= 1,
		 "%s: completions doubled: A %d, B %d", strerror(err), got_a,
		 got_b);
	rt_check(!b_inline || got_b == 0,
		 "%s: B returned inline and completed", strerror(err));
	rt_check(got_a == 0 || (a.ret == 1 && a.c == 'x'),
		 "%s: A completed with %ld", strerror(err), a.ret);
	rt_check(got_b == 0 || (b.ret == 1 && b.c == 'y'),
		 "%s: B completed with %ld", strerror(err), b.ret);
	/* As the kernel's: accepted, so completed; the wait says nothing
	 * of the engine's ring. */
	rt_check(r == 0, "%s: async_wait: %ld, %s", strerror(err), r,
		 strerror(errno));
	rt_check(!failed, "%s: async_exec of B refused it", strerror(err));
	rt_check(got_a == 1, "%s: A lost (wait %ld)", strerror(err), r);
	rt_check(got_b == 1 || b_inline, "%s: B lost (wait %ld)",
		 strerror(err), r);
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "%s: async_unregister: %s", strerror(err), strerror(errno));
	return rt_failures ? RT_FAIL : RT_PASS;
}

int main(void)
{
	static const int errs[] = { EPERM, ENOSYS };
	int worst = RT_PASS;

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		int st;
		pid_t pid = fork();

		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (!pid) {
			alarm(20);
			_exit(child(errs[i]));
		}
		if (waitpid(pid, &st, 0) < 0)
			rt_die("waitpid: %s", strerror(errno));
		if (WIFSIGNALED(st)) {
			fprintf(stderr, "FAIL: %s: the child died of signal %d%s\n",
				strerror(errs[i]), WTERMSIG(st),
				WTERMSIG(st) == SIGALRM ? " (a hang)" : "");
			worst = RT_FAIL;
		} else if (WEXITSTATUS(st) == RT_SKIP) {
			if (worst == RT_PASS)
				worst = RT_SKIP;
		} else if (WEXITSTATUS(st)) {
			worst = RT_FAIL;
		}
	}
	if (worst == RT_SKIP)
		fprintf(stderr, "SKIP: no uring backend or no seccomp filter here\n");
	return worst;
}
