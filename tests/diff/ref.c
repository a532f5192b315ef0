/* ref.c: the differential test's reference interpreter, written from the 2007 kernel's kernel/async.c (seeds/006) and nothing else. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "diff.h"
#include "../runtime/usertop.h"

/*
 * This file must not share code or ideas with src/lib: it is what the
 * backends are measured against.  Each function below follows one
 * function of the 2007 core code and says which; where our backends
 * deliberately differ from 2007 (syslet(7), DIFFERENCES FROM THE 2007
 * KERNEL), the difference is modelled here on purpose and marked
 * "Modelled difference".
 *
 * User memory is the test's arena.  The 2007 kernel read it with
 * __get_user(), which fails without side effects on an unmapped or (for
 * writes) read-only word; the test knows the protection of every page it
 * made, so the reference checks the page table itself instead of taking
 * faults.  A pointer that leaves everything the test controls makes the
 * graph "unsafe": the reference stops and the graph is not run through
 * any backend (it would read or write memory of the test itself).
 */

struct ref_atom {
	unsigned long	flags;
	unsigned long	nr;
	unsigned long	ret_ptr;
	unsigned long	next;
	unsigned long	args[6];
};

struct ref {
	const struct diff_arena	*ar;
	struct ref_ring		*ring;
	unsigned long		io_calls;	/* reads and writes made */
	/* t->async_ready of 2007: set while the syslet still runs in the
	 * caller; a hand-off clears it. */
	bool			in_caller;
	/* ASYNC atoms, in the caller, that find no parked thread. */
	unsigned long		no_thread;
	const char		*unsafe;
	unsigned long		atoms;
	/* The late pipe got its feed; the syslet waited for it in the
	 * caller (and went async there). */
	bool			fed, late_waited, late_sync;
	/* The tight pipe (diff.h): what it holds while nobody reads it,
	 * everything it got (the fill, then each write), and whether the
	 * driver's reader has begun. */
	unsigned long		tight_held, tight_len;
	uint64_t		tight_hash;
	bool			tight_drained, tight_waited, tight_sync;
};

#define W	sizeof(unsigned long)
/* Offsets of the user atom's words (struct syslet_uatom). */
#define U_FLAGS		0
#define U_NR		1
#define U_RET		2
#define U_NEXT		3
#define U_ARG(i)	(4 + (i))

/* From the top of user space up every address faults in user mode
 * (kernel or non-canonical on x86_64, above TASK_SIZE for an i386 task),
 * but for the legacy vsyscall page, which may be readable.  The top is
 * TASK_SIZE, which the kernel decides: 47 or 56 bits on x86_64; for a
 * 32-bit process 0xffffe000 under a 64-bit kernel, PAGE_OFFSET (3 GiB by
 * default) under an i386 one.  ref_user_top() finds it (usertop.h, as
 * seedhead.c does); where it cannot (a kernel before 4.17 takes
 * MAP_FIXED_NOREPLACE as a hint), the reference takes the top it assumed
 * before: 47 bits, or the last page. */
#if defined(__x86_64__)
#define REF_TOP_GUESS	0x0000800000000000UL
#define REF_VSYSCALL	0xffffffffff600000UL
#else
#define REF_TOP_GUESS	0xfffff000UL
#define REF_VSYSCALL	0UL
#endif

unsigned long ref_user_top(void)
{
	return rt_user_top();
}

/* access_ok(addr, len): the range lies below the top and does not wrap. */
static bool ref_range_ok(const struct ref *r, unsigned long addr,
			 unsigned long len)
{
	unsigned long top = r->ar->user_top ? r->ar->user_top : REF_TOP_GUESS;

	return addr + len >= addr && addr + len <= top;
}

/*
 * access_ok() as the running kernel has it, which decides whether a read
 * of the empty late pipe into a buffer that faults waits for the feed
 * (ref_late_waits()).  An i386 kernel refuses a buffer that reaches past
 * its TASK_SIZE, and x86_64 a 64-bit process's from REF_TOP_GUESS up.  But
 * a 32-bit process under a 64-bit kernel is held to the 64-bit limit
 * (valid_user_address() in x86_64's uaccess_64.h, the sum of address and
 * length taken in 64 bits), which every 32-bit buffer is below: none is
 * refused before the call, a read of the empty late pipe into 0xfffff000
 * waits, and faults only once the feed came.  The probe: a read from the
 * empty non-blocking pipe into REF_TOP_GUESS, longer than what is left of
 * the 32-bit space, answers -EAGAIN where access_ok() let it through and
 * -EFAULT where it refused it.
 */
void ref_probe(struct diff_arena *ar)
{
	long ret = syscall(SYS_read, (long)ar->fd.empty_rd, REF_TOP_GUESS,
			   2 * ar->page);

	ar->access_ok_all = ret == -1 && errno == EAGAIN;
}

/* 1: [addr, addr + len) is accessible as @want; 0: it faults; -1: the
 * test does not know (the graph becomes unsafe). */
static int ref_mem(const struct ref *r, unsigned long addr, unsigned long len,
		   int want)
{
	const struct diff_arena *ar = r->ar;
	unsigned long end = addr + len, a0 = (unsigned long)ar->base;
	unsigned long top = ar->user_top ? ar->user_top : REF_TOP_GUESS;

	if (!len)
		return 1;
	if (addr >= top) {
		if (REF_VSYSCALL && addr < REF_VSYSCALL + 4096 &&
		    (end > REF_VSYSCALL || end < addr))
			return -1;
		return 0;
	}
	if (end > top || end < addr)
		return -1;
	/* The page below the top, the test's. */
	if (ar->top_pg && addr >= ar->top_pg)
		return 1;
	/* The first page is never mapped (mmap_min_addr). */
	if (end > addr && end <= ar->page)
		return 0;
	if (end < addr || addr < ar->resv_lo || end > ar->resv_hi)
		return -1;
	for (unsigned long p = addr & ~(ar->page - 1); p < end; p += ar->page) {
		int kind;

		if (p < a0 || p >= a0 + ar->size)
			return 0;	/* the reservation: PROT_NONE */
		kind = ar->prot[(p - a0) / ar->page];
		if ((kind & want) != want)
			return 0;
	}
	return 1;
}

/* __get_user(): the word, or -EFAULT and 0 (as x86's __get_user zeroes
 * the destination when it faults). */
static long ref_get(struct ref *r, unsigned long *val, unsigned long addr)
{
	int ok = ref_mem(r, addr, W, DIFF_RO);

	*val = 0;
	if (ok < 0 && !r->unsafe)
		r->unsafe = "a word read outside the arena";
	if (ok <= 0)
		return -EFAULT;
	memcpy(val, (void *)addr, W);
	return 0;
}

/* __put_user() / put_user(): on x86 a store that faults on any of its
 * bytes stores none of them. */
static long ref_put(struct ref *r, unsigned long addr, unsigned long val)
{
	int ok = ref_mem(r, addr, W, DIFF_RW);

	if (ok < 0 && !r->unsafe)
		r->unsafe = "a word written outside the arena";
	if (ok <= 0)
		return -EFAULT;
	memcpy((void *)addr, &val, W);
	return 0;
}

/*
 * sys_umem_add(), 006's generic C version: read the word (-EFAULT when it
 * cannot be), 0 means "just read", otherwise add and return the sum.
 * Modelled difference: 2007 ignored a store that failed (a read-only word)
 * and returned the sum it had not stored; our backends answer -EFAULT,
 * as the x86 assembly version of 011 did (syslet(7), sys_umem_add(3)).
 */
static long ref_umem_add(struct ref *r, unsigned long uptr, unsigned long inc)
{
	unsigned long val;

	/* get_user(): access_ok() first. */
	if (!ref_range_ok(r, uptr, W) || ref_get(r, &val, uptr))
		return -EFAULT;
	if (!inc)
		return (long)val;
	val += inc;
	if (ref_put(r, uptr, val))
		return -EFAULT;
	return (long)val;
}

/*
 * copy_uatom(): the four fixed words, then the argument pointers in order;
 * the first NULL pointer ends the fetch and leaves the rest of the
 * arguments zero (and the pointers after it unread: private is never
 * read either).  Any word that cannot be read, fixed word, pointer or
 * argument, makes the whole fetch fail.
 */
static long ref_copy_uatom(struct ref *r, struct ref_atom *atom,
			   unsigned long uatom)
{
	unsigned long arg_ptr;
	long ret = 0;

	/* access_ok() of the whole atom, private included (never read). */
	if (!ref_range_ok(r, uatom, sizeof(struct syslet_uatom)))
		return -EFAULT;
	ret |= ref_get(r, &atom->nr, uatom + U_NR * W);
	ret |= ref_get(r, &atom->ret_ptr, uatom + U_RET * W);
	ret |= ref_get(r, &atom->flags, uatom + U_FLAGS * W);
	ret |= ref_get(r, &atom->next, uatom + U_NEXT * W);
	memset(atom->args, 0, sizeof(atom->args));
	for (int i = 0; i < 6; i++) {
		ret |= ref_get(r, &arg_ptr, uatom + U_ARG(i) * W);
		if (!arg_ptr)
			return ret;
		if (!ref_range_ok(r, arg_ptr, W))
			return -EFAULT;
		ret |= ref_get(r, &atom->args[i], arg_ptr);
	}
	return ret;
}

/* Numbers that no kernel has ever given a call, so that the table holds
 * sys_ni_syscall() there: -ENOSYS, stored like any result. */
static bool ref_hole(unsigned long nr)
{
	if (nr >= 600 && nr < 1000)
		return true;
#if defined(__x86_64__)
	return nr >= 335 && nr <= 423;
#else
	return nr == 222 || nr == 223 || nr == 251 || nr == 285 ||
	       (nr >= 387 && nr <= 392) || nr == 415;
#endif
}

static bool ref_pipe_fd(const struct diff_fds *f, unsigned int fd)
{
	return fd == (unsigned int)f->in_rd || fd == (unsigned int)f->in_wr ||
	       fd == (unsigned int)f->out_rd || fd == (unsigned int)f->out_wr ||
	       fd == (unsigned int)f->empty_rd ||
	       fd == (unsigned int)f->empty_wr ||
	       fd == (unsigned int)f->eof_rd || fd == (unsigned int)f->epipe_wr;
}

/*
 * Modelled difference: 2007 ran any call; our backends refuse the deny
 * list with -EPERM, stored as a result, every backend alike: DESIGN
 * section 4's calls that would take the engine down, and the calls that
 * change the calling task alone, whose target is a matter of timing once
 * a syslet went to another thread (issue 16: credentials, filters,
 * namespaces, per-thread registrations, the thread pointer), prctl only
 * for its operations on the thread's security state.  Written from
 * those lists, not from systab.c.
 */
static bool ref_denied(const struct ref *r, unsigned long nr,
		       unsigned long arg0)
{
	static const long list[] = {
		SYS_fork, SYS_vfork, SYS_clone, SYS_clone3, SYS_execve,
		SYS_execveat, SYS_exit, SYS_exit_group, SYS_rt_sigreturn,
		SYS_setuid, SYS_setgid, SYS_setreuid, SYS_setregid,
		SYS_setresuid, SYS_setresgid, SYS_setfsuid, SYS_setfsgid,
		SYS_setgroups, SYS_capset, SYS_seccomp,
		SYS_landlock_restrict_self, SYS_unshare, SYS_setns,
		SYS_set_tid_address, SYS_set_robust_list, SYS_rseq,
		SYS_sigaltstack, SYS_arch_prctl, SYS_set_thread_area,
		SYS_ioperm, SYS_iopl,
#if !defined(__x86_64__)
		SYS_sigreturn, SYS_vm86, SYS_vm86old, SYS_setuid32,
		SYS_setgid32, SYS_setreuid32, SYS_setregid32, SYS_setresuid32,
		SYS_setresgid32, SYS_setfsuid32, SYS_setfsgid32,
		SYS_setgroups32,
#endif
	};

	/* async_register .. async_unregister, just below umem_add */
	if (nr >= r->ar->umem_nr - 4 && nr < r->ar->umem_nr)
		return true;
	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++)
		if (nr == (unsigned long)list[i])
			return true;
	/* prctl's operations on the thread's own security state:
	 * PR_SET_KEEPCAPS, PR_SET_SECCOMP, PR_CAPBSET_DROP,
	 * PR_SET_SECUREBITS, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT,
	 * PR_SET_SPECULATION_CTRL, PR_SET_SYSCALL_USER_DISPATCH.  The
	 * option is an int: sys_prctl() sees the lower half of arg0. */
	arg0 = (unsigned int)arg0;
	return nr == SYS_prctl &&
	       (arg0 == 8 || arg0 == 22 || arg0 == 24 || arg0 == 28 ||
		arg0 == 38 || arg0 == 47 || arg0 == 53 || arg0 == 59);
}

/*
 * Whether read() or write() on the blocking pipe could wait: a read of
 * an empty pipe (of more than 0 bytes), a write of more than the room
 * left (a pipe holds 16 pages; the bound leaves a page to spare, as small
 * writes share pages).  The other end answers EBADF at once.
 */
static bool ref_blk_waits(const struct ref *r, unsigned long nr,
			  unsigned int fd, size_t len)
{
	int n = 0;

	if (ioctl(r->ar->fd.blk_rd, FIONREAD, &n))
		return true;
	if (nr == SYS_read && fd == (unsigned int)r->ar->fd.blk_rd)
		return n == 0 && len > 0;
	if (nr == SYS_write && fd == (unsigned int)r->ar->fd.blk_wr)
		return (size_t)n + len > DIFF_PIPE_MAX - 8192;
	return false;
}

/* The driver's feed of the late pipe (diff.h). */
static void ref_late_feed(struct ref *r)
{
	if (write(r->ar->fd.late_wr, diff_late_feed, DIFF_LATE_FEED) !=
	    DIFF_LATE_FEED && !r->unsafe)
		r->unsafe = "the feed of the late pipe failed";
	r->fed = true;
}

/*
 * Whether read(late_rd, buf, len) sleeps: vfs_read() refuses a buffer
 * that access_ok() refuses (-EFAULT at once), pipe_read() answers 0 at
 * once for 0 bytes, and otherwise waits while the pipe is empty (its
 * writer is open: the test's).  A buffer that access_ok() lets through
 * but that faults is found only once data came, when pipe_read() copies:
 * in a 32-bit process under a 64-bit kernel, every buffer (ref_probe()).
 */
static bool ref_late_waits(const struct ref *r, unsigned long buf, size_t len)
{
	int n = 0;

	if (!len)
		return false;
	/* Refused before the call only where access_ok() refuses: not in
	 * a 32-bit process under a 64-bit kernel (ref_probe()). */
	if (!r->ar->access_ok_all && !ref_range_ok(r, buf, len))
		return false;
	if (ioctl(r->ar->fd.late_rd, FIONREAD, &n))
		return true;
	return n == 0;
}

/*
 * A call that sleeps: the 2007 scheduler hook (seeds/004, schedule()
 * calling __async_schedule() for a task with async_ready set) does what
 * an ASYNC atom does, pick_new_async_head(): the user context goes to a
 * ready cachemiss thread and async_exec() returns NULL to it, while the
 * task that sleeps finishes the call and goes on with the chain as the
 * cachemiss thread.  Not for a SYNC atom (__exec_atom() cleared
 * async_ready): that one sleeps in the caller, and the driver's feeder
 * thread writes the feed once it sees the caller asleep in that read
 * (the syslet is still in the caller: async_exec() has not returned).
 * After the hand-off nothing changes hands again.
 */
static void ref_late_read(struct ref *r, const struct ref_atom *atom)
{
	if (!ref_late_waits(r, atom->args[1], (size_t)atom->args[2]))
		return;
	if (r->fed) {
		/* It would wait for ever. */
		r->unsafe = "a read of the late pipe after its feed ran out";
		return;
	}
	if (r->in_caller) {
		if ((atom->flags & SYSLET_SYNC) && !r->ar->proc_syscall) {
			r->unsafe = "a SYNC read of the late pipe in the caller";
			return;
		}
		if (atom->flags & SYSLET_SYNC) {
			r->late_sync = true;
			ref_late_feed(r);
			return;
		}
		r->in_caller = false;
		r->late_waited = true;
	}
	ref_late_feed(r);
}

/* The tight pipe gets @len bytes from @buf (readable: checked). */
static void ref_tight_put(struct ref *r, unsigned long buf, size_t len)
{
	r->tight_hash = diff_hash(r->tight_hash, (const void *)buf, len);
	r->tight_len += len;
	if (!r->tight_drained)
		r->tight_held += len;
}

/*
 * write(tight_wr, buf, len), blocking, from pipe(7) and not by the real
 * call (the reference has no reader), but for 0 bytes; while
 * nobody reads the pipe, a write of up to the room left goes in whole at
 * once, and one of more sleeps: up to PIPE_BUF bytes are atomic and wait
 * for room for all of them, more than PIPE_BUF go in partly and wait for
 * the rest (a one-page pipe never has more than PIPE_BUF of room, so such
 * a write always sleeps).  Once the driver reads the pipe, every write
 * ends, and a blocking write returns its whole length ("blocks until n
 * bytes have been written").  A buffer that cannot be read whole makes
 * the graph unsafe (pipe_write() would fail partway, and where depends on
 * its page-sized steps).
 *
 * A write that sleeps is the 2007 scheduler hook's, as a read of the late
 * pipe (ref_late_read()): in the caller with async_ready set,
 * pick_new_async_head() hands the user context to a cachemiss thread
 * and async_exec() returns NULL, upon which the driver starts reading;
 * a SYNC atom (__exec_atom() cleared async_ready) sleeps in the caller,
 * where the driver's reader starts once it sees it asleep in that write.
 */
static long ref_tight_write(struct ref *r, const struct ref_atom *atom)
{
	unsigned long buf = atom->args[1];
	size_t len = (size_t)atom->args[2];
	const char *why = NULL;
	long ret;

	/* 0 bytes: the real call, which never waits and writes nothing,
	 * but whose vfs_write() checks the buffer's address all the same
	 * (access_ok(): EFAULT for one past the top, length 0 or not). */
	if (!len) {
		ret = syscall(SYS_write, (long)r->ar->fd.tight_wr, buf, 0L);
		r->io_calls++;
		return ret == -1 ? -errno : ret;
	}
	if (!r->ar->tight_cap)
		why = "a write of the tight pipe, whose size is not a page";
	else if (len > DIFF_TIGHT_MAX || ref_mem(r, buf, len, DIFF_RO) != 1)
		why = "a write of the tight pipe from a buffer that faults";
	if (why) {
		r->unsafe = why;
		return -EFAULT;
	}
	/* Once a SYNC write slept in the caller, the driver's reader runs
	 * while the chain goes on there: whether a later write sleeps (and
	 * hands off) depends on how far it has read. */
	if (r->in_caller && r->tight_sync && !(atom->flags & SYSLET_SYNC)) {
		r->unsafe = "a write of the tight pipe in the caller after a "
			    "SYNC one slept there";
		return -EFAULT;
	}
	/* After a hand-off, whatever made it, the driver reads the pipe. */
	if (!r->in_caller)
		r->tight_drained = true;
	if (!r->tight_drained && len > r->ar->tight_cap - r->tight_held) {
		/* It sleeps, in the caller: a hand-off for the driver
		 * will read it only once async_exec() returned. */
		if ((atom->flags & SYSLET_SYNC) && !r->ar->tight_sync_ok) {
			r->unsafe = "a SYNC write of the tight pipe in the "
				    "caller";
			return -EFAULT;
		}
		if (atom->flags & SYSLET_SYNC)
			r->tight_sync = true;
		else {
			r->in_caller = false;
			r->tight_waited = true;
		}
		r->tight_drained = true;
	}
	ref_tight_put(r, buf, len);
	r->io_calls++;
	return (long)len;
}

/*
 * sys_call_table[nr](args): the few real calls a graph may make, issued
 * for real, and the entries the test knows to be empty.  Anything else
 * (a number a graph rewrote into something unknown, a read into memory
 * outside the arena, a close of a descriptor that might be open) is
 * unsafe.
 */
static long ref_call(struct ref *r, const struct ref_atom *atom)
{
	const unsigned long *a = atom->args;
	unsigned long nr = atom->nr;
	long ret;

	if (nr == r->ar->umem_nr)
		return ref_umem_add(r, a[0], a[1]);
	if (ref_denied(r, nr, a[0]))
		return -EPERM;
	if (ref_hole(nr))
		return -ENOSYS;
	if (nr == SYS_getppid || nr == SYS_getpid || nr == SYS_getuid) {
		ret = syscall((long)nr);
	} else if (nr == SYS_read || nr == SYS_write || nr == SYS_pread64 ||
		   nr == SYS_pwrite64) {
		unsigned int fd = (unsigned int)a[0];
		size_t len = (size_t)a[2];
		/* pread64 and pwrite64 never reach the buffer: every
		 * descriptor the test allows is a pipe (ESPIPE) or closed.
		 * They alone may have the blocking pipe, which refuses
		 * them at once. */
		bool pos = nr == SYS_pread64 || nr == SYS_pwrite64;
		bool blk = fd == (unsigned int)r->ar->fd.blk_rd ||
			   fd == (unsigned int)r->ar->fd.blk_wr;
		bool late = fd == (unsigned int)r->ar->fd.late_rd ||
			    fd == (unsigned int)r->ar->fd.late_wr;
		bool tight = fd == (unsigned int)r->ar->fd.tight_rd ||
			     fd == (unsigned int)r->ar->fd.tight_wr;

		if (blk && !pos && ref_blk_waits(r, nr, fd, len)) {
			r->unsafe = "a read or write that may block";
			return -EFAULT;
		}
		if (late && !pos && nr == SYS_write &&
		    fd == (unsigned int)r->ar->fd.late_wr) {
			r->unsafe = "a write into the late pipe";
			return -EFAULT;
		}
		if (late && !pos && nr == SYS_read &&
		    fd == (unsigned int)r->ar->fd.late_rd) {
			ref_late_read(r, atom);
			if (r->unsafe)
				return -EFAULT;
		}
		if (tight && !pos && nr == SYS_read &&
		    fd == (unsigned int)r->ar->fd.tight_rd) {
			r->unsafe = "a read of the tight pipe";
			return -EFAULT;
		}
		if (tight && !pos && nr == SYS_write &&
		    fd == (unsigned int)r->ar->fd.tight_wr)
			return ref_tight_write(r, atom);
		blk |= late | tight;
		if ((fd < 1024 && !blk && !ref_pipe_fd(&r->ar->fd, fd)) ||
		    (!pos && (len > DIFF_PIPE_MAX ||
			      ref_mem(r, a[1], len, DIFF_NONE) < 0))) {
			r->unsafe = "a read or write the test cannot allow";
			return -EFAULT;
		}
		/* The offset of pread64 and pwrite64: a[3], and on i386 its
		 * upper half in a[4]; read and write ignore both. */
		ret = syscall((long)nr, (long)fd, a[1], len, a[3], a[4]);
		r->io_calls++;
	} else if (nr == SYS_close) {
		if ((unsigned int)a[0] < 1024) {
			r->unsafe = "a close of a descriptor that may be open";
			return -EFAULT;
		}
		ret = syscall((long)nr, (long)a[0]);
	} else {
		r->unsafe = "a call the test does not allow";
		return -EFAULT;
	}
	return ret == -1 ? -errno : ret;
}

/*
 * async_schedule() / pick_new_async_head(): an ASYNC atom moves the rest
 * of the syslet to a cachemiss thread while the caller returns NULL.
 * Only the first hand-off counts: afterwards the chain already runs
 * away from the caller.  pick_ready_cachemiss_thread() may find no
 * thread ready (all of max_nr_threads busy, the last chain's not back
 * yet): then the atom runs in the caller.  Whether that happens is
 * timing, so the driver says how many ASYNC atoms find none (usually 0).
 */
static void ref_async_schedule(struct ref *r)
{
	if (!r->in_caller)
		return;
	if (r->no_thread) {
		r->no_thread--;
		return;
	}
	r->in_caller = false;
}

/*
 * __exec_atom(): an ASYNC atom hands off before its call; SYNC only
 * matters for a call that would block (ref_late_read()); a
 * number past the table answers -ENOSYS without storing it; the result
 * goes to *ret_ptr when there is one, and a store that fails makes the
 * result -EFAULT.
 * Modelled difference: those two early returns skipped 2007's restoring
 * of t->async_ready after a SYNC atom, so that no later ASYNC atom of the
 * syslet handed off; in our backends SYNC concerns its own atom only
 * (syslet(7)).
 */
static long ref_exec_one(struct ref *r, struct ref_atom *atom)
{
	long ret;

	if (atom->flags & SYSLET_ASYNC)
		ref_async_schedule(r);
	if (atom->nr >= r->ar->nr_syscalls)
		return -ENOSYS;
	ret = ref_call(r, atom);
	/* put_user(): access_ok() first. */
	if (atom->ret_ptr && (!ref_range_ok(r, atom->ret_ptr, W) ||
			      ref_put(r, atom->ret_ptr, (unsigned long)ret)))
		return -EFAULT;
	return ret;
}

/* run_next_atom(): a switch on the four stop flags; none or several set
 * match no case and the chain goes on. */
static int ref_run_next_atom(const struct ref_atom *atom, long ret)
{
	switch (atom->flags & SYSLET_STOP_MASK) {
	case SYSLET_STOP_ON_NONZERO:
		return ret == 0;
	case SYSLET_STOP_ON_ZERO:
		return ret != 0;
	case SYSLET_STOP_ON_NEGATIVE:
		return ret >= 0;
	case SYSLET_STOP_ON_NON_POSITIVE:
		return ret > 0;
	}
	return 1;
}

/* next_uatom(): next while the test says go on; on stop, the atom right
 * after this one in memory when SKIP is set, else the end. */
static unsigned long ref_next_uatom(const struct ref_atom *atom,
				    unsigned long uatom, long ret)
{
	if (ref_run_next_atom(atom, ret))
		return atom->next;
	if (atom->flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
		return uatom + sizeof(struct syslet_uatom);
	return 0;
}

/*
 * complete_uatom(): nothing for NO_COMPLETE; else the atom goes into the
 * slot at the ring's index, which then moves on (wrapping).
 * Modelled difference: 2007 dropped a completion whose slot still held an
 * atom (and returned -EFAULT to nobody); our backends keep it and write it
 * into that slot once the user has cleared it, before any later one.
 */
static void ref_complete_uatom(struct ref *r, const struct ref_atom *atom,
			       unsigned long uatom)
{
	struct ref_ring *ring = r->ring;

	if (atom->flags & SYSLET_NO_COMPLETE)
		return;
	if (ring->slot[ring->idx]) {
		ring->waiting = true;
		ring->waiting_atom = uatom;
		return;
	}
	ring->slot[ring->idx] = uatom;
	ring->idx = (ring->idx + 1) % DIFF_RING;
}

void ref_ring_cleared(struct ref_ring *ring)
{
	if (ring->waiting && !ring->slot[ring->idx]) {
		ring->slot[ring->idx] = ring->waiting_atom;
		ring->idx = (ring->idx + 1) % DIFF_RING;
		ring->waiting = false;
	}
}

/*
 * exec_atom() and sys_async_exec(): fetch, run, choose the next atom, until
 * there is none.  2007 also stopped on signal_pending() || need_resched():
 * a graph raises no signal, and our backends do not cut a chain because
 * the scheduler wants the processor (syslet(7)), so neither stops one
 * here.  A fetch that fails ends the syslet with -EFAULT: from async_exec
 * when it still ran in the caller.  After a hand-off 2007 returned without
 * completing anything; modelled difference: our backends complete the
 * last atom that ran instead (syslet(7)).  In the cachemiss thread, the
 * end of the chain puts its last atom into the ring.
 */
enum ref_status ref_run(const struct diff_arena *ar, unsigned long entry,
			unsigned long no_thread, struct ref_ring *ring,
			struct diff_outcome *out, const char **why)
{
	struct ref r = { .ar = ar, .ring = ring, .in_caller = true,
			 .no_thread = no_thread, .tight_hash = DIFF_HASH0 };
	struct ref_atom atom, last_atom;
	unsigned long uatom = entry, last_uatom = 0;
	bool fault = false;
	long ret;
	int fill = 0;

	memset(&last_atom, 0, sizeof(last_atom));
	/* The tight pipe's fill, as the driver's load() wrote it. */
	if (ioctl(ar->fd.tight_rd, FIONREAD, &fill) || fill < 0)
		fill = 0;
	for (int i = 0; i < fill; i++) {
		unsigned char b = diff_tight_byte((unsigned long)i);

		r.tight_hash = diff_hash(r.tight_hash, &b, 1);
	}
	r.tight_len = r.tight_held = (unsigned long)fill;
	for (;;) {
		if (ref_copy_uatom(&r, &atom, uatom)) {
			fault = true;
			break;
		}
		if (r.unsafe)
			break;
		if (++r.atoms > REF_MAX_ATOMS) {
			*why = "more atoms than the test waits for";
			out->atoms = r.atoms;
			return REF_ENDLESS;
		}
		last_uatom = uatom;
		ret = ref_exec_one(&r, &atom);
		last_atom = atom;
		if (r.unsafe)
			break;
		uatom = ref_next_uatom(&atom, uatom, ret);
		if (!uatom) {
			out->end = ref_run_next_atom(&atom, ret) ? REF_END_NULL
								 : REF_END_STOP;
			break;
		}
	}
	/* The driver feeds the late pipe once async_exec() returned NULL. */
	if (!r.in_caller && !r.fed && !r.unsafe)
		ref_late_feed(&r);
	out->atoms = r.atoms;
	out->async = !r.in_caller;
	out->late_waited = r.late_waited;
	out->late_sync = r.late_sync;
	out->late_fed = r.fed;
	out->tight_waited = r.tight_waited;
	out->tight_sync = r.tight_sync;
	/* The driver reads the tight pipe once async_exec() returned NULL. */
	out->tight_drained = r.tight_drained || !r.in_caller;
	out->tight_len = r.tight_len;
	out->tight_hash = r.tight_hash;
	out->last = last_uatom;
	out->last_nc = (last_atom.flags & SYSLET_NO_COMPLETE) != 0;
	out->io_calls = r.io_calls;
	if (fault)
		out->end = REF_END_FAULT;
	if (r.unsafe) {
		*why = r.unsafe;
		return REF_UNSAFE;
	}
	if (r.in_caller) {
		out->ret = fault ? 0 : last_uatom;
		out->err = fault ? EFAULT : 0;
		return REF_OK;
	}
	out->ret = 0;
	out->err = 0;
	ref_complete_uatom(&r, &last_atom, last_uatom);
	return REF_OK;
}
