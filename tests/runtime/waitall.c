/* waitall.c: recvfrom and recvmsg with MSG_WAITALL on a blocking stream give what the call gives, the whole length once it came (or what came before the end), on every engine. */
#include <pthread.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "helpers.h"

/*
 * 2007's __exec_atom() ran sys_recvfrom() itself (seeds/006): with
 * MSG_WAITALL on a blocking stream socket it waits until the whole
 * length came, the peer shut its side down, or an error.  Five bytes are
 * there at the start, five more (or the end) come from a thread 100 ms
 * later; the atom's result and buffer must be those of the same call
 * made directly.  A try with MSG_DONTWAIT (which takes what is there)
 * would give 5 at once.
 */

static struct rt_ring8 ring;
static int sv[2];
static int end_it;	/* the late thread shuts down instead of writing */

static void *late(void *arg)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	(void)arg;
	nanosleep(&ts, NULL);
	if (end_it)
		shutdown(sv[1], SHUT_WR);
	else if (write(sv[1], "world", 5) != 5)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

static long run1(unsigned long nr, unsigned long *x, int n)
{
	return rt_run1(&ring, nr, x, n);
}

/* One call of @nr (recvfrom or recvmsg) for @len bytes with @flags, by
 * atom (@atom) or directly; its result, the bytes in *out. */
static long one(int atom, unsigned long nr, unsigned long len,
		unsigned long flags, char *out)
{
	char buf[32];
	struct iovec iov = { buf, len };
	struct msghdr mh;
	unsigned long x[6];
	pthread_t t;
	long r;

	memset(buf, 0, sizeof(buf));
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (rt_stream_pair(sv) ||
	    write(sv[1], "hello", 5) != 5)
		rt_die("socketpair: %s", strerror(errno));
	if (pthread_create(&t, NULL, late, NULL))
		rt_die("pthread_create");
	memset(x, 0, sizeof(x));
	x[0] = (unsigned long)sv[0];
	if (nr == __NR_recvmsg) {
		x[1] = (unsigned long)&mh;
		x[2] = flags;
	} else {
		x[1] = (unsigned long)buf;
		x[2] = len;
		x[3] = flags;
	}
	if (atom) {
		r = run1(nr, x, nr == __NR_recvmsg ? 3 : 6);
	} else {
		r = syscall((long)nr, x[0], x[1], x[2], x[3], x[4], x[5]);
		if (r < 0)
			r = -errno;
	}
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
	memcpy(out, buf, sizeof(buf));
	return r;
}

static void check(const char *what, unsigned long nr, unsigned long len,
		  int shut)
{
	char got_buf[32], want_buf[32];
	long got, want;

	end_it = shut;
	got = one(1, nr, len, MSG_WAITALL, got_buf);
	want = one(0, nr, len, MSG_WAITALL, want_buf);
	rt_check(got == want && !memcmp(got_buf, want_buf, sizeof(got_buf)),
		 "%s: atom %ld '%.10s', the call %ld '%.10s'", what, got,
		 got_buf, want, want_buf);
}

int main(void)
{
	struct async_head_user ahu;

	alarm(60);
	rt_init();
	rt_register(&ahu, ring.slot, 8, -1UL);
	check("recvfrom of 10, 5 there, 5 later", __NR_recvfrom, 10, 0);
	check("recvfrom of 5, 5 there", __NR_recvfrom, 5, 0);
	check("recvfrom of 10, 5 there, then the end", __NR_recvfrom, 10, 1);
	check("recvmsg of 10, 5 there, 5 later", __NR_recvmsg, 10, 0);
	check("recvmsg of 10, 5 there, then the end", __NR_recvmsg, 10, 1);
	rt_unregister(&ahu);
	return rt_done("waitall");
}
