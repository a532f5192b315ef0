/* sendall.c: sendmsg and writev of more than the socket holds, on a blocking stream, send it all as the calls do (once sendmsg's ancillary data), on every engine. */
#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "helpers.h"

/*
 * 2007's __exec_atom() ran sys_sendmsg() itself (seeds/006): on a
 * blocking stream socket it waits for room until the whole message went.
 * A try with MSG_DONTWAIT sends what fits and, unless the engine goes on
 * with the rest, the atom gives that part (io_uring's sendmsg too).  The
 * message is 1 MiB in two iovecs with one descriptor in SCM_RIGHTS; a
 * reader drains the other end from 100 ms on and counts the bytes, their
 * order and the descriptors it got: all of it, in order, and one
 * descriptor, for the atom as for the direct call.  writev(2) of the
 * same two iovecs must write all of it too (io_uring's writev returns
 * what one try wrote).
 */

#define HALF	(512 * 1024)

static struct rt_ring8 ring;
static int sv[2];
static unsigned char data[2 * HALF];
static int passed_fd;	/* /dev/null, passed in SCM_RIGHTS */

struct got {
	long	bytes;
	long	fds;
	int	order_ok;
};

static void *reader(void *arg)
{
	struct got *g = arg;
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	static unsigned char b[65536];
	union {
		struct cmsghdr	h;
		char		buf[CMSG_SPACE(4 * sizeof(int))];
	} cm;

	nanosleep(&ts, NULL);
	g->order_ok = 1;
	for (;;) {
		struct iovec iov = { b, sizeof(b) };
		struct msghdr mh;
		struct cmsghdr *c;
		ssize_t r;

		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cm.buf;
		mh.msg_controllen = sizeof(cm.buf);
		r = recvmsg(sv[1], &mh, 0);
		if (r <= 0)
			break;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			int *fds = (int *)CMSG_DATA(c);
			size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			if (c->cmsg_level != SOL_SOCKET ||
			    c->cmsg_type != SCM_RIGHTS)
				continue;
			for (size_t i = 0; i < n; i++)
				close(fds[i]);
			g->fds += (long)n;
		}
		if (g->bytes + r > (long)sizeof(data) ||
		    memcmp(b, data + g->bytes, (size_t)r))
			g->order_ok = 0;
		g->bytes += r;
	}
	return NULL;
}

static long run1(unsigned long nr, unsigned long *x)
{
	return rt_run1(&ring, nr, x, 3);
}

/* The whole message by sendmsg (@nr; else writev of its iovecs), by
 * atom (@atom) or directly; what the reader got. */
static long one(unsigned long nr, int atom, struct got *g)
{
	struct iovec iov[2] = { { data, HALF }, { data + HALF, HALF } };
	union {
		struct cmsghdr	h;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr mh;
	struct cmsghdr *c;
	unsigned long x[3];
	pthread_t t;
	long r;

	memset(g, 0, sizeof(*g));
	memset(&cm, 0, sizeof(cm));
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof(cm.buf);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &passed_fd, sizeof(passed_fd));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		if (errno == EAFNOSUPPORT) {
			/* SCM_RIGHTS needs them (the guests' tinyconfig). */
			fprintf(stderr, "SKIP: no Unix sockets in this kernel\n");
			exit(RT_SKIP);
		}
		rt_die("socketpair: %s", strerror(errno));
	}
	if (pthread_create(&t, NULL, reader, g))
		rt_die("pthread_create");
	x[0] = (unsigned long)sv[0];
	x[1] = nr == __NR_sendmsg ? (unsigned long)&mh : (unsigned long)iov;
	x[2] = nr == __NR_sendmsg ? 0 : 2;
	if (atom) {
		r = run1(nr, x);
	} else {
		r = syscall((long)nr, x[0], x[1], x[2]);
		if (r < 0)
			r = -errno;
	}
	shutdown(sv[0], SHUT_WR);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
	return r;
}

int main(void)
{
	struct async_head_user ahu;
	struct got ga, gw;
	long got, want;

	alarm(60);
	rt_init();
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + i / 251);
	passed_fd = open("/dev/null", O_RDONLY);
	if (passed_fd < 0)
		rt_die("/dev/null: %s", strerror(errno));
	rt_register(&ahu, ring.slot, 8, -1UL);
	for (int k = 0; k < 2; k++) {
		unsigned long nr = k ? __NR_writev : __NR_sendmsg;
		const char *name = k ? "writev" : "sendmsg";

		got = one(nr, 1, &ga);
		want = one(nr, 0, &gw);
		rt_check(want == 2 * HALF && gw.bytes == want &&
			 gw.fds == !k && gw.order_ok, "the direct %s: %ld, "
			 "%ld bytes read, %ld descriptors", name, want,
			 gw.bytes, gw.fds);
		rt_check(got == want && ga.bytes == gw.bytes &&
			 ga.fds == gw.fds && ga.order_ok, "%s of 1 MiB: atom "
			 "%ld (reader: %ld bytes%s, %ld descriptors), the call "
			 "%ld (%ld bytes, %ld descriptors)", name, got,
			 ga.bytes, ga.order_ok ? "" : " out of order", ga.fds,
			 want, gw.bytes, gw.fds);
	}
	rt_unregister(&ahu);
	return rt_done("sendall");
}
