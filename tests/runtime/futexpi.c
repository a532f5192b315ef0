/* futexpi.c: PI futex atoms: a FUTEX_LOCK_PI that blocks goes async and takes the lock at the holder's unlock, FUTEX_TRYLOCK_PI and FUTEX_UNLOCK_PI run in the program's thread, EDEADLK for a lock the program holds. */
#include <linux/futex.h>
#include <stdint.h>
#include "helpers.h"

/*
 * 2007's schedule() handed the user context off whenever the head was
 * about to sleep (seeds/004, __async_schedule()), whatever it slept on:
 * an atom's FUTEX_LOCK_PI on a futex another thread holds sleeps on the
 * futex's rt_mutex, so async_exec returns NULL and the chain waits for
 * the lock on the cachemiss thread.  That thread is the one that ran
 * the atom, so it owns the lock, and the futex word names it by the TID
 * it answers to: what a gettid() atom after it in the same chain
 * returns.  On the kernel port the first hand-off leaves the chain with
 * the task that registered the head, whose TID the program keeps (the
 * TID goes with the context, kernel-patch 0015), so the program may
 * unlock; on emul the chain runs on a worker thread of its own, and the
 * program's FUTEX_UNLOCK_PI is EPERM, as a thread's is for another
 * thread's lock.  A chain that unlocks the futex itself works, but on
 * uring, which runs only the call that waits on a worker and the atoms
 * after it elsewhere (syslet(7)): there the worker owns the lock.
 *
 * An atom that does not sleep runs in the caller, as in 2007: a
 * FUTEX_TRYLOCK_PI makes the program the owner, a FUTEX_UNLOCK_PI of a
 * lock the program holds releases it, and a FUTEX_LOCK_PI of such a
 * lock is EDEADLK (futex_lock_pi_atomic(): the word holds the caller's
 * own TID), not a wait for ever on a thread that is not the owner.
 */

static uint32_t fword;
static volatile int returned, forced;

static long futex(uint32_t *w, int op, const void *ts)
{
	return syscall(SYS_futex, w, op, 0, ts, NULL, 0);
}

static pid_t tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/*
 * Holds fword until an atom waits for it (FUTEX_WAITERS in the word)
 * and async_exec has returned, then unlocks it.  Should async_exec not
 * return while the lock is held (the program's thread waits in it), it
 * unlocks after 10 s all the same and says so, so that the test ends.
 */
static void *holder(void *arg)
{
	struct timespec ms = { 0, 1000 * 1000 };
	volatile int *held = arg;
	int i;

	if (futex(&fword, FUTEX_LOCK_PI, NULL))
		rt_die("holder: FUTEX_LOCK_PI: %s", strerror(errno));
	__atomic_store_n(held, 1, __ATOMIC_RELEASE);
	while (!(__atomic_load_n(&fword, __ATOMIC_ACQUIRE) & FUTEX_WAITERS))
		nanosleep(&ms, NULL);
	for (i = 0; i < 10000 && !returned; i++)
		nanosleep(&ms, NULL);
	forced = !returned;
	if (futex(&fword, FUTEX_UNLOCK_PI, NULL))
		rt_die("holder: FUTEX_UNLOCK_PI: %s", strerror(errno));
	return NULL;
}

/* A thread that holds fword until told to unlock it. */
static volatile int keep;

static void *keeper(void *arg)
{
	struct timespec ms = { 0, 1000 * 1000 };
	volatile int *held = arg;

	if (futex(&fword, FUTEX_LOCK_PI, NULL))
		rt_die("keeper: FUTEX_LOCK_PI: %s", strerror(errno));
	__atomic_store_n(held, 1, __ATOMIC_RELEASE);
	while (keep)
		nanosleep(&ms, NULL);
	if (futex(&fword, FUTEX_UNLOCK_PI, NULL))
		rt_die("keeper: FUTEX_UNLOCK_PI: %s", strerror(errno));
	return NULL;
}

static pthread_t start(void *(*fn)(void *))
{
	struct timespec ms = { 0, 1000 * 1000 };
	volatile int held = 0;
	pthread_t t;

	if (pthread_create(&t, NULL, fn, (void *)&held))
		rt_die("pthread_create");
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	return t;
}

static struct rt_ring8 ring;
static unsigned long a_w, a_op, a_zero;
static long r_lock, r_tid, r_unlock;

/*
 * Round @round: FUTEX_LOCK_PI of fword, which another thread holds, then
 * gettid(), then (@unlock) FUTEX_UNLOCK_PI, in one chain.
 */
static void lock_blocked(int round, int unlock)
{
	unsigned long op_unlock = FUTEX_UNLOCK_PI;
	struct syslet_uatom a[3], *done;
	uint32_t w;
	pthread_t t;

	fword = 0;
	returned = forced = 0;
	r_lock = r_tid = r_unlock = -12345;
	a_w = (unsigned long)&fword;
	a_op = FUTEX_LOCK_PI;
	a_zero = 0;
	rt_atom(&a[0], SYS_futex, &r_lock, 0, &a[1], &a_w, &a_op, &a_zero);
	rt_atom(&a[1], SYS_gettid, &r_tid, 0, unlock ? &a[2] : NULL, NULL,
		NULL, NULL);
	rt_atom(&a[2], SYS_futex, &r_unlock, 0, NULL, &a_w, &op_unlock,
		&a_zero);
	t = start(holder);
	errno = 0;
	done = sys_async_exec(&a[0]);
	returned = 1;
	if (errno)
		rt_die("round %d: async_exec: %s", round, strerror(errno));
	rt_check(!done && !forced,
		 "round %d: a FUTEX_LOCK_PI atom that waits for the lock did "
		 "not go async: async_exec returned %p%s", round, (void *)done,
		 forced ? " once the holder gave up after 10 s" : "");
	if (!done) {
		rt_wait_slot(&ring.slot[ring.next], 1);
		done = ring.slot[ring.next];
		ring.slot[ring.next] = NULL;
		ring.next = (ring.next + 1) % 8;
	}
	pthread_join(t, NULL);
	rt_check(done == &a[unlock ? 2 : 1], "round %d: the chain ended at "
		 "%p, not at its last atom", round, (void *)done);
	rt_check(r_lock == 0, "round %d: FUTEX_LOCK_PI atom: %ld", round,
		 r_lock);
	w = __atomic_load_n(&fword, __ATOMIC_ACQUIRE);
	/* uring runs the atoms after a worker's call in the thread that
	 * drives the ring (syslet(7)): the lock is the worker's, the
	 * chain's gettid() and FUTEX_UNLOCK_PI another thread's. */
	if (!strcmp(syslet_backend_name(), "uring")) {
		rt_check((w & FUTEX_TID_MASK) && (w & FUTEX_TID_MASK) !=
			 (uint32_t)tid(), "round %d: uring: word %#x, the "
			 "program is %d", round, w, (int)tid());
		return;
	}
	if (unlock) {
		rt_check(r_unlock == 0 && w == 0, "round %d: the chain's "
			 "FUTEX_UNLOCK_PI: %ld, word %#x", round, r_unlock, w);
		return;
	}
	rt_check((long)(w & FUTEX_TID_MASK) == r_tid,
		 "round %d: the word %#x does not name the task that took the "
		 "lock, whose gettid() atom says %ld", round, w, r_tid);
	errno = 0;
	if (r_tid == tid()) {
		rt_check(futex(&fword, FUTEX_UNLOCK_PI, NULL) == 0,
			 "round %d: the program's FUTEX_UNLOCK_PI of its lock: "
			 "%s", round, strerror(errno));
		rt_check(fword == 0, "round %d: word %#x after the unlock",
			 round, fword);
	} else {
		rt_check(futex(&fword, FUTEX_UNLOCK_PI, NULL) == -1 &&
			 errno == EPERM, "round %d: the program's "
			 "FUTEX_UNLOCK_PI of a worker's lock: %s", round,
			 strerror(errno));
	}
}

/* One atom futex(&fword, @op, 0, @ts): its result. */
static long atom(unsigned long op, void *ts)
{
	unsigned long x[4] = { (unsigned long)&fword, op, 0,
			       (unsigned long)ts };

	return rt_run1(&ring, SYS_futex, x, 4);
}

int main(void)
{
	struct async_head_user ahu;
	/* The kernel's timespec for this ABI's futex(): two longs. */
	struct { long sec, nsec; } until;
	struct timespec now;
	pthread_t t;
	long r;

	rt_init();
	rt_register(&ahu, ring.slot, 8, -1UL);

	/* TRYLOCK_PI of a free futex: the program owns it. */
	fword = 0;
	r = atom(FUTEX_TRYLOCK_PI, NULL);
	rt_check(r == 0 && (pid_t)(fword & FUTEX_TID_MASK) == tid(),
		 "FUTEX_TRYLOCK_PI atom of a free futex: %ld, word %#x, the "
		 "program is %d", r, fword, (int)tid());
	if (r == 0 && (pid_t)(fword & FUTEX_TID_MASK) == tid())
		rt_check(futex(&fword, FUTEX_UNLOCK_PI, NULL) == 0,
			 "the program's unlock after the trylock atom: %s",
			 strerror(errno));

	/* TRYLOCK_PI of a futex another thread holds: EWOULDBLOCK. */
	fword = 0;
	keep = 1;
	t = start(keeper);
	r = atom(FUTEX_TRYLOCK_PI, NULL);
	rt_check(r == -EWOULDBLOCK, "FUTEX_TRYLOCK_PI atom of a held futex: "
		 "%ld", r);
	keep = 0;
	pthread_join(t, NULL);

	/* The program's lock: an UNLOCK_PI atom releases it, and a LOCK_PI
	 * atom of it is EDEADLK (its timeout, 10 s on, only ends a wait
	 * that should not be). */
	fword = 0;
	if (futex(&fword, FUTEX_LOCK_PI, NULL))
		rt_die("FUTEX_LOCK_PI: %s", strerror(errno));
	r = atom(FUTEX_UNLOCK_PI, NULL);
	rt_check(r == 0 && fword == 0, "FUTEX_UNLOCK_PI atom of the "
		 "program's lock: %ld, word %#x", r, fword);
	if (fword == 0 && futex(&fword, FUTEX_LOCK_PI, NULL))
		rt_die("FUTEX_LOCK_PI: %s", strerror(errno));
	clock_gettime(CLOCK_REALTIME, &now);
	until.sec = (long)now.tv_sec + 10;
	until.nsec = now.tv_nsec;
	r = atom(FUTEX_LOCK_PI, &until);
	rt_check(r == -EDEADLK, "FUTEX_LOCK_PI atom of the program's own "
		 "lock: %ld", r);
	if ((pid_t)(fword & FUTEX_TID_MASK) == tid())
		rt_check(futex(&fword, FUTEX_UNLOCK_PI, NULL) == 0,
			 "the program's unlock: %s", strerror(errno));

	/* Waiting for another thread's lock, twice (on the kernel, the
	 * second chain starts on the thread the first hand-off made). */
	lock_blocked(1, 0);
	lock_blocked(2, 0);
	lock_blocked(3, 1);

	rt_unregister(&ahu);
	return rt_done("futexpi");
}
