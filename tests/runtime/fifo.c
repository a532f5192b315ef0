/* fifo.c: an open of a FIFO waits for the other end as open(2) does: a syslet that opens one for writing with no reader, or for reading with no writer, goes async and goes on once the partner comes (not ENXIO, not at once); with O_NONBLOCK it does not wait, as open(2). */
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include "helpers.h"

#define RING 8

static struct syslet_uatom *ring[RING];

/* Up to @ms for ring slot @idx to fill (nanosleep: no call into us). */
static struct syslet_uatom *appeared(unsigned long idx, long ms)
{
	struct timespec nap = { 0, 1000000 };

	for (long t = 0; t < ms; t++) {
		struct syslet_uatom *a =
			__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE);

		if (a)
			return a;
		nanosleep(&nap, NULL);
	}
	return __atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE);
}

static char path[64];
static unsigned long dirfd = (unsigned long)AT_FDCWD, pathp, mode;

/* A fresh FIFO at path. */
static void fifo_new(int n)
{
	snprintf(path, sizeof(path), "/tmp/syslet-fifo-%d-%d", (int)getpid(),
		 n);
	pathp = (unsigned long)path;
	unlink(path);
	if (mkfifo(path, 0600))
		rt_die("mkfifo %s: %s", path, strerror(errno));
}

/* @a: openat(AT_FDCWD, path, *flags, 0) into *fd, with @stop flags,
 * then @next; *fd zeroed. */
static void open_atom(struct syslet_uatom *a, long *fd, unsigned long stop,
		      struct syslet_uatom *next, unsigned long *flags)
{
	*fd = 0;
	rt_atom(a, __NR_openat, fd, stop, next, &dirfd, &pathp, flags);
	a->arg_ptr[3] = &mode;
}

/* The end of a case: the syslet's descriptor closed, the FIFO gone. */
static void fifo_done(long fd)
{
	if (fd >= 0)
		close((int)fd);
	unlink(path);
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	unsigned long flags;
	unsigned long counter = 0, one = 1, cp = (unsigned long)&counter;
	unsigned long idx = 0, umem = rt_umem_nr();
	long fd = 0, uret = 0;
	int other;

	alarm(60);
	rt_init();
	rt_register(&ahu, ring, RING, -1UL);

	/* 1. For writing, no reader yet: it waits (open(2) would), and
	 * opens once a reader comes: not ENXIO. */
	fifo_new(1);
	flags = O_WRONLY;
	open_atom(&a[0], &fd, 0, NULL, &flags);
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(!done && !errno, "open for writing with no reader did not "
		 "wait: %p, %ld, %s", (void *)done, fd, strerror(errno));
	if (!done) {
		/* Long enough for any engine to have made the call. */
		rt_check(!appeared(idx, 200),
			 "the open did not wait for a reader: %ld", fd);
		rt_drain(ring, RING, &idx, NULL, 0);
		other = open(path, O_RDONLY | O_NONBLOCK);
		if (other < 0)
			rt_die("open %s: %s", path, strerror(errno));
		rt_check(appeared(idx, 10000) == &a[0] && fd >= 0,
			 "the open did not complete once a reader came: %p, %ld",
			 (void *)ring[idx], fd);
		rt_drain(ring, RING, &idx, NULL, 0);
		close(other);
	}
	fifo_done(fd);

	/* 2. For reading, no writer yet: it waits, and the atom after it
	 * does not run before a writer comes. */
	fifo_new(2);
	flags = O_RDONLY;
	open_atom(&a[0], &fd, SYSLET_STOP_ON_NEGATIVE, &a[1], &flags);
	rt_atom(&a[1], umem, &uret, 0, NULL, &cp, &one, NULL);
	errno = 0;
	done = sys_async_exec(&a[0]);
	rt_check(!done && !errno, "open for reading with no writer did not "
		 "wait: %p, %ld, %s", (void *)done, fd, strerror(errno));
	if (!done) {
		rt_check(!appeared(idx, 200) &&
			 __atomic_load_n(&counter, __ATOMIC_ACQUIRE) == 0,
			 "the syslet went on with no writer: open %ld, "
			 "counter %lu", fd, counter);
		/* A reader is there (the syslet's): this does not wait. */
		other = open(path, O_WRONLY | O_NONBLOCK);
		if (other < 0)
			rt_die("open %s for writing: %s", path,
			       strerror(errno));
		rt_check(appeared(idx, 10000) == &a[1] && fd >= 0 &&
			 counter == 1,
			 "the syslet did not end once a writer came: %p, %ld, "
			 "counter %lu", (void *)ring[idx], fd, counter);
		rt_drain(ring, RING, &idx, NULL, 0);
		close(other);
	}
	fifo_done(fd);

	/* 3. With O_NONBLOCK, as open(2): for reading it opens at once,
	 * for writing with no reader it says ENXIO. */
	fifo_new(3);
	flags = O_RDONLY | O_NONBLOCK;
	open_atom(&a[0], &fd, 0, NULL, &flags);
	done = sys_async_exec(&a[0]);
	if (!done)
		done = appeared(idx, 10000);
	rt_check(done == &a[0] && fd >= 0,
		 "O_RDONLY|O_NONBLOCK: %p, %ld", (void *)done, fd);
	rt_drain(ring, RING, &idx, NULL, 0);
	if (fd >= 0)
		close((int)fd);
	flags = O_WRONLY | O_NONBLOCK;
	fd = 0;
	done = sys_async_exec(&a[0]);
	if (!done)
		done = appeared(idx, 10000);
	rt_check(done == &a[0] && fd == -ENXIO,
		 "O_WRONLY|O_NONBLOCK with no reader: %p, %ld", (void *)done,
		 fd);
	rt_drain(ring, RING, &idx, NULL, 0);
	unlink(path);

	rt_unregister(&ahu);
	return rt_done("fifo");
}
