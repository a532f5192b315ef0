/* uring-eintr.c: the uring backend's rings, once a head is gone, never cut short a call of the program's: an epoll_wait() made after the thread's own async_unregister(), or while other threads register and unregister heads (the first of them finding the probe's ring of the thread that chose the backend) or end with one, sleeps its time, where the kernel's delayed teardown of a closed ring (task work with TWA_SIGNAL to every thread that entered it) made it fail with EINTR, no signal sent.  Under a limit of 128 descriptors or fewer, where a ring cannot be kept out of the way, none is kept: the program's next open() gets the number it would get with the kernel. */
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "helpers.h"

static volatile int stop;

/* A head that runs one read through the ring, then goes: unregistered,
 * or with its thread when @unreg is false. */
static void one_head(int unreg)
{
	struct async_head_user ahu;
	struct syslet_uatom *ring[8];
	struct rt_pipe_read pr;

	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	if (sys_async_wait(1) || pr.ret != 1)
		rt_die("async_wait: %s, read %ld", strerror(errno), pr.ret);
	if (unreg && sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	rt_pipe_read_close(&pr);
}

static void *head_thread(void *arg)
{
	one_head(0);
	return arg;
}

/* Heads on threads of their own until told: unregistered (@arg NULL),
 * or each on a thread that ends with it. */
static void *churn(void *arg)
{
	while (!stop) {
		pthread_t t;

		if (!arg) {
			one_head(1);
			continue;
		}
		if (pthread_create(&t, NULL, head_thread, NULL))
			rt_die("pthread_create: %s", strerror(errno));
		pthread_join(t, NULL);
	}
	return NULL;
}

/* epoll_wait() calls of 50 ms on a pipe nobody writes, for @ms: how many
 * failed with EINTR (no handler is installed: nothing else can). */
static int waits(int ep, int ms, int *calls)
{
	struct epoll_event out;
	int eintr = 0;

	for (*calls = 0; *calls < ms / 50; ++*calls)
		if (epoll_wait(ep, &out, 1, 50) < 0) {
			if (errno != EINTR)
				rt_die("epoll_wait: %s", strerror(errno));
			eintr++;
		}
	return eintr;
}

static int child(const char *how)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int p[2], ep, calls, n;

	if (!strcmp(how, "low")) {
		struct rlimit rl = { 64, 64 };
		int before[4], after[4];

		if (setrlimit(RLIMIT_NOFILE, &rl))
			rt_die("setrlimit: %s", strerror(errno));
		if (syslet_set_backend("uring") || syslet_backend_init())
			return RT_SKIP;
		for (int i = 0; i < 4; i++)
			before[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		for (int i = 0; i < 4; i++)
			close(before[i]);
		one_head(1);
		for (int i = 0; i < 4; i++) {
			after[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
			rt_check(after[i] == before[i], "low: open() %d after "
				 "async_unregister() gave %d, where it gave %d "
				 "before the head", i, after[i], before[i]);
		}
		return rt_failures ? RT_FAIL : RT_PASS;
	}
	/* The backend chosen (and probed) on this thread, as a program's
	 * main thread does before it starts others. */
	if (syslet_set_backend("uring") || syslet_backend_init())
		return RT_SKIP;
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || pipe(p) || epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev))
		rt_die("epoll, pipe: %s", strerror(errno));
	if (!strcmp(how, "own")) {
		/* The thread's own head, gone before each wait. */
		n = 0;
		for (int i = 0; i < 10; i++) {
			int c;

			one_head(1);
			n += waits(ep, 100, &c);
		}
		calls = 10 * (100 / 50);
	} else {
		pthread_t t[3];

		for (int i = 0; i < 3; i++)
			if (pthread_create(&t[i], NULL, churn,
					   strcmp(how, "exit") ? NULL : &t[i]))
				rt_die("pthread_create: %s", strerror(errno));
		n = waits(ep, 600, &calls);
		stop = 1;
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
	}
	rt_check(n == 0, "%s: %d of %d epoll_wait() calls failed with EINTR, "
		 "no signal sent", how, n, calls);
	return rt_failures ? RT_FAIL : RT_PASS;
}

int main(void)
{
	static const char *const hows[] = { "own", "others", "exit", "low" };
	int worst = RT_PASS;

	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			rt_die("fork: %s", strerror(errno));
		if (!pid) {
			alarm(30);
			_exit(child(hows[i]));
		}
		if (waitpid(pid, &st, 0) < 0)
			rt_die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st)) {
			fprintf(stderr, "FAIL: %s: the child died of signal %d\n",
				hows[i], WTERMSIG(st));
			worst = RT_FAIL;
		} else if (WEXITSTATUS(st) == RT_SKIP) {
			fprintf(stderr, "SKIP: the uring backend does not run here\n");
			return RT_SKIP;
		} else if (WEXITSTATUS(st)) {
			worst = RT_FAIL;
		} else {
			printf("%s: ok\n", hows[i]);
		}
	}
	return worst;
}
