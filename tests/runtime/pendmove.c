/* pendmove.c: a signal sent to the program's thread alone and blocked there is still the program's after its syslet went async: sigpending() shows it and its handler runs once the program unblocks it. */
#include "helpers.h"
#include <signal.h>

/*
 * raise(), pthread_kill() and tgkill() send a signal to one thread;
 * blocked there, it waits in that thread's own queue until the thread
 * unblocks it.  A syslet that blocks must not take it away: in 2007
 * (seeds/006) the program's thread was the one that went async and the
 * program went on elsewhere, but the kernel port moves the user context
 * with its TID, mask and registrations (kernel-patch/README: "the TID
 * goes with the context"), and what was sent to that TID before the
 * hand-off is the context's as much as what is sent after it (which
 * tgkill() finds on the carrier).  The user-space engines never move the
 * program off its thread.
 *
 * The program blocks SIGUSR1, SIGUSR2 and SIGRTMIN and sends them to
 * its own thread, SIGUSR2 and SIGRTMIN twice (a standard signal is
 * pending once, a real-time one is queued twice), then runs a pipe read
 * that blocks, so that the syslet goes async.  They must still be
 * pending for the program, while the read waits and after it completed,
 * and the handlers must run once for SIGUSR1 and SIGUSR2 and twice for
 * SIGRTMIN when the program unblocks them.
 */

static volatile sig_atomic_t got1, got2, gotrt;

static void on_usr(int sig)
{
	if (sig == SIGUSR1)
		got1++;
	else if (sig == SIGUSR2)
		got2++;
	else
		gotrt++;
}

static void check_pending(const char *when)
{
	sigset_t pend;

	if (sigpending(&pend))
		rt_die("sigpending: %s", strerror(errno));
	rt_check(sigismember(&pend, SIGUSR1) == 1,
		 "SIGUSR1 sent to the program's thread is no longer pending "
		 "for it %s", when);
	rt_check(sigismember(&pend, SIGUSR2) == 1,
		 "SIGUSR2 sent to the program's thread is no longer pending "
		 "for it %s", when);
	rt_check(sigismember(&pend, SIGRTMIN) == 1,
		 "SIGRTMIN sent to the program's thread is no longer pending "
		 "for it %s", when);
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct sigaction sa;
	sigset_t sigs;
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) || sigaction(SIGUSR2, &sa, NULL) ||
	    sigaction(SIGRTMIN, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGUSR2);
	sigaddset(&sigs, SIGRTMIN);
	if (sigprocmask(SIG_BLOCK, &sigs, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	if (syscall(SYS_tgkill, pid, tid, SIGUSR1) ||
	    syscall(SYS_tgkill, pid, tid, SIGUSR2) ||
	    syscall(SYS_tgkill, pid, tid, SIGUSR2) ||
	    syscall(SYS_tgkill, pid, tid, SIGRTMIN) ||
	    syscall(SYS_tgkill, pid, tid, SIGRTMIN))
		rt_die("tgkill: %s", strerror(errno));
	check_pending("before the syslet");

	rt_register(&ahu, ring, 8, -1UL);
	rt_pipe_read_init(&pr);
	/* Nothing is written until it went async: no timing involved; the
	 * alarm only ends a run whose read waits in this thread. */
	alarm(60);
	rt_pipe_read_exec(&pr);
	check_pending("after the syslet went async");
	if (write(pr.pfd[1], "w", 1) != 1)
		rt_die("write: %s", strerror(errno));
	rt_wait_slot(&ring[0], 1);
	rt_check(ring[0] == &pr.atom, "completion %p, expected the read %p",
		 (void *)ring[0], (void *)&pr.atom);
	rt_check(pr.ret == 1, "the read gave %ld", pr.ret);
	check_pending("after the syslet completed");
	rt_check(got1 == 0 && got2 == 0 && gotrt == 0,
		 "a handler ran while the program blocked its signal: %d %d %d",
		 (int)got1, (int)got2, (int)gotrt);

	if (sigprocmask(SIG_UNBLOCK, &sigs, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	rt_check(got1 == 1, "SIGUSR1 handled %d times once unblocked",
		 (int)got1);
	rt_check(got2 == 1, "SIGUSR2 handled %d times once unblocked",
		 (int)got2);
	rt_check(gotrt == 2, "SIGRTMIN handled %d times once unblocked",
		 (int)gotrt);
	rt_pipe_read_close(&pr);
	rt_unregister(&ahu);
	return rt_done("pendmove");
}
