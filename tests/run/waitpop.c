/* waitpop.c: syslet_ring__wait_pop() returns a completion that went into the ring between its look at the next slot and its wait, while another syslet stays busy. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <libsyslet.h>

/*
 * syslet_ring__wait_pop() looks at the next slot and, finding it empty,
 * waits with async_wait(n), which counts only the completions after its
 * own call (2007's events_left).  A completion that lands between the
 * look and the wait is in the ring but not counted: with another syslet
 * busy for good (a server's accept loop) the wait never ends, and the
 * program sleeps beside its completion.  The test makes that window
 * certain: it wraps syslet_ring__pop() (the library calls it through its
 * PLT), and when the real one finds the slot empty, lets a syslet
 * complete and waits until its atom is in the slot before returning.
 * A static build cannot be wrapped so: skip.
 */

typedef struct syslet_uatom *(*pop_fn)(struct syslet_ring *);

static struct syslet_ring *armed;
static int short_wr = -1;
static int wrapped;
static volatile sig_atomic_t alarmed;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((weak)) struct syslet_uatom *
syslet_ring__pop(struct syslet_ring *ring)
{
	static pop_fn real;
	struct syslet_uatom *a;
	double t0;

	if (!real)
		real = (pop_fn)dlsym(RTLD_NEXT, "syslet_ring__pop");
	if (!real) {
		errno = ENOSYS;
		return NULL;
	}
	wrapped = 1;
	a = real(ring);
	if (a || errno != EAGAIN || ring != armed)
		return a;
	/* The window: the short syslet completes now. */
	armed = NULL;
	if (write(short_wr, "x", 1) != 1)
		return NULL;
	t0 = now();
	while (!__atomic_load_n(&ring->slots[ring->head_idx], __ATOMIC_ACQUIRE)) {
		if (now() - t0 > 10) {
			fprintf(stderr, "SKIP: the completion did not go into "
				"the ring outside a library call\n");
			exit(77);
		}
		usleep(1000);
	}
	errno = EAGAIN;
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

/* A syslet of one blocking read of @fd, sent async by its flag. */
static void reader(struct syslet_uatom *a, unsigned long *fd, char *buf,
		   unsigned long *bufp, unsigned long *len, long *ret)
{
	memset(a, 0, sizeof(*a));
	*bufp = (unsigned long)buf;
	*len = 1;
	a->flags = SYSLET_ASYNC;
	a->nr = SYS_read;
	a->ret_ptr = ret;
	a->arg_ptr[0] = fd;
	a->arg_ptr[1] = bufp;
	a->arg_ptr[2] = len;
}

int main(void)
{
	SYSLET_OPTS(syslet_ring, ring);
	struct syslet_uatom lng, shrt, *got;
	unsigned long lfd, sfd, lbuf, sbuf, llen, slen;
	long lret = 0, sret = 0;
	int lp[2], sp[2];
	char lc, sc;
	struct sigaction sa;
	double t0;

	if (syslet_backend_init()) {
		fprintf(stderr, "SKIP: no backend: %s\n",
			syslet_backend_error() ? syslet_backend_error() : "?");
		return 77;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the wait ends */
	sigaction(SIGALRM, &sa, NULL);
	if (pipe(lp) || pipe(sp) || syslet_ring__init(&ring, 8, -1UL)) {
		perror("waitpop: setup");
		return 99;
	}
	lfd = (unsigned long)lp[0];
	sfd = (unsigned long)sp[0];
	short_wr = sp[1];
	/* The long syslet: busy until the end of the test. */
	reader(&lng, &lfd, &lc, &lbuf, &llen, &lret);
	reader(&shrt, &sfd, &sc, &sbuf, &slen, &sret);
	if (sys_async_exec(&lng) || errno || sys_async_exec(&shrt) || errno) {
		fprintf(stderr, "FAIL: the reads did not go async (%s)\n",
			strerror(errno));
		return 1;
	}
	armed = &ring;
	alarm(3);
	t0 = now();
	got = syslet_ring__wait_pop(&ring, 1);
	alarm(0);
	if (!wrapped) {
		fprintf(stderr, "SKIP: syslet_ring__pop cannot be wrapped "
			"(a static libsyslet)\n");
		return 77;
	}
	if (got != &shrt) {
		fprintf(stderr, "FAIL: syslet_ring__wait_pop gave %p (%s) "
			"after %.1f s%s, with the short syslet's atom %p in "
			"the ring since before its wait\n", (void *)got,
			got ? "-" : strerror(errno), now() - t0,
			alarmed ? " and SIGALRM" : "", (void *)&shrt);
		return 1;
	}
	if (sret != 1) {
		fprintf(stderr, "FAIL: the short read gave %ld\n", sret);
		return 1;
	}
	/* The long one ends, and comes next. */
	if (write(lp[1], "y", 1) != 1)
		return 99;
	alarm(10);
	got = syslet_ring__wait_pop(&ring, 1);
	alarm(0);
	if (got != &lng || lret != 1) {
		fprintf(stderr, "FAIL: then wait_pop gave %p (%s), not the "
			"long syslet's atom %p (its read gave %ld)\n",
			(void *)got, got ? "-" : strerror(errno), (void *)&lng,
			lret);
		return 1;
	}
	syslet_ring__exit(&ring);
	printf("waitpop: ok (backend %s)\n", syslet_backend_name());
	return 0;
}
