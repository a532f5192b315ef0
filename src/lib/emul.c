/* emul.c: the emul backend's async heads: register/unregister, exec, wait, the cachemiss pool and the ring. */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "emul.h"
#include "cring.h"
#include "emul-fault.h"
#include "interp.h"
#include "common/systab.h"
#include "once.h"

/* kernel/async.c: "Pretty arbitrary for now." */
#define EMUL_DEFAULT_THREADS	1024
/* Workers only issue syscalls and run trace callbacks. */
#define EMUL_WORKER_STACK	(256 * 1024)
/* How long a caller with every worker busy waits for one: see
 * wait_worker_locked(). */
#define EMUL_POOL_WAIT_NS	500000L
struct emul_worker {
	pthread_t		thread;
	struct emul_head	*ah;
	struct emul_worker	*next_idle;
	struct emul_worker	*next_all;
	/* Futex word: 0 idle, EMUL_W_PARKED asleep on it, EMUL_W_WORK or
	 * EMUL_W_EXIT.  Set after the head's lock is dropped, so a woken
	 * worker never finds it held by the thread that woke it; only a
	 * parked worker needs the wake-up syscall. */
	uint32_t		go;
	struct emul_run		run;
};

#define EMUL_W_WORK	1U
#define EMUL_W_EXIT	2U
#define EMUL_W_PARKED	3U

struct emul_head {
	pthread_mutex_t		lock;
	pthread_cond_t		idle;		/* busy dropped to 0 */
	struct cring		ring;
	unsigned long		max_threads, nr_threads, busy;
	struct emul_worker	*idle_list, *all;
	uint32_t		seq;		/* futex word: something changed */
	uint32_t		waiters;	/* threads in futex_wait on seq */
	/* Unregistered by a signal handler while this thread's
	 * async_wait() slept on it (emul_asleep): the memory stays for
	 * that call, which frees it when the handler has returned. */
	bool			dying;
	pid_t			pid;		/* the process that registered */
};

static __thread struct emul_head *emul_cur;
/* The head this thread's async_wait() sleeps on, its signals open. */
static __thread struct emul_head *emul_asleep;
static int emul_heads;
static sigset_t emul_blockset;
static struct lib_once emul_once = LIB_ONCE_INIT;
static int emul_init_err;

int emul_registered_heads(void)
{
	return __atomic_load_n(&emul_heads, __ATOMIC_RELAXED);
}

long emul_gettid(void)
{
	static __thread long tid;

	if (!tid)
		tid = syscall(SYS_gettid);
	return tid;
}

/*
 * fork(): the kernel's heads belong to the task, and the child's task had
 * none (async_init()), whatever its parent had in flight: its calls fail
 * with EINVAL until it registers its own.  The child's one thread forgets
 * its copy of the head, whose workers do not exist in the child, and no
 * other thread of the child has one.  The memory stays: nothing in the
 * child may free what the parent's threads were using.
 */
static void emul_atfork_child(void)
{
	emul_cur = NULL;
	__atomic_store_n(&emul_heads, 0, __ATOMIC_RELAXED);
}

static void emul_init_once(void)
{
	/* Everything but the synchronous signals, which a fault must be
	 * able to raise (and our own fixups need). */
	sigfillset(&emul_blockset);
	sigdelset(&emul_blockset, SIGSEGV);
	sigdelset(&emul_blockset, SIGBUS);
	sigdelset(&emul_blockset, SIGFPE);
	sigdelset(&emul_blockset, SIGILL);
	sigdelset(&emul_blockset, SIGTRAP);
	sigdelset(&emul_blockset, SIGSYS);
	emul_init_err = emul_fault_init();
	if (!emul_init_err)
		emul_init_err = -pthread_atfork(NULL, NULL, emul_atfork_child);
	if (!emul_init_err && !emul_prof)
		emul_init_err = emul_profile_set(systab_native_profile());
}

int emul_init(void)
{
	lib_once(&emul_once, emul_init_once);
	return emul_init_err;
}

static long futex_wait(uint32_t *addr, uint32_t val,
		       const struct timespec *ts);

static void futex_wake(uint32_t *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Both sides are sequentially consistent: a waiter counts itself before
 * it reads seq, we bump seq before we read the count, so either it sees
 * the new seq or we see it waiting.  Nobody waiting: no syscall. */
static void head_changed(struct emul_head *ah)
{
	__atomic_add_fetch(&ah->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ah->waiters, __ATOMIC_SEQ_CST))
		futex_wake(&ah->seq, INT_MAX);
}

/* Park until the next order; a spurious wake-up just parks again. */
static void worker_idle(struct emul_worker *w, uint32_t go)
{
	if (go == EMUL_W_PARKED || __atomic_compare_exchange_n(
				&w->go, &go, EMUL_W_PARKED, false,
				__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &w->go, FUTEX_WAIT_PRIVATE, EMUL_W_PARKED,
			NULL, NULL, 0);
}

/* Give @w its next order; the syscall only when it sleeps. */
static void worker_order(struct emul_worker *w, uint32_t order)
{
	if (__atomic_exchange_n(&w->go, order, __ATOMIC_ACQ_REL) ==
	    EMUL_W_PARKED)
		futex_wake(&w->go, 1);
}

/*
 * In 2007 the task that went on with a syslet after a cachemiss was the
 * caller's, with its credentials.  setfsuid(), setfsgid() and capset()
 * change the calling thread's alone (the C library broadcasts setresuid()
 * and the rest to every thread, workers included, but not these): a file
 * server that takes on a client's IDs for its opens, or a program that
 * lowers its effective capabilities around a request or drops one for
 * good, must not have its calls made with the IDs or capabilities a
 * worker was made with or last took.  So the caller's two IDs and three
 * capability sets go with each hand-off and the worker takes them on.
 * A caller whose sets cannot be read hands nothing off.
 */
static int caps_call(long nr, struct emul_caps *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	/* Valgrind takes capget() to fill only the first of the two
	 * structures that version 3 fills. */
	if (nr == SYS_capget)
		memset(c, 0, sizeof(*c));
	return (int)syscall(nr, &h, c->d);
}

static bool give_creds(uid_t *u, gid_t *g, struct emul_caps *caps)
{
	*u = (uid_t)setfsuid((uid_t)-1);
	*g = (gid_t)setfsgid((gid_t)-1);
	return !caps_call(SYS_capget, caps);
}

static bool caps_same(const struct emul_caps *a, const struct emul_caps *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/*
 * Asking is cheap; setting, even to what is there, copies the thread's
 * credentials: only what differs is set.  The worker's permitted set holds
 * the caller's: it was made by the caller's thread, and neither thread
 * gains a permitted capability without execve().  So the IDs are set with
 * the whole permitted set effective (setfsuid() needs CAP_SETUID there,
 * which the caller may have raised since the worker last took its sets),
 * and then the caller's sets are taken exactly, whatever setting fsuid
 * from or to 0 did to the file capabilities.  Where that is refused (an
 * inheritable capability only CAP_SETPCAP could add, a seccomp filter or
 * a security module), the worker keeps what both have; where even that
 * or the IDs are refused, it must not act with more than the caller had,
 * and the rest of the chain completes with EPERM.
 */
static void take_creds(struct emul_run *run)
{
	struct emul_caps cur, c;
	bool ids = (gid_t)setfsgid((gid_t)-1) != run->fsgid ||
		   (uid_t)setfsuid((uid_t)-1) != run->fsuid;

	run->creds_lost = caps_call(SYS_capget, &cur) != 0;
	if (run->creds_lost)
		return;
	if (ids) {
		c = cur;
		for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
			c.d[i].effective = c.d[i].permitted;
		if (!caps_same(&c, &cur))
			(void)caps_call(SYS_capset, &c);
		setfsgid(run->fsgid);
		setfsuid(run->fsuid);
		if ((gid_t)setfsgid((gid_t)-1) != run->fsgid ||
		    (uid_t)setfsuid((uid_t)-1) != run->fsuid ||
		    caps_call(SYS_capget, &cur)) {
			run->creds_lost = true;
			return;
		}
	}
	if (caps_same(&cur, &run->caps) || !caps_call(SYS_capset, &run->caps))
		return;
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		c.d[i].effective = cur.d[i].effective &
				   run->caps.d[i].effective;
		c.d[i].permitted = cur.d[i].permitted &
				   run->caps.d[i].permitted;
		c.d[i].inheritable = cur.d[i].inheritable &
				     run->caps.d[i].inheritable;
	}
	if (!caps_same(&c, &cur) && caps_call(SYS_capset, &c))
		run->creds_lost = true;
}

static void *emul_worker_main(void *arg)
{
	struct emul_worker *w = arg;
	struct emul_head *ah = w->ah;
	struct sched_param sp = { 0 };

	/* A woken worker must not preempt the thread that woke it: that
	 * thread is about to hand off more.  SCHED_BATCH is the normal
	 * policy without wakeup preemption (no privilege needed). */
	(void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);

	for (;;) {
		uint32_t go = __atomic_load_n(&w->go, __ATOMIC_ACQUIRE);
		struct syslet_uatom *last;
		sigset_t user_mask;
		bool nc, sig_ended;

		if (!go || go == EMUL_W_PARKED) {
			worker_idle(w, go);
			continue;
		}
		if (go == EMUL_W_EXIT)
			break;
		take_creds(&w->run);
		last = emul_run_rest(&w->run, &nc);
		emul_stats_flush(&w->run.st);
		/* w->run is the next syslet's once we are idle again. */
		sig_ended = w->run.sig_ended;
		user_mask = w->run.user_mask;
		pthread_mutex_lock(&ah->lock);
		if (!nc)
			cring_complete(&ah->ring, last, &ah->lock, NULL);
		__atomic_store_n(&w->go, 0, __ATOMIC_RELAXED);
		w->next_idle = ah->idle_list;
		ah->idle_list = w;
		if (--ah->busy == 0)
			pthread_cond_broadcast(&ah->idle);
		pthread_mutex_unlock(&ah->lock);
		head_changed(ah);
		/* A signal ended the chain: now that it completed, let the
		 * signal act in this thread, as in the task that ran the
		 * chain in the kernel (a handler runs, a fatal one ends the
		 * process).  What the caller blocks stays blocked. */
		if (sig_ended) {
			sigset_t all;

			emul_sigmask(SIG_SETMASK, &user_mask, &all);
			emul_sigmask(SIG_SETMASK, &all, NULL);
		}
	}
	return NULL;
}

static struct emul_worker *worker_new_locked(struct emul_head *ah)
{
	struct emul_worker *w = calloc(1, sizeof(*w));
	pthread_attr_t attr;
	sigset_t old;
	int err;

	if (!w)
		return NULL;
	w->ah = ah;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, EMUL_WORKER_STACK);
	/* Workers block every signal but the synchronous ones: the
	 * process's signals go to the user's threads, and one sent to a
	 * worker stays pending for the engine to see (it then ends that
	 * chain, and is delivered there: see emul_worker_main()). */
	pthread_sigmask(SIG_SETMASK, &emul_blockset, &old);
	err = pthread_create(&w->thread, &attr, emul_worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		free(w);
		return NULL;
	}
	w->next_all = ah->all;
	ah->all = w;
	ah->nr_threads++;
	EMUL_STAT_ADD(threads, 1);
	return w;
}

static struct emul_worker *pick_worker_locked(struct emul_head *ah,
					      struct emul_run *run)
{
	struct emul_worker *w = ah->idle_list;

	if (w) {
		ah->idle_list = w->next_idle;
	} else if (ah->nr_threads < ah->max_threads && !run->no_spawn) {
		w = worker_new_locked(ah);
		run->no_spawn = !w;
	}
	return w;
}

/* No worker to be had without waiting: none idle, and none may be
 * created (asked without the lock; a worker that comes back meanwhile
 * is taken at the next ASYNC atom). */
static bool no_ready_worker(struct emul_head *ah, const struct emul_run *run)
{
	return !__atomic_load_n(&ah->idle_list, __ATOMIC_RELAXED) &&
	       (run->no_spawn ||
		__atomic_load_n(&ah->nr_threads, __ATOMIC_RELAXED) >=
		ah->max_threads);
}

/*
 * Every worker is busy.  The kernel would block the caller in the call
 * and run the rest of the syslet synchronously; the caller then stops
 * handing off for as long as that call takes, while the workers finish
 * and sit idle.  Waiting a little for one of them to come back does
 * better and keeps the pool's bound: when none is back within
 * EMUL_POOL_WAIT_NS (a worker may be blocked on something only the
 * caller would do next), the call runs in place as in the kernel.
 * Called and returns with the lock held.
 */
static struct emul_worker *wait_worker_locked(struct emul_head *ah,
					      struct emul_run *run)
{
	struct timespec t0, now, left;
	struct emul_worker *w = NULL;
	long ns;

	if (!ah->max_threads)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		uint32_t seq;

		__atomic_add_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
		seq = __atomic_load_n(&ah->seq, __ATOMIC_SEQ_CST);
		w = pick_worker_locked(ah, run);
		if (w) {
			__atomic_sub_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
			return w;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		ns = (now.tv_sec - t0.tv_sec) * 1000000000L +
		     (now.tv_nsec - t0.tv_nsec);
		if (ns >= EMUL_POOL_WAIT_NS) {
			__atomic_sub_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
			return NULL;
		}
		left.tv_sec = 0;
		left.tv_nsec = EMUL_POOL_WAIT_NS - ns;
		pthread_mutex_unlock(&ah->lock);
		(void)futex_wait(&ah->seq, seq, &left);
		__atomic_sub_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
		pthread_mutex_lock(&ah->lock);
	}
}

/*
 * A child of vfork() (or clone(CLONE_VM) without CLONE_THREAD) runs on
 * the memory of its parent's thread until it execs or exits, that
 * thread's emul_cur included, where fork()'s child handler has run
 * (emul_atfork_child()).  In 2007 such a child had no head
 * (async_init()): its async_wait() and async_unregister() failed with
 * EINVAL, and it could hand nothing off.  Here it must not hand a
 * syslet to the parent's workers (its pthread_create() would make a
 * thread of the child, which its exit kills with the syslet, and the
 * head would wait for that syslet for ever), nor wait on or tear down
 * the parent's head.  A system call tells: asked where the engine is
 * about to make a few anyway.
 */
static bool head_foreign(const struct emul_head *ah)
{
	return getpid() != ah->pid;
}

/* pick_new_async_head(): give the rest of the syslet to a ready worker,
 * creating one while the pool is below its limit. */
bool emul_handoff(struct emul_run *run)
{
	struct emul_head *ah = run->ah;
	struct emul_worker *w;
	struct emul_caps caps;
	uid_t fsuid;
	gid_t fsgid;

	if (!ah || head_foreign(ah))
		return false;
	/*
	 * An ASYNC atom that finds no ready worker runs on in the caller
	 * at once, as 2007's async_schedule() went on when
	 * pick_ready_cachemiss_thread() found none: waiting for one at
	 * each pass of a loop made 50,000 passes take 30 s.  A call that
	 * would block still waits a little (wait_worker_locked()).
	 */
	if (!run->h_blocked && no_ready_worker(ah, run))
		return false;
	/* Asked before the lock: three system calls. */
	if (!give_creds(&fsuid, &fsgid, &caps))
		return false;
	pthread_mutex_lock(&ah->lock);
	w = pick_worker_locked(ah, run);
	if (!w && run->h_blocked)
		w = wait_worker_locked(ah, run);
	if (!w) {
		pthread_mutex_unlock(&ah->lock);
		return false;
	}
	memset(&w->run, 0, sizeof(w->run));
	w->run.ah = ah;
	w->run.mode = EMUL_RUN_WORKER;
	/* The caller's own mask decides which signals end the syslet,
	 * wherever it runs. */
	w->run.user_mask = run->user_mask;
	w->run.h_uatom = run->h_uatom;
	w->run.h_atom = run->h_atom;
	w->run.h_partial = run->h_partial;
	w->run.h_blocked = run->h_blocked;
	w->run.fsuid = fsuid;
	w->run.fsgid = fsgid;
	w->run.caps = caps;
	ah->busy++;
	run->handed_off = true;
	pthread_mutex_unlock(&ah->lock);
	EMUL_STAT_ADD(handoffs, 1);
	/* Before the worker may run it and report its result. */
	interp_unfinished(run->h_uatom, &run->h_atom);
	worker_order(w, EMUL_W_WORK);
	return true;
}

static long emul_register(struct async_head_user *uah, unsigned long len)
{
	struct cring ring;
	unsigned long maxthr;
	struct emul_head *ah;
	long err;

	/* 2007's len is an unsigned int: the upper half is no part of it. */
	if ((unsigned int)len != sizeof(struct async_head_user))
		return -EINVAL;
	if (emul_cur)
		return -EEXIST;
	err = emul_init();
	if (err)
		return err;
	err = cring_setup(&ring, uah, EMUL_DEFAULT_THREADS, &maxthr);
	if (err)
		return err;
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return -ENOMEM;
	pthread_mutex_init(&ah->lock, NULL);
	pthread_cond_init(&ah->idle, NULL);
	ah->ring = ring;
	ah->max_threads = maxthr;
	ah->pid = getpid();
	emul_cur = ah;
	__atomic_add_fetch(&emul_heads, 1, __ATOMIC_RELAXED);
	return 0;
}

static long wait_head(struct emul_head *ah, unsigned long min,
		      struct syslet_uatom *const *slot);

/*
 * The program's thread holds the head's lock only with its signals held
 * back (the synchronous ones aside): a handler that came while it was
 * held, and called async_exec(), waited on it for ever.  In 2007 these
 * were system calls, whose handlers ran once they had returned.
 */
static void caller_lock(struct emul_head *ah, sigset_t *user)
{
	emul_sigmask(SIG_SETMASK, &emul_blockset, user);
	pthread_mutex_lock(&ah->lock);
}

static void caller_unlock(struct emul_head *ah, const sigset_t *user)
{
	pthread_mutex_unlock(&ah->lock);
	emul_sigmask(SIG_SETMASK, user, NULL);
}

/* The head's workers told to exit and joined, its memory freed (its
 * thread no longer has it; nothing is busy on it). */
static void emul_teardown(struct emul_head *ah)
{
	struct emul_worker *w, *nw;

	for (w = ah->all; w; w = w->next_all)
		worker_order(w, EMUL_W_EXIT);
	for (w = ah->all; w; w = nw) {
		nw = w->next_all;
		pthread_join(w->thread, NULL);
		free(w);
	}
	pthread_cond_destroy(&ah->idle);
	pthread_mutex_destroy(&ah->lock);
	free(ah);
}

/*
 * The end of a call of this thread on @ah during which a signal handler
 * unregistered it (emul_unregister() in the handler left it dying): what
 * the call started since goes on to its end, as it would have before
 * 2007's unregister, which ran once the call had returned and waited for
 * the busy syslets; then the head goes.  The caller's signals @user are
 * open while it waits (a handler then finds no head).
 */
static void emul_finish(struct emul_head *ah, const sigset_t *user)
{
	sigset_t held;

	for (;;) {
		uint32_t seq;
		bool idle, waiting;

		__atomic_add_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
		seq = __atomic_load_n(&ah->seq, __ATOMIC_SEQ_CST);
		caller_lock(ah, &held);
		cring_flush(&ah->ring);
		idle = ah->busy == 0;
		waiting = ah->ring.dq_head != NULL;
		caller_unlock(ah, &held);
		if (!idle) {
			const struct timespec tick = { 0, 1000000 };

			emul_sigmask(SIG_SETMASK, user, &held);
			(void)futex_wait(&ah->seq, seq, waiting ? &tick : NULL);
			emul_sigmask(SIG_SETMASK, &held, NULL);
		}
		__atomic_sub_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
		if (idle)
			break;
	}
	caller_lock(ah, &held);
	cring_drop(&ah->ring);
	caller_unlock(ah, &held);
	emul_teardown(ah);
}

static long emul_unregister(struct async_head_user *uah, unsigned long len)
{
	struct emul_head *ah = emul_cur, *outer;
	sigset_t user;

	/* 2007's len is an unsigned int: the upper half is no part of it. */
	if ((unsigned int)len != sizeof(struct async_head_user))
		return -EINVAL;
	if (!ah || head_foreign(ah))
		return -EINVAL;
	/*
	 * stop_cachemiss_threads(): busy ones finish their syslet first.
	 * The wait is async_wait()'s, the lock not held, so that a signal
	 * acts meanwhile as before and a handler may start a syslet, which
	 * is then waited for too; the rest is done with signals held back,
	 * and a handler that comes then runs once the head is gone (its
	 * async_exec(): EINVAL), as after 2007's call.
	 */
	outer = emul_asleep;
	emul_asleep = ah;
	for (;;) {
		(void)wait_head(ah, ~0UL, NULL);
		if (ah->dying)
			break;
		caller_lock(ah, &user);
		if (!ah->busy)
			break;
		caller_unlock(ah, &user);
	}
	emul_asleep = outer;
	if (ah->dying) {
		/* A handler of this wait unregistered it meanwhile. */
		if (outer != ah) {
			sigset_t cur;

			emul_sigmask(SIG_BLOCK, NULL, &cur);
			emul_finish(ah, &cur);
		}
		return 0;
	}
	cring_drop(&ah->ring);
	emul_cur = NULL;
	__atomic_sub_fetch(&emul_heads, 1, __ATOMIC_RELAXED);
	/*
	 * In a handler of a call of this thread on the head (async_wait()
	 * or async_unregister() asleep, async_exec() blocked in place,
	 * emul_asleep): that call goes on once the handler has returned and
	 * may still use the head, so it tears it down; the bumped sequence
	 * ends a wait's sleep (a futex wait restarted after the handler
	 * finds the word changed).
	 */
	if (outer == ah) {
		ah->dying = true;
		__atomic_add_fetch(&ah->seq, 1, __ATOMIC_SEQ_CST);
		caller_unlock(ah, &user);
		return 0;
	}
	/* All idle now (busy is 0 and nothing can hand off: this is the
	 * thread that would). */
	pthread_mutex_unlock(&ah->lock);
	emul_teardown(ah);
	emul_sigmask(SIG_SETMASK, &user, NULL);
	return 0;
}

static void emul_flush_cur(void)
{
	struct emul_head *ah = emul_cur;

	if (ah && cring_waiting(&ah->ring)) {
		sigset_t user;

		caller_lock(ah, &user);
		if (cring_flush(&ah->ring))
			head_changed(ah);
		caller_unlock(ah, &user);
	}
}

static struct syslet_uatom *emul_exec(struct syslet_uatom *atom, long *err)
{
	struct emul_head *ah = emul_cur, *outer;
	struct syslet_uatom *last;
	struct emul_run run;

	*err = 0;
	if (!ah) {
		*err = -EINVAL;
		return NULL;
	}
	emul_flush_cur();
	/* A bad pointer gives -EFAULT whatever the program did with
	 * SIGSEGV and SIGBUS since the last call (emul-fault.c). */
	emul_fault_own();
	memset(&run, 0, sizeof(run));
	run.ah = ah;
	run.mode = EMUL_RUN_INLINE;
	/* Signals stay pending while the chain runs, so that the engine
	 * sees them after each atom as the kernel's signal_pending() did;
	 * they are delivered when we return.  The synchronous ones stay
	 * open, even if the caller blocks them: a fault must reach the
	 * engine's handler. */
	emul_sigmask(SIG_SETMASK, &emul_blockset, &run.user_mask);
	outer = emul_asleep;
	emul_asleep = ah;
	last = emul_run_chain(&run, atom, err);
	emul_asleep = outer;
	/* Unregistered by a handler while an atom blocked in place. */
	if (ah->dying && outer != ah)
		emul_finish(ah, &run.user_mask);
	emul_sigmask(SIG_SETMASK, &run.user_mask, NULL);
	EMUL_STAT_ADD(execs, 1);
	emul_stats_flush(&run.st);
	if (run.handed_off)
		return NULL;
	return last;
}

/*
 * syslet_exec_batch(): as emul_exec() for each, with the fault handler
 * checked and signals held back once for all of them: no code of the
 * program runs between two of them (a handler runs when the batch
 * returns), so one check keeps the EFAULT promise for the batch.  A
 * syslet that a signal ended ends the batch after it.
 */
static long emul_exec_batch(struct syslet_uatom *const *atoms, size_t n,
			    struct syslet_uatom **done, int *errs)
{
	struct emul_head *ah = emul_cur, *outer;
	sigset_t user_mask;
	bool sig = false;
	size_t i;

	if (!ah)
		return -EINVAL;
	if (!n)
		return 0;
	emul_flush_cur();
	emul_fault_own();
	emul_sigmask(SIG_SETMASK, &emul_blockset, &user_mask);
	outer = emul_asleep;
	emul_asleep = ah;
	for (i = 0; i < n && !sig; i++) {
		struct syslet_uatom *last;
		struct emul_run run;
		long err = 0;

		memset(&run, 0, sizeof(run));
		run.ah = ah;
		run.mode = EMUL_RUN_INLINE;
		run.user_mask = user_mask;
		last = emul_run_chain(&run, atoms[i], &err);
		emul_stats_flush(&run.st);
		done[i] = run.handed_off || err ? NULL : last;
		errs[i] = (int)-err;
		sig = run.sig_ended && !run.handed_off;
		/* An atom may have changed the caller's mask (sigprocmask):
		 * the next syslet runs with it, as the next call would. */
		user_mask = run.user_mask;
		/* Unregistered by a handler while an atom blocked in
		 * place: the batch ends there, the rest finding no head. */
		if (ah->dying) {
			i++;
			break;
		}
	}
	emul_asleep = outer;
	if (ah->dying && outer != ah)
		emul_finish(ah, &user_mask);
	emul_sigmask(SIG_SETMASK, &user_mask, NULL);
	EMUL_STAT_ADD(execs, i);
	return (long)i;
}

static long futex_wait(uint32_t *addr, uint32_t val, const struct timespec *ts)
{
	long r = syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ts, NULL, 0);

	return r == -1 ? -errno : 0;
}

/*
 * The untimed futex wait is restarted by the kernel after a handler with
 * SA_RESTART, as the kernel's async_wait() was (2007's
 * wait_event_interruptible() answered -ERESTARTSYS); a timed one (the
 * look every tick while completions wait for a slot) answers EINTR for
 * any handler, SA_RESTART or not.  Restarted then when every signal the
 * caller catches and leaves open has SA_RESTART (which one came is not
 * known, as on uring), its count started again, as the kernel's.
 */
static bool timed_restart(struct emul_head *ah, unsigned long *start)
{
	sigset_t cur;

	if (pthread_sigmask(SIG_BLOCK, NULL, &cur) || !emul_all_restart(&cur))
		return false;
	caller_lock(ah, &cur);
	*start = ah->ring.completions;
	cring_flush(&ah->ring);
	caller_unlock(ah, &cur);
	return true;
}

/*
 * sys_async_wait(): back once @min completions went into the ring after
 * the call, or nothing is busy.  Also back when completions wait for a
 * slot the user has not cleared and nothing else can make progress: the
 * user must drain the ring first (the kernel would have dropped them).
 * With @slot, back at once when it holds an atom as the count starts.
 */
/*
 * The wait of async_wait() and of async_unregister() on @ah, which
 * emul_asleep names: a handler may run wherever the caller's signals are
 * open here (asleep, and as the lock is dropped), and its
 * async_unregister() leaves the head dying to the call it interrupted,
 * which looks for that after each of those points.
 */
static long wait_head(struct emul_head *ah, unsigned long min,
		      struct syslet_uatom *const *slot)
{
	const struct timespec tick = { 0, 1000000 };
	unsigned long start;
	sigset_t user;
	long ret = 0;

	caller_lock(ah, &user);
	/* Before the flush: a kept completion that this call moves into
	 * a slot the user cleared went into the ring after the call, so
	 * it counts, and a reaper that cleared its slots and waits gets
	 * it (sys_async_wait(3)). */
	start = ah->ring.completions;
	cring_flush(&ah->ring);
	if (slot && __atomic_load_n(slot, __ATOMIC_ACQUIRE))
		min = 0;
	caller_unlock(ah, &user);
	while (min && !ah->dying) {
		uint32_t seq;
		bool waiting, done, idle;
		long r;

		/* Counted before seq is read: see head_changed(). */
		__atomic_add_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
		seq = __atomic_load_n(&ah->seq, __ATOMIC_SEQ_CST);
		caller_lock(ah, &user);
		cring_flush(&ah->ring);
		done = ah->ring.completions - start >= min;
		idle = ah->busy == 0;
		waiting = ah->ring.dq_head != NULL;
		caller_unlock(ah, &user);
		r = done || idle ? 0 :
		    futex_wait(&ah->seq, seq, waiting ? &tick : NULL);
		__atomic_sub_fetch(&ah->waiters, 1, __ATOMIC_SEQ_CST);
		/* Decided before the handler ran: its result stands. */
		if (done || idle)
			break;
		if (ah->dying) {
			/* A restarted wait finds no head, as the kernel's. */
			ret = r == -EINTR ? -EINTR : -EINVAL;
			break;
		}
		if (r == -EINTR && !(waiting && timed_restart(ah, &start))) {
			ret = -EINTR;
			break;
		}
	}
	return ret;
}

static long emul_wait_slot(unsigned long min, struct syslet_uatom *const *slot)
{
	struct emul_head *ah = emul_cur, *outer;
	long ret;

	if (!ah || head_foreign(ah))
		return -EINVAL;
	outer = emul_asleep;
	emul_asleep = ah;
	ret = wait_head(ah, min, slot);
	emul_asleep = outer;
	/* Unregistered by a handler: the outermost call on it ends it. */
	if (ah->dying && outer != ah) {
		sigset_t cur;

		emul_sigmask(SIG_BLOCK, NULL, &cur);
		emul_finish(ah, &cur);
	}
	return ret;
}

static long emul_wait(unsigned long min)
{
	return emul_wait_slot(min, NULL);
}

static long emul_backend_umem_add(unsigned long *uptr, unsigned long inc)
{
	long err = emul_init();

	if (err)
		return err;
	emul_fault_own();
	return emul_umem_add(uptr, inc);
}

static int emul_probe(void)
{
	return emul_init();
}

static int emul_set_profile(int profile)
{
	int err = emul_init();

	return err ? err : emul_profile_set(profile);
}

const struct backend emul_backend = {
	.name = "emul",
	.probe = emul_probe,
	.async_register = emul_register,
	.async_exec = emul_exec,
	.async_exec_batch = emul_exec_batch,
	.async_wait = emul_wait,
	.async_wait_slot = emul_wait_slot,
	.async_unregister = emul_unregister,
	.umem_add = emul_backend_umem_add,
	.set_profile = emul_set_profile,
	.ring_freed = emul_flush_cur,
	.registered = emul_registered_heads,
	.observed = true,
};
