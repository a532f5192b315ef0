/* handlerexec.c: async_exec() from a signal handler that interrupts the same thread's async_exec(), async_wait(), ring pop or async_unregister(): it runs as from anywhere else, never deadlocking on the engine's lock. */
#include "helpers.h"
#include <signal.h>
#include <stdbool.h>
#include <sys/time.h>

/*
 * The 2007 calls were system calls: a handler ran only once the call it
 * interrupted had returned to user space, so a handler's async_exec()
 * found the head as any call would (seeds/006; a head is the thread's,
 * and its handlers run in that thread).  The user-space engines run the
 * calls in the program's thread, so a handler may come while one holds
 * the head's lock: it must not (uring's async_exec of a syslet that went
 * straight to the ring held it with signals open, and a handler's
 * async_exec there waited on it for ever).  A timer 200 us apart sends
 * SIGALRM while the thread makes calls; the handler starts a syslet,
 * marked SYSLET_ASYNC; every one must complete, in the ring, once.
 */

#define RT_RING		65536
#define RT_HMAX		4096

static struct syslet_uatom *ring[RT_RING];
static unsigned long ring_idx;
static struct async_head_user ahu = { ring, sizeof(ring), -1UL };
static struct syslet_uatom h_atom[RT_HMAX];
static long h_ret[RT_HMAX];
static volatile sig_atomic_t h_n, h_async, h_inline, h_einval, h_other;
static volatile sig_atomic_t h_on;
static const char *volatile round_name = "start";

static void on_alarm(int sig)
{
	struct syslet_uatom *a, *done;
	int e = errno;

	(void)sig;
	if (!h_on || h_n >= RT_HMAX)
		return;
	a = &h_atom[h_n];
	rt_atom(a, __NR_getppid, &h_ret[h_n], SYSLET_ASYNC, NULL, NULL, NULL,
		NULL);
	h_n++;
	errno = 0;
	done = sys_async_exec(a);
	if (!done && !errno)
		h_async++;
	else if (done == a)
		h_inline++;
	else if (!done && errno == EINVAL)
		h_einval++;
	else
		h_other++;
	errno = e;
}

/* SIGALRM every @us, the handler armed. */
static void timer_on(long us)
{
	h_on = 1;
	rt_itimer(us);
}

static void timer_off(void)
{
	rt_itimer(0);
	h_on = 0;
}

static unsigned long drain(void)
{
	return rt_drain(ring, RT_RING, &ring_idx, NULL, 0);
}

/* A round begins: its name, the handler's counts cleared, a head. */
static void round_begin(const char *what)
{
	round_name = what;
	h_n = h_async = h_inline = h_einval = h_other = 0;
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("async_register: %s", strerror(errno));
}

/* ... and a read of an empty pipe in flight, its byte written later. */
static void round_begin_read(const char *what, struct rt_pipe_read *pr,
			     pthread_t *t)
{
	round_begin(what);
	rt_pipe_read_init(pr);
	rt_pipe_read_exec(pr);
	rt_late_write(&pr->late, SIGALRM, t);
}

/* @what: the calls the thread makes while the handler comes. */
static void round_of(const char *what, unsigned long flags, int waits)
{
	static struct syslet_uatom m_atom[RT_RING / 2];
	static long m_ret[RT_RING / 2];
	unsigned long expect = 0, got = 0;
	long bad = 0;
	double end;
	int i;

	round_begin(what);
	timer_on(200);
	end = rt_now() + 0.3;
	for (i = 0; i < RT_RING / 2 - RT_HMAX && rt_now() < end; i++) {
		struct syslet_uatom *done;

		rt_atom(&m_atom[i], __NR_getppid, &m_ret[i], flags, NULL,
			NULL, NULL, NULL);
		errno = 0;
		done = sys_async_exec(&m_atom[i]);
		if (!done && !errno)
			expect++;
		else if (done != &m_atom[i])
			rt_die("%s: async_exec: %p %s", what, (void *)done,
			       strerror(errno));
		if (waits && sys_async_wait(1) && errno != EINTR)
			rt_die("%s: async_wait: %s", what, strerror(errno));
		got += drain();
	}
	timer_off();
	expect += h_async;
	while (got < expect) {
		if (sys_async_wait(1) && errno != EINTR)
			break;
		got += drain();
	}
	got += drain();
	for (int k = 0; k < h_n; k++)
		bad += h_ret[k] != getppid();
	for (int k = 0; k < i; k++)
		bad += m_ret[k] != getppid();
	rt_check(h_n > 10 && h_async + h_inline == h_n && !h_einval &&
		 !h_other && got == expect && !bad,
		 "%s: %ld handler calls (%ld async, %ld inline, %ld EINVAL, "
		 "%ld other), %d calls of the thread, %lu completions of %lu "
		 "expected, %ld wrong results", what, (long)h_n, (long)h_async,
		 (long)h_inline, (long)h_einval, (long)h_other, i, got,
		 expect, bad);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	memset(ring, 0, sizeof(ring));
	ring_idx = 0;
}

/* async_wait(1) asleep for a read that a thread completes 50 ms later,
 * while the handler comes every 2 ms: about 25 times, at least 3 in a
 * guest under TCG on a loaded host (it ran 5 times there once). */
static void round_wait(void)
{
	struct rt_pipe_read pr;
	pthread_t t;
	unsigned long got = 0;

	round_begin_read("async_wait asleep", &pr, &t);
	timer_on(2000);
	while (pr.ret != 1)
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	timer_off();
	rt_pipe_write_join(t);
	while (got < 1 + (unsigned long)h_async) {
		got += drain();
		if (got < 1 + (unsigned long)h_async && sys_async_wait(1))
			break;
	}
	got += drain();
	rt_check(h_n >= 3 && got == 1 + (unsigned long)h_async && !h_einval &&
		 !h_other && h_async + h_inline == h_n,
		 "async_wait: %lu completions, %ld handler calls (%ld async, "
		 "%ld inline, %ld EINVAL, %ld other)", got, (long)h_n,
		 (long)h_async, (long)h_inline, (long)h_einval, (long)h_other);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	close(pr.pfd[0]);
	close(pr.pfd[1]);
	memset(ring, 0, sizeof(ring));
	ring_idx = 0;
}

/* async_unregister() waiting for a read in flight while the handler
 * comes: a handler's syslet runs before it (and is waited for) or
 * after it (EINVAL: no head). */
static void round_unregister(void)
{
	struct rt_pipe_read pr;
	pthread_t t;
	unsigned long got;

	round_begin_read("async_unregister waiting for a read", &pr, &t);
	timer_on(200);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	timer_off();
	rt_pipe_write_join(t);
	got = drain();
	rt_check(pr.ret == 1 && got == 1 + (unsigned long)h_async &&
		 !h_other && h_async + h_inline + h_einval == h_n,
		 "unregister: the read stored %ld; %lu completions, %ld "
		 "handler calls (%ld async, %ld inline, %ld EINVAL, %ld other)",
		 pr.ret, got, (long)h_n, (long)h_async, (long)h_inline,
		 (long)h_einval, (long)h_other);
	close(pr.pfd[0]);
	close(pr.pfd[1]);
	memset(ring, 0, sizeof(ring));
	ring_idx = 0;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm,
				.sa_flags = SA_RESTART };

	rt_init();
	rt_watchdog(__FILE__, &round_name, 30);
	if (sigaction(SIGALRM, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	round_of("async_exec of SYSLET_ASYNC syslets", SYSLET_ASYNC, 0);
	round_of("async_exec of syslets that end inline", 0, 0);
	round_of("async_exec and async_wait", SYSLET_ASYNC, 1);
	round_wait();
	round_unregister();
	return rt_done("handlerexec");
}
