/* pirace.c: a PI futex the program holds across SYSLET_ASYNC atoms while a contender thread takes and gives it: every FUTEX_LOCK_PI and FUTEX_UNLOCK_PI succeeds on both sides. */
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include "helpers.h"

/*
 * A PI futex word names its owner by TID, and the kernel keeps the
 * owner's PI state (the rt_mutex, the owner's list of PI states) for
 * the task that runs that TID.  On the kernel port the TID goes with
 * the user context at a hand-off (kernel-patch 0015), so a program that
 * holds a PI lock and runs SYSLET_ASYNC atoms keeps answering to the
 * word, from whichever task carries it.  A contender's FUTEX_LOCK_PI
 * looks the word's TID up and attaches to the task that runs it; if it
 * attached to a pool thread that had just handed the context on, the
 * program's FUTEX_UNLOCK_PI came from another task than the PI state's
 * owner and was EINVAL (futex_unlock_pi()), which glibc's PI mutexes
 * answer with abort().  Seen on two CPUs only (kernel-patch 0039): on
 * one, the contender runs once the hand-off is over.  The engines run
 * the program on one thread throughout, so the case holds there too.
 *
 * The program alternates: a round with the contender busy on the lock
 * (its FUTEX_LOCK_PI waits while the program holds it across the
 * atom), a round with the contender away (the word's fast path).  Any
 * unexpected errno fails at once, with the word, rather than waiting
 * on a lock that is lost.
 */

#define ROUNDS 400

static struct syslet_uatom *ring[4];
static unsigned long idx;
static uint32_t word;
static volatile int stop, away, idle;
static long locks;

static long fx(int op, const struct timespec *t)
{
	return syscall(SYS_futex, &word, op, 0, t, NULL, 0);
}

static void lock_pi(const char *who)
{
	uint32_t z = 0, me = (uint32_t)syscall(SYS_gettid);
	struct timespec t;

	if (__atomic_compare_exchange_n(&word, &z, me, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 10;
	while (fx(FUTEX_LOCK_PI, &t))
		if (errno != EINTR && errno != EAGAIN)
			rt_die("%s (tid %u): FUTEX_LOCK_PI: %s, word %#x", who,
			       me, strerror(errno), word);
}

static void unlock_pi(const char *who)
{
	uint32_t me = (uint32_t)syscall(SYS_gettid), v = me;

	if (__atomic_compare_exchange_n(&word, &v, 0, 0, __ATOMIC_RELEASE,
					__ATOMIC_RELAXED))
		return;
	if (fx(FUTEX_UNLOCK_PI, NULL))
		rt_die("%s (tid %u): FUTEX_UNLOCK_PI: %s, word %#x", who, me,
		       strerror(errno), word);
}

static void *contender(void *arg)
{
	struct timespec d = { 0, 10000 };

	(void)arg;
	while (!stop) {
		if (away) {
			idle = 1;
			nanosleep(&d, NULL);
			continue;
		}
		idle = 0;
		lock_pi("contender");
		locks++;
		unlock_pi("contender");
	}
	return NULL;
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a, *got[4];
	pthread_t th;
	long ret;
	int i, went = 0;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	rt_init();
	rt_register(&ahu, ring, 4, 2);
	if (pthread_create(&th, NULL, contender, NULL))
		rt_die("pthread_create");
	for (i = 0; i < ROUNDS; i++) {
		struct syslet_uatom *done;

		away = i & 1;
		while (idle != away)
			sched_yield();
		lock_pi("program");
		rt_atom(&a, __NR_getpid, &ret, SYSLET_ASYNC, NULL, NULL, NULL,
			NULL);
		errno = 0;
		done = sys_async_exec(&a);
		if (errno)
			rt_die("async_exec: %s", strerror(errno));
		if (!done) {
			if (sys_async_wait(~0UL))
				rt_die("async_wait: %s", strerror(errno));
			rt_drain(ring, 4, &idx, got, 4);
			went++;
		}
		rt_check(ret == getpid(), "round %d: getpid() atom %ld", i,
			 ret);
		rt_check(syscall(SYS_gettid) == tid,
			 "round %d: gettid() %ld, was %d", i,
			 (long)syscall(SYS_gettid), (int)tid);
		unlock_pi("program");
	}
	stop = 1;
	pthread_join(th, NULL);
	rt_check(word == 0, "the word is %#x after the last unlock", word);
	rt_check(locks > 0, "the contender never took the lock");
	printf("pirace: %d of %d rounds went async, the contender took the "
	       "lock %ld times\n", went, ROUNDS, locks);
	rt_unregister(&ahu);
	return rt_done("pirace");
}
