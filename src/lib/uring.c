/* uring.c: the uring backend: atoms that may block go through io_uring, many syslets' atoms per io_uring_enter, the interpreter running between completions. */
#include <config.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "uring.h"
#include "cring.h"
#include "interp.h"
#include "common/systab.h"
#include "once.h"

/*
 * How it runs.  async_exec() runs a syslet in the caller for as long as
 * its atoms are calls that never block (getppid, close, umem_add, ...),
 * exactly as the emul engine does.  At the first atom whose call io_uring
 * offers (read, openat, accept, ...) it fetches the arguments -- the
 * atom runs now, as far as the ABI can tell -- writes an SQE and returns
 * NULL: the syslet went async.  The SQE is not submitted yet: the next
 * async_wait() (or the progress thread, or a full submission queue)
 * submits everything prepared since, so the first atoms of a thousand
 * syslets enter the kernel together.  On each
 * completion the interpreter stores the result, takes the stop test and
 * prepares the next atom, again into the same batch.  Calls io_uring
 * lacks run in place when they cannot block, else (after a non-blocking
 * attempt where one exists) on a small pool of worker threads that post
 * their results back through an eventfd the ring polls.
 *
 * Who drives.  Completions are taken by whichever thread holds the head's
 * driver lock: the caller inside async_wait() or async_unregister(), or,
 * when the caller stays away,
 * the head's progress thread: it looks every UR_TICK_NS while syslets
 * are in flight, and drives the ring itself when the caller has not
 * entered the library since its last look.  So a syslet completes into
 * the ring although nobody calls async_wait(), as in the kernel.
 */

/* A ring's size is its set-up's cost (pages the kernel zeroes and maps
 * for each head): 1,024 SQEs and 8,192 CQEs took 65 us against 35 for
 * these.  A full SQ is submitted (get_sqe()); the CQ grows with the
 * syslets that may be in flight (ur_register()). */
#define UR_SQ_ENTRIES	256
#define UR_CQ_ENTRIES	256
#define UR_TICK_NS	1000000L
/* Looks of the progress thread that found nothing to do before it
 * sleeps in the ring until a completion (ur_progress()). */
#define UR_IDLE_TICKS	8
/*
 * A syslet_exec_batch() submits what it prepared, and takes the
 * completions so far, each time the SQ is full (batch_drive()): each
 * io_uring_enter costs a system call (dear under virtualisation), and
 * a full SQ is as much as one can take.  1,000 cached files (open,
 * read, close: 3,000 SQEs) took 48 io_uring_enter at 64 SQEs, 24 at
 * 128, 12 at 256 (liburing's linked calls, 64 files in flight: 16).
 * The SQ is empty again on return, room for the next atoms of the
 * syslets that completed at once.
 */
/* Rounds of submitting and taking completions at the end of a batch
 * (settle()). */
#define UR_SETTLE_ROUNDS	8
/* Atoms one async syslet runs in the driver before the others' turn. */
#define UR_SLICE	256
#define UR_EFD_TAG	1UL
/* The progress thread's futex wait in the ring (arm_fx()). */
#define UR_FX_TAG	2UL
/* io_uring's IORING_OP_FUTEX_WAIT (Linux 6.7), which liburing 2.3's
 * headers lack, and futex2's flags for it. */
#define UR_OP_FUTEX_WAIT	51
#define UR_FUTEX2_U32_PRIVATE	(0x02 | 128)
#define UR_DEFAULT_THREADS	1024
#define UR_IOWQ_MAX	64
#define UR_WORKER_STACK	(256 * 1024)

/* What the chain knows of one descriptor (fd -1: none): learnt when it
 * opened it, or from fcntl and lseek, and forgotten at the first call the
 * engine makes itself, which could change it. */
struct ur_fdk {
	int	fd;
	bool	nonblock;
	bool	mine;		/* this chain opened it */
	bool	seekable;	/* has a file position */
	bool	seek_known;	/* seekable is known (lseek asked) */
	bool	tty;		/* a terminal */
	bool	tty_known;	/* tty is known (TCGETS asked) */
};

/* A syslet that went async. */
/* A record's masks: the chain's own (own_mask) and the one a worker's
 * call is made for (emul_block_call()).  Apart from the record, which
 * they made 2.5 times as large: 64 records in flight touched 7 pages,
 * 3 without them, and most syslets never need either. */
struct ur_slm {
	sigset_t		mask;
	sigset_t		wmask;
};

struct ur_sl {
	struct syslet_uatom	*u;	/* its current atom */
	struct emul_atom	a;	/* as fetched when it was issued */
	struct ur_sl		*next;	/* ready list, worker queue, free */
	long			ret;	/* a worker's result */
	long			partial;
	unsigned long		last_flags;
	unsigned char		pol;
	unsigned char		op;	/* of the SQE in flight; 0: a worker */
	bool			handoff;	/* it went async at this atom */
	bool			driver_ran;	/* its call, no worker free */
	/* Its SQE was entered by async_exec(), which takes the completion
	 * itself if it is there on return (probe_ring()); probed: it was,
	 * its result in ret. */
	bool			probing, probed;
	/* An rt_sigprocmask atom ran: mask is the chain's own from then
	 * on (chain_mask()). */
	bool			own_mask;
	/* a is u as async_exec() read it, SYSLET_ASYNC, before it returned
	 * NULL (2007's copy_uatom() ran before the hand-off): the driver
	 * runs that copy, not what u holds by then. */
	bool			fetched;
	struct ur_fdk		k;
	/* Its signal masks (a glibc sigset_t is 128 bytes), allocated when
	 * first needed (sl_m()) and kept with the record. */
	struct ur_slm		*m;
};

/* Syslet records come UR_SLAB_SL to a block: a malloc() each cost ~85
 * instructions a syslet (a batch of 1,000, 256 and more in flight).
 * The blocks go with the head (ur_unregister()), with the records of
 * syslets that a broken ring left in flight. */
#define UR_SLAB_SL	64

struct ur_slab {
	struct ur_slab		*next;
	struct ur_sl		sl[UR_SLAB_SL];
};

struct ur_head {
	struct io_uring		ring;
	/* The driver's lock: the ring, the slots and every list below
	 * except the workers' own. */
	pthread_mutex_t		lock;
	struct cring		cring;
	unsigned long		busy;		/* async, not yet complete */
	unsigned int		unsubmitted;
	unsigned int		sq_entries;	/* the SQ's size */
	struct ur_sl		*ready, *ready_tail;
	struct ur_sl		*free_sl;
	/* Every record's block, the newest first, its first slab_used
	 * records handed out. */
	struct ur_slab		*slabs;
	unsigned int		slab_used;
	unsigned char		*ops;		/* nr -> uring op */
	int			efd;
	bool			efd_armed;
	/* The eventfd's identity (fstat() when made), and whether the
	 * number stopped being it (efd_get()): no other is made then. */
	dev_t			efd_dev;
	ino_t			efd_ino;
	bool			efd_lost;
	/* Workers for calls io_uring lacks that would block. */
	pthread_mutex_t		wlock;
	pthread_cond_t		wcond;
	struct ur_sl		*wq_head, *wq_tail;
	struct ur_sl		*wdone;		/* finished: lock-free LIFO */
	unsigned long		max_threads, nr_threads, idle_threads;
	pthread_t		*threads;
	bool			wexit;
	/* The progress thread, its thread ID once it has run (0 before)
	 * and the capability sets of the thread that made it. */
	pthread_t		prog;
	bool			prog_started;
	pid_t			prog_tid;
	struct emul_caps	prog_caps;
	uint32_t		prog_word;
	uint32_t		prog_parked;
	uint32_t		prog_deep;	/* asleep in io_uring_enter */
	/* A futex wait in the ring on deep_word, armed before the progress
	 * thread sleeps there: a wake of deep_word ends that sleep without
	 * an io_uring_enter(), which a ring that broke cannot take
	 * (prog_kick()).  fx_none: this kernel has no such op. */
	uint32_t		deep_word;
	bool			fx_armed, fx_none;
	uint32_t		epoch;		/* bumped by the caller */
	pid_t			pid;		/* the process that registered */
	pthread_t		ur_owner;	/* the thread that registered */
	/* Its ring's descriptor is near the top of the limit, out of the
	 * program's way: then it may be kept (ring_keep()). */
	bool			ring_high;
	uint32_t		exiting;
	/* io_uring_enter()'s error that no retry mends (the program closed
	 * the ring's descriptor or put a file of its own at its number, a
	 * filter refuses the call): the ring is never entered again, and
	 * the head goes on without it (ring_broke()). */
	int			ring_err;
	/* ring_broke() has run: ops is ur_ops_none. */
	bool			broke;
	/* Syslets a worker has (queued, running, or its result not taken):
	 * the busy ones beyond these are the kernel's, in a ring that broke
	 * (on_ring()).  Counted off the path of the ring's syslets. */
	unsigned long		on_workers;
	/* The caller's signal mask as last learnt (async_exec, async_wait,
	 * async_unregister): the mask of the chains the driver runs. */
	sigset_t		user_mask;
	/* Unregistered by a signal handler's async_unregister() while a
	 * call of this thread slept on it (ur_asleep): that call, which
	 * holds the lock, tears it down once the handler has returned. */
	bool			dying;
};

/* One run of the interpreter: in the caller inside async_exec (inline),
 * or by the driver on behalf of async syslets.  The driver always runs
 * with signals blocked (but the synchronous ones), so that one that
 * arrives during an atom stays pending until the engine looks. */
struct ur_ctx {
	struct ur_head		*ah;
	bool			inline_;
	/* async_exec() of one syslet: the ring's atoms are entered at once
	 * and the chain goes on in place while they complete on return. */
	bool			probe;
	bool			masked;		/* inline: signals blocked */
	bool			sig_ended;	/* a signal ended a chain */
	bool			nested;		/* in a handler; see ur_asleep */
	sigset_t		outer_mask;	/* nested: ah->user_mask before */
	/* io_uring_enter() said EINTR: a handler of the caller's ran. */
	bool			handled;
	/* A driver in a thread of the program (async_wait(), async_exec()
	 * taking the others' completions): a signal sent to that thread is
	 * the program's, whose handler runs there while the async syslets
	 * go on (syslet(7) DIFFERENCES), so it looks only where an atom's
	 * own call may have raised one (a failed call: SIGPIPE). */
	bool			program;
	/* drive_alone()'s driver: the caller's own syslets, which 2007 ran
	 * on in the caller, so a signal for the process (kill(), Ctrl-C,
	 * a timer's) ends them as one for the caller's thread does. */
	bool			alone;
	/* Inline: nothing may be handed off (1: the caller's file-system
	 * IDs are not its effective ones, or a vfork() child), or may (0),
	 * not asked yet (-1); see room(). */
	signed char		in_place;
	unsigned int		budget;
	sigset_t		user_mask;
	struct emul_lstats	st;
};

static __thread struct ur_head *ur_cur;
/*
 * The head whose lock this thread holds while it sleeps in
 * io_uring_enter() with the caller's signals open (wait_step()): a
 * handler runs there, on the syscall's way out, the lock still held.
 * The head is at rest at that point (the outer call only waits), so a
 * handler's async_exec() runs on it as if it took the lock, rather than
 * waiting for ever on a lock its own thread holds.
 */
static __thread struct ur_head *ur_asleep;
/*
 * The head whose lock this thread's async_exec() let go while an atom
 * blocks in place (block_here()), the caller's signals open: a handler
 * may take the lock then, but its async_unregister() must not free the
 * head under the interrupted call, which tears it down when it ends.
 */
static __thread struct ur_head *ur_inside;
static void ur_teardown(struct ur_head *ah, const sigset_t *user);
static int ur_heads;
static sigset_t ur_blockset;
static struct lib_once ur_once = LIB_ONCE_INIT;
static int ur_init_err;
static unsigned char *ur_ops_map;	/* probed once, native profile */
/* No call goes to the ring: the ops of a head whose ring broke. */
static unsigned char *ur_ops_none;
/*
 * The probe's ring, set up as a head's ring is: the first head of the
 * thread that probed takes it over (ur_spare_take()), rather than the
 * probe setting up a ring of its own, probing it, closing it, and the
 * head setting up another (one io_uring_setup, one ring torn down and
 * five system calls less for a process that runs syslets).  Whatever
 * registers first takes it out of here: a head of another thread, or
 * one that needs a larger CQ, closes it.
 */
static int ur_spare_fd = -1;
static struct io_uring_params ur_spare_p;
static __thread bool ur_spare_here;	/* this thread probed */
/*
 * The ring of this thread's last head, kept for its next one rather than
 * closed: the kernel tears a closed ring down later, in a worker that
 * sends task work with TWA_SIGNAL to every thread that entered it
 * (io_ring_exit_work(), 12-28 ms after the close here), and the call the
 * thread then sleeps in is cut short as by a signal: an epoll_wait()
 * made after async_unregister() failed with EINTR, no signal sent, every
 * time.  Kept, it is closed when the thread ends (ur_kept_key), where
 * no call of the thread is left to cut short.
 */
static __thread struct io_uring ur_kept;
static __thread bool ur_kept_here;
/*
 * Kept rings too small for the thread's next head (the probe's CQ holds
 * 256 completions, a head of more than 96 threads asks for more): left
 * open beside the head's ring until the thread ends, not closed, for the
 * teardown's task work would cut short the call the thread sleeps in
 * then (syslet-run --each --threads=100: the 101st syslet's epoll_wait(),
 * run in place, failed with EINTR).  The probe's ring (ur_spare_fd) too,
 * where this thread probed.  One a larger CQ at most.
 */
static void retired_close(void);
struct ur_retired {
	struct io_uring	ring;
	bool		mapped;		/* else only ring.ring_fd is */
};
static __thread struct ur_retired *ur_retired;
static __thread unsigned int ur_nretired;
static pthread_key_t ur_kept_key;
static bool ur_kept_ok;
/* What the fast loop may run in place: inline, and in the driver (where
 * calls io_uring offers go to the ring instead, to be batched). */
static unsigned char *ur_tab_inline, *ur_tab_driver;
/* Calls on the calling thread's own state (ur_self_names). */
static unsigned char *ur_tab_self;
/* Calls that can take the engine's own descriptors away. */
static long ur_close_nr, ur_dup2_nr, ur_dup3_nr, ur_close_range_nr;

static int efd_get(struct ur_head *ah);

/*
 * A forked child has no async head, as the kernel's heads belong to the
 * task: it must not drive its parent's ring.  Its copies of the engine's
 * descriptors are closed (the parent's ring is unaffected); the head's
 * memory stays, as nothing in the child may free what the parent's
 * threads were using.  The heads of the parent's other threads are not
 * the child's either: it has none left.
 */
static void ur_atfork_child(void)
{
	struct ur_head *ah = ur_cur;

	__atomic_store_n(&ur_heads, 0, __ATOMIC_RELAXED);
	if (ur_spare_fd >= 0)
		close(ur_spare_fd);
	ur_spare_fd = -1;
	if (ur_kept_here) {
		/* The parent's: unmapped and closed here only. */
		io_uring_queue_exit(&ur_kept);
		ur_kept_here = false;
	}
	retired_close();
	if (!ah)
		return;
	close(ah->ring.ring_fd);
	if (efd_get(ah) >= 0)
		close(ah->efd);
	ur_cur = NULL;
}

static int fd_high(int fd);

/*
 * The workers' eventfd, or -1 when there is none or its number is no
 * longer it: a program that closes every descriptor it did not open
 * (close_range(3, ~0U, 0), as a daemon does) may put a file of its own
 * at that number, which the engine must then never write, read, poll or
 * close.  The number is checked on each use, all on the workers' slow
 * path (a worker's result, a broken ring, the head's end), by the file's
 * identity and its mark (UR_EFD_TAG_SIG); one that changed is given up for good (efd_lost): the
 * drivers then look every UR_TICK_NS while workers hold syslets, and the
 * poll the ring holds keeps the old file until it is cancelled.
 */
/*
 * Every anonymous-inode file (an eventfd, a timerfd, a signalfd, an
 * epoll, an io_uring) has the same st_dev and st_ino: the engine's
 * eventfd is told from an eventfd of the program's by a mark on the open
 * file, F_SETSIG's signal, which acts only with O_ASYNC, never set on
 * it.  A program's file carries it only if the program set this very
 * signal for signal-driven I/O on an anonymous-inode file.
 */
#define UR_EFD_TAG_SIG	61

static int efd_get(struct ur_head *ah)
{
	int efd = __atomic_load_n(&ah->efd, __ATOMIC_ACQUIRE);
	struct stat st;

	if (efd < 0)
		return -1;
	if (!fstat(efd, &st) && st.st_dev == ah->efd_dev &&
	    st.st_ino == ah->efd_ino && fcntl(efd, F_GETSIG) == UR_EFD_TAG_SIG)
		return efd;
	__atomic_store_n(&ah->efd_lost, true, __ATOMIC_RELEASE);
	(void)__atomic_compare_exchange_n(&ah->efd, &efd, -1, false,
					  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
	return -1;
}

/* The thread ends: its kept rings go (ur_kept, ur_retired). */
static void ur_kept_end(void *arg)
{
	(void)arg;
	if (ur_kept_here) {
		ur_kept_here = false;
		io_uring_queue_exit(&ur_kept);
	}
	retired_close();
}

static void retired_close(void)
{
	while (ur_nretired) {
		struct ur_retired *r = &ur_retired[--ur_nretired];

		if (r->mapped)
			io_uring_queue_exit(&r->ring);
		else
			close(r->ring.ring_fd);
	}
	free(ur_retired);
	ur_retired = NULL;
}

/* Whether ur_kept_end() has rings to close when the thread ends. */
static void kept_mark(void)
{
	(void)pthread_setspecific(ur_kept_key, ur_kept_here || ur_nretired ?
					       &ur_kept : NULL);
}

/* A ring of this thread too small for a head: into ur_retired, else
 * closed (no memory for the list); @ring NULL: only the descriptor @fd
 * (the probe's, never mapped). */
static void retire(const struct io_uring *ring, int fd)
{
	struct ur_retired *r = reallocarray(ur_retired, ur_nretired + 1,
					    sizeof(*r));

	if (!r) {
		if (ring)
			io_uring_queue_exit((struct io_uring *)ring);
		else
			close(fd);
		return;
	}
	ur_retired = r;
	r = &ur_retired[ur_nretired++];
	memset(r, 0, sizeof(*r));
	if (ring)
		r->ring = *ring;
	else
		r->ring.ring_fd = fd;
	r->mapped = ring != NULL;
	kept_mark();
}

/*
 * A ring as every head has it: UR_SQ_ENTRIES SQEs, room for @cq
 * completions; its descriptor (@p filled in) or -errno.
 */
static int ring_setup(unsigned int cq, struct io_uring_params *p)
{
	int fd;

	memset(p, 0, sizeof(*p));
	p->flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP |
		   IORING_SETUP_SUBMIT_ALL;
	p->cq_entries = cq;
	fd = io_uring_setup(UR_SQ_ENTRIES, p);
	if (fd == -EINVAL) {
		/* Before 5.18. */
		memset(p, 0, sizeof(*p));
		p->flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP;
		p->cq_entries = cq;
		fd = io_uring_setup(UR_SQ_ENTRIES, p);
	}
	return fd;
}

/*
 * A head's ring in @ring, with room for @cq completions: the probe's
 * when this thread probed and its CQ is large enough, else a new one,
 * its descriptor moved out of the way (fd_high()).  0 or -errno.
 */
static int fd_high_moved(int fd, bool *moved);
static int fd_high_below(int fd, const struct rlimit *rl, bool *moved);
static int ring_new(struct io_uring *ring, unsigned int cq, bool *high)
{
	struct io_uring_params p;
	int fd = -1;
	int err;

	if (ur_kept_here) {
		if (*ur_kept.cq.kring_entries >= cq) {
			ur_kept_here = false;
			kept_mark();
			*ring = ur_kept;
			*high = true;	/* kept only so */
			return 0;
		}
		ur_kept_here = false;
		retire(&ur_kept, -1);
		kept_mark();
	}
	/* Another thread's probe ring is left where it is: closed, its
	 * teardown would cut short the call the thread that probed (and
	 * entered it) sleeps in (ur_kept). */
	if (ur_spare_here)
		fd = __atomic_exchange_n(&ur_spare_fd, -1, __ATOMIC_ACQ_REL);
	/*
	 * The program may have closed it meanwhile, and given its number
	 * to a file of its own: that is not mapped as a ring (nor
	 * closed).  io_uring_enter() with nothing to do answers
	 * EOPNOTSUPP for a descriptor that is not an io_uring.
	 */
	if (fd >= 0 && io_uring_enter((unsigned int)fd, 0, 0, 0, NULL) < 0)
		fd = -1;
	/* This thread probed on it and entered it: too small, it is left
	 * open, as ur_kept is (ur_retired). */
	if (fd >= 0 && ur_spare_p.cq_entries < cq) {
		retire(NULL, fd);
		fd = -1;
	}
	if (fd >= 0) {
		p = ur_spare_p;
		err = io_uring_queue_mmap(fd, &p, ring);
		*high = true;	/* the probe's was kept only so */
		if (!err)
			goto mapped;
		close(fd);
	}
	fd = ring_setup(cq, &p);
	if (fd < 0)
		return fd;
	fd = fd_high_moved(fd, high);
	err = io_uring_queue_mmap(fd, &p, ring);
	if (err) {
		close(fd);
		return err;
	}
mapped:
	/* As io_uring_queue_init_params() leaves a ring: SQ slot i holds
	 * SQE i. */
	for (unsigned int i = 0; i < *ring->sq.kring_entries; i++)
		ring->sq.array[i] = i;
	ring->features = p.features;
	return 0;
}

/*
 * Calls that change the thread that makes them (its name, its nice value,
 * its I/O priority, its CPU affinity, its scheduling and memory policies,
 * its personality, prctl's per-thread settings) and never block.  After a cachemiss the 2007 kernel ran the
 * rest of a syslet in another task than the one the program went on in,
 * so such a call never changed the program's thread; the driver of an
 * async syslet may be the program's thread (in async_wait or async_exec),
 * so these go to a worker there, as emul runs them.
 */
static const char *const ur_self_names[] = {
	"prctl", "setpriority", "nice", "ioprio_set", "sched_setaffinity",
	"personality", "sched_setscheduler", "sched_setparam",
	"sched_setattr", "set_mempolicy",
};

/*
 * The probe: a ring set up as a head's, its ops mapped (ur_ops_map) and
 * entered once; ur_init_err says what failed.  *@fdp keeps the ring when
 * *@high says it could be moved out of the way, else it is closed.
 */
static void probe_here(const struct rlimit *rl, struct io_uring_params *p,
		       int *fdp, bool *high)
{
	int fd = ring_setup(UR_CQ_ENTRIES, p);

	*high = false;
	*fdp = -1;
	if (fd < 0) {
		ur_init_err = fd;
		return;
	}
	/*
	 * Each head's descriptors go near the top of the limit (fd_high):
	 * the probe ring goes there first, so that the descriptor table
	 * grows to that size now, usually before the program has threads.
	 * Grown later, in a process whose threads share the table, the
	 * kernel waits for an RCU grace period (expand_fdtable()): 8 ms
	 * per head for syslet-run --each --jobs=2 here.
	 */
	fd = fd_high_below(fd, rl, high);
	ur_init_err = uring_ops_map(fd, emul_prof->profile,
				    emul_prof->nr_syscalls, &ur_ops_map);
	/* A filter may let the ring be set up and refuse to enter it (a
	 * seccomp profile that names io_uring_setup only, or all three
	 * calls apart): every submission and wait would then fail, and
	 * async_wait() spun for ever on its EPERM with the signals that
	 * io_uring_enter() opens never delivered.  An enter with nothing
	 * to do answers at once. */
	if (!ur_init_err) {
		int r = io_uring_enter((unsigned)fd, 0, 0, 0, NULL);

		if (r < 0 && r != -EINTR)
			ur_init_err = r;
	}
	if (ur_init_err || !*high) {
		close(fd);
		*high = false;
		return;
	}
	*fdp = fd;
}

static void *probe_main(void *arg)
{
	struct io_uring_params p;
	struct rlimit rl = { 0, 0 };	/* never moved: closed */
	bool high;
	int fd;

	(void)arg;
	probe_here(&rl, &p, &fd, &high);
	return NULL;
}

/*
 * A ring closed is torn down by the kernel later, in a worker, which
 * then sends task work with TWA_SIGNAL (io_ring_exit_work()) to every
 * thread that set it up or entered it: a call that thread sleeps in
 * then is cut short as by a signal, and one that cannot be restarted
 * fails with EINTR, no signal sent (a select() whose timeout is
 * read-only data, epoll_wait()): a syslet's call that blocked in place
 * (no worker to be had) was reported 'stopped by a signal'.  So a probe
 * ring that is not kept is set up, entered and closed on a short-lived
 * thread, all signals blocked there.  False when no thread could be
 * made: the probe is then this thread's.
 */
static bool probe_elsewhere(void)
{
	sigset_t all, old;
	pthread_t t;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t, NULL, probe_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return false;
	pthread_join(t, NULL);
	return true;
}

/* ur_tab_inline's entry for @nr (-1: the profile has no such call). */
static void block_nr(long nr, unsigned long n)
{
	if (nr >= 0 && (unsigned long)nr < n)
		ur_tab_inline[nr] = EMUL_P_BLOCK;
}

static void ur_init_once(void)
{
	struct io_uring_params p;
	struct rlimit rl;
	unsigned long n;
	bool high;
	int err, fd = -1;

	sigfillset(&ur_blockset);
	sigdelset(&ur_blockset, SIGSEGV);
	sigdelset(&ur_blockset, SIGBUS);
	sigdelset(&ur_blockset, SIGFPE);
	sigdelset(&ur_blockset, SIGILL);
	sigdelset(&ur_blockset, SIGTRAP);
	sigdelset(&ur_blockset, SIGSYS);
	err = emul_init();
	if (err) {
		ur_init_err = err;
		return;
	}
	pthread_atfork(NULL, NULL, ur_atfork_child);
	ur_kept_ok = !pthread_key_create(&ur_kept_key, ur_kept_end);
	/*
	 * Container profiles often refuse io_uring_setup: then this
	 * backend is not available (auto falls back to emul).  The ring
	 * probed is a head's (ring_setup()), kept for this thread's first
	 * head (ur_spare_fd).  The thread's io-wq comes with the first
	 * ring it sets up, its workers for bounded work limited to that
	 * ring's entries and 4 per CPU: a head's 256 leave the kernel's
	 * default of 4 per CPU (up to 64 CPUs) for the program's own rings
	 * on a thread that probed and registered no head, with no count
	 * of CPUs read (/sys/devices/system/cpu/online: three system
	 * calls) to size the ring by.
	 */
	/*
	 * Kept only where it is out of the way: under a limit of 128
	 * descriptors or fewer it would be where the program's next
	 * open() puts its own, so there it is probed and closed on a
	 * thread of its own (probe_elsewhere()).
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl))
		rl.rlim_cur = 0;
	if (rl.rlim_cur <= 128 && probe_elsewhere())
		high = false;
	else
		probe_here(&rl, &p, &fd, &high);
	if (ur_init_err)
		return;
	n = emul_prof->nr_syscalls;
	ur_tab_inline = malloc(n);
	ur_tab_driver = malloc(n);
	ur_tab_self = calloc(n, 1);
	ur_ops_none = calloc(n, 1);
	if (!ur_tab_inline || !ur_tab_driver || !ur_tab_self || !ur_ops_none) {
		ur_init_err = -ENOMEM;
		if (high)
			close(fd);
		return;
	}
	if (high) {
		ur_spare_p = p;
		ur_spare_here = true;
		__atomic_store_n(&ur_spare_fd, fd, __ATOMIC_RELEASE);
	}
	ur_close_nr = systab_lookup(emul_prof->profile, "close");
	ur_dup2_nr = systab_lookup(emul_prof->profile, "dup2");
	ur_dup3_nr = systab_lookup(emul_prof->profile, "dup3");
	ur_close_range_nr = systab_lookup(emul_prof->profile, "close_range");
	/* emul's policy but for these four, which the full loop guards;
	 * copied, then the four set, rather than each of the ~1,000
	 * numbers compared with the four (19,000 instructions at every
	 * start). */
	memcpy(ur_tab_inline, emul_prof->policy, n);
	block_nr(ur_close_nr, n);
	block_nr(ur_dup2_nr, n);
	block_nr(ur_dup3_nr, n);
	block_nr(ur_close_range_nr, n);
	for (unsigned long nr = 0; nr < n; nr++)
		ur_tab_driver[nr] = ur_ops_map[nr] ? EMUL_P_BLOCK :
				    ur_tab_inline[nr];
	for (size_t i = 0; i < sizeof(ur_self_names) / sizeof(ur_self_names[0]);
	     i++) {
		int nr = systab_lookup(emul_prof->profile, ur_self_names[i]);

		if (nr >= 0 && (unsigned long)nr < n) {
			ur_tab_self[nr] = 1;
			ur_tab_driver[nr] = EMUL_P_BLOCK;
		}
	}
}

static int ur_init(void)
{
	lib_once(&ur_once, ur_init_once);
	return ur_init_err;
}

static void futex_wake(uint32_t *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static void futex_wait(uint32_t *addr, uint32_t val, const struct timespec *ts)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, ts, NULL, 0);
}

/* ---- Descriptors -------------------------------------------------- */

/*
 * The engine's descriptors are moved out of the way, near the top of the
 * process's limit, so that a syslet's open() gets the number it would
 * get with the kernel's syslets (3 in a fresh process); near 65,536 when
 * the limit is higher.  The kernel grows the descriptor table to hold
 * the highest descriptor, and a child's copy is as large: at a limit of
 * 1,048,576 (containers often have it) the table would take 8 MB, and
 * milliseconds of each process's start (13 us at 20,000 here, 5 us at
 * 1,000).
 */
#define UR_FD_TOP	65536L

/* fd_high_moved() under the limit @rl read already. */
static int fd_high_below(int fd, const struct rlimit *rl, bool *moved)
{
	long lo = 3;
	int hi;

	*moved = false;
	if (rl->rlim_cur > 128)
		lo = (rl->rlim_cur == RLIM_INFINITY ||
		      rl->rlim_cur > (rlim_t)UR_FD_TOP ?
			      UR_FD_TOP : (long)rl->rlim_cur) - 64;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, (int)lo);
	if (hi < 0)
		return fd;
	close(fd);
	*moved = lo > 3;
	return hi;
}

static int fd_high_moved(int fd, bool *moved)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		rl.rlim_cur = 0;
	return fd_high_below(fd, &rl, moved);
}

static int fd_high(int fd)
{
	bool moved;

	return fd_high_moved(fd, &moved);
}

/* ---- Syslet records, lists ------------------------------------------ */

/*
 * Whether a record can be had: a free one, one left in the newest block,
 * or a new block.  Out of memory (RLIMIT_AS, RLIMIT_DATA), an inline
 * chain is told there is no room and blocks in place, as with no thread
 * ready, rather than wait for memory that may never come.
 */
static bool sl_room(struct ur_head *ah)
{
	struct ur_slab *b;

	if (__builtin_expect(ah->free_sl ||
			     (ah->slabs && ah->slab_used < UR_SLAB_SL), 1))
		return true;
	b = malloc(sizeof(*b));
	if (!b)
		return false;
	b->next = ah->slabs;
	ah->slabs = b;
	ah->slab_used = 0;
	return true;
}

static struct ur_sl *sl_get(struct ur_head *ah)
{
	struct ur_sl *sl = ah->free_sl;

	if (sl) {
		ah->free_sl = sl->next;
	} else {
		/* The next unused record of the newest block, or a new
		 * block.  Every chain that takes one inline asked room()
		 * first; the driver takes one only for a chain that has
		 * one already. */
		while (!sl_room(ah))
			usleep(1000);
		sl = &ah->slabs->sl[ah->slab_used++];
		sl->m = NULL;
	}
	sl->probing = false;
	sl->own_mask = false;
	sl->fetched = false;
	sl->driver_ran = false;
	return sl;
}

static struct ur_slm *sl_m(struct ur_sl *sl)
{
	while (!sl->m && !(sl->m = malloc(sizeof(*sl->m))))
		usleep(1000);
	return sl->m;
}

static void sl_put(struct ur_head *ah, struct ur_sl *sl)
{
	sl->next = ah->free_sl;
	ah->free_sl = sl;
}

static void ready_add(struct ur_head *ah, struct ur_sl *sl)
{
	sl->next = NULL;
	if (ah->ready_tail)
		ah->ready_tail->next = sl;
	else
		ah->ready = sl;
	ah->ready_tail = sl;
}

/* A syslet goes async: counted busy, and the progress thread is told
 * when it sleeps for want of work. */
static void went_async(struct ur_ctx *c, struct ur_sl *sl);

/* An error of io_uring_enter() that the next try would meet again: the
 * ring is gone (EBADF: the program closed its descriptor; EOPNOTSUPP:
 * it put a file of its own at that number) or refused (a filter's
 * EPERM or ENOSYS). */
static bool ring_broken(int r)
{
	return r < 0 && r != -EINTR && r != -ETIME && r != -EAGAIN &&
	       r != -EBUSY && r != -ENOMEM;
}

/* The ring broke with @r (the first error is kept): no thread enters it
 * again, and the next driver to step deals with it (ring_broke()). */
static void ring_fail(struct ur_head *ah, int r)
{
	int none = 0;

	__atomic_compare_exchange_n(&ah->ring_err, &none, r, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* What the SQ holds goes to the kernel now, unless the ring broke. */
static void submit_now(struct ur_head *ah)
{
	int r;

	ah->unsubmitted = 0;
	if (__builtin_expect(__atomic_load_n(&ah->ring_err,
					     __ATOMIC_RELAXED) != 0, 0))
		return;
	r = io_uring_submit(&ah->ring);
	if (__builtin_expect(r < 0, 0) && ring_broken(r))
		ring_fail(ah, r);
	else if (__builtin_expect(io_uring_sq_ready(&ah->ring) != 0, 0))
		/* EAGAIN, EBUSY, ENOMEM: the kernel took none, or not all.
		 * Still to submit, so that the progress thread tries again
		 * at its next look rather than sleep in the ring on SQEs
		 * nobody would enter (has_work()). */
		ah->unsubmitted = io_uring_sq_ready(&ah->ring);
}

/*
 * The next SQE, as io_uring_get_sqe() gives it, without asking the
 * ring's flags at every SQE whether its SQEs are 128 bytes or a kernel
 * thread polls the SQ: neither, for a head's ring (ring_setup()).  The
 * SQ's head moves only in io_uring_enter() calls that submit, made
 * under the driver's lock as this is.
 */
static inline __attribute__((always_inline)) struct io_uring_sqe *
sqe_next(struct io_uring_sq *sq)
{
	unsigned int tail = sq->sqe_tail;

	if (tail - IO_URING_READ_ONCE(*sq->khead) >= *sq->kring_entries)
		return NULL;
	sq->sqe_tail = tail + 1;
	return &sq->sqes[tail & *sq->kring_mask];
}

static struct io_uring_sqe *get_sqe(struct ur_head *ah)
{
	struct io_uring_sqe *sqe = sqe_next(&ah->ring.sq);

	if (__builtin_expect(!sqe, 0)) {
		/* The SQ is full: hand it to the kernel now. */
		submit_now(ah);
		sqe = sqe_next(&ah->ring.sq);
	}
	return sqe;
}

static void arm_efd(struct ur_head *ah)
{
	struct io_uring_sqe *sqe;

	if (ah->efd_armed || __atomic_load_n(&ah->ring_err, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&ah->efd, __ATOMIC_RELAXED) < 0)
		return;
	sqe = get_sqe(ah);
	if (!sqe)
		return;
	io_uring_prep_poll_multishot(sqe, ah->efd, POLLIN);
	io_uring_sqe_set_data64(sqe, UR_EFD_TAG);
	ah->unsubmitted++;
	ah->efd_armed = true;
}

/*
 * The progress thread sleeps in the ring (prog_look()) until a
 * completion comes.  A NOP wakes it, but one must be entered, which a
 * ring that broke (ring_fail()) cannot be: without a completion to
 * come, unregister then joined it for ever.  So a futex wait on
 * deep_word is in the ring when it sleeps, and a FUTEX_WAKE, a plain
 * system call, completes it.  Armed once; it stays until woken.
 */
static void arm_fx(struct ur_head *ah)
{
	struct io_uring_sqe *sqe;

	if (ah->fx_armed || ah->fx_none ||
	    __atomic_load_n(&ah->ring_err, __ATOMIC_RELAXED))
		return;
	sqe = get_sqe(ah);
	if (!sqe)
		return;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = UR_OP_FUTEX_WAIT;
	sqe->fd = UR_FUTEX2_U32_PRIVATE;
	sqe->addr = (uintptr_t)&ah->deep_word;
	sqe->addr2 = __atomic_load_n(&ah->deep_word, __ATOMIC_RELAXED);
	sqe->addr3 = FUTEX_BITSET_MATCH_ANY;
	io_uring_sqe_set_data64(sqe, UR_FX_TAG);
	ah->unsubmitted++;
	ah->fx_armed = true;
}

/* ---- Workers ----------------------------------------------------------- */

static void *ur_worker(void *arg)
{
	struct ur_head *ah = arg;
	uint64_t one = 1;
	int efd;

	pthread_mutex_lock(&ah->wlock);
	for (;;) {
		struct ur_sl *sl;

		while (!ah->wq_head && !ah->wexit) {
			ah->idle_threads++;
			pthread_cond_wait(&ah->wcond, &ah->wlock);
			ah->idle_threads--;
		}
		sl = ah->wq_head;
		if (!sl)
			break;
		ah->wq_head = sl->next;
		if (!ah->wq_head)
			ah->wq_tail = NULL;
		pthread_mutex_unlock(&ah->wlock);
		sl->ret = emul_block_call(&sl->a, (enum emul_policy)sl->pol,
					  sl->partial, &sl->m->wmask);
		sl->next = __atomic_load_n(&ah->wdone, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&ah->wdone, &sl->next, sl,
						    true, __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED))
			;
		/* The counter cannot overflow: the driver reads it. */
		efd = efd_get(ah);
		if (efd >= 0)
			(void)!write(efd, &one, sizeof(one));
		pthread_mutex_lock(&ah->wlock);
	}
	pthread_mutex_unlock(&ah->wlock);
	return NULL;
}

/* Queue @sl for a worker.  @may_refuse: when no worker is free and the
 * pool is at its limit, false is returned and the caller blocks in place,
 * as the kernel does with no ready thread. */
static bool worker_queue(struct ur_head *ah, struct ur_sl *sl, bool may_refuse)
{
	bool ok = true;

	if (ah->efd < 0 && !__atomic_load_n(&ah->efd_lost, __ATOMIC_ACQUIRE)) {
		int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		struct stat st;

		if (fd < 0)
			return false;
		fd = fd_high(fd);
		if (fstat(fd, &st) || fcntl(fd, F_SETSIG, UR_EFD_TAG_SIG)) {
			close(fd);
			return false;
		}
		ah->efd_dev = st.st_dev;
		ah->efd_ino = st.st_ino;
		__atomic_store_n(&ah->efd, fd, __ATOMIC_RELEASE);
	}
	pthread_mutex_lock(&ah->wlock);
	if (!ah->idle_threads || ah->wq_head) {
		if (ah->nr_threads < ah->max_threads) {
			pthread_attr_t attr;
			sigset_t old;

			pthread_attr_init(&attr);
			pthread_attr_setstacksize(&attr, UR_WORKER_STACK);
			pthread_sigmask(SIG_SETMASK, &ur_blockset, &old);
			if (pthread_create(&ah->threads[ah->nr_threads], &attr,
					   ur_worker, ah) == 0) {
				ah->nr_threads++;
				EMUL_STAT_ADD(threads, 1);
			} else if (!ah->nr_threads) {
				ok = false;
			}
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			pthread_attr_destroy(&attr);
		} else if (may_refuse) {
			ok = false;
		}
	}
	if (ok) {
		ah->on_workers++;
		sl->next = NULL;
		if (ah->wq_tail)
			ah->wq_tail->next = sl;
		else
			ah->wq_head = sl;
		ah->wq_tail = sl;
		pthread_cond_signal(&ah->wcond);
	}
	pthread_mutex_unlock(&ah->wlock);
	return ok;
}

/* ---- The interpreter's loop ------------------------------------------ */

/* Inline, signals stay pending while atoms run in place, so that the
 * chain can be stopped after the atom during which one arrived; blocked
 * only once an atom runs here (a syslet that goes straight into the ring
 * makes no signal syscall at all). */
static inline void inline_mask(struct ur_ctx *c)
{
	if (c->inline_ && !c->masked) {
		/* Replaced, not extended: a fault must reach the engine's
		 * handler even when the caller blocks SIGSEGV. */
		emul_sigmask(SIG_SETMASK, &ur_blockset, &c->user_mask);
		c->masked = true;
	}
}

static long block_here(struct ur_ctx *c, const struct emul_atom *a,
		       enum emul_policy pol, long partial, bool *intr)
{
	struct ur_head *inside = ur_inside;
	long ret;

	inline_mask(c);
	/* Syslets in flight go on meanwhile (the progress thread drives):
	 * this call may well wait for one of them.  In a handler of the
	 * wait (c->nested) the lock is the interrupted call's to keep. */

	if (!c->nested) {
		ur_inside = c->ah;
		pthread_mutex_unlock(&c->ah->lock);
	}
	ret = emul_block_open(a, pol, partial, &c->user_mask, intr);
	if (!c->nested) {
		pthread_mutex_lock(&c->ah->lock);
		ur_inside = inside;
	}
	/* The program ran meanwhile and may have replaced the handler. */
	emul_fault_own();
	return ret;
}

enum { UR_END, UR_PARKED };

/*
 * The signal mask a chain runs on: inline the caller's; async the
 * caller's as the driver last saw it, until the chain's own
 * rt_sigprocmask atom gives it one of its own.  In 2007 the task that
 * went on with the syslet was the caller's, its mask the caller's, and
 * such an atom changed that task's alone.
 */
static inline const sigset_t *chain_mask(const struct ur_ctx *c,
					 const struct ur_sl *sl)
{
	return !c->inline_ && sl && sl->own_mask ? &sl->m->mask :
							 &c->user_mask;
}

/*
 * In 2007 the task that went on with a syslet after a cachemiss was the
 * caller's, with its credentials.  setfsuid() and setfsgid() change the
 * calling thread's alone (the C library broadcasts setresuid() and the
 * rest to every thread, but not these), and io_uring makes a call with
 * the credentials of the thread that submits it: the progress thread's,
 * or the worker's, which have the process's effective IDs.  A caller
 * whose file-system IDs are not its effective IDs (a file server that
 * took on a client's) therefore hands nothing off and runs its syslets
 * in place, as the kernel backend does for a caller whose credentials
 * its pool threads do not share.
 */
static bool caller_fsids_own(void)
{
	return (uid_t)setfsuid((uid_t)-1) != geteuid() ||
	       (gid_t)setfsgid((gid_t)-1) != getegid();
}

/* capget() of thread @tid (0: the calling one); 0 or -1. */
static int caps_of(pid_t tid, struct emul_caps *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3,
					      tid };

	/* Valgrind takes capget() to fill only the first of the two
	 * structures that version 3 fills. */
	memset(c, 0, sizeof(*c));
	return (int)syscall(SYS_capget, &h, c->d);
}

/*
 * capset() (cap_set_proc(3)) changes the calling thread's capability
 * sets alone, and io_uring makes a call with the credentials of the
 * thread that submits it.  The engine's threads were made by the caller
 * (or by the progress thread) with the sets it had then, and the C
 * library's setresuid() and the rest change all of them alike: a caller
 * whose sets are no longer the progress thread's (it lowered its
 * effective set, or dropped a capability for good) hands nothing off,
 * as for its file-system IDs above.  Before the progress thread has run
 * its sets are those of the thread that made it; a caller whose sets
 * cannot be read runs its syslets in place.
 */
static bool caller_caps_own(struct ur_head *ah)
{
	struct emul_caps mine, eng;
	pid_t tid;

	if (!ah->prog_started)
		return false;
	if (caps_of(0, &mine))
		return true;
	tid = __atomic_load_n(&ah->prog_tid, __ATOMIC_ACQUIRE);
	if (!tid)
		eng = ah->prog_caps;
	else if (caps_of(tid, &eng))
		return true;
	return memcmp(&mine, &eng, sizeof(mine)) != 0;
}

/*
 * A child of vfork() (or clone(CLONE_VM) without CLONE_THREAD) runs on
 * the memory of its parent's thread until it execs or exits, that
 * thread's ur_cur included, where fork()'s child handler has run
 * (ur_atfork_child()).  In 2007 such a child had no head (async_init()):
 * its async_wait() and async_unregister() failed with EINVAL, and it
 * could hand nothing off.  Here it runs its syslets in place, and must
 * not wait on or tear down the parent's head.
 */
static bool head_foreign(const struct ur_head *ah)
{
	return getpid() != ah->pid;
}

/* Whether the caller hands nothing off: asked once an async_exec (or
 * batch), when a syslet could first go async. */
static bool in_place(struct ur_ctx *c)
{
	if (c->in_place < 0)
		c->in_place = head_foreign(c->ah) || caller_fsids_own() ||
			      caller_caps_own(c->ah);
	return c->in_place;
}

/*
 * max_nr_threads bounds the syslets in flight, as it bounded the kernel's
 * cachemiss threads: with all of them taken, a syslet that would go async
 * runs on in the caller, blocking where it must.  Only asked inline.
 */
/* Room for one more chain in flight: a thread's worth and a record. */
static inline bool room(struct ur_ctx *c)
{
	return c->ah->busy < c->ah->max_threads && sl_room(c->ah) &&
	       !in_place(c);
}

static void complete(struct ur_ctx *c, struct ur_sl *sl,
		     struct syslet_uatom *last, unsigned long flags)
{
	struct ur_head *ah = c->ah;

	if (!(flags & SYSLET_NO_COMPLETE))
		cring_complete(&ah->cring, last, NULL, &c->st);
	sl_put(ah, sl);
	__atomic_sub_fetch(&ah->busy, 1, __ATOMIC_RELAXED);
}

static void went_async(struct ur_ctx *c, struct ur_sl *sl)
{
	struct ur_head *ah = c->ah;

	(void)sl;
	c->st.handoffs++;
	if (__atomic_add_fetch(&ah->busy, 1, __ATOMIC_SEQ_CST) == 1 &&
	    __atomic_load_n(&ah->prog_parked, __ATOMIC_SEQ_CST)) {
		__atomic_add_fetch(&ah->prog_word, 1, __ATOMIC_RELEASE);
		futex_wake(&ah->prog_word, 1);
	}
}

/*
 * Park the syslet at atom @u (fetched into @a): *slp is its record (NULL
 * inline: one is taken now).
 */
static inline __attribute__((always_inline)) struct ur_sl *park(struct ur_ctx *c, struct ur_sl **slp,
			  struct syslet_uatom *u, const struct emul_atom *a,
			  const struct ur_fdk *k)
{
	struct ur_sl *sl = *slp;

	if (!sl) {
		sl = sl_get(c->ah);
		sl->k = *k;
		*slp = sl;
		/* Until its next event, which says where it went on. */
		sl->handoff = true;
		went_async(c, sl);
		/* The driver's lock is held: no one reports it before. */
		interp_unfinished(u, a);
	}
	sl->u = u;
	if (&sl->a != a)
		sl->a = *a;
	sl->fetched = false;
	sl->last_flags = a->flags;
	return sl;
}

/*
 * Run from atom @u until the chain ends (UR_END: *lastp the last atom
 * run, NULL if none; *err -EFAULT when an atom could not be read) or it
 * waits for the ring, a worker or its turn (UR_PARKED).
 */
/*
 * Whether the call of @op on @fd can go to the ring.  Not when the
 * descriptor is O_NONBLOCK (io_uring would wait where the call says
 * EAGAIN) or not open (the call fails at once); nor for a call at the
 * file position of a seekable file this chain did not open itself:
 * io_uring reads and updates f_pos without the lock that read(2) and
 * write(2) take, so two writers of one file (a shared stdout) could
 * write at the same place.  Nor for a terminal: io_uring polls it
 * before the call, so a background job's read would wait for a line
 * where the terminal's job control stops the process at once (SIGTTIN),
 * which the call on a worker meets.  The chain's knowledge saves the
 * fcntl, lseek and ioctl where it can.
 */
static bool fd_ring_ok(struct ur_fdk *k, int fd, bool filepos, bool pos)
{
	long fl;

	if (fd < 0)
		return false;	/* EBADF at once; -1 is also "none" */
	if (k->fd != fd) {
		fl = emul_syscall6(__NR_fcntl, (unsigned long)fd, F_GETFL, 0,
				   0, 0, 0);
		if (fl < 0)
			return false;
		k->fd = fd;
		k->nonblock = (fl & O_NONBLOCK) != 0;
		k->mine = false;
		k->seek_known = false;
		k->tty_known = false;
	}
	if (k->nonblock)
		return false;
	if (!k->seek_known && (pos || (filepos && !k->mine))) {
		k->seekable = emul_syscall6(__NR_lseek, (unsigned long)fd, 0,
					    SEEK_CUR, 0, 0, 0) != -ESPIPE;
		k->seek_known = true;
	}
	/* A terminal has no file position: asked only then. */
	if (filepos && !k->mine && !k->seekable) {
		if (!k->tty_known) {
			struct termios t;

			k->tty = emul_syscall6(__NR_ioctl, (unsigned long)fd,
					       TCGETS, (unsigned long)&t, 0, 0,
					       0) == 0;
			k->tty_known = true;
		}
		if (k->tty)
			return false;
	}
	/* At an offset of its own: ESPIPE from the call where io_uring
	 * would read a pipe all the same. */
	if (pos && !k->seekable)
		return false;
	return !filepos || k->mine || !k->seekable;
}

/* An async syslet had its share of the driver: it goes on from @u
 * after the others. */
static int turn_over(struct ur_head *ah, struct ur_sl *sl,
		     struct syslet_uatom *u)
{
	sl->u = u;
	sl->handoff = false;
	ready_add(ah, sl);
	return UR_PARKED;
}

/* The atom (fetched) can start a run of the fast loop: a call it runs in
 * place, or umem_add, and nobody observing. */
static inline bool fastable(const struct ur_ctx *c, const struct emul_atom *a)
{
	unsigned char t;

	if (a->nr >= emul_prof->nr_syscalls || (a->flags & SYSLET_ASYNC) ||
	    __atomic_load_n(&emul_trace_fn, __ATOMIC_RELAXED) ||
	    interp_inject_on())
		return false;
	t = (c->inline_ ? ur_tab_inline : ur_tab_driver)[a->nr];
	return t == EMUL_P_INLINE || t == EMUL_P_UMEM;
}

static bool ours(const struct ur_head *ah, unsigned long fd)
{
	return (int)fd == ah->ring.ring_fd || (ah->efd >= 0 &&
					       (int)fd == ah->efd);
}

/*
 * close(), dup2() and dup3() onto the ring or its eventfd fail with
 * EBADF; close_range() closes the rest of its range.  True when *ret is
 * the call's answer.
 */
static bool guarded(const struct ur_head *ah, const struct emul_atom *a,
		    long *ret)
{
	long nr = (long)a->nr;

	if ((nr == ur_close_nr && ours(ah, a->args[0])) ||
	    ((nr == ur_dup2_nr || nr == ur_dup3_nr) && ours(ah, a->args[1]))) {
		*ret = -EBADF;
		return true;
	}
	if (nr == ur_close_range_nr) {
		unsigned int lo = (unsigned int)a->args[0];
		unsigned int hi = (unsigned int)a->args[1];
		int mine[2] = { ah->ring.ring_fd, ah->efd };
		long r = 0;

		if (mine[1] >= 0 && mine[1] < mine[0]) {
			mine[1] = mine[0];
			mine[0] = ah->efd;
		}
		for (int i = 0; i < 2 && lo <= hi; i++) {
			unsigned int m = (unsigned int)mine[i];

			if (mine[i] < 0 || m < lo || m > hi)
				continue;
			if (m > lo)
				r = emul_syscall6(nr, lo, m - 1, a->args[2],
						  0, 0, 0);
			if (r < 0 || m == ~0U) {
				*ret = r;
				return true;
			}
			lo = m + 1;
		}
		*ret = lo <= hi ? emul_syscall6(nr, lo, hi, a->args[2], 0, 0,
						0) : r;
		return true;
	}
	return false;
}

/* What the chain learns of its descriptors from the ring's call @op
 * that returned @ret: the one it opened, or that it closed one. */
static inline __attribute__((always_inline)) void fd_learn(struct ur_fdk *k, int op, const struct emul_atom *a,
		     long ret)
{
	bool nb = false;
	int fd = ret >= 0 && (uring_op_props[op] & UOPP_NEWFD) ?
		 uring_op_newfd(op, a, ret, &nb) : -1;

	if (fd >= 0) {
		k->fd = fd;
		k->nonblock = nb;
		k->mine = true;
		/* An open may give a FIFO or a terminal: asked when it
		 * matters. */
		k->seek_known = false;
	} else if (k->fd == (int)a->args[0] && (long)a->nr == ur_close_nr) {
		k->fd = -1;
	}
}

/* A context of the driver (@d) for @ah, the chains it runs on @mask. */
static void driver_ctx(struct ur_ctx *d, struct ur_head *ah,
		       const sigset_t *mask)
{
	memset(d, 0, sizeof(*d));
	d->ah = ah;
	d->user_mask = *mask;
	d->budget = INTERP_SIG_BUDGET;
	d->program = true;
}

static void resume(struct ur_ctx *c, struct ur_sl *sl, bool have_ret,
		   long ret);
static long redo_of(const struct ur_head *ah, const struct ur_sl *sl,
		    long ret);
static bool redo_call(struct ur_ctx *c, struct ur_sl *sl, long redo,
		      long *ret);
static void submit(struct ur_head *ah);
static void step(struct ur_ctx *c);

/*
 * What is prepared goes to the kernel now, and what completed is taken
 * as the driver takes it, in a context of its own: whether a chain that
 * ran there ended on a signal (now pending in this thread).
 */
static bool drive_now(struct ur_ctx *c)
{
	struct ur_ctx d;

	driver_ctx(&d, c->ah, &c->user_mask);
	submit(c->ah);
	step(&d);
	emul_stats_flush(&d.st);
	return d.sig_ended;
}

/*
 * async_exec() of one syslet, its atom @sl prepared for the ring: the
 * ring is entered now, and the completions there on return are taken,
 * the others' as the driver takes them.  io_uring runs a call that
 * need not wait (a cached open or read) inside io_uring_enter(): when
 * this one's completion is there, true, its result in sl->ret, and the
 * chain goes on in the caller, as the kernel ran it; else it is in
 * flight and the syslet goes async, as the kernel's would at a call
 * that sleeps.  *sig: a chain the driver ran ended on a signal, now
 * pending here, where the caller's chain must look for it.
 */
static bool probe_ring(struct ur_ctx *c, struct ur_sl *sl, bool *sig)
{
	sl->probing = true;
	sl->probed = false;
	*sig = drive_now(c);
	sl->probing = false;
	return sl->probed;
}

/*
 * async_exec()'s atom @u (fetched into @a), prepared in @sqe for the
 * ring's @op, is entered at once (probe_ring()).  True: it completed
 * there, *ret its result, and the chain goes on in place (*sig: it
 * must look for a signal); false: the syslet went async at it, *slp
 * its record.
 */
static bool exec_probe(struct ur_ctx *c, struct ur_sl **slp,
		       struct syslet_uatom *u, const struct emul_atom *a,
		       struct ur_fdk *k, int op, struct io_uring_sqe *sqe,
		       long *ret, bool *sig)
{
	struct ur_head *ah = c->ah;
	struct ur_sl *sl = sl_get(ah);
	struct ur_ctx d;
	long redo = -1, res;

	sl->k = *k;
	sl->u = u;
	sl->a = *a;
	sl->last_flags = a->flags;
	sl->op = (unsigned char)op;
	io_uring_sqe_set_data(sqe, sl);
	ah->unsubmitted++;
	/* In place from here: signals wait. */
	inline_mask(c);
	if (probe_ring(c, sl, sig) && (redo = redo_of(ah, sl, sl->ret)) < 0) {
		*ret = sl->ret;
		fd_learn(k, op, a, *ret);
		sl_put(ah, sl);
		return true;
	}
	/* In flight, or io_uring's answer is not the call's (redo_of()):
	 * async, a worker making the call. */
	sl->handoff = true;
	*slp = sl;
	went_async(c, sl);
	interp_unfinished(u, a);
	if (redo >= 0) {
		driver_ctx(&d, ah, &c->user_mask);
		if (!redo_call(&d, sl, redo, &res))
			resume(&d, sl, true, res);
		emul_stats_flush(&d.st);
	}
	return false;
}

static int run_chain(struct ur_ctx *c, struct ur_sl **slp,
		     struct ur_fdk *k, struct syslet_uatom *u,
		     struct syslet_uatom **lastp, unsigned long *lflags,
		     long *err)
{
	struct ur_head *ah = c->ah;
	const struct emul_profile *prof = emul_prof;
	unsigned int slice = UR_SLICE;
	enum syslet_where where = c->inline_ ? SYSLET_WHERE_INLINE :
					       SYSLET_WHERE_CACHEMISS;
	struct emul_atom own, *a;

	for (;;) {
		struct syslet_uatom *next;
		enum syslet_end end;
		enum emul_policy pol = EMUL_P_NONE;
		bool stored = false, check = false, istore = true;
		bool intr = false, inj = false;
		long ret;
		int op, marks;

		/* An async syslet's atom is read into its record, where
		 * park() and the worker want it, not copied there. */
		a = *slp ? &(*slp)->a : &own;
		if (*slp && (*slp)->fetched) {
			/* The ASYNC atom async_exec() parked, as it read it. */
			(*slp)->fetched = false;
		} else if (interp_fetch(a, u)) {
			struct emul_atom z;

			memset(&z, 0, sizeof(z));
			c->st.faults++;
			interp_event(u, &z, -EFAULT, false, NULL,
				     SYSLET_END_FAULT, where, 0, NULL);
			*err = -EFAULT;
			return UR_END;
		}
		if (fastable(c, a)) {
			struct interp_fast f;
			struct syslet_uatom *l;
			unsigned long n;

			/* From here atoms run in place: signals wait. */
			inline_mask(c);
			f.tab = c->inline_ ? ur_tab_inline : ur_tab_driver;
			f.nr_syscalls = prof->nr_syscalls;
			f.user_mask = chain_mask(c, *slp);
			f.own_only = !c->inline_ && !c->alone;
			f.raised_only = c->program;
			f.limit = c->inline_ ? ~0UL : slice;
			f.up = u;
			f.last_flags = *lflags;
			f.budget = c->budget;
			f.nsys = f.numem = 0;
			l = interp_fast(&f);
			n = f.nsys + f.numem;
			c->budget = f.budget;
			c->st.syscalls += f.nsys;
			c->st.umem += f.numem;
			c->st.atoms += n;
			if (c->inline_)
				c->st.inl += n;
			else
				c->st.cm += n;
			if (l) {
				*lastp = l;
				*lflags = f.last_flags;
			}
			if (f.signalled) {
				c->st.sigstops++;
				c->sig_ended = true;
				return UR_END;
			}
			if (f.done)
				return UR_END;
			if (l) {
				u = f.up;
				if (!c->inline_ && (slice -= (unsigned int)n) == 0)
					return turn_over(ah, *slp, u);
				continue;
			}
			/* Nothing ran (its memory changed under us): the
			 * full path below takes the atom. */
		}
		if (c->inline_ && (a->flags & SYSLET_ASYNC) && room(c)) {
			/* Not run here: the driver takes it from the top,
			 * as read now. */
			struct ur_sl *sl = park(c, slp, u, a, k);

			sl->fetched = true;
			ready_add(ah, sl);
			return UR_PARKED;
		}
		if (a->nr >= prof->nr_syscalls) {
			ret = -ENOSYS;
			istore = false;
			goto ran;
		}
		/* Where the atom runs, once (an ASYNC one parked above is
		 * decided when the driver takes it). */
		if (__builtin_expect(interp_inject_on(), 0) &&
		    interp_injected(a->nr, &ret)) {
			inj = true;
			goto ran;
		}
		pol = (enum emul_policy)(prof->policy[a->nr] & EMUL_P_MASK);
		if (prof->policy[a->nr] & EMUL_P_SIGCHECK)
			check = true;
		switch (pol) {
		case EMUL_P_UMEM:
			inline_mask(c);
			c->st.umem++;
			ret = interp_umem((unsigned long *)a->args[0], a->args[1]);
			goto ran;
		case EMUL_P_DENY:
			c->st.denied++;
			ret = -EPERM;
			goto ran;
		case EMUL_P_NONE:
			ret = -ENOSYS;
			goto ran;
		case EMUL_P_ARGS:
			/* The deny list by argument (prctl). */
			if (systab_denied_args(prof->profile, (long)a->nr,
					       a->args, a->nargs)) {
				c->st.denied++;
				ret = -EPERM;
				goto ran;
			}
			pol = EMUL_P_INLINE;
			break;
		case EMUL_P_SIGACTION:
			/* The engine's fault handler is taken back at once. */
			inline_mask(c);
			c->st.syscalls++;
			ret = emul_raw_syscall(a);
			emul_fault_own();
			goto ran;
		case EMUL_P_SIGMASK: {
			/* Inline on the caller's mask; async on the chain's
			 * (chain_mask()), a copy of the caller's at first. */
			sigset_t none, *m = &c->user_mask;

			if (!c->inline_ && *slp) {
				if (!(*slp)->own_mask) {
					sl_m(*slp)->mask = c->user_mask;
					(*slp)->own_mask = true;
				}
				m = &(*slp)->m->mask;
			} else if (!c->inline_) {
				sigemptyset(&none);
				m = &none;
			}
			inline_mask(c);
			c->st.syscalls++;
			ret = emul_atom_sigmask(m, a);
			check = true;
			goto ran;
		}
		default:
			break;
		}
		c->st.syscalls++;
		/* The engine's own descriptors are not the syslet's. */
		if (guarded(ah, a, &ret))
			goto ran;
		/* Not on the driver's own thread (ur_self_names). */
		if (!c->inline_ && ur_tab_self[a->nr]) {
			struct ur_sl *sl = park(c, slp, u, a, k);

			sl->op = 0;
			sl->pol = (unsigned char)pol;
			sl->partial = 0;
			sl_m(sl)->wmask = *chain_mask(c, sl);
			if (worker_queue(ah, sl, false))
				return UR_PARKED;
			/* No thread at all: the driver makes it. */
			ret = emul_block_call(a, pol, 0, &sl->m->wmask);
			goto ran;
		}
		if (c->inline_ && pol != EMUL_P_INLINE &&
		    ((a->flags & SYSLET_SYNC) || !room(c))) {
			/* A call interrupted in place ends the chain there. */
			ret = block_here(c, a, pol, 0, &intr);
			goto ran;
		}
		op = ah->ops[a->nr];
		if (op && uring_op_nbfd(op) &&
		    !fd_ring_ok(k, (int)a->args[0], uring_op_filepos(op, a),
				uring_op_positioned(op, a)))
			op = 0;
		if (op && !(c->inline_ && pol == EMUL_P_INLINE)) {
			struct io_uring_sqe *sqe = get_sqe(ah);
			long now;
			int r = sqe ? uring_op_prep(sqe, op, a, &now) : -1;

			if (r == 0 && c->probe && !*slp) {
				bool sig = false;

				if (!exec_probe(c, slp, u, a, k, op, sqe,
						&ret, &sig))
					return UR_PARKED;
				check |= sig;
				goto ran;
			}
			if (r == 0) {
				struct ur_sl *sl = park(c, slp, u, a, k);

				sl->op = (unsigned char)op;
				io_uring_sqe_set_data(sqe, sl);
				ah->unsubmitted++;
				return UR_PARKED;
			}
			if (sqe) {
				/* Unused: make it a no-op nobody waits for. */
				io_uring_prep_nop(sqe);
				sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
				io_uring_sqe_set_data64(sqe, 0);
				ah->unsubmitted++;
			}
			if (r == 1) {
				ret = now;
				goto ran;
			}
		}
		/* A call the engine makes itself may change a flag. */
		k->fd = -1;
		if (pol == EMUL_P_INLINE) {
			inline_mask(c);
			ret = emul_raw_syscall(a);
		} else {
			struct emul_try t;
			struct ur_sl *sl;

			inline_mask(c);
			t.pos = -1;
			t.mask = chain_mask(c, *slp);
			emul_try_call(a, pol, &t);
			if (!t.blocked) {
				ret = t.ret;
				goto ran;
			}
			/* It would block: a worker runs it, unless none
			 * is ready inline, where the caller blocks. */
			if (c->inline_ && !*slp) {
				sl = sl_get(ah);
				sl->a = *a;
				sl->k = *k;
				sl->op = 0;
				sl->pol = (unsigned char)pol;
				sl->partial = t.partial;
				sl_m(sl)->wmask = *chain_mask(c, sl);
				if (!worker_queue(ah, sl, true)) {
					sl_put(ah, sl);
					ret = block_here(c, a, pol, t.partial,
							 &intr);
					goto ran;
				}
				/* Queued before it is recorded as ours:
				 * the worker only touches a, pol, partial,
				 * ret and next, all set. */
				*slp = sl;
				sl->u = u;
				sl->handoff = true;
				sl->last_flags = a->flags;
				went_async(c, sl);
				/* Its result is reported by the driver, under
				 * the lock held here. */
				interp_unfinished(u, a);
				return UR_PARKED;
			}
			sl = park(c, slp, u, a, k);
			sl->op = 0;
			sl->pol = (unsigned char)pol;
			sl->partial = t.partial;
			sl_m(sl)->wmask = *chain_mask(c, sl);
			if (worker_queue(ah, sl, false))
				return UR_PARKED;
			/* No thread at all: the driver blocks instead. */
			ret = emul_block_call(a, pol, t.partial, &sl->m->wmask);
			goto ran;
		}
ran:
		if (istore)
			ret = interp_store(a, ret, &stored);
		c->st.atoms++;
		if (c->inline_)
			c->st.inl++;
		else
			c->st.cm++;
		*lastp = u;
		*lflags = a->flags;
		/* The first event since it went async says so. */
		marks = inj ? INTERP_EV_INJECTED : 0;
		if (*slp && (*slp)->handoff) {
			marks |= INTERP_EV_HANDOFF;
			(*slp)->handoff = false;
		}
		/* Inline only once signals are blocked; the driver always
		 * has them blocked. */
		if (!c->inline_ || c->masked) {
			unsigned int cost = pol == EMUL_P_UMEM ? 1 :
					    INTERP_SIG_SYSCALL;

			/* A failed call may have raised a signal. */
			if (pol != EMUL_P_UMEM && (unsigned long)ret > -4096UL)
				check = true;
			c->budget = c->budget > cost ? c->budget - cost : 0;
			if (!c->budget && c->program)
				c->budget = INTERP_SIG_BUDGET;
			if (!c->budget || intr)
				check = true;
			if (check) {
				c->budget = INTERP_SIG_BUDGET;
				if (intr || interp_signal_pending_for(
						    chain_mask(c, *slp),
						    !c->inline_ && !c->alone)) {
					c->st.sigstops++;
					c->sig_ended = true;
					interp_event(u, a, ret, stored, NULL,
						     SYSLET_END_SIGNAL, where,
						     marks, NULL);
					return UR_END;
				}
			}
		}
		next = interp_next(u, a, ret, &end);
		if (__builtin_expect(emul_trace_fn != NULL, 0))
			interp_event(u, a, ret, stored, next, end, where,
				     marks, NULL);
		if (!next)
			return UR_END;
		u = next;
		if (!c->inline_ && --slice == 0)
			return turn_over(ah, *slp, u);
	}
}

/*
 * Whether the atom the chain of @sl runs after its open gave @fd reads
 * that descriptor through the ring: read or readv of the cell the open
 * stored it in.  io_uring's read of a FIFO with no writer waits for one
 * and its data, as open(2) and then read(2) would: the open need not
 * wait first.
 */
static bool next_reads_it(const struct ur_head *ah, const struct ur_sl *sl,
			  long fd)
{
	enum syslet_end end;
	struct syslet_uatom *n = interp_next(sl->u, &sl->a, fd, &end);
	unsigned long nr, fl, p0;

	if (!n || emul_get(&fl, INTERP_UFIELD(n, flags)) ||
	    emul_get(&nr, INTERP_UFIELD(n, nr)) ||
	    emul_get(&p0, INTERP_UARG(n, 0)))
		return false;
	if ((fl & (SYSLET_SYNC | SYSLET_ASYNC)) || nr >= emul_prof->nr_syscalls ||
	    p0 != (unsigned long)sl->a.ret_ptr || !p0)
		return false;
	return uring_op_reads(ah->ops[nr]);
}

/*
 * io_uring tries an open without blocking with O_NONBLOCK added.  A FIFO
 * opened for writing with no reader then fails with ENXIO, where open(2)
 * waits for one: the call is made again, blocking, on a worker (where it
 * was ENXIO anyway, it is again): 0.  One opened for reading with no
 * writer succeeds at once, where open(2) waits for a writer: unless the
 * next atom reads it through the ring, a worker waits for one
 * (emul_fifo_wait()): the descriptor plus one.  Else -1: @ret stands.
 */
static long open_redo(const struct ur_head *ah, const struct ur_sl *sl,
		      long ret)
{
	unsigned long flags = 0;
	int kind = uring_op_open(sl->op, &sl->a, &flags);

	if (!kind)
		return -1;
	if (ret == -ENXIO)
		return 0;
	/* openat2's flags are in its struct open_how: not read again. */
	if (ret < 0 || kind != 1)
		return -1;
	if (!emul_open_rdwait(flags) || next_reads_it(ah, sl, ret))
		return -1;
	return emul_open_waits((int)ret, flags) ? ret + 1 : -1;
}

/*
 * Whether io_uring's answer @ret for @sl's call is not the call's: a
 * write to a pipe or socket it ended early, where the blocking call goes
 * on (what was written), or an open that did not wait where open(2)
 * does (open_redo()); what a worker starts from, else -1.
 */
static long redo_of(const struct ur_head *ah, const struct ur_sl *sl,
		    long ret)
{
	unsigned int p = uring_op_props[sl->op];

	/*
	 * EINTR from the ring is io_uring's, never a signal of the
	 * program's (io-wq's threads take none): a write to a terminal
	 * that two rings' io-wq threads made at once failed so, now and
	 * then, where write(2) is restarted.  The worker makes the call,
	 * as a blocking syscall, whose own EINTR is then the program's.
	 */
	if (ret == -EINTR && sl->op)
		return 0;
	if (!(p & UOPP_REDO))
		return -1;
	if (p & UOPP_SHORT)
		return ret > 0 &&
		       (unsigned long)ret < uring_op_whole(sl->op, &sl->a) ?
			       ret : -1;
	return open_redo(ah, sl, ret);
}

/* A worker makes @sl's call, from @redo (redo_of()): true; or, with no
 * worker, the driver makes it, *ret its result. */
static bool redo_call(struct ur_ctx *c, struct ur_sl *sl, long redo,
		      long *ret)
{
	sl->pol = emul_prof->policy[sl->a.nr] & EMUL_P_MASK;
	sl->partial = redo;
	sl->op = 0;
	sl_m(sl)->wmask = *chain_mask(c, sl);
	if (worker_queue(c->ah, sl, false))
		return true;
	*ret = emul_block_call(&sl->a, (enum emul_policy)sl->pol, redo,
			       &sl->m->wmask);
	sl->driver_ran = true;
	return false;
}

/* The driver goes on with @sl after its atom finished with @ret (or, for
 * @have_ret false, from its current atom, not yet run). */
static void resume(struct ur_ctx *c, struct ur_sl *sl, bool have_ret,
		   long ret)
{
	struct syslet_uatom *u = sl->u, *last = u, *next;
	unsigned long lflags = sl->last_flags;
	long err = 0, redo;

	/* io_uring's answer is not the call's: a worker writes the rest,
	 * makes the open again or waits for the FIFO's writer, or makes
	 * again a call that io_uring answered EINTR (redo_of()).  The
	 * test here keeps the call off the path of the other answers. */
	if (have_ret && sl->op &&
	    ((uring_op_props[sl->op] & UOPP_REDO) || ret == -EINTR) &&
	    (redo = redo_of(c->ah, sl, ret)) >= 0 &&
	    redo_call(c, sl, redo, &ret))
		return;
	if (have_ret) {
		enum syslet_end end;
		bool stored;

		if (sl->op)
			fd_learn(&sl->k, sl->op, &sl->a, ret);
		else
			sl->k.fd = -1;	/* a worker ran it */
		ret = interp_store(&sl->a, ret, &stored);
		c->st.atoms++;
		c->st.cm++;
		/* Who ran it: --stats splits the cachemiss atoms so. */
		if (sl->op)
			c->st.ur++;
		else if (!sl->driver_ran)
			c->st.urw++;
		sl->driver_ran = false;
		lflags = sl->a.flags;
		/* A failed call may have raised a signal (a write to a pipe
		 * nobody reads: SIGPIPE), in the thread that submitted it. */
		if ((unsigned long)ret > -4096UL &&
		    interp_signal_pending_for(chain_mask(c, sl),
					      !c->inline_ && !c->alone)) {
			c->st.sigstops++;
			c->sig_ended = true;
			if (__builtin_expect(emul_trace_fn != NULL, 0))
				interp_event(u, &sl->a, ret, stored, NULL,
					     SYSLET_END_SIGNAL,
					     SYSLET_WHERE_CACHEMISS,
					     sl->handoff, NULL);
			complete(c, sl, u, lflags);
			return;
		}
		next = interp_next(u, &sl->a, ret, &end);
		if (__builtin_expect(emul_trace_fn != NULL, 0))
			interp_event(u, &sl->a, ret, stored, next, end,
				     SYSLET_WHERE_CACHEMISS,
				     sl->handoff ? INTERP_EV_HANDOFF : 0, NULL);
		sl->handoff = false;
		if (!next) {
			complete(c, sl, u, lflags);
			return;
		}
		u = next;
	}
	if (run_chain(c, &sl, &sl->k, u, &last, &lflags, &err) == UR_PARKED)
		return;
	/* A fault fetching a later atom: the kernel queued nothing; the
	 * atom that ran last is queued so the completion is not lost. */
	complete(c, sl, last, lflags);
}

/* Ready syslets and the workers' results. */
static void run_ready(struct ur_ctx *c)
{
	struct ur_head *ah = c->ah;
	struct ur_sl *sl, *done;

	done = __atomic_exchange_n(&ah->wdone, NULL, __ATOMIC_ACQUIRE);
	while (done) {
		sl = done;
		done = sl->next;
		ah->on_workers--;
		resume(c, sl, true, sl->ret);
	}
	/* Only those ready now: a slice that ends requeues itself. */
	sl = ah->ready;
	ah->ready = ah->ready_tail = NULL;
	while (sl) {
		struct ur_sl *n = sl->next;

		resume(c, sl, false, 0);
		sl = n;
	}
}

#define UR_REAP_BATCH 256

/* Take every completion the CQ holds. */
static unsigned int reap(struct ur_ctx *c)
{
	struct ur_head *ah = c->ah;
	struct io_uring_cqe *cqe;
	struct {
		uint64_t	data;
		int		res;
	} got[UR_REAP_BATCH];
	unsigned int total = 0;

	for (;;) {
		unsigned int head, n = 0;

		io_uring_for_each_cqe(&ah->ring, head, cqe) {
			got[n].data = cqe->user_data;
			got[n].res = cqe->res;
			if (cqe->user_data == UR_EFD_TAG &&
			    !(cqe->flags & IORING_CQE_F_MORE))
				ah->efd_armed = false;
			if (++n == UR_REAP_BATCH)
				break;
		}
		if (!n)
			return total;
		io_uring_cq_advance(&ah->ring, n);
		total += n;
		for (unsigned int i = 0; i < n; i++) {
			struct ur_sl *sl;

			if (__builtin_expect(got[i].data <= UR_FX_TAG, 0)) {
				int efd = got[i].data == UR_EFD_TAG ?
					  efd_get(ah) : -1;
				uint64_t v;

				/* Cleared, so that it polls ready again only
				 * for the next result. */
				if (efd >= 0)
					(void)!read(efd, &v, sizeof(v));
				if (got[i].data != UR_FX_TAG)
					continue;
				/* Woken, or a kernel without the op. */
				ah->fx_armed = false;
				if (got[i].res == -EINVAL ||
				    got[i].res == -EOPNOTSUPP)
					ah->fx_none = true;
				continue;
			}
			sl = (struct ur_sl *)(uintptr_t)got[i].data;
			if (sl->probing) {
				/* async_exec() takes it (probe_ring()). */
				sl->ret = uring_op_result(sl->op, &sl->a,
							  got[i].res);
				sl->probed = true;
				continue;
			}
			resume(c, sl, true, uring_op_result(sl->op, &sl->a,
							    got[i].res));
		}
		if (__atomic_load_n(&ah->wdone, __ATOMIC_RELAXED) || ah->ready)
			run_ready(c);
	}
}


/*
 * The ring broke (ring_fail()).  The kernel's syslets would still
 * complete, each once, so the head goes on as emul does: no call goes
 * to the ring any more (ops: none), and a syslet whose SQE the kernel
 * never took (the io_uring_enter() that would have failed, or was not
 * made) has its call made by a worker, as after io_uring's EINTR
 * (redo_of()).  What the kernel took completes into the CQ, which
 * stays mapped (the mapping keeps the ring alive without its
 * descriptor) and is taken from there.  A descriptor number that is no
 * longer the ring's (EBADF, or EOPNOTSUPP: a file of the program's is
 * there now) is neither entered nor closed again.
 */
static void broken_step(struct ur_ctx *c)
{
	struct ur_head *ah = c->ah;
	struct io_uring_sq *sq = &ah->ring.sq;
	unsigned int head = IO_URING_READ_ONCE(*sq->khead);
	struct ur_sl *redo = NULL, **tail = &redo;
	int efd = efd_get(ah);

	if (!ah->broke) {
		int err = __atomic_load_n(&ah->ring_err, __ATOMIC_ACQUIRE);

		ah->broke = true;
		ah->ops = ur_ops_none;
		if (err == -EBADF || err == -EOPNOTSUPP)
			ah->ring.ring_fd = -1;
	}
	/* Cleared before the workers' results are taken: a later one sets
	 * it again (broken_wait() polls it). */
	if (efd >= 0) {
		uint64_t v;

		(void)!read(efd, &v, sizeof(v));
	}
	for (unsigned int i = head; i != sq->sqe_tail; i++) {
		struct io_uring_sqe *sqe = &sq->sqes[i & *sq->kring_mask];
		uint64_t data = sqe->user_data;
		struct ur_sl *sl;

		if (data == UR_EFD_TAG)
			ah->efd_armed = false;
		if (data == UR_FX_TAG)
			ah->fx_armed = false;
		if (data <= UR_FX_TAG)
			continue;
		sl = (struct ur_sl *)(uintptr_t)data;
		if (sl->probing) {
			/* async_exec() takes it (exec_probe()). */
			sl->ret = -EINTR;
			sl->probed = true;
			continue;
		}
		*tail = sl;
		tail = &sl->next;
	}
	*tail = NULL;
	sq->sqe_head = sq->sqe_tail = head;
	IO_URING_WRITE_ONCE(*sq->ktail, head);
	ah->unsubmitted = 0;
	while (redo) {
		struct ur_sl *sl = redo;

		redo = sl->next;
		resume(c, sl, true, -EINTR);
	}
}

/* What is ready and what has completed, with the lock held. */
static void step(struct ur_ctx *c)
{
	struct ur_head *ah = c->ah;

	if (__builtin_expect(__atomic_load_n(&ah->ring_err,
					     __ATOMIC_RELAXED) != 0, 0))
		broken_step(c);
	if (ah->ready || __atomic_load_n(&ah->wdone, __ATOMIC_RELAXED))
		run_ready(c);
	reap(c);
}

/* Whether the kernel still has calls of busy syslets, when nothing is
 * ready (the lock held): those busy beyond the workers'. */
static bool on_ring(const struct ur_head *ah)
{
	return __atomic_load_n(&ah->busy, __ATOMIC_RELAXED) > ah->on_workers;
}

/*
 * wait_step() on a ring that broke: the workers' eventfd is polled with
 * the signals of @waitmask open, and the CQ looked at every UR_TICK_NS
 * while the kernel still has calls of syslets (on_ring()).  An eventfd
 * the program closed is given up (its number is no longer the
 * engine's): ticks then, until a worker needs a new one.
 */
static int broken_wait(struct ur_ctx *c, const sigset_t *waitmask)
{
	struct ur_head *ah = c->ah;
	int err = 0;

	step(c);
	if (ah->busy && !ah->ready &&
	    !__atomic_load_n(&ah->wdone, __ATOMIC_ACQUIRE) &&
	    !io_uring_cq_ready(&ah->ring)) {
		const struct timespec tick = { 0, UR_TICK_NS };
		struct pollfd p = { efd_get(ah), POLLIN, 0 };
		int r;

		if (waitmask)
			ur_asleep = ah;
		r = ppoll(&p, p.fd >= 0, p.fd < 0 || on_ring(ah) ? &tick : NULL,
			  waitmask);
		ur_asleep = NULL;
		if (r < 0 && errno == EINTR) {
			err = -EINTR;
			c->handled = true;
		} else if (r > 0 && (p.revents & POLLNVAL)) {
			__atomic_store_n(&ah->efd, -1, __ATOMIC_RELAXED);
		}
		step(c);
	} else if (waitmask && interp_signal_pending(waitmask)) {
		err = -EINTR;
	}
	return err;
}

/*
 * Submit what is prepared and, when nothing is ready yet, wait for at
 * least one completion (the signals of @waitmask open meanwhile; NULL:
 * unchanged); then take what came.  Returns 0 or -EINTR; on a ring
 * that cannot be entered (ring_broken()) it waits without it
 * (broken_wait()).
 */
static int wait_step(struct ur_ctx *c, const sigset_t *waitmask)
{
	struct ur_head *ah = c->ah;
	int err = 0;

	if (__atomic_load_n(&ah->ring_err, __ATOMIC_ACQUIRE))
		return broken_wait(c, waitmask);
	if (ah->nr_threads)
		arm_efd(ah);
	if (!ah->ready && !__atomic_load_n(&ah->wdone, __ATOMIC_ACQUIRE) &&
	    !io_uring_cq_ready(&ah->ring)) {
		/* No eventfd to wake it: it looks every tick (efd_get()),
		 * where the kernel takes the timeout as an argument (a
		 * timeout SQE's completion would not be a syslet's). */
		struct __kernel_timespec tick = { 0, UR_TICK_NS };
		bool lost = ah->nr_threads &&
			    (ah->ring.features & IORING_FEAT_EXT_ARG) &&
			    __atomic_load_n(&ah->efd_lost, __ATOMIC_RELAXED);
		struct io_uring_cqe *cqe;
		int r;

		/*
		 * With the caller's signals open, the submission goes
		 * first, on its own: io_uring_enter() answers the number
		 * it submitted even when a signal cut the wait short (its
		 * handler has run by then), and liburing then waits again,
		 * for good.  A wait alone says EINTR.
		 */
		if (waitmask && io_uring_sq_ready(&ah->ring))
			submit_now(ah);
		ah->unsubmitted = 0;
		if (waitmask)
			ur_asleep = ah;
		r = io_uring_submit_and_wait_timeout(&ah->ring, &cqe, 1,
						     lost ? &tick : NULL,
						     (sigset_t *)waitmask);
		if (r == -ETIME)
			r = 0;
		ur_asleep = NULL;
		if (r == -EINTR) {
			err = -EINTR;
			c->handled = true;
		} else if (ring_broken(r)) {
			ring_fail(ah, r);
		}
	} else if (waitmask && interp_signal_pending(waitmask)) {
		/* Busy with ready syslets, the kernel never got to say
		 * EINTR: a signal for the caller ends the wait all the
		 * same (a syslet that loops forever must not hold it). */
		err = -EINTR;
	}
	step(c);
	return err;
}

static void submit(struct ur_head *ah)
{
	if (ah->unsubmitted)
		submit_now(ah);
}

/* ---- The progress thread ----------------------------------------------- */

/*
 * A look of the progress thread, the lock held (dropped on return): it
 * drives what completed and what is ready, and enters what is prepared.
 * With @may_sleep, when there was nothing to do, it then sleeps in
 * io_uring_enter() until a completion comes (prog_deep): a worker's
 * result is one (its eventfd is polled), and the library gives the ring
 * a NOP for work that no completion would announce (prog_kick()).
 * Whether there was something to do.
 */
/* Whether the driver has something to do now (the lock held). */
static bool has_work(struct ur_head *ah)
{
	return ah->ready || ah->unsubmitted || io_uring_cq_ready(&ah->ring) ||
	       __atomic_load_n(&ah->wdone, __ATOMIC_ACQUIRE);
}

static bool prog_look(struct ur_head *ah, bool may_sleep)
{
	struct ur_ctx c;
	bool work = has_work(ah), sleep, broken, tick, lost;
	int efd;

	driver_ctx(&c, ah, &ah->user_mask);
	/* No thread of the program: a signal here was sent to this one. */
	c.program = false;
	emul_fault_own();
	step(&c);
	if (may_sleep && ah->nr_threads)
		arm_efd(ah);
	if (may_sleep)
		arm_fx(ah);
	submit(ah);
	emul_stats_flush(&c.st);
	sleep = may_sleep && !work && !c.sig_ended &&
		__atomic_load_n(&ah->busy, __ATOMIC_SEQ_CST) &&
		!__atomic_load_n(&ah->exiting, __ATOMIC_ACQUIRE) &&
		!has_work(ah);
	if (sleep)
		__atomic_store_n(&ah->prog_deep, 1, __ATOMIC_SEQ_CST);
	/* As the look left them: the lock goes now. */
	broken = __atomic_load_n(&ah->ring_err, __ATOMIC_ACQUIRE) != 0;
	tick = on_ring(ah);
	efd = efd_get(ah);
	lost = ah->nr_threads && __atomic_load_n(&ah->efd_lost,
						 __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&ah->lock);
	/* A signal ended a chain that ran here: it was for this thread
	 * (tgkill(getpid(), gettid()) from the chain), and acts here now,
	 * on the caller's mask, as in the task that ran the chain;
	 * unlocked, as its handler may call us. */
	if (c.sig_ended) {
		sigset_t all;

		emul_sigmask(SIG_SETMASK, &c.user_mask, &all);
		emul_sigmask(SIG_SETMASK, &all, NULL);
	}
	if (sleep && (broken || lost)) {
		/* The workers' eventfd, which prog_kick() also writes; the
		 * CQ every tick while the kernel has calls of syslets. */
		struct pollfd p = { efd, POLLIN, 0 };

		(void)poll(&p, efd >= 0,
			   efd < 0 || tick ? UR_TICK_NS / 1000000 : -1);
		__atomic_store_n(&ah->prog_deep, 0, __ATOMIC_SEQ_CST);
	} else if (sleep) {
		/* A completion that came since the look returns at once;
		 * all signals are blocked here. */
		int r = io_uring_enter((unsigned int)ah->ring.ring_fd, 0, 1,
				       IORING_ENTER_GETEVENTS, NULL);

		if (ring_broken(r))
			ring_fail(ah, r);
		__atomic_store_n(&ah->prog_deep, 0, __ATOMIC_SEQ_CST);
	}
	return work;
}

/*
 * The progress thread: while syslets are in flight, it looks every
 * millisecond and drives the ring when the caller has not come by since
 * its last look, so that syslets complete although nobody calls
 * async_wait().  After UR_IDLE_TICKS looks with nothing to do (the
 * caller drives, or waits in the kernel holding the lock, or all that is
 * in flight waits for something outside), it waits for the lock, then
 * in the ring, instead of waking a thousand times a second: an idle
 * server's syslet blocked in accept() costs no wake-ups, as in the
 * kernel.
 */
static void *ur_progress(void *arg)
{
	struct ur_head *ah = arg;
	const struct timespec tick = { 0, UR_TICK_NS };
	uint32_t seen = __atomic_load_n(&ah->epoch, __ATOMIC_RELAXED);
	unsigned int idle = 0;
	bool again = false;

	__atomic_store_n(&ah->prog_tid, (pid_t)emul_gettid(), __ATOMIC_RELEASE);
	for (;;) {
		uint32_t w = __atomic_load_n(&ah->prog_word, __ATOMIC_ACQUIRE);
		uint32_t e;

		if (__atomic_load_n(&ah->exiting, __ATOMIC_ACQUIRE))
			break;
		/* Nothing to drive: it sleeps until woken. */
		if (!__atomic_load_n(&ah->busy, __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&ah->prog_parked, 1, __ATOMIC_SEQ_CST);
			if (!__atomic_load_n(&ah->busy, __ATOMIC_SEQ_CST))
				futex_wait(&ah->prog_word, w, NULL);
			__atomic_store_n(&ah->prog_parked, 0, __ATOMIC_SEQ_CST);
			idle = 0;
			continue;
		}
		/* A ring that broke gives no completion to sleep on: the
		 * looks sleep in the workers' eventfd (prog_look()). */
		if (idle >= UR_IDLE_TICKS ||
		    __atomic_load_n(&ah->ring_err, __ATOMIC_ACQUIRE)) {
			pthread_mutex_lock(&ah->lock);
			if (__atomic_load_n(&ah->exiting, __ATOMIC_ACQUIRE)) {
				pthread_mutex_unlock(&ah->lock);
				break;
			}
			seen = __atomic_load_n(&ah->epoch, __ATOMIC_ACQUIRE);
			prog_look(ah, true);
			idle = 0;
			continue;
		}
		if (!again)
			futex_wait(&ah->prog_word, w, &tick);
		again = false;
		if (__atomic_load_n(&ah->exiting, __ATOMIC_ACQUIRE))
			break;
		e = __atomic_load_n(&ah->epoch, __ATOMIC_ACQUIRE);
		if (e != seen) {
			/* The caller came by since: it drives. */
			seen = e;
			idle++;
			continue;
		}
		if (pthread_mutex_trylock(&ah->lock)) {
			idle++;
			continue;
		}
		idle = prog_look(ah, false) ? 0 : idle + 1;
		/*
		 * A chain whose slice ended is ready again: the next look
		 * comes at once.  Waiting a tick ran an async syslet that
		 * never blocks (a loop of atoms) at UR_SLICE atoms a
		 * millisecond while the caller did not wait, 20 million
		 * passes of a two-atom loop in minutes, where 2007's
		 * cachemiss thread, and emul's worker, ran it at full speed.
		 */
		again = __atomic_load_n(&ah->ready, __ATOMIC_RELAXED) != NULL;
	}
	return NULL;
}

/*
 * The lock held, before the library returns: with the progress thread
 * asleep in the ring, work that no completion would announce (SQEs not
 * entered, syslets ready to run on, a worker's result, the head's end)
 * gets a NOP, whose completion wakes it (reap() skips it: user_data 0);
 * a worker's eventfd is polled from now on.
 */
static void prog_kick(struct ur_head *ah)
{
	struct io_uring_sqe *sqe;

	if (!__atomic_load_n(&ah->prog_deep, __ATOMIC_SEQ_CST))
		return;
	if (ah->nr_threads)
		arm_efd(ah);
	if (!ah->unsubmitted && !ah->ready &&
	    !__atomic_load_n(&ah->wdone, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&ah->exiting, __ATOMIC_ACQUIRE))
		return;
	if (__atomic_load_n(&ah->ring_err, __ATOMIC_ACQUIRE)) {
		/* It sleeps in the eventfd (or ticks without one), or still
		 * in the ring, from before it broke: arm_fx(). */
		static const uint64_t one = 1;
		int efd = efd_get(ah);

		if (efd >= 0)
			(void)!write(efd, &one, sizeof(one));
		__atomic_add_fetch(&ah->deep_word, 1, __ATOMIC_RELEASE);
		futex_wake(&ah->deep_word, INT_MAX);
		return;
	}
	sqe = get_sqe(ah);
	if (sqe) {
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, 0);
		ah->unsubmitted++;
	}
	submit(ah);
}

static void caller_came(struct ur_head *ah)
{
	__atomic_store_n(&ah->epoch, ah->epoch + 1, __ATOMIC_RELEASE);
}

/* ---- The backend's entry points ------------------------------------- */

static long ur_register(struct async_head_user *uah, unsigned long len)
{
	unsigned long maxthr;
	unsigned int cq;
	struct cring cr;
	struct ur_head *ah;
	long err;

	/* 2007's len is an unsigned int: the upper half is no part of it. */
	if ((unsigned int)len != sizeof(struct async_head_user))
		return -EINVAL;
	if (ur_cur)
		return -EEXIST;
	err = ur_init();
	if (err)
		return err;
	err = cring_setup(&cr, uah, UR_DEFAULT_THREADS, &maxthr);
	if (err)
		return err;
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return -ENOMEM;
	ah->threads = calloc(maxthr ? maxthr : 1, sizeof(*ah->threads));
	if (!ah->threads) {
		free(ah);
		return -ENOMEM;
	}
	/* Room for a completion of every syslet in flight (at most one SQE
	 * each) and the eventfd's, so the CQ never overflows. */
	cq = UR_CQ_ENTRIES;
	while (cq < 2 * maxthr + 64 && cq < (1U << 20))
		cq *= 2;
	err = ring_new(&ah->ring, cq, &ah->ring_high);
	if (err) {
		free(ah->threads);
		free(ah);
		return err;
	}
	ah->sq_entries = *ah->ring.sq.kring_entries;
	{
		/* io_uring's own blocking work (an open that must read the
		 * disk) runs on its io-wq threads, the cachemiss threads of
		 * this backend: as many as max_nr_threads allows, up to
		 * UR_IOWQ_MAX (io-wq's default is 4 per CPU). */
		unsigned int w[2] = { maxthr < UR_IOWQ_MAX ? (unsigned)maxthr :
						UR_IOWQ_MAX, 0 };

		if (w[0])
			(void)io_uring_register_iowq_max_workers(&ah->ring, w);
	}
	/* The workers' eventfd comes with the first worker. */
	ah->efd = -1;
	pthread_mutex_init(&ah->lock, NULL);
	pthread_mutex_init(&ah->wlock, NULL);
	pthread_cond_init(&ah->wcond, NULL);
	ah->cring = cr;
	ah->max_threads = maxthr;
	ah->ops = ur_ops_map;
	ah->pid = getpid();
	ah->ur_owner = pthread_self();
	ur_cur = ah;
	__atomic_add_fetch(&ur_heads, 1, __ATOMIC_RELAXED);
	return 0;
}

/*
 * The progress thread starts with the calling thread's mask, which must
 * be ur_blockset.  @masked: the caller holds signals back already
 * (inline_mask(): a batch does, for all its syslets), with that mask,
 * and ah->user_mask is the caller's own: nothing to set and restore
 * around pthread_create() (two rt_sigprocmask calls).  Else the mask is
 * set here, and the one it replaces is the caller's.
 */
static void start_progress(struct ur_head *ah, bool masked)
{
	pthread_attr_t attr;
	sigset_t old;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, UR_WORKER_STACK);
	if (!masked) {
		pthread_sigmask(SIG_SETMASK, &ur_blockset, &old);
		ah->user_mask = old;
	}
	/* What caller_caps_own() compares with until the thread has run;
	 * unreadable, a mismatch. */
	if (caps_of(0, &ah->prog_caps))
		memset(&ah->prog_caps, 0xff, sizeof(ah->prog_caps));
	ah->prog_started = pthread_create(&ah->prog, &attr, ur_progress,
					  ah) == 0;
	if (!masked)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

/*
 * The head's lock for a call of the program's thread, or, in a handler
 * of a call of it asleep on this head (ur_asleep), the head as that call
 * holds it: taken over without the lock, given back by head_give_back().
 */
static void head_take(struct ur_ctx *c, struct ur_head *ah)
{
	c->nested = ur_asleep == ah;
	if (c->nested) {
		c->outer_mask = ah->user_mask;
		ur_asleep = NULL;
	} else {
		pthread_mutex_lock(&ah->lock);
	}
}

/* A nested call gives the head back to the call it interrupted. */
static void head_give_back(struct ur_ctx *c, struct ur_head *ah)
{
	ah->user_mask = c->outer_mask;
	ur_asleep = ah;
}

/* The start of async_exec and of a batch: the fault handler checked (a
 * bad pointer gives -EFAULT whatever the program did with SIGSEGV and
 * SIGBUS since, emul-fault.c), signals held back now with @mask, the
 * lock taken. */
static void exec_begin(struct ur_ctx *c, struct ur_head *ah, bool mask)
{
	c->ah = ah;
	c->inline_ = true;
	c->probe = false;
	c->in_place = -1;
	c->masked = false;
	c->sig_ended = false;
	c->program = false;
	c->budget = INTERP_SIG_BUDGET;
	memset(&c->st, 0, sizeof(c->st));
	emul_fault_own();
	if (mask)
		inline_mask(c);
	head_take(c, ah);
	caller_came(ah);
	if (ah->cring.dq_head)
		cring_flush(&ah->cring);
}

/* One syslet: what async_exec returns for it (NULL: it went async, or
 * *err); *parked set when it went async. */
static struct syslet_uatom *exec_one(struct ur_ctx *c,
				     struct syslet_uatom *atom, long *err,
				     bool *parked)
{
	struct syslet_uatom *last = NULL;
	struct ur_sl *sl = NULL;
	struct ur_fdk k = { -1, false, false, false, false, false, false };
	unsigned long lflags = 0;

	*err = 0;
	if (run_chain(c, &sl, &k, atom, &last, &lflags, err) == UR_PARKED) {
		*parked = true;
		return NULL;
	}
	return *err ? NULL : last;
}

/*
 * No progress thread could be started (the process is at its limit of
 * threads, RLIMIT_NPROC or a cgroup's pids.max, or of memory): nothing
 * would complete the syslets in flight before the program's next call
 * into the library, and a program that reads the ring without
 * async_wait() would wait for ever.  The 2007 kernel, with no ready
 * cachemiss thread, ran the syslet on in the caller, blocking where it
 * had to; here the caller drives the ring until nothing is busy, so the
 * completions are in the ring when async_exec returns.  A signal the
 * caller takes ends the drive (the syslet then waits for the program's
 * next call), as it would have ended the blocked call in 2007.
 */
static void drive_alone(struct ur_ctx *c)
{
	struct ur_head *ah = c->ah;
	struct ur_ctx d;

	inline_mask(c);
	ah->user_mask = c->user_mask;
	driver_ctx(&d, ah, &c->user_mask);
	/* The syslet that found no room is the caller's own, which 2007
	 * ran on in the caller: the caller's signals end it, those sent to
	 * the process included, with its completion in the ring.  A signal
	 * seen while chains are ready is left to them (each ends at its
	 * next look): stopping the drive there left them in flight with
	 * nobody to drive them until the program's next call into the
	 * library.  One whose handler ran in the wait ends the drive: what
	 * is left waits in io_uring. */
	d.program = false;
	d.alone = true;
	while (__atomic_load_n(&ah->busy, __ATOMIC_SEQ_CST)) {
		d.handled = false;
		if ((wait_step(&d, &c->user_mask) && d.handled) || ah->dying)
			break;
	}
	if (!ah->dying)
		submit(ah);
	emul_stats_flush(&d.st);
}

/* The end of @execs syslets' async_exec: the progress thread started
 * for the first that went async, the lock dropped, the caller's mask
 * back (a signal acts now). */
static void exec_end(struct ur_ctx *c, bool parked, size_t execs)
{
	struct ur_head *ah = c->ah;

	if (c->masked)
		ah->user_mask = c->user_mask;
	if (parked && !ah->prog_started)
		start_progress(ah, c->masked);
	if (parked && !ah->prog_started)
		drive_alone(c);
	if (ah->dying && !c->nested) {
		/*
		 * A handler unregistered it while this call let the
		 * caller's signals in (drive_alone() asleep, an atom
		 * blocking in place): in 2007 it ran once async_exec() had
		 * returned, and waited for what the call had started.  So
		 * does the head's end here.
		 */
		struct ur_ctx d;

		driver_ctx(&d, ah, &c->user_mask);
		step(&d);
		while (ah->busy)
			(void)wait_step(&d, &c->user_mask);
		cring_drop(&ah->cring);
		emul_stats_flush(&d.st);
		ur_teardown(ah, &c->user_mask);
		EMUL_STAT_ADD(execs, execs);
		emul_stats_flush(&c->st);
		return;
	}
	prog_kick(ah);
	if (c->nested) {
		/* The outer wait submits nothing more: what this call
		 * prepared goes in now. */
		submit(ah);
		head_give_back(c, ah);
	} else {
		pthread_mutex_unlock(&ah->lock);
	}
	if (c->masked)
		emul_sigmask(SIG_SETMASK, &c->user_mask, NULL);
	EMUL_STAT_ADD(execs, execs);
	emul_stats_flush(&c->st);
}

static struct syslet_uatom *ur_exec(struct syslet_uatom *atom, long *err)
{
	struct ur_head *ah = ur_cur;
	struct syslet_uatom *last;
	bool parked = false;
	struct ur_ctx c;

	*err = 0;
	if (!ah) {
		*err = -EINVAL;
		return NULL;
	}
	/* Signals are held back before the lock is taken, also for a
	 * syslet that goes straight into the ring: a handler that came
	 * while the lock was held, and called async_exec(), waited on the
	 * lock for ever (2007's handlers ran once the call had returned). */
	exec_begin(&c, ah, true);
	c.probe = true;
	last = exec_one(&c, atom, err, &parked);
	exec_end(&c, parked, 1);
	return last;
}

/*
 * A long batch hands what it prepared to the kernel each time the SQ is
 * full and takes the completions that came meanwhile, as the driver
 * (signals are blocked for the whole batch): the first syslets' next
 * atoms then go in with the next chunk, while later syslets are still
 * being prepared.  With one io_uring_enter at the end instead, the first
 * read of 1,000 files whose opens complete at once waited for all 1,000
 * opens (2-3 ms here).
 * A chain that a signal ended there ends the batch, as one that ran
 * inline would.
 */
static void batch_drive(struct ur_ctx *c)
{
	if (drive_now(c))
		c->sig_ended = true;
}

/*
 * The end of a batch whose syslets went async: what it prepared goes to
 * the kernel now, not at the caller's next async_wait() or the progress
 * thread's next tick, and what completes at once (a cached open or
 * read completes inside io_uring_enter) runs on, as the driver would,
 * for a few rounds while there is such progress.
 */
static void settle(struct ur_ctx *c)
{
	struct ur_head *ah = c->ah;

	for (int round = 0; round < UR_SETTLE_ROUNDS && ah->busy &&
			    !c->sig_ended; round++) {
		if (!ah->unsubmitted && !ah->ready &&
		    !io_uring_cq_ready(&ah->ring) &&
		    !__atomic_load_n(&ah->wdone, __ATOMIC_ACQUIRE))
			break;
		batch_drive(c);
	}
}

/*
 * syslet_exec_batch(): the syslets one after the other, as async_exec
 * runs each, but the fault handler checked, the lock taken and signals
 * held back once for all of them: no code of the program runs between
 * two of them (a signal's handler runs when the batch returns), so one
 * check keeps the EFAULT promise for the batch.  A syslet that a signal
 * ended ends the batch after it.
 */
static long ur_exec_batch(struct syslet_uatom *const *atoms, size_t n,
			  struct syslet_uatom **done, int *errs)
{
	struct ur_head *ah = ur_cur;
	bool parked = false;
	struct ur_ctx c;
	size_t i;

	if (!ah)
		return -EINVAL;
	if (!n)
		return 0;
	exec_begin(&c, ah, true);
	/* A batch of one is an async_exec(); a longer one batches its
	 * syslets' calls into each io_uring_enter() instead. */
	c.probe = n == 1;
	for (i = 0; i < n && !c.sig_ended; i++) {
		long err;

		done[i] = exec_one(&c, atoms[i], &err, &parked);
		errs[i] = (int)-err;
		if (ah->unsubmitted >= ah->sq_entries)
			batch_drive(&c);
	}
	if (parked)
		settle(&c);
	/* The progress thread only for syslets still in flight: one whose
	 * syslets all ended in the batch (cached files) needs none, and
	 * starting it was a quarter of a one-file syslet-run's time. */
	exec_end(&c, parked && ah->busy, i);
	return (long)i;
}

/*
 * async_wait(): back once @min completions went into the ring after the
 * call, or nothing is busy; -EINTR when a signal the caller takes arrives
 * while it waits.  The caller drives the ring meanwhile.
 */
/*
 * The start of async_wait and async_unregister, where the caller drives
 * the ring: the fault handler checked, signals held back (*user: the
 * caller's mask), so that the chains it runs can look for them, the
 * lock taken.
 */
static void drive_begin(struct ur_ctx *c, struct ur_head *ah, sigset_t *user)
{
	memset(c, 0, sizeof(*c));
	c->ah = ah;
	emul_fault_own();
	emul_sigmask(SIG_SETMASK, &ur_blockset, user);
	c->user_mask = *user;
	c->budget = INTERP_SIG_BUDGET;
	c->program = true;
	head_take(c, ah);
	ah->user_mask = *user;
	caller_came(ah);
}

/*
 * The end of async_wait and of async_unregister: the lock dropped, or in
 * a handler given back to the interrupted call; a head that a handler
 * unregistered under this call is torn down now (false then: the call
 * finds no head, as the kernel's restarted call would).  The caller's
 * mask back.
 */
static bool drive_end(struct ur_ctx *c, const sigset_t *user)
{
	struct ur_head *ah = c->ah;

	emul_stats_flush(&c->st);
	if (c->nested) {
		head_give_back(c, ah);
	} else if (ah->dying && ur_inside != ah) {
		ur_teardown(ah, user);
		return false;
	} else {
		pthread_mutex_unlock(&ah->lock);
	}
	emul_sigmask(SIG_SETMASK, user, NULL);
	return true;
}

/*
 * A wait that a signal cut short, its handler run (io_uring_enter()
 * answered EINTR) is restarted, as the kernel's async_wait() is (2007's
 * wait_event_interruptible() answered -ERESTARTSYS), when the handler
 * had SA_RESTART: emul_all_restart(), as which signal came is not known.
 */

/* With @slot: back at once when it holds an atom as the count starts
 * (backend.h). */
static long ur_wait_slot(unsigned long min, struct syslet_uatom *const *slot)
{
	struct ur_head *ah = ur_cur;
	unsigned long start;
	sigset_t user;
	struct ur_ctx c;
	long ret = 0;

	if (!ah || head_foreign(ah))
		return -EINVAL;
	/* Signals wait until io_uring_enter() opens the caller's mask, or
	 * until the chains the caller drives meanwhile look for them. */
	drive_begin(&c, ah, &user);
	/* Before the flush: a kept completion it moves counts
	 * (emul_wait_slot()). */
	start = ah->cring.completions;
	cring_flush(&ah->cring);
	if (slot && __atomic_load_n(slot, __ATOMIC_ACQUIRE))
		min = 0;
	step(&c);
	while (min && ah->cring.completions - start < min && ah->busy) {
		c.handled = false;
		ret = wait_step(&c, &user);
		/* Restarted: the count starts again, as the kernel's; a
		 * restarted wait whose head a handler unregistered finds
		 * none. */
		if (ret == -EINTR && c.handled && emul_all_restart(&user)) {
			ret = 0;
			if (ah->dying) {
				ret = -EINVAL;
				break;
			}
			start = ah->cring.completions;
			continue;
		}
		if (ret || ah->dying)
			break;
	}
	if (!ah->dying) {
		submit(ah);
		prog_kick(ah);
	}
	drive_end(&c, &user);
	return ret;
}

static long ur_wait(unsigned long min)
{
	return ur_wait_slot(min, NULL);
}

/*
 * The head's ring, idle, is kept for this thread's next head (ur_kept):
 * what the engine keeps armed in it (the workers' eventfd poll, the
 * progress thread's futex wait) is cancelled first, and its completions
 * taken.  False when it cannot be (a ring that broke, one kept already,
 * the cancellations not done) or should not (under a limit of 128
 * descriptors or fewer, where it is in a low slot, the program's next
 * open() would not get the number it would with the kernel): it is
 * closed.
 */
static bool ring_keep(struct ur_head *ah)
{
	struct io_uring *ring = &ah->ring;

	if (!ur_kept_ok || ur_kept_here || ah->ring_err || !ah->ring_high ||
	    ah->ur_owner != pthread_self())
		return false;
	for (int round = 0; round < 8 && (ah->efd_armed || ah->fx_armed);
	     round++) {
		struct io_uring_cqe *cqe;
		unsigned int head, n = 0;

		for (uint64_t tag = UR_EFD_TAG; tag <= UR_FX_TAG; tag++) {
			struct io_uring_sqe *sqe;

			if (!(tag == UR_EFD_TAG ? ah->efd_armed : ah->fx_armed))
				continue;
			sqe = get_sqe(ah);
			if (!sqe)
				return false;
			io_uring_prep_cancel64(sqe, tag, 0);
			io_uring_sqe_set_data64(sqe, 0);
		}
		if (io_uring_submit_and_wait(ring, 1) < 0)
			return false;
		io_uring_for_each_cqe(ring, head, cqe) {
			if (cqe->user_data == UR_EFD_TAG &&
			    !(cqe->flags & IORING_CQE_F_MORE))
				ah->efd_armed = false;
			if (cqe->user_data == UR_FX_TAG)
				ah->fx_armed = false;
			n++;
		}
		io_uring_cq_advance(ring, n);
	}
	if (ah->efd_armed || ah->fx_armed)
		return false;
	/* What is left (NOPs, cancellations) is no syslet's. */
	io_uring_cq_advance(ring, io_uring_cq_ready(ring));
	ur_kept = *ring;
	ur_kept_here = true;
	kept_mark();
	return true;
}

/*
 * The head goes: its progress thread and workers joined, its ring and
 * records freed (the lock held on entry, dropped); @user: the caller's
 * mask, back on return.
 */
static void ur_teardown(struct ur_head *ah, const sigset_t *user)
{
	/* Asleep in the ring, the progress thread wakes to the NOP. */
	__atomic_store_n(&ah->exiting, 1, __ATOMIC_RELEASE);
	prog_kick(ah);
	pthread_mutex_unlock(&ah->lock);
	if (ah->prog_started) {
		__atomic_add_fetch(&ah->prog_word, 1, __ATOMIC_RELEASE);
		futex_wake(&ah->prog_word, 1);
		pthread_join(ah->prog, NULL);
	}
	pthread_mutex_lock(&ah->wlock);
	ah->wexit = true;
	pthread_cond_broadcast(&ah->wcond);
	pthread_mutex_unlock(&ah->wlock);
	for (unsigned long i = 0; i < ah->nr_threads; i++)
		pthread_join(ah->threads[i], NULL);
	if (!ring_keep(ah))
		io_uring_queue_exit(&ah->ring);
	if (efd_get(ah) >= 0)
		close(ah->efd);
	/* The newest block holds slab_used records, the others are full. */
	for (unsigned int used = ah->slab_used; ah->slabs;
	     used = UR_SLAB_SL) {
		struct ur_slab *b = ah->slabs;

		for (unsigned int i = 0; i < used; i++)
			free(b->sl[i].m);
		ah->slabs = b->next;
		free(b);
	}
	pthread_cond_destroy(&ah->wcond);
	pthread_mutex_destroy(&ah->wlock);
	pthread_mutex_destroy(&ah->lock);
	free(ah->threads);
	free(ah);
	__atomic_sub_fetch(&ur_heads, 1, __ATOMIC_RELAXED);
	emul_sigmask(SIG_SETMASK, user, NULL);
}

static long ur_unregister(struct async_head_user *uah, unsigned long len)
{
	struct ur_head *ah = ur_cur;
	struct ur_ctx c;
	sigset_t user;

	/* 2007's len is an unsigned int: the upper half is no part of it. */
	if ((unsigned int)len != sizeof(struct async_head_user))
		return -EINVAL;
	(void)uah;
	if (!ah || head_foreign(ah))
		return -EINVAL;
	/* The chains it drives look for signals as in async_wait(); the
	 * signals act while it waits for the ring, or when it returns. */
	drive_begin(&c, ah, &user);
	/* The kernel waits for busy cachemiss threads to finish.  The
	 * caller's signals are open while it waits, as before. */
	step(&c);
	/* A handler that unregistered it meanwhile waited for the rest. */
	while (ah->busy && !ah->dying)
		(void)wait_step(&c, &user);
	cring_drop(&ah->cring);
	/*
	 * The thread has no head from here, as after 2007's call.  It goes
	 * now, or, in a handler of a call asleep on it, when that call has
	 * the lock back (it holds it: the progress thread, which takes it,
	 * could not be joined here).
	 */
	ah->dying = true;
	ur_cur = NULL;
	drive_end(&c, &user);
	return 0;
}

static void ur_ring_freed(void)
{
	struct ur_head *ah = ur_cur;

	if (ah && cring_waiting(&ah->cring)) {
		sigset_t user;

		/* A handler's async_exec() must not find the lock held;
		 * in a handler of the wait, the lock is this thread's. */
		bool nested = ur_asleep == ah;

		emul_sigmask(SIG_SETMASK, &ur_blockset, &user);
		if (!nested)
			pthread_mutex_lock(&ah->lock);
		cring_flush(&ah->cring);
		if (!nested)
			pthread_mutex_unlock(&ah->lock);
		emul_sigmask(SIG_SETMASK, &user, NULL);
	}
}

static long ur_umem_add(unsigned long *uptr, unsigned long inc)
{
	long err = ur_init();

	if (err)
		return err;
	emul_fault_own();
	return interp_umem(uptr, inc);
}

static int ur_probe(void)
{
	return ur_init();
}

static int ur_set_profile(int profile)
{
	int err = ur_init();

	if (err)
		return err;
	/* The opcode table was probed for the native numbering. */
	return profile == (int)systab_native_profile() ? 0 : -ENOTSUP;
}

static int ur_registered(void)
{
	return __atomic_load_n(&ur_heads, __ATOMIC_RELAXED);
}

const struct backend uring_backend = {
	.name = "uring",
	.probe = ur_probe,
	.async_register = ur_register,
	.async_exec = ur_exec,
	.async_exec_batch = ur_exec_batch,
	.async_wait = ur_wait,
	.async_wait_slot = ur_wait_slot,
	.async_unregister = ur_unregister,
	.umem_add = ur_umem_add,
	.set_profile = ur_set_profile,
	.ring_freed = ur_ring_freed,
	.registered = ur_registered,
	.observed = true,
};
