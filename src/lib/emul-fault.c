/* emul-fault.c: the SIGSEGV/SIGBUS handler that resumes faulting engine accesses at their fixup, kept installed whatever the program does. */
#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif
#include "emul-fault.h"
#include "once.h"

/*
 * The engine reads atoms and arguments with plain loads and answers
 * -EFAULT from a fault (emul-fault.h); that needs this handler to be the
 * one installed for SIGSEGV and SIGBUS whenever the engine touches user
 * memory.  The program may install its own handler, or SIG_DFL, at any
 * time: through libc, through a raw system call, or from an atom.  So the
 * engine checks before it runs (emul_fault_own(): at async_exec, at
 * umem_add, at a step, after an atom that changed a disposition, and in a
 * worker after every call that blocked) and, when it finds another
 * disposition, installs this handler again and keeps the one it found as
 * the program's: every fault that is not the engine's goes there,
 * exactly as if the handler had never been replaced (its mask, its
 * SA_RESETHAND, SIG_DFL's core dump, SIG_IGN, which the kernel does not
 * honour for a fault).  Limit: a disposition changed by another thread
 * while a chain runs without blocking is seen only at the next check.
 *
 * A check is two rt_sigaction() queries, as dear as two system calls
 * (where one costs 420 ns, 40% of a one-atom async_exec).  Nothing
 * cheaper is sound: a raw rt_sigaction() leaves no trace in user memory
 * (interposing libc's sigaction() would miss it), and once the program's
 * handler is in, a fault of the engine goes to it, so the check cannot
 * wait for a fault.  What can be saved is the number of checks:
 * syslet_exec_batch() makes one for many syslets, as no code of the
 * program runs between them.
 */

struct extab_entry {
	int32_t insn;
	int32_t fixup;
};

/* Bounds of the table, provided by the linker for a C-named section. */
extern const struct extab_entry __start_emul_extab[]
	__attribute__((visibility("hidden")));
extern const struct extab_entry __stop_emul_extab[]
	__attribute__((visibility("hidden")));

/*
 * The program's disposition of SIGSEGV (0) and SIGBUS (1).  The handler
 * reads it while another thread may replace it: each has two slots, the
 * writer (under own_lock) fills the one not in use and then publishes it.
 */
static struct sigaction prog_act[2][2];
static int prog_cur[2];
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction our_act;
static struct lib_once fault_once = LIB_ONCE_INIT;
static int fault_err;

#if defined(__x86_64__)
#define EMUL_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__i386__)
#define EMUL_PC(uc) ((uc)->uc_mcontext.gregs[REG_EIP])
#else
#error "emul-fault: only x86_64 and i386 are supported"
#endif

static uintptr_t fixup_for(uintptr_t pc)
{
	for (const struct extab_entry *e = __start_emul_extab;
	     e < __stop_emul_extab; e++) {
		uintptr_t insn = (uintptr_t)&e->insn + (intptr_t)e->insn;

		if (insn == pc)
			return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
	}
	return 0;
}

static int sig_slot(int sig)
{
	return sig == SIGBUS ? 1 : 0;
}

static void prog_set(int sig, const struct sigaction *act)
{
	int s = sig_slot(sig);
	int next = !__atomic_load_n(&prog_cur[s], __ATOMIC_RELAXED);

	prog_act[s][next] = *act;
	__atomic_store_n(&prog_cur[s], next, __ATOMIC_RELEASE);
}

/* The default action of SIGSEGV and SIGBUS: end the process, with a core
 * dump when allowed.  For a fault, returning re-runs the access; a signal
 * sent with kill() is sent again. */
static void act_default(int sig, const siginfo_t *si)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	if (si->si_code > 0)
		return;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
}

static void fault_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t fix = fixup_for((uintptr_t)EMUL_PC(uc));
	struct sigaction act;
	sigset_t old;
	int s = sig_slot(sig);

	if (fix) {
		EMUL_PC(uc) = (greg_t)fix;
		return;
	}
	/* Not ours: what the program's disposition would have done. */
	act = prog_act[s][__atomic_load_n(&prog_cur[s], __ATOMIC_ACQUIRE)];
	if (act.sa_handler == SIG_DFL ||
	    (act.sa_handler == SIG_IGN && si->si_code > 0)) {
		/* The kernel does not let a fault be ignored. */
		act_default(sig, si);
		return;
	}
	if (act.sa_handler == SIG_IGN)
		return;
	if (!(act.sa_flags & SA_NODEFER))
		sigaddset(&act.sa_mask, sig);
	pthread_sigmask(SIG_BLOCK, &act.sa_mask, &old);
	if (act.sa_flags & SA_RESETHAND) {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		prog_set(sig, &dfl);
	}
	if (act.sa_flags & SA_SIGINFO)
		act.sa_sigaction(sig, si, ctx);
	else
		act.sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static bool is_ours(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == fault_handler;
}

/* Install our handler for @sig; what it replaced becomes the program's. */
static int take(int sig)
{
	struct sigaction prev;

	if (sigaction(sig, &our_act, &prev))
		return -1;
	if (!is_ours(&prev))
		prog_set(sig, &prev);
	return 0;
}

static void fault_install(void)
{
	memset(&our_act, 0, sizeof(our_act));
	our_act.sa_sigaction = fault_handler;
	/* Faults can nest inside a user handler that uses the engine. */
	our_act.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&our_act.sa_mask);
	pthread_mutex_lock(&own_lock);
	if (take(SIGSEGV) || take(SIGBUS))
		fault_err = -errno;
	pthread_mutex_unlock(&own_lock);
}

void emul_fault_own(void)
{
	struct sigaction cur;

	for (int i = 0; i < 2; i++) {
		int sig = i ? SIGBUS : SIGSEGV;

		if (!sigaction(sig, NULL, &cur) && is_ours(&cur))
			continue;
		pthread_mutex_lock(&own_lock);
		(void)take(sig);
		pthread_mutex_unlock(&own_lock);
	}
}

int emul_fault_init(void)
{
	unsigned long v;
	/* Through a volatile so the compiler does not see a constant
	 * address (and warn that it points at nothing). */
	const void *volatile page0 = (const void *)16;

	lib_once(&fault_once, fault_install);
	/* Page 0 is never mapped (mmap_min_addr): proves the fixups work,
	 * and gives the table at least one entry.  Not under valgrind,
	 * whose memcheck would report this load as an invalid read in every
	 * program that uses the engine (its handler still runs our fixups
	 * for the bad pointers of atoms). */
	if (!fault_err && !RUNNING_ON_VALGRIND &&
	    emul_get(&v, page0) != -EFAULT)
		fault_err = -ENOTRECOVERABLE;
	return fault_err;
}

/*
 * TASK_SIZE, found by asking mmap(MAP_FIXED_NOREPLACE) for one page:
 * ENOMEM where the page ends past TASK_SIZE, EEXIST where something is
 * mapped there, success where nothing is (unmapped again at once; the
 * flag never replaces a mapping).  So a binary search over pages between
 * EMUL_USER_TOP_MIN, in user space on every kernel, and the last page of
 * the address space, never in it.  Done once, where a range first ends
 * past EMUL_USER_TOP_MIN: on x86_64 with 4-level page tables that is one
 * call, for a 32-bit process about 20.  A kernel that answers otherwise
 * (one before 4.17 takes the flag as a hint; ENOMEM for a page known to
 * be in user space means the process is out of mappings) leaves the
 * bound at EMUL_USER_TOP_MIN for this range, and is asked again later.
 */
unsigned long emul__user_top;

/* 1: the page at @pg lies below TASK_SIZE; 0: it does not; -1: unknown. */
static int page_in_user(unsigned long pg)
{
	void *m = mmap((void *)pg, 4096, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       MAP_FIXED_NOREPLACE, -1, 0);

	if (m == MAP_FAILED)
		return errno == EEXIST ? 1 : errno == ENOMEM ? 0 : -1;
	munmap(m, 4096);
	return m == (void *)pg ? 1 : -1;
}

unsigned long emul_user_top(void)
{
	unsigned long top = __atomic_load_n(&emul__user_top, __ATOMIC_RELAXED);
	unsigned long lo = EMUL_USER_TOP_MIN - 4096, hi = ~4095UL, mid;
	int saved = errno, r = 1;

	if (top)
		return top;
	/* A page that is mapped (this frame's): EEXIST, or the kernel's
	 * answers cannot be read. */
	if (page_in_user((unsigned long)__builtin_frame_address(0) & ~4095UL) != 1)
		r = -1;
	/* Most often the first page past the bound is already out. */
	else if (!(r = page_in_user(lo + 4096)))
		hi = lo + 4096;
	while (r >= 0 && hi - lo > 4096) {
		mid = lo + (((hi - lo) / 2) & ~4095UL);
		r = page_in_user(mid);
		if (r > 0)
			lo = mid;
		else if (!r)
			hi = mid;
	}
	errno = saved;
	if (r < 0)
		return EMUL_USER_TOP_MIN;
	__atomic_store_n(&emul__user_top, hi, __ATOMIC_RELAXED);
	return hi;
}
