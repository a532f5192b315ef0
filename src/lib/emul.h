/* emul.h: internals of the emul backend shared by its files (engine, policy, pool, observers). */
#ifndef SYSLET_EMUL_H
#define SYSLET_EMUL_H

#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdbool.h>
#include <stdint.h>
#include "libsyslet.h"
#include "backend.h"

/* The engine's copy of an atom, arguments expanded (the kernel's
 * struct syslet_atom) plus how many argument pointers were non-NULL. */
struct emul_atom {
	unsigned long		flags;
	unsigned long		nr;
	long			*ret_ptr;
	struct syslet_uatom	*next;
	unsigned long		args[6];
	unsigned int		nargs;
};

/* Per-syscall policy of the inline path (emul-policy.c). */
enum emul_policy {
	EMUL_P_BLOCK = 0,	/* may block, no safe probe: a worker runs it */
	EMUL_P_INLINE,		/* never blocks: run in place */
	EMUL_P_READ,		/* read(fd, buf, n): preadv2(RWF_NOWAIT) */
	EMUL_P_PREAD,		/* pread64(fd, buf, n, off) */
	EMUL_P_READV,		/* readv(fd, iov, cnt) */
	EMUL_P_PREADV,		/* preadv(fd, iov, cnt, lo, hi) */
	EMUL_P_WRITE,		/* write(...): pwritev2(RWF_NOWAIT) */
	EMUL_P_PWRITE,
	EMUL_P_WRITEV,
	EMUL_P_PWRITEV,
	EMUL_P_OPEN,		/* open/openat: openat2(RESOLVE_CACHED) */
	EMUL_P_RECVFROM,	/* recvfrom/recvmsg: MSG_DONTWAIT */
	EMUL_P_RECVMSG,
	EMUL_P_SENDTO,		/* sendto/sendmsg: MSG_DONTWAIT */
	EMUL_P_SENDMSG,
	EMUL_P_POLLIN,		/* blocks until readable (accept): poll probe */
	EMUL_P_FDBLOCK,		/* blocks only on a blocking fd (connect) */
	EMUL_P_POLLWAIT,	/* poll/select/epoll_wait: inline if timeout 0 */
	EMUL_P_SOCKETCALL,	/* i386 multiplexer: by sub-call */
	EMUL_P_UMEM,		/* umem_add: done by the engine itself */
	EMUL_P_DENY,		/* refused in atoms (systab_denied) */
	EMUL_P_NONE,		/* no such call in the profile: -ENOSYS */
	/* Calls that could take the engine's own fault handling down, made
	 * safe: */
	EMUL_P_SIGACTION,	/* rt_sigaction & co: the handler is taken back */
	EMUL_P_SIGMASK,		/* rt_sigprocmask & co: on the caller's mask */
	EMUL_P_ARGS,		/* refused for some arguments (prctl) */
	EMUL_P_TMPMASK,		/* may block, with a temporary signal mask
				 * (ppoll...): on a worker it lets nothing in */
	EMUL_P_FUTEX,		/* futex: the waits block, the rest never do;
				 * FUTEX_LOCK_PI tried as FUTEX_TRYLOCK_PI */
	EMUL_P_IOCTL,		/* ioctl: in place for the requests that only
				 * read or set a descriptor's state */
};

/* Or'ed into a policy byte: the call may send a signal to its own caller
 * (kill and friends), so the engine looks for one right after it. */
#define EMUL_P_SIGCHECK	0x80
#define EMUL_P_MASK	0x7f

/* What the inline attempt found. */
struct emul_try {
	long		ret;		/* result when done */
	bool		blocked;	/* would block: a worker must go on */
	long		partial;	/* bytes already moved before blocking */
	int64_t		pos;		/* in: read()'s file position, or -1 */
	/* in: the caller's signal mask, for a terminal's job control
	 * (emul_block_call()); NULL: a step, none. */
	const sigset_t	*mask;
};

/* The calls that take a temporary signal mask (emul-policy.c). */
#define EMUL_TMPMASK_CALLS	10

/* State of the profile in use. */
struct emul_profile {
	int		profile;	/* enum systab_profile */
	unsigned long	nr_syscalls;	/* the kernel's NR_syscalls */
	unsigned long	umem_nr;
	long		poll_nr, open_nr;	/* -1: none */
	/* select(2) as x86_64's select and i386's _newselect take it (not
	 * i386's select, old_select(struct *)); -1: none. */
	long		select_nr;
	long		tmpmask_nr[EMUL_TMPMASK_CALLS];	/* -1: none */
	unsigned char	*policy;	/* [nr_syscalls] of enum emul_policy */
	struct emul_profile *older;	/* the table this one replaced */
};

extern struct emul_profile *emul_prof;
int emul_profile_set(int profile);

/* The inline attempt of a fetched atom (never blocks unless the policy is
 * wrong), and the real call that may block, continuing a partial
 * transfer: @worker, on a thread that runs a syslet that went async, where
 * a call's temporary signal mask lets nothing in (EMUL_P_TMPMASK). */
void emul_try_call(const struct emul_atom *a, enum emul_policy pol,
		   struct emul_try *t);
/* The bytes sendmsg()'s message @msg holds (its iovecs'), 0 when it
 * cannot be read. */
unsigned long emul_msg_len(unsigned long msg);
/* The bytes of @cnt iovecs at @iov, 0 when they cannot be read. */
unsigned long emul_iov_len(unsigned long iov, unsigned long cnt);
/* A call that may block, run now: inline (@worker_mask NULL), or on a
 * worker, for a caller whose signal mask was *@worker_mask. */
long emul_block_call(const struct emul_atom *a, enum emul_policy pol,
		     long partial, const sigset_t *worker_mask);
/* The same call in the caller, the caller's mask @user open around it:
 * *@intr when a signal came during the call (its handler has run), and
 * the chain ends after it. */
long emul_block_open(const struct emul_atom *a, enum emul_policy pol,
		     long partial, const sigset_t *user, bool *intr);
/* Whether every signal @user leaves open and the caller catches has
 * SA_RESTART. */
bool emul_all_restart(const sigset_t *user);

/*
 * An open that did not wait (the engines' attempts add O_NONBLOCK, as
 * io_uring's does) of a FIFO for reading with no writer yet succeeds at
 * once, where open(2) waits for a writer, and a read(2) of it then says
 * end of file.  emul_open_waits(): whether @fd, opened so with @flags,
 * is such a FIFO (an fstat).  emul_fifo_wait() then waits, on a worker,
 * as open(2) would: another open of the FIFO through /proc/self/fd,
 * closed at once; @fd, or the error that ended the wait (EINTR, @fd
 * closed).  Without /proc, @fd at once.
 */
bool emul_open_waits(int fd, unsigned long flags);
long emul_fifo_wait(int fd);

/* The open @flags with which open(2) of a FIFO waits for a writer: read
 * only, neither O_NONBLOCK nor O_PATH (emul_open_waits() then asks the
 * file's type). */
static inline bool emul_open_rdwait(unsigned long flags)
{
	return (flags & (O_ACCMODE | O_NONBLOCK | O_PATH)) == O_RDONLY;
}

/* The syscall itself, -errno on failure.  On x86_64 the instruction is
 * issued here: a chain of cheap calls should cost what the calls cost,
 * and libc's syscall() adds a call, a shuffle of registers and errno. */
#if defined(__x86_64__)
static inline long emul_syscall6(long nr, unsigned long a0, unsigned long a1,
				 unsigned long a2, unsigned long a3,
				 unsigned long a4, unsigned long a5)
{
	register unsigned long r10 __asm__("r10") = a3;
	register unsigned long r8 __asm__("r8") = a4;
	register unsigned long r9 __asm__("r9") = a5;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10),
			   "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#else
long emul_syscall6(long nr, unsigned long a0, unsigned long a1,
		   unsigned long a2, unsigned long a3, unsigned long a4,
		   unsigned long a5);
#endif

/* pthread_sigmask() without libc's copying and filtering: the sets are
 * the engine's own (sigfillset already leaves out libc's signals).  On
 * the way in *old is cleared first, as the kernel fills only its part. */
static inline void emul_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	if (old)
		sigemptyset(old);
	emul_syscall6(__NR_rt_sigprocmask, (unsigned long)how,
		      (unsigned long)set, (unsigned long)old, _NSIG / 8, 0, 0);
}

static inline long emul_raw_syscall(const struct emul_atom *a)
{
	return emul_syscall6((long)a->nr, a->args[0], a->args[1], a->args[2],
			     a->args[3], a->args[4], a->args[5]);
}

/* Per-run statistics, flushed into the totals at the end of a run: a
 * count of each event there would cost a look-up of the thread's
 * totals (__tls_get_addr in a shared library). */
struct emul_lstats {
	unsigned long	atoms, syscalls, umem, inl, cm, faults, sigstops,
			denied, handoffs, completions;
	/* Of cm, on uring: run by io_uring, by a worker thread. */
	unsigned long	ur, urw;
};
void emul_stats_flush(struct emul_lstats *ls);
void emul_stats_add(unsigned int field_off, unsigned long n);
#define EMUL_STAT_ADD(field, n) \
	emul_stats_add(__builtin_offsetof(struct syslet_stats, field), (n))

/* Tracing (observe.c). */
extern syslet_trace_fn emul_trace_fn;
extern void *emul_trace_ctx;
void emul_trace_emit(struct syslet_event *ev);

/* A registered head (emul.c). */
struct emul_head;

/* A thread's capability sets, as capget() gives them (version 3). */
struct emul_caps {
	struct __user_cap_data_struct	d[_LINUX_CAPABILITY_U32S_3];
};

/* Run a syslet from @u: the engine's main loop (emul-exec.c).
 * @ah NULL: step mode. */
enum emul_mode { EMUL_RUN_INLINE, EMUL_RUN_WORKER, EMUL_RUN_STEP };

struct emul_run {
	struct emul_head	*ah;
	enum emul_mode		mode;
	struct emul_lstats	st;
	unsigned int		sig_budget;	/* atoms until the next check */
	/* File position of pos_fd (-1: none), known while the chain has
	 * only opened and read that file since. */
	long			pos_fd;
	int64_t			pos;
	sigset_t		user_mask;	/* the mask of async_exec's caller */
	bool			handed_off;
	/* A call that ran with the caller's signals open was interrupted by
	 * one (the chain ends after this atom); the chain ended because of
	 * a signal. */
	bool			interrupted, sig_ended;
	/* Handed to a worker: where it resumes. */
	struct syslet_uatom	*h_uatom;
	struct emul_atom	h_atom;
	long			h_partial;
	bool			h_blocked;	/* would block (else ASYNC) */
	/* The caller's file-system IDs and capability sets, a worker's
	 * while it runs the rest; creds_lost: the worker could not take
	 * them on, and each further atom that would make a system call
	 * completes with EPERM instead. */
	uid_t			fsuid;
	gid_t			fsgid;
	struct emul_caps	caps;
	bool			creds_lost;
	/* No worker could be created during this run (the process at its
	 * limit of threads): 2007 refilled its pool once per async_exec(),
	 * so this run tries no more. */
	bool			no_spawn;
};

/* Inline/step: runs until the end or a hand-off.  Returns the last atom,
 * NULL when handed off (run->handed_off), or NULL with *err = -EFAULT. */
struct syslet_uatom *emul_run_chain(struct emul_run *run,
				    struct syslet_uatom *u, long *err);
/* Worker: continue a handed-off syslet; returns its last atom and
 * whether that atom asked for no completion. */
struct syslet_uatom *emul_run_rest(struct emul_run *run, bool *no_complete);
struct syslet_uatom *emul_step(struct syslet_uatom *u,
			       struct syslet_event *ev);

/* An rt_sigprocmask/sigprocmask atom, made on the caller's mask *@mask
 * instead of the thread's (NULL: on the thread's, the synchronous signals
 * kept open); emul-exec.c. */
long emul_atom_sigmask(sigset_t *mask, const struct emul_atom *a);

/* Hooks into the head for the main loop (emul.c). */
bool emul_handoff(struct emul_run *run);

int emul_registered_heads(void);
int emul_init(void);
long emul_umem_add(unsigned long *p, unsigned long inc);
long emul_gettid(void);

#endif /* SYSLET_EMUL_H */
