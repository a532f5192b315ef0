/* zerowait.c: ppoll(), pselect6() and epoll_pwait() with a zero timeout, and poll() and epoll_wait() of something ready, never block, so async_exec() runs them in place and returns the atom, as 2007 did, with nothing in the ring. */
#include "helpers.h"
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>

/*
 * 2007 switched a syslet to a cachemiss thread only when an atom's call
 * slept; a call with a zero timeout only looks, so the syslet ran to its
 * end in the caller and async_exec() returned its last atom.  poll(),
 * select() and epoll_wait() with 0 did so on emul and uring; the calls
 * that take a temporary signal mask (ppoll, pselect6, epoll_pwait,
 * epoll_pwait2) went to a worker whatever their timeout: async_exec()
 * returned NULL and the atom came through the ring.  Each is made with
 * nothing ready (0) and with a byte in the pipe (1), with a temporary
 * mask given and without.  poll() and epoll_wait() with a timeout of -1
 * and a byte ready went to a worker too.  A zero timeout is given as four zero words,
 * which reads as zero in every timespec layout.
 */

static struct syslet_uatom *ring[4];
static unsigned long idx;

static void one(const char *what, long nr, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3, unsigned long a4,
		unsigned long a5, long want)
{
	unsigned long v[6] = { a0, a1, a2, a3, a4, a5 };
	struct syslet_uatom a, *done;
	long ret = -12345;

	memset(&a, 0, sizeof(a));
	a.nr = (unsigned long)nr;
	a.ret_ptr = &ret;
	for (int i = 0; i < 6; i++)
		a.arg_ptr[i] = &v[i];
	errno = 0;
	done = sys_async_exec(&a);
	if (!done)
		while (!__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
			if (sys_async_wait(1) && errno != EINTR)
				rt_die("async_wait: %s", strerror(errno));
	rt_check(done == &a && errno == 0,
		 "%s: async_exec returned %p (errno %d), want the atom %p: "
		 "it went async", what, (void *)done, errno, (void *)&a);
	rt_check(ret == want, "%s: ret %ld, want %ld", what, ret, want);
	rt_drain(ring, 4, &idx, NULL, 0);
}

int main(void)
{
	static unsigned long zero[4];
	struct async_head_user ahu;
	struct epoll_event ev = { .events = EPOLLIN }, out[1];
	struct pollfd pf;
	unsigned long mask = 0, sel[2] = { (unsigned long)&mask, 8 };
	fd_set rs;
	int p[2], ep, round;

	rt_init();
	rt_register(&ahu, ring, 4, 4);
	if (pipe(p))
		rt_die("pipe: %s", strerror(errno));
	ep = epoll_create1(0);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev))
		rt_die("epoll: %s", strerror(errno));
	pf.fd = p[0];
	pf.events = POLLIN;
	for (round = 0; round < 2; round++) {
		long want = round;

		if (round == 1 && write(p[1], "x", 1) != 1)
			rt_die("write: %s", strerror(errno));
		one("ppoll", SYS_ppoll, (unsigned long)&pf, 1,
		    (unsigned long)zero, 0, 8, 0, want);
		one("ppoll with a mask", SYS_ppoll, (unsigned long)&pf, 1,
		    (unsigned long)zero, (unsigned long)&mask, 8, 0, want);
		FD_ZERO(&rs);
		FD_SET(p[0], &rs);
		one("pselect6", SYS_pselect6, (unsigned long)p[0] + 1,
		    (unsigned long)&rs, 0, 0, (unsigned long)zero, 0, want);
		FD_ZERO(&rs);
		FD_SET(p[0], &rs);
		one("pselect6 with a mask", SYS_pselect6,
		    (unsigned long)p[0] + 1, (unsigned long)&rs, 0, 0,
		    (unsigned long)zero, (unsigned long)sel, want);
		one("epoll_pwait", SYS_epoll_pwait, (unsigned long)ep,
		    (unsigned long)out, 1, 0, (unsigned long)&mask, 8, want);
		/* Ready, a call with a timeout does not sleep either. */
		if (round == 1) {
			one("poll, timeout -1, ready", SYS_poll,
			    (unsigned long)&pf, 1, -1UL, 0, 0, 0, 1);
			one("epoll_wait, timeout -1, ready", SYS_epoll_wait,
			    (unsigned long)ep, (unsigned long)out, 1, -1UL,
			    0, 0, 1);
		}
#ifdef SYS_epoll_pwait2
		/* ENOSYS where the kernel lacks it (before 5.11). */
		if (syscall(SYS_epoll_pwait2, ep, out, 1, zero, NULL, 8) ==
		    want)
			one("epoll_pwait2", SYS_epoll_pwait2,
			    (unsigned long)ep, (unsigned long)out, 1,
			    (unsigned long)zero, (unsigned long)&mask, 8,
			    want);
#endif
	}
	close(ep);
	close(p[0]);
	close(p[1]);
	rt_unregister(&ahu);
	return rt_done("zerowait");
}
