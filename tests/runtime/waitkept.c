/* waitkept.c: async_wait() while a completion is kept behind a full ring slot (syslet(7)'s first deliberate difference) is restarted after a handler with SA_RESTART, as it is with no completion kept and as the kernel's wait was; the kept completions then land in order. */
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include "helpers.h"

/*
 * seeds/006 sys_async_wait(): wait_event_interruptible() answers
 * -ERESTARTSYS for a signal, which a handler with SA_RESTART restarts;
 * the wait then ends when no thread is busy (busy_async_threads empty:
 * 2007 dropped a completion that found its slot full and counted none).
 * Here a ring of two slots is full (A, B, never cleared), D completed
 * behind it (kept), and C is still busy: the wait waits for C.  SIGUSR1,
 * caught with SA_RESTART, comes 40 ms into the wait, C's byte at 200 ms.
 */

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

struct kick {
	pid_t	tid;
	int	fd;
};

static void *kicker(void *arg)
{
	struct kick *k = arg;
	struct timespec a = { 0, 40 * 1000 * 1000 };
	struct timespec b = { 0, 160 * 1000 * 1000 };

	nanosleep(&a, NULL);
	syscall(SYS_tgkill, getpid(), k->tid, SIGUSR1);
	nanosleep(&b, NULL);
	if (write(k->fd, "c", 1) != 1)
		_exit(RT_FAIL);
	return NULL;
}

static void settle(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int main(void)
{
	static struct syslet_uatom *ring[2];
	static struct rt_pipe_read a, b, c, d;
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = sizeof(ring),
		.max_nr_threads = 2,
	};
	struct sigaction sa = { .sa_handler = on_usr1,
				.sa_flags = SA_RESTART };
	struct kick k;
	pthread_t t;
	long r;
	int e;

	rt_init();
	alarm(30);
	sigaction(SIGUSR1, &sa, NULL);
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("async_register: %s", strerror(errno));
	rt_pipe_read_init(&a);
	rt_pipe_read_init(&b);
	rt_pipe_read_init(&c);
	rt_pipe_read_init(&d);
	rt_pipe_read_exec(&a);
	rt_pipe_read_exec(&b);
	if (write(a.pfd[1], "a", 1) != 1 || write(b.pfd[1], "b", 1) != 1)
		rt_die("write: %s", strerror(errno));
	while (!ring[0] || !ring[1])
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	/* Both threads back in the pool before C and D go async. */
	settle();
	rt_pipe_read_exec(&c);
	rt_pipe_read_exec(&d);
	if (write(d.pfd[1], "d", 1) != 1)
		rt_die("write: %s", strerror(errno));
	settle();
	rt_check(d.ret == 1 && ring[0] && ring[1] && ring[0] != &d.atom &&
		 ring[1] != &d.atom,
		 "D ran (%ld) and waits behind the full ring", d.ret);

	k.tid = (pid_t)syscall(SYS_gettid);
	k.fd = c.pfd[1];
	if (pthread_create(&t, NULL, kicker, &k))
		rt_die("pthread_create");
	errno = 0;
	r = sys_async_wait(1);
	e = r ? errno : 0;
	pthread_join(t, NULL);
	rt_check(r == 0 && caught == 1 && c.ret == 1,
		 "async_wait %ld (%s), handler ran %d time(s), C stored %ld: "
		 "restarted after the SA_RESTART handler, back once C ended",
		 r, strerror(e), (int)caught, c.ret);

	/* Cleared, the slots take the kept completions in order: D's, which
	 * ended first, into slot 0 (the head's index), then C's. */
	ring[0] = ring[1] = NULL;
	for (int i = 0; i < 100 && (!ring[0] || !ring[1]); i++)
		sys_async_wait(1);
	rt_check(ring[0] == &d.atom && ring[1] == &c.atom,
		 "after clearing: slot 0 %p (D %p), slot 1 %p (C %p)",
		 (void *)ring[0], (void *)&d.atom, (void *)ring[1],
		 (void *)&c.atom);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	return rt_done("waitkept");
}
