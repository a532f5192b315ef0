/* tidself.c: what the program sets for its own thread alone (its name, timer slack, parent-death signal, PR_SET_IO_FLUSHER, SCHED_RESET_ON_FORK) goes with it across hand-offs. */
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "helpers.h"

#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER	57
#define PR_GET_IO_FLUSHER	58
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK	0x40000000
#endif

/*
 * On the kernel backend a hand-off moves the program's user context to
 * a pool thread, which the head made at some async_exec() and which
 * copied the head's settings then (kernel-patch 0015).  What the
 * program sets afterwards for its thread alone must be the carrier's
 * too, or it is undone by the next hand-off: prctl(PR_SET_NAME) (what
 * pthread_setname_np() makes for the calling thread; ps -L, top and
 * PR_GET_NAME show it), PR_SET_TIMERSLACK (and the default that
 * PR_SET_TIMERSLACK 0 goes back to), PR_SET_PDEATHSIG (a pool
 * thread starts without one: the setting stayed with the thread that
 * made it, where PR_GET_PDEATHSIG no longer saw it and a later
 * PR_SET_PDEATHSIG 0 did not clear it), PR_SET_IO_FLUSHER (a
 * userspace block or FUSE server's promise not to recurse into its own
 * I/O under memory pressure) and SCHED_RESET_ON_FORK (rtkit grants a
 * real-time priority only with it, so that children do not inherit
 * it).  A pool thread made by a head with SCHED_RESET_ON_FORK starts
 * SCHED_OTHER, as any child: if it stays so, it never matches the
 * program, so nothing goes async.  The user-space engines never move
 * the program's thread.
 */
static struct syslet_uatom *ring[4];
static unsigned long idx;

static void check_name(struct syslet_uatom *a, long *ret, int round)
{
	char want[16], now[16] = "";
	int went;

	snprintf(want, sizeof(want), "tidself-%d", round);
	if (prctl(PR_SET_NAME, want, 0, 0, 0))
		rt_die("PR_SET_NAME: %s", strerror(errno));
	went = rt_handoffs(ring, &idx, a, ret);
	if (prctl(PR_GET_NAME, now, 0, 0, 0))
		rt_die("PR_GET_NAME: %s", strerror(errno));
	rt_check(!strcmp(now, want),
		 "round %d (%d went async): PR_GET_NAME gave '%s' after "
		 "PR_SET_NAME '%s'", round, went, now, want);
}

static void check_slack(struct syslet_uatom *a, long *ret, int round)
{
	unsigned long want = 70000 + 1000 * (unsigned long)round;
	long now;
	int went;

	if (prctl(PR_SET_TIMERSLACK, want, 0, 0, 0))
		rt_die("PR_SET_TIMERSLACK: %s", strerror(errno));
	went = rt_handoffs(ring, &idx, a, ret);
	now = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	rt_check(now == (long)want,
		 "round %d (%d went async): PR_GET_TIMERSLACK gave %ld after "
		 "PR_SET_TIMERSLACK %lu", round, went, now, want);
}

/* PR_SET_TIMERSLACK 0 gives the thread its default back: the slack it
 * was created with (@slack0, read at the start), not one set since. */
static void check_slack_default(struct syslet_uatom *a, long *ret,
				long slack0)
{
	long now;
	int went;

	if (prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0))
		rt_die("PR_SET_TIMERSLACK: %s", strerror(errno));
	went = rt_handoffs(ring, &idx, a, ret);
	now = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	rt_check(now == slack0,
		 "(%d went async) PR_SET_TIMERSLACK 0 left %ld, the thread's "
		 "default is %ld", went, now, slack0);
}

static volatile sig_atomic_t pdeath_got;

static void on_pdeath(int sig)
{
	(void)sig;
	pdeath_got++;
}

/*
 * The grandchild: its parent exits once it has set (@sig) or set and
 * cleared (@clear) its parent-death signal across hand-offs.  0 if the
 * signal came exactly when it should, else a check's number.
 */
static int pdeath_grandchild(int sig, bool clear, int ready)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	long ret = 0;
	int went, got = -1, bad = 0;
	pid_t parent = getppid();

	signal(SIGUSR2, on_pdeath);
	/* Its own head, on the ring the parent left as it was. */
	memset(ring, 0, sizeof(ring));
	idx = 0;
	rt_register(&ahu, ring, 4, 2);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL,
		NULL);
	rt_handoffs(ring, &idx, &a, &ret);
	if (prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0))
		return 90;
	went = rt_handoffs(ring, &idx, &a, &ret);
	if (prctl(PR_GET_PDEATHSIG, &got, 0, 0, 0) || got != sig) {
		fprintf(stderr, "FAIL grandchild: (%d went async) "
			"PR_GET_PDEATHSIG gave %d after PR_SET_PDEATHSIG %d\n",
			went, got, sig);
		bad = 1;
	}
	if (clear) {
		if (prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0))
			return 91;
		went += rt_handoffs(ring, &idx, &a, &ret);
	}
	if (write(ready, "r", 1) != 1)
		return 92;
	for (int i = 0; i < 300 && getppid() == parent; i++)
		usleep(10000);
	usleep(100000);
	rt_unregister(&ahu);
	if (pdeath_got != (clear ? 0 : 1)) {
		fprintf(stderr, "FAIL grandchild: (%d went async) "
			"PR_SET_PDEATHSIG %d%s: %d SIGUSR2 when the parent "
			"exited\n", went, sig, clear ? ", then 0" : "",
			(int)pdeath_got);
		return 2;
	}
	return bad ? 1 : rt_failures ? 3 : 0;
}

static void check_pdeath(void)
{
	for (int clear = 0; clear < 2; clear++) {
		int res[2], rdy[2], st;
		unsigned char r = 99;
		pid_t c;

		if (pipe(res))
			rt_die("pipe: %s", strerror(errno));
		c = rt_fork_pipe(rdy);
		if (c == 0) {
			/* The parent: exits once the grandchild is ready. */
			pid_t g = fork();
			char b;

			if (g < 0)
				_exit(3);
			if (g == 0) {
				close(rdy[0]);
				close(res[0]);
				r = (unsigned char)pdeath_grandchild(SIGUSR2,
								      clear,
								      rdy[1]);
				_exit(write(res[1], &r, 1) == 1 ? 0 : 1);
			}
			/* Ready, or ended early: the check tells which. */
			close(rdy[1]);
			_exit(read(rdy[0], &b, 1) >= 0 ? 0 : 4);
		}
		close(res[1]);
		close(rdy[0]);
		close(rdy[1]);
		if (waitpid(c, &st, 0) != c || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			rt_die("the grandchild's parent failed: %#x", st);
		if (read(res[0], &r, 1) != 1)
			r = 98;
		close(res[0]);
		rt_check(r == 0,
			 "the parent-death signal%s across hand-offs: the "
			 "grandchild's check %d failed",
			 clear ? " set, then cleared," : "", r);
	}
}

static void check_flusher(struct syslet_uatom *a, long *ret)
{
	for (int on = 1; on >= 0; on--) {
		long now;
		int went;

		if (prctl(PR_SET_IO_FLUSHER, on, 0, 0, 0)) {
			printf("tidself: PR_SET_IO_FLUSHER: %s, not checked\n",
			       strerror(errno));
			return;
		}
		went = rt_handoffs(ring, &idx, a, ret);
		now = prctl(PR_GET_IO_FLUSHER, 0, 0, 0, 0);
		rt_check(now == on,
			 "(%d went async) PR_GET_IO_FLUSHER gave %ld after "
			 "PR_SET_IO_FLUSHER %d", went, now, on);
	}
}

/* The policy a child of the program starts with, or -1. */
static int child_policy(void)
{
	int pfd[2], got = -1, st;
	pid_t c = rt_fork_pipe(pfd);

	if (c == 0) {
		int v = sched_getscheduler(0);

		_exit(write(pfd[1], &v, sizeof(v)) == sizeof(v) ? 0 : 1);
	}
	close(pfd[1]);
	if (read(pfd[0], &got, sizeof(got)) != sizeof(got))
		got = -1;
	close(pfd[0]);
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
		rt_die("the child failed");
	return got;
}

static void check_reset_on_fork(struct syslet_uatom *a, long *ret)
{
	struct sched_param sp = { .sched_priority = 1 }, zero = { 0 };
	int now, kid, went;

	/* First a real-time policy that children keep (the pool made
	 * with it), then the same with SCHED_RESET_ON_FORK. */
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		printf("tidself: SCHED_FIFO: %s, not checked\n",
		       strerror(errno));
		return;
	}
	went = rt_handoffs(ring, &idx, a, ret);
	for (int round = 0; round < 2; round++) {
		if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK,
				       &sp))
			rt_die("SCHED_FIFO | SCHED_RESET_ON_FORK: %s",
			       strerror(errno));
		went = rt_handoffs(ring, &idx, a, ret);
		now = sched_getscheduler(0);
		kid = child_policy();
		rt_check(now == (SCHED_FIFO | SCHED_RESET_ON_FORK),
			 "round %d (%d went async): the policy is %#x after "
			 "SCHED_FIFO | SCHED_RESET_ON_FORK", round, went, now);
		rt_check(kid == SCHED_OTHER,
			 "round %d (%d went async): SCHED_RESET_ON_FORK is set, "
			 "a child starts with policy %#x, not SCHED_OTHER",
			 round, went, kid);
		rt_check(went > 0,
			 "round %d: under SCHED_FIFO | SCHED_RESET_ON_FORK no "
			 "syslet went async in 20 hand-offs", round);
	}
	if (sched_setscheduler(0, SCHED_OTHER, &zero))
		rt_die("SCHED_OTHER: %s", strerror(errno));
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	long ret = 0, slack0;

	rt_init();
	slack0 = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	rt_register(&ahu, ring, 4, 2);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	rt_handoffs(ring, &idx, &a, &ret);
	for (int round = 0; round < 3; round++) {
		check_name(&a, &ret, round);
		check_slack(&a, &ret, round);
	}
	check_slack_default(&a, &ret, slack0);
	check_flusher(&a, &ret);
	check_reset_on_fork(&a, &ret);
	rt_unregister(&ahu);
	check_pdeath();
	return rt_done("tidself");
}
