/* tidown.c: after a hand-off, the ID of the thread that carries the program (/proc/thread-self) still names that thread: a PI futex word holding it is owned (FUTEX_TRYLOCK_PI returns), and a renice of it reaches the program. */
#include <linux/futex.h>
#include <stdint.h>
#include <sys/resource.h>
#include "helpers.h"

/*
 * On the kernel backend a pool thread has an ID of its own, the one
 * /proc/thread-self and /proc/PID/task show while it carries the
 * program (whose ID gettid() gives).  The PI futex code looks a word's
 * owner up by ID and then asks whether the task it found still answers
 * to it; a thread carrying a context said no unless the ID was the
 * context's, so FUTEX_LOCK_PI or FUTEX_TRYLOCK_PI of a word holding the
 * carrier's own ID got EAGAIN, looked again, found the same thread and
 * looped in the kernel for as long as it carried (kernel-patch 0041).
 * On the user-space engines the two IDs are the same.
 */
#define TO_WAIT_S	20

static struct syslet_uatom *ring[4];
static unsigned long idx;
static uint32_t word;
static volatile long tried = 1, tried_errno;

/* The ID /proc/thread-self names: the task running this code. */
static pid_t self_task(void)
{
	char link[64];
	ssize_t n = readlink("/proc/thread-self", link, sizeof(link) - 1);
	const char *slash;

	if (n < 0)
		return -1;
	link[n] = '\0';
	slash = strrchr(link, '/');
	return slash ? (pid_t)atoi(slash + 1) : -1;
}

static void *trylock_main(void *arg)
{
	(void)arg;
	errno = 0;
	tried = syscall(SYS_futex, &word, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0);
	tried_errno = errno;
	return NULL;
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	struct timespec ms = { 0, 1000 * 1000 };
	long ret = 0;
	pid_t own;
	pthread_t th;
	int went = 0, i, nice0;

	rt_init();
	own = self_task();
	if (own < 0) {
		printf("SKIP: no /proc/thread-self: %s\n", strerror(errno));
		return RT_SKIP;
	}
	rt_register(&ahu, ring, 4, 2);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	went = rt_handoffs(ring, &idx, &a, &ret);
	own = self_task();
	/* The word says: owned by the carrier's own ID. */
	word = (uint32_t)own;
	tried = 1;
	if (pthread_create(&th, NULL, trylock_main, NULL))
		rt_die("pthread_create");
	for (i = 0; i < TO_WAIT_S * 1000 && tried == 1; i++)
		nanosleep(&ms, NULL);
	if (tried == 1) {
		fprintf(stderr, "FAIL: FUTEX_TRYLOCK_PI of a word holding the "
			"carrier's own ID %d has not returned in %d s (gettid() "
			"%ld)\n", (int)own, TO_WAIT_S,
			(long)syscall(SYS_gettid));
		fflush(NULL);
		_exit(RT_FAIL);
	}
	pthread_join(th, NULL);
	rt_check(tried == -1 && (tried_errno == EAGAIN ||
				 tried_errno == EWOULDBLOCK),
		 "FUTEX_TRYLOCK_PI of a word holding the carrier's own ID %d "
		 "returned %ld (%s), want EAGAIN: owned", (int)own, tried,
		 strerror((int)tried_errno));
	rt_check((word & FUTEX_TID_MASK) == (uint32_t)own,
		 "the word is %#x after the trylock", word);
	word = 0;

	/* A renice of the carrier's own ID reaches the program. */
	errno = 0;
	nice0 = getpriority(PRIO_PROCESS, 0);
	if (errno)
		rt_die("getpriority: %s", strerror(errno));
	if (nice0 < 19 && own == self_task()) {
		int now;

		if (setpriority(PRIO_PROCESS, (id_t)own, nice0 + 1))
			rt_die("setpriority(%d): %s", (int)own,
			       strerror(errno));
		errno = 0;
		now = getpriority(PRIO_PROCESS, 0);
		rt_check(!errno && now == nice0 + 1,
			 "renice of the carrier's own ID %d to %d: the "
			 "program's nice is %d", (int)own, nice0 + 1, now);
	}
	rt_unregister(&ahu);
	printf("tidown: the carrier's ID %d, gettid() %ld, %d syslets went "
	       "async\n", (int)own, (long)syscall(SYS_gettid), went);
	return rt_done("tidown");
}
