/* fileloop.c: reads that rewrite the next atom (from a cached file and from a pipe that makes the read wait) and a long loop of file writes and reads, against 2007's fetch-when-it-runs rule. */
#include "helpers.h"
#include <fcntl.h>
#include <stdlib.h>

/*
 * 2007 fetched an atom (copy_uatom()) only when the one before it had
 * returned, so a read whose buffer is the next atom's nr makes that atom
 * run the call read.  On uring the read is an io_uring request, completed
 * inside io_uring_enter for a cached file or later for a pipe: the next
 * atom must still be read only after that completion.
 */

#define W	sizeof(unsigned long)

static struct rt_ring8 ring;
static int ffd;

static void *late_word(void *arg)
{
	int *fd = arg;
	unsigned long nr = SYS_getppid;
	struct timespec ts = { 0, 30 * 1000000L };

	nanosleep(&ts, NULL);
	if (write(*fd, &nr, W) != (ssize_t)W)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

/* pread64(file, &a[1].nr, W, 0), the file holding getppid's number. */
static void file_rewrites_next(unsigned long flags)
{
	struct syslet_uatom a[2], *done;
	unsigned long fd = (unsigned long)ffd, buf = (unsigned long)&a[1].nr;
	unsigned long len = W, off = 0, nr = SYS_getppid;
	long r0 = 0, r1 = 0;

	if (pwrite(ffd, &nr, W, 0) != (ssize_t)W)
		rt_die("pwrite: %s", strerror(errno));
	memset(a, 0, sizeof(a));
	a[0].flags = flags;
	a[0].nr = SYS_pread64;
	a[0].ret_ptr = &r0;
	a[0].next = &a[1];
	a[0].arg_ptr[0] = &fd;
	a[0].arg_ptr[1] = &buf;
	a[0].arg_ptr[2] = &len;
	a[0].arg_ptr[3] = &off;
	rt_atom(&a[1], SYS_getpid, &r1, 0, NULL, NULL, NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1] && r0 == (long)W && r1 == getppid(),
		 "flags %lx: ended at %p r0 %ld r1 %ld (getppid %d)", flags,
		 (void *)done, r0, r1, (int)getppid());
}

/* read(pipe, &a[1].nr, W) that waits 30 ms for the word. */
static void pipe_rewrites_next(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long fd, buf = (unsigned long)&a[1].nr, len = W;
	long r0 = 0, r1 = 0;
	pthread_t t;
	int p[2];

	if (pipe(p))
		rt_die("pipe");
	fd = (unsigned long)p[0];
	rt_atom(&a[0], SYS_read, &r0, 0, &a[1], &fd, &buf, &len);
	rt_atom(&a[1], SYS_getpid, &r1, 0, NULL, NULL, NULL, NULL);
	if (pthread_create(&t, NULL, late_word, &p[1]))
		rt_die("pthread_create");
	done = rt_run(&ring, &a[0]);
	pthread_join(t, NULL);
	rt_check(done == &a[1] && r0 == (long)W && r1 == getppid(),
		 "pipe: ended at %p r0 %ld r1 %ld", (void *)done, r0, r1);
	close(p[0]);
	close(p[1]);
}

/*
 * N passes of: n += 1; pwrite64(file, &n, W, 0); pread64(file, &m, W,
 * 0); c += 1, back while c != 0.  At the end n == m == N.
 */
static void file_loop(unsigned long flags, unsigned long N)
{
	struct syslet_uatom a[4], *done;
	unsigned long n = 0, m = 0, c = -N, one = 1, len = W, off = 0;
	unsigned long pn = (unsigned long)&n, pm = (unsigned long)&m;
	unsigned long pc = (unsigned long)&c, fd = (unsigned long)ffd;
	long r[4] = { 0, 0, 0, 0 };
	double t0 = rt_now();

	memset(a, 0, sizeof(a));
	rt_atom(&a[0], rt_umem_nr(), &r[0], flags, &a[1], &pn, &one, NULL);
	for (int i = 1; i <= 2; i++) {
		a[i].nr = i == 1 ? SYS_pwrite64 : SYS_pread64;
		a[i].ret_ptr = &r[i];
		a[i].flags = SYSLET_STOP_ON_NEGATIVE;
		a[i].next = &a[i + 1];
		a[i].arg_ptr[0] = &fd;
		a[i].arg_ptr[1] = i == 1 ? &pn : &pm;
		a[i].arg_ptr[2] = &len;
		a[i].arg_ptr[3] = &off;
	}
	rt_atom(&a[3], rt_umem_nr(), &r[3], SYSLET_STOP_ON_ZERO, &a[0], &pc,
		&one, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[3] && n == N && m == N && c == 0,
		 "loop flags %lx: ended at %p (a %p) n %lu m %lu c %lu r %ld %ld",
		 flags, (void *)done, (void *)a, n, m, c, r[1], r[2]);
	if (getenv("SEM_VERBOSE"))
		fprintf(stderr, "loop flags %lx: %lu passes in %.3f s\n", flags,
			N, rt_now() - t0);
}

int main(void)
{
	struct async_head_user ahu;
	char path[] = "/tmp/fileloopXXXXXX";

	rt_init();
	ffd = mkstemp(path);
	if (ffd < 0)
		rt_die("mkstemp: %s", strerror(errno));
	unlink(path);
	rt_register(&ahu, ring.slot, 8, -1UL);
	file_rewrites_next(0);
	file_rewrites_next(SYSLET_ASYNC);
	pipe_rewrites_next();
	file_loop(0, 20000);
	file_loop(SYSLET_ASYNC, 20000);
	rt_unregister(&ahu);
	close(ffd);
	return rt_done("fileloop");
}
