/* tmpmask.c: a worker's ppoll, pselect6, epoll_pwait or epoll_pwait2 with a temporary mask that lets in a signal the program blocks takes no signal: no handler runs on the worker, the call is not cut short, and the program handles the signal once it unblocks it. */
#include "helpers.h"
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>

/*
 * The kernel port (kernel-patch/README, patch 0026): a signal never
 * interrupts a worker's atom for a handler; set_current_blocked() of a
 * worker finishing a chain keeps every signal but SIGKILL and SIGSTOP
 * blocked, so a call's temporary mask (ppoll, pselect6, epoll_pwait,
 * epoll_pwait2, rt_sigsuspend...) lets nothing in.  The mask is still
 * read, as the call reads it: EFAULT for a pointer that cannot be read,
 * EINVAL for a size other than the kernel's sigset (8 bytes).
 *
 * The program blocks SIGUSR1, with a handler, and sends it to itself
 * before the syslet starts, so that it is pending for the process the
 * whole time; the call's mask is empty (lets everything in), its
 * descriptor never ready.  It must time out (0) as it would with nothing
 * pending.  Each call runs on a worker two ways: marked SYSLET_ASYNC, and
 * after a pipe read that blocked (the cachemiss path).
 */
#define TIMEOUT_MS	30

static volatile sig_atomic_t handled;
static volatile pid_t handled_tid;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
	handled_tid = (pid_t)syscall(SYS_gettid);
}

/* The cells of one call: at most six arguments, the kernel's sigset
 * (8 bytes: two words on i386), pselect6's pointer-and-size pair, and
 * the descriptors and timeouts the calls read. */
struct tm_cells {
	unsigned long	arg[6];
	unsigned long	set[8 / sizeof(long)];
	unsigned long	pack[2];
	struct pollfd	pfd;
	struct timespec	ts;
	struct { int64_t sec, nsec; } ts64;	/* __kernel_timespec */
	fd_set		rd;
	struct epoll_event ev;
	unsigned char	io_ev[4 * 8];	/* struct io_event */
	long		ret;
};

enum tm_call { TM_PPOLL, TM_PSELECT6, TM_EPOLL_PWAIT, TM_EPOLL_PWAIT2,
	       TM_IO_PGETEVENTS, TM_CALLS };

static const char *const tm_names[TM_CALLS] = {
	"ppoll", "pselect6", "epoll_pwait", "epoll_pwait2", "io_pgetevents",
};

static int quiet_fd, epfd;
static unsigned long aio_ctx;	/* an AIO context with nothing submitted */

/* Fill @c for @call on the never-ready @quiet_fd, the mask at @maskp of
 * @size bytes; its syscall number and number of arguments. */
static unsigned long tm_fill(struct tm_cells *c, enum tm_call call,
			     unsigned long maskp, unsigned long size, int *n)
{
	memset(c, 0, sizeof(*c));
	c->ret = -12345;
	c->ts.tv_nsec = TIMEOUT_MS * 1000000L;
	c->ts64.nsec = TIMEOUT_MS * 1000000L;
	switch (call) {
	case TM_PPOLL:
		c->pfd.fd = quiet_fd;
		c->pfd.events = POLLIN;
		c->arg[0] = (unsigned long)&c->pfd;
		c->arg[1] = 1;
		c->arg[2] = (unsigned long)&c->ts;
		c->arg[3] = maskp;
		c->arg[4] = size;
		*n = 5;
		return SYS_ppoll;
	case TM_IO_PGETEVENTS:
		/* Its mask-and-size pair is struct __aio_sigset. */
		c->pack[0] = maskp;
		c->pack[1] = size;
		c->arg[0] = aio_ctx;
		c->arg[1] = 1;
		c->arg[2] = 1;
		c->arg[3] = (unsigned long)c->io_ev;
		c->arg[4] = (unsigned long)&c->ts;
		c->arg[5] = (unsigned long)c->pack;
		*n = 6;
		return SYS_io_pgetevents;
	case TM_PSELECT6:
		FD_ZERO(&c->rd);
		FD_SET(quiet_fd, &c->rd);
		c->pack[0] = maskp;
		c->pack[1] = size;
		c->arg[0] = (unsigned long)quiet_fd + 1;
		c->arg[1] = (unsigned long)&c->rd;
		c->arg[4] = (unsigned long)&c->ts;
		c->arg[5] = (unsigned long)c->pack;
		*n = 6;
		return SYS_pselect6;
	case TM_EPOLL_PWAIT:
		c->arg[0] = (unsigned long)epfd;
		c->arg[1] = (unsigned long)&c->ev;
		c->arg[2] = 1;
		c->arg[3] = TIMEOUT_MS;
		c->arg[4] = maskp;
		c->arg[5] = size;
		*n = 6;
		return SYS_epoll_pwait;
	default:
		c->arg[0] = (unsigned long)epfd;
		c->arg[1] = (unsigned long)&c->ev;
		c->arg[2] = 1;
		c->arg[3] = (unsigned long)&c->ts64;
		c->arg[4] = maskp;
		c->arg[5] = size;
		*n = 6;
		return SYS_epoll_pwait2;
	}
}

static void tm_atom(struct syslet_uatom *a, struct tm_cells *c,
		    unsigned long *nr, int n, unsigned long flags)
{
	memset(a, 0, sizeof(*a));
	a->nr = *nr;
	a->flags = flags;
	a->ret_ptr = &c->ret;
	for (int i = 0; i < n; i++)
		a->arg_ptr[i] = &c->arg[i];
}

/* Run @a on a worker (@cachemiss: behind a pipe read that blocks, else
 * marked SYSLET_ASYNC); false when the syslet did not go async.  The
 * pipe's byte comes from a thread, 50 ms on: where the kernel refuses the
 * hand-off (no thread free), the read runs in place in this thread, which
 * must not be the one to write it. */
static bool tm_run_async(struct rt_ring8 *r, struct syslet_uatom *a,
			 bool cachemiss)
{
	struct rt_pipe_read pr;
	struct syslet_uatom *first = a, *done;
	pthread_t writer;

	if (cachemiss) {
		rt_pipe_read_init(&pr);
		pr.atom.next = a;
		first = &pr.atom;
		rt_pipe_write_late(&pr, &writer);
	} else {
		a->flags |= SYSLET_ASYNC;
	}
	errno = 0;
	done = sys_async_exec(first);
	if (done || errno) {
		if (cachemiss) {
			rt_pipe_write_join(writer);
			rt_pipe_read_close(&pr);
		}
		return false;
	}
	rt_wait_slot(&r->slot[r->next], 1);
	done = r->slot[r->next];
	r->slot[r->next] = NULL;
	r->next = (r->next + 1) % 8;
	if (done != a)
		rt_die("the chain ended at %p, not at the call's atom %p",
		       (void *)done, (void *)a);
	if (cachemiss) {
		rt_pipe_write_join(writer);
		if (pr.ret != 1)
			rt_die("the pipe read gave %ld", pr.ret);
		rt_pipe_read_close(&pr);
	}
	return true;
}

static int skipped;

/* @call with an empty mask on a worker while SIGUSR1, blocked by the
 * program, is pending for the process. */
static void tm_pending(struct rt_ring8 *r, enum tm_call call, bool cachemiss)
{
	const char *how = cachemiss ? "after a cachemiss" : "SYSLET_ASYNC";
	pid_t me = (pid_t)syscall(SYS_gettid);
	struct syslet_uatom a;
	struct tm_cells c;
	unsigned long nr;
	sigset_t usr1;
	int n;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	handled = 0;
	handled_tid = 0;
	if (kill(getpid(), SIGUSR1))
		rt_die("kill: %s", strerror(errno));
	/* The empty set: it lets every signal in. */
	nr = tm_fill(&c, call, (unsigned long)c.set, 8, &n);
	tm_atom(&a, &c, &nr, n, 0);
	if (!tm_run_async(r, &a, cachemiss)) {
		printf("SKIP %s %s: the syslet did not go async\n",
		       tm_names[call], how);
		skipped++;
	} else {
		rt_check(c.ret == 0, "%s %s: a worker's call with a mask that "
			 "lets in SIGUSR1, pending and blocked by the program, "
			 "gave %ld, not 0 (timed out): a signal never cuts a "
			 "worker's atom short", tm_names[call], how, c.ret);
		rt_check(handled == 0, "%s %s: the SIGUSR1 handler ran %d "
			 "time(s) (thread %d, the program's is %d) while the "
			 "program blocked it", tm_names[call], how,
			 (int)handled, (int)handled_tid, (int)me);
	}
	/* The program's now: its handler runs here, once. */
	if (sigprocmask(SIG_UNBLOCK, &usr1, NULL))
		rt_die("sigprocmask: %s", strerror(errno));
	rt_check(handled == 1 && handled_tid == me, "%s %s: after the program "
		 "unblocked SIGUSR1 its handler had run %d time(s), last in "
		 "thread %d, not once in the program's %d", tm_names[call],
		 how, (int)handled, (int)handled_tid, (int)me);
}

/* The mask is still read on a worker: a pointer that cannot be read is
 * EFAULT, a size other than 8 EINVAL, as the call itself answers. */
static void tm_bad(struct rt_ring8 *r, enum tm_call call)
{
	static const struct { unsigned long ptr_bad, size; long want; }
	cases[] = { { 1, 8, -EFAULT }, { 0, 4, -EINVAL },
		    { 0, 16, -EINVAL } };
	struct syslet_uatom a;
	struct tm_cells c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long nr;
		int n;

		/* 16: an address in the first page, never mapped. */
		nr = tm_fill(&c, call, cases[i].ptr_bad ? 16 :
			     (unsigned long)c.set, cases[i].size, &n);
		tm_atom(&a, &c, &nr, n, 0);
		if (!tm_run_async(r, &a, false)) {
			skipped++;
			continue;
		}
		rt_check(c.ret == cases[i].want, "%s on a worker, mask %s, "
			 "size %lu: %ld, not %ld", tm_names[call],
			 cases[i].ptr_bad ? "at 16" : "readable",
			 cases[i].size, c.ret, cases[i].want);
	}
	/* pselect6's or io_pgetevents' pair itself unreadable. */
	if (call == TM_PSELECT6 || call == TM_IO_PGETEVENTS) {
		unsigned long nr;
		int n;

		nr = tm_fill(&c, call, (unsigned long)c.set, 8, &n);
		c.arg[5] = 16;
		tm_atom(&a, &c, &nr, n, 0);
		if (tm_run_async(r, &a, false))
			rt_check(c.ret == -EFAULT, "%s on a worker, its "
				 "mask-and-size pair at 16: %ld, not -EFAULT",
				 tm_names[call], c.ret);
	}
}

/* rt_sigsuspend's mask is read too; with a good one it would never
 * return on a worker (kernel-patch/README), so only its errors. */
static void tm_sigsuspend(struct rt_ring8 *r)
{
	static const struct { unsigned long ptr, size; long want; }
	cases[] = { { 16, 8, -EFAULT }, { 0, 4, -EINVAL } };
	unsigned long set[8 / sizeof(long)] = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct syslet_uatom a;
		long ret = -12345;
		unsigned long nr = SYS_rt_sigsuspend;
		unsigned long arg[2] = { cases[i].ptr ? cases[i].ptr :
					 (unsigned long)set, cases[i].size };

		memset(&a, 0, sizeof(a));
		a.nr = nr;
		a.ret_ptr = &ret;
		a.arg_ptr[0] = &arg[0];
		a.arg_ptr[1] = &arg[1];
		if (!tm_run_async(r, &a, false)) {
			skipped++;
			continue;
		}
		rt_check(ret == cases[i].want, "rt_sigsuspend on a worker, "
			 "mask %s, size %lu: %ld, not %ld", cases[i].ptr ?
			 "at 16" : "readable", cases[i].size, ret,
			 cases[i].want);
	}
}

int main(void)
{
	struct async_head_user ahu;
	struct rt_ring8 r;
	struct sigaction sa;
	struct epoll_event ev = { .events = EPOLLIN };
	struct { int64_t sec, nsec; } zero = { 0, 0 };
	int pfd[2];
	bool have_pwait2;
	int aio_err = 0;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART */
	if (sigaction(SIGUSR1, &sa, NULL))
		rt_die("sigaction: %s", strerror(errno));
	if (pipe(pfd))
		rt_die("pipe: %s", strerror(errno));
	quiet_fd = pfd[0];	/* nobody writes to it */
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		rt_die("epoll_create1: %s", strerror(errno));
	ev.data.fd = quiet_fd;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, quiet_fd, &ev))
		rt_die("epoll_ctl: %s", strerror(errno));
	/* epoll_pwait2 came with Linux 5.11. */
	have_pwait2 = syscall(SYS_epoll_pwait2, epfd, &ev, 1, &zero, NULL,
			      8) >= 0 || errno != ENOSYS;
	/* io_pgetevents came with Linux 4.18, and AIO may be configured
	 * out (ENOSYS). */
	if (syscall(SYS_io_setup, 1, &aio_ctx)) {
		aio_err = errno;
		aio_ctx = 0;
	}
	memset(&r, 0, sizeof(r));
	rt_register(&ahu, r.slot, 8, 2);
	for (int call = 0; call < TM_CALLS; call++) {
		if (call == TM_EPOLL_PWAIT2 && !have_pwait2) {
			printf("SKIP epoll_pwait2: the kernel lacks it\n");
			continue;
		}
		if (call == TM_IO_PGETEVENTS && !aio_ctx) {
			printf("SKIP io_pgetevents: io_setup: %s\n",
			       strerror(aio_err));
			continue;
		}
		tm_pending(&r, (enum tm_call)call, false);
		tm_pending(&r, (enum tm_call)call, true);
		tm_bad(&r, (enum tm_call)call);
	}
	tm_sigsuspend(&r);
	rt_unregister(&ahu);
	if (aio_ctx)
		syscall(SYS_io_destroy, aio_ctx);
	if (skipped)
		printf("%d case(s) did not go async and were skipped\n",
		       skipped);
	return rt_done("tmpmask");
}
