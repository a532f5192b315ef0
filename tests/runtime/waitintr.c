/* waitintr.c: async_wait() returns -1 EINTR when a caught signal arrives while it waits, also in the first wait after a syslet went async (uring: the wait that submits its SQE); restarted under SA_RESTART (on uring: when every caught signal left open has it); a process signal sent by another thread that leaves it open interrupts it too (the kernel gives it to the thread group leader, which takes it), and an ignored one never does. */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include "helpers.h"

static volatile sig_atomic_t wi_caught;
static pid_t wi_tid;
static int wi_sig = SIGUSR1;	/* what wi_kicker sends */
static bool wi_process;		/* kill(), not tgkill() to the caller */

static void wi_handler(int sig)
{
	(void)sig;
	wi_caught = 1;
}

/* The signal comes once the caller surely sleeps in async_wait(); with
 * @arg, a pipe's writer, a byte follows a little later. */
static void *wi_kicker(void *arg)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	if (wi_process)
		kill(getpid(), wi_sig);
	else
		syscall(SYS_tgkill, getpid(), wi_tid, wi_sig);
	if (arg) {
		nanosleep(&ts, NULL);
		if (write(*(int *)arg, "y", 1) != 1)
			_exit(RT_FAIL);
	}
	return NULL;
}

/* async_wait(1) while wi_kicker(@arg) signals the caller: its result,
 * and its errno in @e (0 when it returned 0). */
static long wi_wait_kicked(int *arg, int *e)
{
	pthread_t t;
	long r;

	if (pthread_create(&t, NULL, wi_kicker, arg))
		rt_die("pthread_create");
	errno = 0;
	r = sys_async_wait(1);
	*e = r ? errno : 0;
	pthread_join(t, NULL);
	return r;
}

/* Until the completion is in @slot, whatever signals come. */
static void wi_wait_slot(struct syslet_uatom *const *slot)
{
	while (!*slot)
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
}

/*
 * With SA_RESTART the kernel restarts the wait, as 2007's
 * wait_event_interruptible() answered -ERESTARTSYS, and so does emul
 * (its futex wait is restarted): the call comes back 0 once the
 * completion is in.  uring's io_uring_enter() is never restarted, and
 * it cannot tell which signal's handler ran: it restarts the wait when
 * every signal the caller catches and leaves open has SA_RESTART, and
 * says EINTR when one does not (@mixed: SIGUSR2's handler, never sent,
 * has none) (syslet(7)).
 */
static void wi_restart(struct syslet_uatom **slot, bool mixed)
{
	struct rt_pipe_read pr;
	struct sigaction sa;
	long r;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wi_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	sa.sa_flags = 0;
	if (!mixed)
		sa.sa_handler = SIG_DFL;
	if (sigaction(SIGUSR2, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	wi_caught = 0;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	r = wi_wait_kicked(&pr.pfd[1], &e);
	if (mixed && !strcmp(syslet_backend_name(), "uring")) {
		rt_check(r == -1 && e == EINTR && wi_caught,
			 "uring, SA_RESTART and another handler without it: "
			 "async_wait %ld (%s), handler ran: %d", r,
			 strerror(e), (int)wi_caught);
	} else {
		rt_check(r == 0 && wi_caught && *slot == &pr.atom,
			 "SA_RESTART%s: async_wait %ld (%s), handler ran: %d, "
			 "completion %p: the wait is restarted and returns "
			 "with the completion in",
			 mixed ? " (another handler without it)" : "", r,
			 strerror(e), (int)wi_caught, (void *)*slot);
	}
	wi_wait_slot(slot);
	rt_check(*slot == &pr.atom && pr.ret == 1 && pr.c == 'y',
		 "completion %p ret %ld", (void *)*slot, pr.ret);
	*slot = NULL;
	rt_pipe_read_close(&pr);
	sa.sa_handler = SIG_DFL;
	if (sigaction(SIGUSR2, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
}

/*
 * A signal sent to the process by another thread, which leaves it open
 * as threads usually do: 2.6's complete_signal() gives it to the thread
 * group leader first when it takes it (wants_signal()), and the leader
 * waits in async_wait() with its mask open: the wait says EINTR.  An
 * engine that held the caller's signals while it waited would let the
 * sender take it, and the wait went on.
 */
static void wi_process_signal(struct syslet_uatom **slot)
{
	struct rt_pipe_read pr;
	long r;
	int e;

	wi_caught = 0;
	wi_process = true;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	r = wi_wait_kicked(NULL, &e);
	rt_check(r == -1 && e == EINTR && wi_caught,
		 "kill(getpid(), SIGUSR1) from another thread: async_wait "
		 "%ld (%s), handler ran: %d", r, strerror(e), (int)wi_caught);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	wi_wait_slot(slot);
	rt_check(*slot == &pr.atom && pr.ret == 1,
		 "completion %p ret %ld", (void *)*slot, pr.ret);
	*slot = NULL;
	wi_process = false;
	rt_pipe_read_close(&pr);
}

/*
 * An ignored signal (SIG_IGN, or SIGCHLD's and SIGWINCH's default)
 * never cuts the wait short: the kernel does not even queue it.
 */
static void wi_ignored(struct syslet_uatom **slot, int sig, bool ign)
{
	struct rt_pipe_read pr;
	struct sigaction sa, old;
	long r;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ign ? SIG_IGN : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old))
		rt_die("sigaction: %s", strerror(errno));
	wi_sig = sig;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	r = wi_wait_kicked(&pr.pfd[1], &e);
	rt_check(r == 0 && *slot == &pr.atom,
		 "signal %d %s: async_wait %ld (%s), completion %p: an "
		 "ignored signal must not end the wait", sig,
		 ign ? "ignored" : "ignored by default", r, strerror(e),
		 (void *)*slot);
	wi_wait_slot(slot);
	*slot = NULL;
	rt_pipe_read_close(&pr);
	wi_sig = SIGUSR1;
	if (sigaction(sig, &old, NULL))
		rt_die("sigaction: %s", strerror(errno));
}

int main(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct sigaction sa;
	long r;
	int e;

	rt_init();
	/* A wait that never returns fails the test instead of hanging. */
	alarm(30);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wi_handler;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	wi_tid = (pid_t)syscall(SYS_gettid);
	rt_register(&ahu, ring, 4, -1UL);
	rt_pipe_read_init(&pr);
	/* A read of an empty pipe: it goes async and stays blocked. */
	rt_pipe_read_exec(&pr);
	r = wi_wait_kicked(NULL, &e);
	rt_check(r == -1 && e == EINTR && wi_caught,
		 "async_wait: %ld (%s), handler ran: %d", r, strerror(e),
		 (int)wi_caught);
	/* The syslet is still there and completes as ever. */
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	wi_wait_slot(&ring[0]);
	rt_check(ring[0] == &pr.atom && pr.ret == 1 && pr.c == 'x',
		 "completion %p ret %ld", (void *)ring[0], pr.ret);
	ring[0] = NULL;
	rt_pipe_read_close(&pr);
	/* The head's index has moved on: the next completions are ring[1]
	 * and ring[2]. */
	wi_restart(&ring[1], false);
	wi_restart(&ring[2], true);
	wi_ignored(&ring[3], SIGCHLD, false);
	wi_ignored(&ring[0], SIGWINCH, false);
	wi_ignored(&ring[1], SIGURG, true);
	/* SIGUSR1 caught again, without SA_RESTART; the completion goes
	 * into ring[2]. */
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	wi_process_signal(&ring[2]);
	rt_unregister(&ahu);
	return rt_done("waitintr");
}
