/* uring-idle.c: an idle uring head costs no wake-ups (a syslet blocked in a read, the caller asleep or in async_wait), and its syslets still complete into the ring without async_wait, through io_uring or a worker. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include "helpers.h"

#define RING 16
/* Wake-ups allowed over a 300 ms idle spell: the engine's progress
 * thread used to look every millisecond (300 here), whatever there was
 * to do. */
#define IDLE_MS 300
#define MAX_SWITCHES 40

static struct syslet_uatom *ring[RING];

/* Context switches of the whole process so far (every thread). */
static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		rt_die("getrusage: %s", strerror(errno));
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Up to 5 s for @slot to be filled, without calling the library. */
static struct syslet_uatom *await_slot(unsigned long slot)
{
	for (int i = 0; i < 5000; i++) {
		struct syslet_uatom *a =
			__atomic_load_n(&ring[slot], __ATOMIC_ACQUIRE);

		if (a)
			return a;
		nap_ms(1);
	}
	return NULL;
}

static int wfd;

static void *late_writer(void *arg)
{
	(void)arg;
	nap_ms(IDLE_MS);
	if (write(wfd, "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

int main(void)
{
	struct async_head_user ahu;
	struct rt_pipe_read pr, pr2;
	struct syslet_uatom wa;
	unsigned long pid, status_p, zero = 0;
	int status;
	long before, spent, wret = 0;
	pthread_t th;
	pid_t child;

	if (syslet_set_backend("uring")) {
		fprintf(stderr, "SKIP: %s\n", syslet_backend_error());
		return RT_SKIP;
	}
	alarm(60);
	rt_register(&ahu, ring, RING, -1UL);

	/* 1. The caller asleep, a read in flight: nothing to drive. */
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	nap_ms(20);	/* the progress thread's first looks */
	before = switches();
	nap_ms(IDLE_MS);
	spent = switches() - before;
	rt_check(spent < MAX_SWITCHES,
		 "%ld context switches in %d ms with the caller asleep",
		 spent, IDLE_MS);
	/* It still completes, although nobody calls async_wait. */
	if (write(pr.pfd[1], "y", 1) != 1)
		rt_die("write: %s", strerror(errno));
	rt_check(await_slot(0) == &pr.atom && pr.ret == 1 && pr.c == 'y',
		 "the read did not complete into the ring: %p, %ld",
		 (void *)ring[0], pr.ret);
	ring[0] = NULL;

	/* 2. The caller in async_wait until another thread writes. */
	rt_pipe_read_init(&pr2);
	rt_pipe_read_exec(&pr2);
	wfd = pr2.pfd[1];
	if (pthread_create(&th, NULL, late_writer, NULL))
		rt_die("pthread_create: %s", strerror(errno));
	before = switches();
	if (sys_async_wait(1))
		rt_die("async_wait: %s", strerror(errno));
	spent = switches() - before;
	pthread_join(th, NULL);
	rt_check(ring[1] == &pr2.atom && pr2.ret == 1,
		 "async_wait returned without the read: %p, %ld",
		 (void *)ring[1], pr2.ret);
	rt_check(spent < MAX_SWITCHES,
		 "%ld context switches in a %d ms async_wait", spent, IDLE_MS);
	ring[1] = NULL;

	/* 3. A call io_uring lacks, on a worker, ending while the caller
	 * sleeps: its result comes back through the worker's eventfd. */
	child = fork();
	if (child < 0)
		rt_die("fork: %s", strerror(errno));
	if (!child) {
		nap_ms(IDLE_MS);
		_exit(7);
	}
	pid = (unsigned long)child;
	status_p = (unsigned long)&status;
	rt_atom(&wa, __NR_wait4, &wret, 0, NULL, &pid, &status_p, &zero);
	wa.arg_ptr[3] = &zero;
	errno = 0;
	rt_check(!sys_async_exec(&wa) && !errno,
		 "wait4 did not go async: %s", strerror(errno));
	rt_check(await_slot(2) == &wa && wret == child &&
		 WIFEXITED(status) && WEXITSTATUS(status) == 7,
		 "wait4 did not complete into the ring: %p, %ld",
		 (void *)ring[2], wret);
	ring[2] = NULL;

	rt_unregister(&ahu);
	rt_pipe_read_close(&pr);
	rt_pipe_read_close(&pr2);
	return rt_done("uring-idle");
}
