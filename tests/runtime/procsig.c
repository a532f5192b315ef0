/* procsig.c: a signal sent to the process while a syslet waits async acts in the program's thread and leaves the syslet's call waiting (syslet(7) DIFFERENCES: 2007 interrupted it). */
#include "helpers.h"
#include <signal.h>
#include <time.h>

/*
 * In 2007 the task that ran an async syslet kept the process's ID, so a
 * signal sent to a single-threaded process (kill(), alarm(), the
 * terminal's interrupt key) went to it first and interrupted its blocked
 * call, which stored -ERESTARTSYS and ended the syslet.  Here the
 * threads that run syslets hold every signal back: the signal acts in the
 * program's thread, and the syslet's call goes on until its data comes.
 * Checked with kill(getpid()) and with alarm(), each to a handler.
 * A signal sent to the caller's thread ID (tgkill(), as raise() and
 * pthread_kill() send it) went in 2007 to that task alone, which ran the
 * syslet and exited with the signal pending once it had completed (006:
 * sys_async_exec()'s do_exit()), so no handler ran; here the program's
 * thread keeps its ID, the handler runs there once and the call goes on
 * (syslet(7) DIFFERENCES).
 */

#define ENTRIES	8

static volatile sig_atomic_t got, hits;
static volatile long got_tid;

static void on_sig(int sig)
{
	got = sig;
	hits++;
	got_tid = syscall(SYS_gettid);
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct timespec ms100 = { 0, 100 * 1000 * 1000 };
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct syslet_uatom *done = NULL;
	struct sigaction sa;
	long me = syscall(SYS_gettid);
	unsigned long idx = 0;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	rt_register(&ahu, ring, ENTRIES, 4);

	for (int k = 0; k < 3; k++) {
		static const char *const whats[] = {
			"kill(getpid())", "alarm()", "tgkill(the caller's TID)"
		};
		const char *what = whats[k];
		int want = k == 1 ? SIGALRM : SIGUSR1;

		got = 0;
		hits = 0;
		got_tid = 0;
		rt_pipe_read_init(&pr);
		rt_pipe_read_exec(&pr);
		if (k == 1)
			alarm(1);
		else if (k == 2)
			syscall(SYS_tgkill, getpid(), me, SIGUSR1);
		else
			kill(getpid(), SIGUSR1);
		for (int i = 0; i < 50 && !got; i++)
			nanosleep(&ms100, NULL);
		rt_check(got == want && got_tid == me,
			 "%s: handler ran for %d in thread %ld, want %ld", what,
			 (int)got, (long)got_tid, me);
		nanosleep(&ms100, NULL);
		rt_check(!ring[idx], "%s: the syslet ended without its data "
			 "(ret %ld)", what, pr.ret);
		if (write(pr.pfd[1], "d", 1) != 1)
			rt_die("write: %s", strerror(errno));
		while (!__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
			if (sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
		rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
			 done == &pr.atom && pr.ret == 1 && pr.c == 'd',
			 "%s: completion %p, ret %ld, want the read of 1 byte",
			 what, (void *)done, pr.ret);
		rt_check(hits == 1, "%s: the handler ran %d times, want once",
			 what, (int)hits);
		rt_pipe_read_close(&pr);
	}
	rt_unregister(&ahu);
	return rt_done("procsig");
}
