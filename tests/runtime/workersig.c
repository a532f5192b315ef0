/* workersig.c: a signal that a call raises for the thread running it (a write's SIGPIPE) reaches the program, inline and after the syslet went async: the default kills the process, a handler runs once, a blocked one waits for the program to unblock it; an atom's sigtimedwait takes the process's signals. */
#include "helpers.h"
#include <signal.h>
#include <sys/wait.h>

/*
 * In 2007 the atoms after a hand-off ran in the caller's own task
 * (seeds/006: the cachemiss thread took the user context, the task that
 * blocked went on with the chain), so a write to a pipe nobody reads
 * sent SIGPIPE to a thread of the program, with the program's
 * disposition: the default ended the process, a handler ran.  The
 * kernel port's worker blocks every signal but SIGKILL and SIGSTOP (it
 * has no user context to run a handler in); a signal meant for it
 * alone must still reach the program, as one sent to the process would
 * (kernel-patch/README), not stay pending on a thread that never takes
 * it.  The user-space engines raise it where the call ran and act on it
 * in the program (syslet(7)).
 *
 * Each case runs in a child: getpid, marked SYSLET_ASYNC when @async,
 * then write(2) of one byte to a pipe whose reader is closed.  @async 1:
 * the caller waits in async_wait(); 2: it never calls it.
 */

static volatile sig_atomic_t got;

static void on_pipe(int sig)
{
	(void)sig;
	got++;
}

struct ws_chain {
	struct syslet_uatom	a[2];
	unsigned long		fd, buf, len;
	long			r[2];
	char			c;
};

static const char *ws_where(int async)
{
	return async == 2 ? "after a hand-off, nobody waiting" :
	       async ? "after a hand-off" : "inline";
}

/*
 * The ring's first completion, up to 10 s for it: in async_wait() when
 * @async is 1, by looking every millisecond when nobody waits (2).
 */
static struct syslet_uatom *ws_first(struct syslet_uatom **ring, int async)
{
	struct timespec ms = { 0, 1000 * 1000 };

	for (int i = 0; i < 10000 &&
	     !__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE); i++) {
		if (async == 1)
			sys_async_wait(1);
		else
			nanosleep(&ms, NULL);
	}
	return __atomic_load_n(&ring[0], __ATOMIC_ACQUIRE);
}

/* Run the chain; the write's result, or die (exit 10 + n). */
static long ws_run(int async)
{
	struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct ws_chain c;
	struct syslet_uatom *done;
	int p[2];

	if (pipe(p))
		_exit(10);
	close(p[0]);
	memset(&c, 0, sizeof(c));
	c.fd = (unsigned long)p[1];
	c.buf = (unsigned long)&c.c;
	c.len = 1;
	rt_register(&ahu, ring, 8, -1UL);
	rt_atom(&c.a[0], SYS_getpid, &c.r[0], async ? SYSLET_ASYNC : 0,
		&c.a[1], NULL, NULL, NULL);
	rt_atom(&c.a[1], SYS_write, &c.r[1], 0, NULL, &c.fd, &c.buf, &c.len);
	errno = 0;
	done = sys_async_exec(&c.a[0]);
	if (async && (done || errno))
		_exit(11);	/* did not go async */
	if (!done)
		done = ws_first(ring, async);
	if (done != &c.a[1])
		_exit(12);	/* did not end at the write */
	return c.r[1];
}

/* Up to 5 s for the handler to have run @n times. */
static void ws_wait_got(int n)
{
	struct timespec ms = { 0, 1000 * 1000 };

	for (int i = 0; i < 5000 && got < n; i++)
		nanosleep(&ms, NULL);
}

static int ws_child(int kind, int async)
{
	struct sigaction sa;
	sigset_t pipeset;
	long r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kind == 0 ? SIG_DFL : on_pipe;
	if (sigaction(SIGPIPE, &sa, NULL))
		return 20;
	sigemptyset(&pipeset);
	sigaddset(&pipeset, SIGPIPE);
	if (kind == 2 && sigprocmask(SIG_BLOCK, &pipeset, NULL))
		return 21;
	r = ws_run(async);
	if (r != -EPIPE)
		return 22;	/* the write gave something else */
	switch (kind) {
	case 0:			/* the default: the process dies */
		ws_wait_got(1);
		return 3;	/* it lived */
	case 1:			/* handled, once */
		ws_wait_got(1);
		if (got != 1)
			return got ? 31 : 30;
		nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
		return got == 1 ? 0 : 31;	/* no second one */
	default:		/* blocked: nothing until unblocked */
		nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
		if (got)
			return 40;
		if (sigprocmask(SIG_UNBLOCK, &pipeset, NULL))
			return 21;
		ws_wait_got(1);
		return got == 1 ? 0 : got ? 31 : 41;
	}
}

/*
 * sigtimedwait() in an atom takes a signal of its set sent to the
 * process, inline and after a hand-off, as any thread's does
 * (kernel-patch/README): the program blocks SIGUSR2, with a handler
 * that must not run, and sends it with kill() before the syslet
 * (inline) or once async_exec() has returned (async).
 */
static int ws_sigwait(int async)
{
	struct syslet_uatom *ring[8], a[2], *done;
	struct async_head_user ahu;
	unsigned long set[8 / sizeof(long)] = { 0 }, setp, infop, tsp,
		      size = 8;
	struct timespec ts = { 5, 0 };
	unsigned char info[128];
	struct sigaction sa;
	sigset_t usr2;
	long r[2] = { -1, -1 };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_pipe;	/* counts in got */
	if (sigaction(SIGUSR2, &sa, NULL))
		return 20;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &usr2, NULL))
		return 21;
	set[0] = 1UL << (SIGUSR2 - 1);
	setp = (unsigned long)set;
	infop = (unsigned long)info;
	tsp = (unsigned long)&ts;
	rt_register(&ahu, ring, 8, -1UL);
	rt_atom(&a[0], SYS_getpid, &r[0], async ? SYSLET_ASYNC : 0, &a[1],
		NULL, NULL, NULL);
	rt_atom(&a[1], SYS_rt_sigtimedwait, &r[1], 0, NULL, &setp, &infop,
		&tsp);
	a[1].arg_ptr[3] = &size;
	if (!async && kill(getpid(), SIGUSR2))
		return 23;
	errno = 0;
	done = sys_async_exec(&a[0]);
	if (async && (done || errno))
		return 11;
	if (async && kill(getpid(), SIGUSR2))
		return 23;
	if (!done)
		done = ws_first(ring, async);
	if (done != &a[1])
		return 12;
	if (r[1] != SIGUSR2)
		return r[1] == -EAGAIN ? 50 : 51;
	if (sigprocmask(SIG_UNBLOCK, &usr2, NULL))
		return 21;
	/* It was taken: nothing is left for the handler. */
	return got ? 52 : 0;
}

static const char *ws_status(int st)
{
	static char buf[96];

	if (WIFSIGNALED(st))
		snprintf(buf, sizeof(buf), "killed by %s",
			 strsignal(WTERMSIG(st)));
	else if (!WIFEXITED(st))
		snprintf(buf, sizeof(buf), "status %#x", st);
	else
		switch (WEXITSTATUS(st)) {
		case 3: return "the process lived";
		case 11: return "the syslet did not go async";
		case 12: return "the syslet did not end at the write";
		case 22: return "the write did not give -EPIPE";
		case 30: return "the handler never ran (5 s)";
		case 31: return "the handler ran more than once";
		case 40: return "the handler ran while the program blocked it";
		case 41: return "the handler never ran once unblocked";
		case 50: return "sigtimedwait timed out (5 s)";
		case 51: return "sigtimedwait gave neither SIGUSR2 nor -EAGAIN";
		case 52: return "the handler ran: sigtimedwait did not take it";
		default:
			snprintf(buf, sizeof(buf), "exit %d",
				 WEXITSTATUS(st));
		}
	return buf;
}

/* ws_child(@kind, @async) in a child process (kind 3: ws_sigwait()):
 * its wait status. */
static int ws_fork(int kind, int async)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		rt_die("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(kind == 3 ? ws_sigwait(async) : ws_child(kind, async));
	if (waitpid(pid, &st, 0) != pid)
		rt_die("waitpid: %s", strerror(errno));
	return st;
}

int main(void)
{
	static const char *const kinds[] = {
		"SIGPIPE by default", "SIGPIPE handled", "SIGPIPE blocked",
	};

	rt_init();
	for (int async = 0; async < 3; async++) {
		for (int kind = 0; kind < 3; kind++) {
			int st = ws_fork(kind, async);

			if (kind == 0)
				rt_check(WIFSIGNALED(st) &&
					 WTERMSIG(st) == SIGPIPE,
					 "%s, a write %s: %s, not killed by "
					 "SIGPIPE", kinds[kind],
					 ws_where(async), ws_status(st));
			else
				rt_check(WIFEXITED(st) &&
					 WEXITSTATUS(st) == 0,
					 "%s, a write %s: %s", kinds[kind],
					 ws_where(async), ws_status(st));
		}
		{
			int st = ws_fork(3, async);

			rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
				 "sigtimedwait %s, SIGUSR2 sent to the "
				 "process: %s", ws_where(async),
				 ws_status(st));
		}
	}
	return rt_done("workersig");
}
