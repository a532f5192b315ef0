/* closerange.c: close_range() with CLOSE_RANGE_UNSHARE is refused in atoms as unshare() is; later syslets' descriptors stay the program's. */
#include "helpers.h"
#include <fcntl.h>

/*
 * CLOSE_RANGE_UNSHARE gives the calling thread a descriptor table of its
 * own, as unshare(CLONE_FILES) does, which the deny list refuses: after a
 * hand-off that thread is a worker, and the files that later syslets run
 * there open would be out of the program's reach (it read EBADF).  The
 * flag is refused with EPERM, inline and async; close_range() without
 * it runs.  With one thread in the pool, the next async open() must give
 * a descriptor the program can read.
 */

#define ENTRIES			8
#define CR_UNSHARE		(1U << 1)
#define CR_CLOEXEC		(1U << 2)

static struct syslet_uatom *wait_one(struct syslet_uatom **ring,
				     unsigned long *idx)
{
	struct syslet_uatom *done = NULL;

	while (!__atomic_load_n(&ring[*idx], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	rt_drain(ring, ENTRIES, idx, &done, 1);
	return done;
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct async_head_user ahu;
	unsigned long idx = 0, hi = ~0U, fl;
	unsigned long dir = (unsigned long)(long)AT_FDCWD;
	unsigned long path = (unsigned long)"/dev/zero", of = O_RDONLY;
	struct syslet_uatom a, *done;
	char buf[4];
	long ret, fd;

	rt_init();
	rt_register(&ahu, ring, ENTRIES, 1);
	for (int async = 0; async < 2; async++) {
		fl = CR_UNSHARE;
		ret = 12345;
		rt_atom(&a, SYS_close_range, &ret, async ? SYSLET_ASYNC : 0,
			NULL, &hi, &hi, &fl);
		errno = 0;
		done = sys_async_exec(&a);
		if (!done && !errno)
			done = wait_one(ring, &idx);
		rt_check(done == &a && ret == -EPERM,
			 "close_range(CLOSE_RANGE_UNSHARE)%s: %p, ret %ld, want "
			 "-EPERM", async ? " async" : "", (void *)done, ret);
		/* Without the flag it runs (nothing is open up there). */
		fl = CR_CLOEXEC;
		ret = 12345;
		errno = 0;
		done = sys_async_exec(&a);
		if (!done && !errno)
			done = wait_one(ring, &idx);
		rt_check(done == &a && ret == 0,
			 "close_range(CLOSE_RANGE_CLOEXEC)%s: ret %ld, want 0",
			 async ? " async" : "", ret);
	}
	/* The pool's one thread opens a file for the program. */
	fd = -1;
	rt_atom(&a, SYS_openat, &fd, SYSLET_ASYNC, NULL, &dir, &path, &of);
	errno = 0;
	done = sys_async_exec(&a);
	if (!done && !errno)
		done = wait_one(ring, &idx);
	rt_check(done == &a && fd >= 0, "async open: %p, fd %ld", (void *)done,
		 fd);
	if (fd >= 0) {
		rt_check(read((int)fd, buf, sizeof(buf)) == sizeof(buf),
			 "the program cannot read the descriptor %ld a syslet "
			 "opened: %s", fd, strerror(errno));
		close((int)fd);
	}
	rt_unregister(&ahu);
	return rt_done("closerange");
}
