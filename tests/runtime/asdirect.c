/* asdirect.c: an atom's result is the call's own, as made directly, on every engine: positioned I/O on a pipe, a socket or a FIFO the chain opened (ESPIPE, the data left alone), preadv2 with RWF_HIPRI, statx of a NULL path. */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <linux/fs.h>
#include "helpers.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH		0x1000
#endif
#ifndef STATX_BASIC_STATS
#define STATX_BASIC_STATS	0x7ffU
#endif

/*
 * 2007's __exec_atom() called sys_call_table[nr] with the atom's six
 * words (seeds/006): the result is the call's.  io_uring reads some of
 * these calls otherwise: it ignores the offset of a read or write on a
 * pipe or socket (the call says ESPIPE and reads nothing), refuses
 * RWF_HIPRI outside a polled ring (the call takes it for a hint), and
 * takes no NULL path in statx (the call does, with AT_EMPTY_PATH, since
 * Linux 6.11).  Each case compares the atom with the direct call on a
 * fresh object of the same kind; the pipe and socket must still hold
 * what they held when the call refused.
 */

static struct rt_ring8 ring;
static char path[64], fifo[64];

/* Run the chain at @a to its end; its last atom. */
static struct syslet_uatom *run(struct syslet_uatom *a)
{
	return rt_run(&ring, a);
}

static long run1(unsigned long nr, unsigned long *args, int nargs)
{
	return rt_run1(&ring, nr, args, nargs);
}

static long direct(unsigned long nr, const unsigned long *x)
{
	long r = syscall((long)nr, x[0], x[1], x[2], x[3], x[4], x[5]);

	return r < 0 ? -errno : r;
}

/* A pipe or a socket pair whose read end holds "hello". */
static void stream5(int kind, int s[2])
{
	if (kind ? rt_stream_pair(s) : pipe(s))
		rt_die("%s: %s", kind ? "socketpair" : "pipe", strerror(errno));
	if (write(s[1], "hello", 5) != 5)
		rt_die("write: %s", strerror(errno));
}

/* What the read end still holds. */
static long left(int fd)
{
	char b[64];
	long n;

	fcntl(fd, F_SETFL, O_NONBLOCK);
	n = read(fd, b, sizeof(b));
	return n < 0 ? -errno : n;
}

/* Call @nr on a fresh stream's read end (@wr: its write end) with the
 * other arguments in @x, by atom and directly. */
static void on_stream(const char *what, int kind, unsigned long nr, int wr,
		      unsigned long *x, int nargs)
{
	long got, want, lg, lw;
	int s[2];

	stream5(kind, s);
	x[0] = (unsigned long)s[wr];
	got = run1(nr, x, nargs);
	lg = left(s[0]);
	close(s[0]);
	close(s[1]);
	stream5(kind, s);
	x[0] = (unsigned long)s[wr];
	want = direct(nr, x);
	lw = left(s[0]);
	close(s[0]);
	close(s[1]);
	rt_check(got == want && lg == lw, "%s on a %s: atom %ld (%ld bytes "
		 "left), the call %ld (%ld left)", what,
		 kind ? "socket" : "pipe", got, lg, want, lw);
}

/* A file holding "hello", open for reading and writing. */
static int file5(void)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, "hello", 5) != 5)
		rt_die("%s: %s", path, strerror(errno));
	return fd;
}

/*
 * One chain: read a regular file at its position (the engine learns a
 * seekable descriptor), open a FIFO read-write, write to it, pread64 it
 * at offset 0 (ESPIPE), count what it holds (FIONREAD: the three bytes
 * are still there; a read would wait for ever where they were taken).
 */
static void fifo_chain(void)
{
	struct syslet_uatom a[5];
	char fbuf[16], rbuf[16];
	unsigned long fd, ffd = 0, buf = (unsigned long)fbuf, len = 16;
	unsigned long fpath = (unsigned long)fifo, fl = O_RDWR, three = 3;
	unsigned long data = (unsigned long)"abc", rb = (unsigned long)rbuf;
	unsigned long zero = 0, fionread = FIONREAD, cnt;
	int nread = -1;
	long r[5] = { 0, 0, 0, 0, 0 };
	int f = file5();

	lseek(f, 0, SEEK_SET);
	fd = (unsigned long)f;
	cnt = (unsigned long)&nread;
	rt_atom(&a[0], __NR_read, &r[0], 0, &a[1], &fd, &buf, &len);
	rt_atom(&a[1], __NR_open, (long *)&ffd, SYSLET_STOP_ON_NEGATIVE,
		&a[2], &fpath, &fl, NULL);
	rt_atom(&a[2], __NR_write, &r[2], 0, &a[3], &ffd, &data, &three);
	rt_atom(&a[3], __NR_pread64, &r[3], 0, &a[4], &ffd, &rb, &len);
	a[3].arg_ptr[3] = &zero;
	rt_atom(&a[4], __NR_ioctl, &r[4], 0, NULL, &ffd, &fionread, &cnt);
	rt_check(run(&a[0]) == &a[4], "the FIFO chain ended early: open %ld",
		 (long)ffd);
	rt_check(r[0] == 5 && r[2] == 3 && r[3] == -ESPIPE && r[4] == 0 &&
		 nread == 3, "read %ld, write %ld, pread64 of the FIFO %ld "
		 "(want %d), FIONREAD %ld: %d bytes (want 3)", r[0], r[2],
		 r[3], -ESPIPE, r[4], nread);
	close((int)ffd);
	close(f);
}

int main(void)
{
	struct async_head_user ahu;
	/* Room for a struct statx (256 bytes). */
	static char buf[512];
	struct iovec iov = { buf, 64 };
	unsigned long x[6];
	long got, want;
	int f;

	alarm(60);
	rt_init();
	snprintf(path, sizeof(path), "/tmp/asdirect.%d", (int)getpid());
	snprintf(fifo, sizeof(fifo), "/tmp/asdirect-fifo.%d", (int)getpid());
	if (mkfifo(fifo, 0600))
		rt_die("mkfifo: %s", strerror(errno));
	rt_register(&ahu, ring.slot, 8, -1UL);

	for (int kind = 0; kind < 2; kind++) {
		unsigned long b = (unsigned long)buf, io = (unsigned long)&iov;

		/* Offset 0 (in both halves where i386 splits it). */
		memset(x, 0, sizeof(x));
		x[1] = b;
		x[2] = 64;
		on_stream("pread64 at 0", kind, __NR_pread64, 0, x, 5);
		x[2] = 1;
		on_stream("pwrite64 at 0", kind, __NR_pwrite64, 1, x, 5);
		x[1] = io;
		on_stream("preadv at 0", kind, __NR_preadv, 0, x, 5);
		on_stream("preadv2 at 0", kind, __NR_preadv2, 0, x, 6);
		on_stream("pwritev2 at 0", kind, __NR_pwritev2, 1, x, 6);
	}
	fifo_chain();

	/* preadv2 with RWF_HIPRI of a file, at offset 0. */
	f = file5();
	x[0] = (unsigned long)f;
	x[1] = (unsigned long)&iov;
	x[2] = 1;
	x[3] = x[4] = 0;
	x[5] = RWF_HIPRI;
	got = run1(__NR_preadv2, x, 6);
	want = direct(__NR_preadv2, x);
	rt_check(got == want, "preadv2 RWF_HIPRI: atom %ld, the call %ld", got,
		 want);

	/* statx of the descriptor itself: a NULL path, AT_EMPTY_PATH. */
	x[0] = (unsigned long)f;
	x[1] = 0;
	x[2] = AT_EMPTY_PATH;
	x[3] = STATX_BASIC_STATS;
	x[4] = (unsigned long)buf;
	x[5] = 0;
	got = run1(__NR_statx, x, 5);
	want = direct(__NR_statx, x);
	rt_check(got == want, "statx NULL, AT_EMPTY_PATH: atom %ld, the call "
		 "%ld", got, want);
	close(f);

	rt_unregister(&ahu);
	unlink(path);
	unlink(fifo);
	return rt_done("asdirect");
}
