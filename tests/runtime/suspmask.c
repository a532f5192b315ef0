/* suspmask.c: a syslet whose rt_sigsuspend blocks and goes async leaves the program its own signal mask, not the call's temporary one. */
#include "helpers.h"
#include <signal.h>
#include <stdint.h>

/*
 * rt_sigsuspend(mask) waits with @mask as the thread's mask and puts the
 * old one back when it returns.  In 2007 (seeds/006) a syslet that
 * blocked went on in the caller's own task: the call's mask stayed that
 * task's, and the program went on, in a cachemiss thread, with the mask
 * that thread had, the program's.  The kernel port moves the program's
 * mask with the user context at the hand-off, and for calls that have a
 * temporary one (ppoll, pselect6, epoll_pwait, sigsuspend...) it must
 * move the one they will restore, not the one they wait with.
 *
 * The program blocks SIGUSR1 and SIGUSR2, with a handler for SIGUSR1;
 * its syslet is one rt_sigsuspend atom with an empty mask, which blocks
 * (nothing is sent), so the syslet goes async.  Afterwards the program's
 * mask must be what it was, and a SIGUSR1 sent to the process must wait
 * until the program unblocks it.  The atom never completes: a worker's
 * sigsuspend lets nothing in and does not return (kernel-patch/README),
 * so the program exits with it still waiting.
 */

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* The thread's mask as the kernel keeps it: 64 bits, whatever the ABI. */
static uint64_t kernel_mask(void)
{
	uint64_t m = 0;

	if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &m, 8))
		rt_die("rt_sigprocmask: %s", strerror(errno));
	return m;
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	static uint64_t empty;
	static unsigned long maskp, size = 8;
	static long ret = -12345;
	struct async_head_user ahu;
	struct syslet_uatom a, *done;
	struct sigaction sa;
	sigset_t both;
	uint64_t before, after;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &both, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	before = kernel_mask();

	rt_register(&ahu, ring, 8, -1UL);
	maskp = (unsigned long)&empty;
	rt_atom(&a, __NR_rt_sigsuspend, &ret, 0, NULL, &maskp, &size, NULL);
	/* Ends a run whose rt_sigsuspend waits in this thread. */
	alarm(60);
	errno = 0;
	done = sys_async_exec(&a);
	if (done || errno) {
		/* Only a signal ends the wait, and none was sent. */
		rt_check(0, "the rt_sigsuspend syslet did not go async: %p %s",
			 (void *)done, strerror(errno));
		return rt_done("suspmask");
	}

	alarm(0);
	after = kernel_mask();
	rt_check(after == before,
		 "the program's mask is %#llx after the hand-off, was %#llx "
		 "(rt_sigsuspend's temporary mask became the program's)",
		 (unsigned long long)after, (unsigned long long)before);
	rt_check(ret == -12345, "the atom stored %ld; it should still wait",
		 ret);

	/* Process-directed, while the program blocks it: it waits. */
	if (kill(getpid(), SIGUSR1))
		rt_die("kill: %s", strerror(errno));
	rt_check(handled == 0,
		 "SIGUSR1, blocked by the program, was handled at once");
	if (sigprocmask(SIG_UNBLOCK, &both, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	rt_check(handled == 1,
		 "SIGUSR1 handled %d times once the program unblocked it",
		 (int)handled);
	return rt_done("suspmask");
}
