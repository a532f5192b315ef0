/* sigsem.c: handled, ignored and blocked signals against 2007's signal_pending() test after each atom, in a call that blocks in the caller, in a long loop of atoms, and on a worker. */
#include "helpers.h"
#include <limits.h>

/*
 * 2007's exec_atom() ends a syslet after any atom once signal_pending()
 * is true for the task that runs it.  A signal whose action is SIG_IGN is
 * discarded when it is sent (never pending); a blocked one stays pending
 * without making signal_pending() true.  So neither may end a syslet,
 * while a handled one ends it after the atom it interrupted or the atom
 * at which it arrived (syslet(7): our engines look every few atoms, and
 * store EINTR where 2007 stored ERESTARTSYS).
 */

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

enum how { HANDLED, IGNORED, BLOCKED };
static const char *const how_name[] = { "handled", "ignored", "blocked" };

static void set_how(enum how how)
{
	struct sigaction sa;
	sigset_t s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = how == IGNORED ? SIG_IGN : on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(how == BLOCKED ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

/* Back to a handled, unblocked SIGUSR1 with nothing pending. */
static void reset(void)
{
	struct sigaction sa;
	sigset_t s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGUSR1, &sa, NULL);	/* discards a pending one */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	handled = 0;
}

static int usr1_pending(void)
{
	sigset_t s;

	sigpending(&s);
	return sigismember(&s, SIGUSR1);
}

/* A thread that sends SIGUSR1 to @target after @sig_ms, then writes a
 * byte to @fd (when >= 0) after @wr_ms. */
struct kicker {
	pthread_t	target;
	long		sig_ms, wr_ms;
	int		fd;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

static void *kicker_main(void *arg)
{
	struct kicker *k = arg;

	sleep_ms(k->sig_ms);
	pthread_kill(k->target, SIGUSR1);
	if (k->fd >= 0) {
		sleep_ms(k->wr_ms - k->sig_ms);
		if (write(k->fd, "k", 1) != 1)
			rt_die("write: %s", strerror(errno));
	}
	return NULL;
}

static pthread_t kick(struct kicker *k, long sig_ms, long wr_ms, int fd)
{
	pthread_t t;
	sigset_t s, old;

	k->target = pthread_self();
	k->sig_ms = sig_ms;
	k->wr_ms = wr_ms;
	k->fd = fd;
	/* The kicker itself never takes the signal. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	if (pthread_create(&t, NULL, kicker_main, k))
		rt_die("pthread_create");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return t;
}

/*
 * A SYNC read of an empty pipe, in the caller, then getpid.  The signal
 * comes 30 ms into the read, the byte 80 ms.  Handled: the read stores
 * -EINTR and the syslet ends there.  Ignored or blocked: the read gets
 * its byte and the syslet goes on to getpid, in async_exec.
 */
static void caller_read(enum how how)
{
	struct syslet_uatom g, *done;
	struct rt_pipe_read pr;
	long r1 = -12345;
	struct kicker k;
	pthread_t t;

	rt_pipe_read_init(&pr);
	pr.ret = -12345;
	pr.atom.flags = SYSLET_SYNC;
	pr.atom.next = &g;
	rt_atom(&g, SYS_getpid, &r1, 0, NULL, NULL, NULL, NULL);
	set_how(how);
	t = kick(&k, 30, 80, pr.pfd[1]);
	errno = 0;
	done = sys_async_exec(&pr.atom);
	pthread_join(t, NULL);
	if (how == HANDLED) {
		rt_check(done == &pr.atom && pr.ret == -EINTR && r1 == -12345,
			 "%s: ended at %p (a %p) r0 %ld r1 %ld errno %d",
			 how_name[how], (void *)done, (void *)&pr.atom, pr.ret,
			 r1, errno);
		rt_check(handled == 1, "handler ran %d times", (int)handled);
	} else {
		rt_check(done == &g && pr.ret == 1 && r1 == getpid(),
			 "%s: ended at %p (a %p) r0 %ld r1 %ld errno %d",
			 how_name[how], (void *)done, (void *)&pr.atom, pr.ret,
			 r1, errno);
		rt_check(how != BLOCKED || usr1_pending(),
			 "blocked: SIGUSR1 is not pending any more");
	}
	reset();
	rt_pipe_read_close(&pr);
}

/*
 * A loop of umem_add atoms in the caller, long enough to take a second,
 * with a getppid atom in it (@mid) or not; the signal comes 20 ms in.
 * Handled: the syslet ends early, at one of the loop's atoms, the count
 * short of its end.  Ignored or blocked: it runs to the end.
 */
#define LOOP_N	(20UL * 1000 * 1000)
#define LOOP_CALIB	20000UL

/* The loop's atoms, @want passes, a getppid in it or not. */
static void loop_atoms(struct syslet_uatom a[3], int mid, unsigned long *n,
		       unsigned long *c, unsigned long want, long r[3])
{
	static unsigned long one = 1, pn, pc;

	*n = 0;
	*c = -want;
	pn = (unsigned long)n;
	pc = (unsigned long)c;
	rt_atom(&a[0], rt_umem_nr(), &r[0], 0, mid ? &a[2] : &a[1], &pn,
		&one, NULL);
	rt_atom(&a[1], rt_umem_nr(), &r[1], SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	rt_atom(&a[2], SYS_getppid, &r[2], 0, &a[1], NULL, NULL, NULL);
}

/*
 * Passes for about a second of this machine's loop, up to 20 million
 * (2 million with getppid): long after the signal 20 ms in, and not the
 * minutes 40 million atoms take on a debug kernel under TCG.
 */
static unsigned long loop_passes(int mid)
{
	unsigned long n, c, max = mid ? LOOP_N / 20 : LOOP_N;
	struct syslet_uatom a[3];
	long r[3];
	double t0, per;

	loop_atoms(a, mid, &n, &c, LOOP_CALIB, r);
	t0 = rt_now();
	if (sys_async_exec(&a[0]) != &a[1] || n != LOOP_CALIB)
		rt_die("mid %d: the calibration loop ended after %lu passes",
		       mid, n);
	per = (rt_now() - t0) / (double)LOOP_CALIB;
	if (per <= 0 || 1.0 / per >= (double)max)
		return max;
	return 1.0 / per > (double)LOOP_CALIB ? (unsigned long)(1.0 / per) :
						 LOOP_CALIB;
}

static void caller_loop(enum how how, int mid)
{
	struct syslet_uatom a[3], *done;
	unsigned long n, c, want = loop_passes(mid);
	long r[3];
	struct kicker k;
	pthread_t t;

	loop_atoms(a, mid, &n, &c, want, r);
	set_how(how);
	t = kick(&k, 20, 0, -1);
	errno = 0;
	done = sys_async_exec(&a[0]);
	pthread_join(t, NULL);
	if (how == HANDLED) {
		rt_check(done >= &a[0] && done <= &a[2] && c != 0 && n < want,
			 "%s mid %d: ended at %p, n %lu of %lu (errno %d)",
			 how_name[how], mid, (void *)done, n, want, errno);
		rt_check(handled == 1, "handler ran %d times", (int)handled);
	} else {
		rt_check(done == &a[1] && c == 0 && n == want,
			 "%s mid %d: ended at %p (a %p), n %lu of %lu errno %d",
			 how_name[how], mid, (void *)done, (void *)a, n, want,
			 errno);
	}
	reset();
}

/*
 * The read went async (no SYNC): the signal sent to the program's thread
 * while a worker waits in the read never ends the worker's syslet
 * (syslet(7), SIGNALS), whatever its action: the read gets its byte and
 * getpid runs, and the ring has the getpid atom.
 */
static void worker_read(enum how how, struct syslet_uatom **ring)
{
	struct syslet_uatom g;
	struct rt_pipe_read pr;
	long r1 = -12345;
	struct kicker k;
	pthread_t t;

	rt_pipe_read_init(&pr);
	pr.ret = -12345;
	pr.atom.next = &g;
	rt_atom(&g, SYS_getpid, &r1, 0, NULL, NULL, NULL, NULL);
	set_how(how);
	errno = 0;
	if (sys_async_exec(&pr.atom) || errno)
		rt_die("the read did not go async");
	t = kick(&k, 30, 80, pr.pfd[1]);
	while (!__atomic_load_n(&ring[0], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1) && errno != EINTR)
			rt_die("async_wait: %s", strerror(errno));
	pthread_join(t, NULL);
	rt_check(ring[0] == &g && pr.ret == 1 && r1 == getpid(),
		 "%s worker: ring %p (a %p) r0 %ld r1 %ld", how_name[how],
		 (void *)ring[0], (void *)&pr.atom, pr.ret, r1);
	ring[0] = NULL;
	/* The ring's next slot is 1 now: move the rest down by using a
	 * fresh registration each time. */
	reset();
	rt_pipe_read_close(&pr);
}

int main(void)
{
	struct syslet_uatom *ring[8];
	struct async_head_user ahu;

	rt_init();
	rt_register(&ahu, ring, 8, -1UL);
	for (int h = HANDLED; h <= BLOCKED; h++)
		caller_read((enum how)h);
	for (int h = HANDLED; h <= BLOCKED; h++)
		for (int mid = 0; mid < 2; mid++)
			caller_loop((enum how)h, mid);
	rt_unregister(&ahu);
	for (int h = HANDLED; h <= BLOCKED; h++) {
		rt_register(&ahu, ring, 8, -1UL);
		worker_read((enum how)h, ring);
		rt_unregister(&ahu);
	}
	return rt_done("sigsem");
}
