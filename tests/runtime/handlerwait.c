/* handlerwait.c: a signal handler's async_wait() and async_unregister() while the same thread sleeps in async_wait() or async_unregister(), or an atom of its async_exec() blocks in place: as after 2007's system calls, never a deadlock or a head freed under the interrupted call. */
#include "helpers.h"
#include <signal.h>
#include <stdbool.h>
#include <sys/time.h>

/*
 * In 2007 a handler ran once the system call it interrupted had returned
 * to user space (seeds/006: async_wait's wait_event_interruptible()
 * answered -ERESTARTSYS, restarted with SA_RESTART): a handler's
 * async_wait() was a wait like any other, and a handler's
 * async_unregister() waited for the busy syslets and freed the head, so
 * that the restarted wait found none (EINVAL) and an unrestarted one
 * said EINTR.  The user-space engines run these calls in the program's
 * thread, so the handler comes in the middle of one: on uring the wait
 * sleeps in io_uring_enter() holding the head's lock, and a handler's
 * async_wait() or async_unregister() waited on that lock for ever; a
 * handler's async_unregister() while an atom blocked in place freed the
 * head under async_exec(), which then wrote into freed memory.
 */

#define RT_RING		4096

static struct syslet_uatom *ring[RT_RING];
static unsigned long ring_idx;
static struct async_head_user ahu = { ring, sizeof(ring), -1UL };
static struct syslet_uatom h_atom[RT_RING / 2];
static long h_ret[RT_RING / 2];
/* 1: async_exec() then async_wait(1); 2: async_unregister() once. */
static volatile sig_atomic_t h_mode, h_n, h_ok, h_err, h_einval;
static const char *volatile round_name = "start";

static void on_alarm(int sig)
{
	int e = errno;

	(void)sig;
	if (h_mode == 1 && h_n < RT_RING / 2) {
		struct syslet_uatom *a = &h_atom[h_n];

		rt_atom(a, __NR_getppid, &h_ret[h_n], SYSLET_ASYNC, NULL, NULL,
			NULL, NULL);
		h_n++;
		errno = 0;
		if ((!sys_async_exec(a) && errno) || sys_async_wait(1))
			h_err++;
		else
			h_ok++;
	} else if (h_mode == 2) {
		h_mode = 0;
		if (!sys_async_unregister(&ahu, sizeof(ahu)))
			h_ok++;
		else if (errno == EINVAL)
			h_einval++;
		else
			h_err++;
	}
	errno = e;
}

static unsigned long drain(void)
{
	return rt_drain(ring, RT_RING, &ring_idx, NULL, 0);
}

/* After a round that unregistered: no head, as after 2007's call. */
static void headless(const char *what)
{
	long r;

	errno = 0;
	r = sys_async_wait(1);
	rt_check(r == -1 && errno == EINVAL, "%s: async_wait after: %ld, "
		 "errno %d, expected -1 and EINVAL (no head)", what, r, errno);
}

static void on_sigalrm(bool restart)
{
	struct sigaction sa = { .sa_handler = on_alarm,
				.sa_flags = restart ? SA_RESTART : 0 };

	if (sigaction(SIGALRM, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
}

/*
 * A round begins: a head, and a read of an empty pipe whose byte a
 * thread writes 50 ms later (that thread blocks SIGALRM: the timer's
 * signal is the process's and must come to this thread, see
 * handlerexec.c).  @sync: the read is SYSLET_SYNC and the caller
 * makes it (it blocks in place); else it goes async now.
 */
static void round_begin(const char *what, struct rt_pipe_read *pr,
			pthread_t *t, bool sync)
{
	round_name = what;
	h_mode = 0;
	h_n = h_ok = h_err = h_einval = 0;
	memset(ring, 0, sizeof(ring));
	ring_idx = 0;
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("%s: async_register: %s", what, strerror(errno));
	rt_pipe_read_init(pr);
	if (sync)
		pr->atom.flags |= SYSLET_SYNC;
	else
		rt_pipe_read_exec(pr);
	rt_late_write(&pr->late, SIGALRM, t);
}

static void round_end(struct rt_pipe_read *pr, pthread_t t)
{
	rt_itimer(0);
	h_mode = 0;
	rt_pipe_write_join(t);
	close(pr->pfd[0]);
	close(pr->pfd[1]);
}

/* The handler's async_exec() and async_wait(1) while async_wait(1)
 * sleeps: each wait returns, every syslet completes once. */
static void round_wait_in_wait(void)
{
	struct rt_pipe_read pr;
	pthread_t t;
	unsigned long got = 0;

	on_sigalrm(true);
	round_begin("a handler's async_wait in async_wait", &pr, &t, false);
	h_mode = 1;
	rt_itimer(2000);
	while (pr.ret != 1)
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	h_mode = 0;
	rt_itimer(0);
	while (got < 1 + (unsigned long)h_n) {
		got += drain();
		if (got < 1 + (unsigned long)h_n && sys_async_wait(1))
			break;
	}
	got += drain();
	for (long k = 0; k < h_n; k++)
		rt_check(h_ret[k] == getppid(), "handler's syslet %ld stored "
			 "%ld", k, h_ret[k]);
	/* A handler's wait may last until the read completes: on the
	 * kernel its syslet may have completed before the wait began,
	 * and counts only what comes after. */
	rt_check(h_n >= 2 && h_ok == h_n && !h_err &&
		 got == 1 + (unsigned long)h_n,
		 "%s: %ld handler calls, %ld waited, %ld failed; %lu "
		 "completions", round_name, (long)h_n, (long)h_ok,
		 (long)h_err, got);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	round_end(&pr, t);
}

/* The handler's async_unregister() while async_wait(1) sleeps on the
 * head: it waits for the read; the wait then finds no head (restarted:
 * EINVAL) or says EINTR. */
static void round_unregister_in_wait(bool restart)
{
	struct rt_pipe_read pr;
	pthread_t t;
	long r;
	int e;

	on_sigalrm(restart);
	round_begin(restart ? "a handler's async_unregister in async_wait "
			      "(SA_RESTART)" :
			      "a handler's async_unregister in async_wait",
		    &pr, &t, false);
	h_mode = 2;
	rt_itimer(5000);
	errno = 0;
	r = sys_async_wait(1);
	e = errno;
	round_end(&pr, t);
	rt_check(h_ok == 1 && !h_err && pr.ret == 1 && r == -1 &&
		 e == (restart ? EINVAL : EINTR),
		 "%s: the handler's unregister %ld, failed %ld; the read "
		 "stored %ld; the wait returned %ld, errno %d (expected %d)",
		 round_name, (long)h_ok, (long)h_err, pr.ret, r, e,
		 restart ? EINVAL : EINTR);
	headless(round_name);
}

/* The handler's async_unregister() while the caller's async_unregister()
 * waits for the read: the head goes once, the read done; the handler's
 * call may find it gone (EINVAL), as after 2007's, which a handler did
 * not interrupt. */
static void round_unregister_in_unregister(void)
{
	struct rt_pipe_read pr;
	pthread_t t;
	long r;
	int e;

	on_sigalrm(true);
	round_begin("a handler's async_unregister in async_unregister", &pr,
		    &t, false);
	h_mode = 2;
	rt_itimer(5000);
	errno = 0;
	r = sys_async_unregister(&ahu, sizeof(ahu));
	e = errno;
	round_end(&pr, t);
	rt_check(pr.ret == 1 && !h_err && h_ok + h_einval == 1 &&
		 (r == 0 || (r == -1 && e == EINVAL && h_ok == 1)),
		 "%s: the handler's unregister %ld, EINVAL %ld, failed %ld; "
		 "the read stored %ld; the call returned %ld, errno %d",
		 round_name, (long)h_ok, (long)h_einval, (long)h_err, pr.ret,
		 r, e);
	headless(round_name);
}

/* The handler's async_unregister() while a SYSLET_SYNC read blocks in
 * place inside async_exec(): async_exec returns the read, and the head
 * is gone after.  The read is restarted (SA_RESTART) on the user-space
 * backends and stores EINTR on the kernel's (syslet(7): 2007 stored
 * ERESTARTSYS). */
static void round_unregister_in_exec(void)
{
	struct rt_pipe_read pr;
	struct syslet_uatom *done;
	long want = strcmp(syslet_backend_name(), "kernel") ? 1 : -EINTR;
	pthread_t t;
	int e;

	on_sigalrm(true);
	round_begin("a handler's async_unregister in async_exec", &pr, &t,
		    true);
	h_mode = 2;
	rt_itimer(5000);
	errno = 0;
	done = sys_async_exec(&pr.atom);
	e = errno;
	round_end(&pr, t);
	rt_check(h_ok == 1 && !h_err && done == &pr.atom && !e &&
		 pr.ret == want,
		 "%s: the handler's unregister %ld, failed %ld; async_exec "
		 "returned %p (the read %p), errno %d; the read stored %ld "
		 "(expected %ld)", round_name, (long)h_ok, (long)h_err,
		 (void *)done, (void *)&pr.atom, e, pr.ret, want);
	headless(round_name);
	/* A head again, as after any unregister. */
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("async_register again: %s", strerror(errno));
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
}

/*
 * The same, the SYNC read followed by a read of another pipe, written
 * 100 ms later, which goes to a worker: on the user-space backends the
 * read is restarted and the chain goes on after the handler, the second
 * read handed off on the head the handler ended; async_exec waits for
 * it, as the kernel's unregister would have once async_exec had
 * returned, and returns with its completion in the ring.  On the kernel
 * the first read stores EINTR and the chain ends there.
 */
static void round_unregister_in_exec_chain(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long fd[2], buf[2], len = 1;
	int p1[2], p2[2];
	char c[2];
	long r[2] = { 99, 99 };
	bool kernel = !strcmp(syslet_backend_name(), "kernel");
	struct rt_late l[2];
	pthread_t t[2];
	int e;

	on_sigalrm(true);
	round_name = "a handler's async_unregister in async_exec, the chain "
		     "going on to a worker";
	h_mode = 0;
	h_n = h_ok = h_err = h_einval = 0;
	memset(ring, 0, sizeof(ring));
	ring_idx = 0;
	if (pipe(p1) || pipe(p2))
		rt_die("pipe: %s", strerror(errno));
	fd[0] = (unsigned long)p1[0];
	fd[1] = (unsigned long)p2[0];
	buf[0] = (unsigned long)&c[0];
	buf[1] = (unsigned long)&c[1];
	rt_atom(&a[0], __NR_read, &r[0], SYSLET_SYNC, &a[1], &fd[0], &buf[0],
		&len);
	rt_atom(&a[1], __NR_read, &r[1], 0, NULL, &fd[1], &buf[1], &len);
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("%s: async_register: %s", round_name, strerror(errno));
	l[0].fd = p1[1];
	l[0].ms = 50;
	l[1].fd = p2[1];
	l[1].ms = 150;
	for (int i = 0; i < 2; i++)
		rt_late_write(&l[i], SIGALRM, &t[i]);
	h_mode = 2;
	rt_itimer(5000);
	errno = 0;
	done = sys_async_exec(&a[0]);
	e = errno;
	rt_itimer(0);
	h_mode = 0;
	if (kernel)
		rt_check(h_ok == 1 && !h_err && done == &a[0] && !e &&
			 r[0] == -EINTR && r[1] == 99,
			 "%s: the handler's unregister %ld, failed %ld; "
			 "async_exec returned %p (the first read %p), errno "
			 "%d; the reads stored %ld and %ld", round_name,
			 (long)h_ok, (long)h_err, (void *)done, (void *)&a[0],
			 e, r[0], r[1]);
	else
		rt_check(h_ok == 1 && !h_err && !done && !e && r[0] == 1 &&
			 r[1] == 1 && ring[0] == &a[1] && !ring[1],
			 "%s: the handler's unregister %ld, failed %ld; "
			 "async_exec returned %p, errno %d; the reads stored "
			 "%ld and %ld; the ring holds %p (the second read %p) "
			 "and %p", round_name, (long)h_ok, (long)h_err,
			 (void *)done, e, r[0], r[1], (void *)ring[0],
			 (void *)&a[1], (void *)ring[1]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	headless(round_name);
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);
}

int main(void)
{
	rt_init();
	rt_watchdog(__FILE__, &round_name, 30);
	round_wait_in_wait();
	round_unregister_in_wait(true);
	round_unregister_in_wait(false);
	round_unregister_in_unregister();
	round_unregister_in_exec();
	round_unregister_in_exec_chain();
	return rt_done("handlerwait");
}
