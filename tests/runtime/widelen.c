/* widelen.c: an atom's length or count wider than 32 bits, or a nanosleep time the call refuses, gives what the call itself gives, on every engine. */
#include <fcntl.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "helpers.h"

/*
 * 2007's __exec_atom() called sys_call_table[nr] with the six words the
 * atom fetched: an atom's result is the call's, whatever the engine.
 * io_uring keeps a length in a 32-bit field of its SQE, so a count of
 * 2^32 + 5 is 5 there and 2^32 is 0 (an end of file that is not one),
 * -1 is 2^32 - 1 (where read() checks the whole range and says EFAULT),
 * and its timeout takes a nanosecond count of a second or more, which
 * nanosleep() refuses.  Each case below compares the atom's result with
 * the same call made directly, here, on the same kind of object.
 */

static struct rt_ring8 ring;

/* One atom, run to its end (inline, or through the ring); its result. */
static long run1(unsigned long nr, unsigned long *args, int nargs)
{
	return rt_run1(&ring, nr, args, nargs);
}

static long direct(long r)
{
	return r < 0 ? -errno : r;
}

/* A pipe holding "hello". */
static void pipe5(int p[2])
{
	if (pipe(p) || write(p[1], "hello", 5) != 5)
		rt_die("pipe: %s", strerror(errno));
}

/* read(2), readv(2) and recvfrom(2) of a pipe or socket holding five
 * bytes, with count @count: the atom, then the call directly. */
static void reads(const char *what, unsigned long count)
{
	static char buf[64];
	unsigned long args[6];
	struct iovec iov = { buf, 64 };
	int p[2], sv[2];
	long want, got;

	pipe5(p);
	args[0] = (unsigned long)p[0];
	args[1] = (unsigned long)buf;
	args[2] = count;
	got = run1(__NR_read, args, 3);
	close(p[0]);
	close(p[1]);
	pipe5(p);
	want = direct(syscall(__NR_read, p[0], buf, count));
	close(p[0]);
	close(p[1]);
	rt_check(got == want, "read %s: atom %ld, read(2) %ld", what, got,
		 want);

	/* readv's count is of iovecs: 2^32 + 1 is not 1. */
	pipe5(p);
	args[1] = (unsigned long)&iov;
	args[2] = count == 64 ? 1 : count + 1;
	got = run1(__NR_readv, args, 3);
	close(p[0]);
	close(p[1]);
	pipe5(p);
	want = direct(syscall(__NR_readv, p[0], &iov, args[2]));
	close(p[0]);
	close(p[1]);
	rt_check(got == want, "readv %s: atom %ld, readv(2) %ld", what, got,
		 want);

	for (int k = 0; k < 2; k++) {
		if (rt_stream_pair(sv) ||
		    write(sv[1], "hello", 5) != 5)
			rt_die("socketpair: %s", strerror(errno));
		args[0] = (unsigned long)sv[0];
		args[1] = (unsigned long)buf;
		args[2] = count;
		args[3] = args[4] = args[5] = 0;
		if (k == 0)
			got = run1(__NR_recvfrom, args, 6);
		else
			want = direct(syscall(__NR_recvfrom, sv[0], buf,
					      count, 0, NULL, NULL));
		close(sv[0]);
		close(sv[1]);
	}
	rt_check(got == want, "recvfrom %s: atom %ld, recvfrom(2) %ld", what,
		 got, want);
}

int main(void)
{
	struct async_head_user ahu;
	struct timespec ts = { 0, 1000000000 };
	unsigned long args[6];
	long want, got;

	alarm(60);
	rt_init();
	rt_register(&ahu, ring.slot, 8, -1UL);

	reads("of 64 bytes", 64);
#if ULONG_MAX > 0xffffffffUL
	reads("of 2^32 bytes", 1UL << 32);
	reads("of 2^32 + 3 bytes", (1UL << 32) + 3);
#endif
	reads("of -1 bytes", -1UL);
	reads("of 2^32 - 1 bytes", 0xffffffffUL);
	reads("of 2^31 bytes", 0x80000000UL);

	/* nanosleep with tv_nsec of a whole second: EINVAL, at once. */
	args[0] = (unsigned long)&ts;
	args[1] = 0;
	got = run1(__NR_nanosleep, args, 2);
	want = direct(syscall(__NR_nanosleep, &ts, NULL));
	rt_check(got == want, "nanosleep {0, 1e9}: atom %ld, nanosleep(2) %ld",
		 got, want);

	rt_unregister(&ahu);
	return rt_done("widelen");
}
