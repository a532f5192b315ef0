/* uasm-fixup.c: user-space exception table: a SIGSEGV/SIGBUS handler resuming at the fixup, as the kernel does. */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "uasm.h"

#ifndef __i386__
#error "uasm-fixup.c is the user-space twin of i386 code: build it with -m32"
#endif

/* The linker defines these for a section whose name is a C identifier. */
extern const struct uasm_extable __start___syslet_ex_table[]
	__attribute__((visibility("hidden")));
extern const struct uasm_extable __stop___syslet_ex_table[]
	__attribute__((visibility("hidden")));

/* Written from the signal handler, so a lock-free atomic counter. */
static unsigned long uasm_faults;

/* An alternate stack: a fault may come from a nearly full stack. */
static char uasm_altstack[64 * 1024] __attribute__((aligned(16)));

static uintptr_t uasm_ex_addr(const int32_t *field)
{
	return (uintptr_t)field + (uintptr_t)(intptr_t)*field;
}

/*
 * Linear search: the table has a few dozen entries and this must stay
 * async-signal-safe (the kernel sorts its much larger table at boot).
 */
uintptr_t uasm_fixup_lookup(uintptr_t ip)
{
	const struct uasm_extable *e;

	for (e = __start___syslet_ex_table; e < __stop___syslet_ex_table; e++)
		if (uasm_ex_addr(&e->insn) == ip)
			return uasm_ex_addr(&e->fixup);
	return 0;
}

size_t uasm_extable_size(void)
{
	return (size_t)(__stop___syslet_ex_table - __start___syslet_ex_table);
}

unsigned long uasm_fault_count(void)
{
	return __atomic_load_n(&uasm_faults, __ATOMIC_SEQ_CST);
}

static void uasm_fault_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t fixup;

	fixup = uasm_fixup_lookup((uintptr_t)uc->uc_mcontext.gregs[REG_EIP]);
	if (fixup && si->si_code > 0) {
		uc->uc_mcontext.gregs[REG_EIP] = (greg_t)fixup;
		__atomic_add_fetch(&uasm_faults, 1, __ATOMIC_SEQ_CST);
		return;
	}
	/*
	 * Not ours: the kernel would oops.  Restore the default action; a
	 * real fault repeats when we return, a sent signal is sent again.
	 */
	signal(sig, SIG_DFL);
	if (si->si_code <= 0)
		raise(sig);
}

int uasm_fixup_install(void)
{
	struct sigaction sa;
	stack_t ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = uasm_altstack;
	ss.ss_size = sizeof(uasm_altstack);
	if (sigaltstack(&ss, NULL) < 0)
		return -errno;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = uasm_fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) < 0 ||
	    sigaction(SIGBUS, &sa, NULL) < 0)
		return -errno;
	return 0;
}
