/* emul-fault.c: the SIGSEGV/SIGBUS handler that resumes faulting engine accesses at their fixup. */
#include <config.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include "emul-fault.h"

struct extab_entry {
	int32_t insn;
	int32_t fixup;
};

/* Bounds of the table, provided by the linker for a C-named section. */
extern const struct extab_entry __start_syslet_extab[]
	__attribute__((visibility("hidden")));
extern const struct extab_entry __stop_syslet_extab[]
	__attribute__((visibility("hidden")));

static struct sigaction old_segv, old_bus;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
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
	for (const struct extab_entry *e = __start_syslet_extab;
	     e < __stop_syslet_extab; e++) {
		uintptr_t insn = (uintptr_t)&e->insn + (intptr_t)e->insn;

		if (insn == pc)
			return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
	}
	return 0;
}

static void fault_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t fix = fixup_for((uintptr_t)EMUL_PC(uc));
	struct sigaction *old = sig == SIGBUS ? &old_bus : &old_segv;

	if (fix) {
		EMUL_PC(uc) = (greg_t)fix;
		return;
	}
	/* Not ours: behave as if we had never been installed. */
	if (old->sa_flags & SA_SIGINFO) {
		old->sa_sigaction(sig, si, ctx);
	} else if (old->sa_handler == SIG_IGN) {
		return;
	} else if (old->sa_handler != SIG_DFL) {
		old->sa_handler(sig);
	} else {
		/* Returning re-runs the access, which now kills as usual. */
		signal(sig, SIG_DFL);
	}
}

static void fault_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	/* Faults can nest inside a user handler that uses the engine. */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv) ||
	    sigaction(SIGBUS, &sa, &old_bus))
		fault_err = -errno;
}

int emul_fault_init(void)
{
	unsigned long v;
	/* Through a volatile so the compiler does not see a constant
	 * address (and warn that it points at nothing). */
	const void *volatile page0 = (const void *)16;

	pthread_once(&fault_once, fault_install);
	/* Page 0 is never mapped (mmap_min_addr): proves the fixups work,
	 * and gives the table at least one entry. */
	if (!fault_err && emul_get(&v, page0) != -EFAULT)
		fault_err = -ENOTRECOVERABLE;
	return fault_err;
}
