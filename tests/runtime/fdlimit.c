/* fdlimit.c: at the process's limit of descriptors, registering fails with EMFILE or works, an atom's open() stores -EMFILE, and a syslet that waits still completes. */
#include "helpers.h"
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

/*
 * The 2007 kernel's head used no descriptor; the uring backend's needs
 * one for its io_uring instance, and one more (an eventfd) with its first
 * worker.  With every descriptor taken, async_register() fails with
 * EMFILE there (sys_async_register(3)) and works once one is free; an
 * open() in an atom fails with EMFILE as the call would; and a syslet
 * that waits for a child, which needs a worker whose eventfd cannot be
 * made, still completes: synchronously, or into the ring without
 * async_wait().
 */

#define ENTRIES	8
#define LIMIT	64

/* Take every descriptor left; the lowest taken is *lowp. */
static int fill(int *lowp)
{
	int n = 0, fd;

	*lowp = -1;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0) {
		if (*lowp < 0)
			*lowp = fd;
		n++;
	}
	if (errno != EMFILE)
		rt_die("open at the limit: %s, want EMFILE", strerror(errno));
	return n;
}

int main(void)
{
	static struct syslet_uatom *ring[ENTRIES];
	struct timespec ms = { 0, 1000 * 1000 };
	struct rlimit rl = { LIMIT, LIMIT };
	struct async_head_user ahu;
	struct syslet_uatom a, *done;
	unsigned long path, flags = O_RDONLY, pid, statp, zero = 0;
	unsigned long dirfd = (unsigned long)(long)AT_FDCWD;
	unsigned long idx = 0;
	int low, status = 0, i;
	long r = 0;
	pid_t c;

	rt_init();
	if (setrlimit(RLIMIT_NOFILE, &rl))
		rt_die("setrlimit: %s", strerror(errno));
	fill(&low);
	memset(ring, 0, sizeof(ring));
	memset(&ahu, 0, sizeof(ahu));
	ahu.completion_ring = ring;
	ahu.ring_size_bytes = sizeof(ring);
	ahu.max_nr_threads = 4;
	errno = 0;
	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == 0 || (r == -1 && errno == EMFILE),
		 "async_register at the limit: %ld %s, want 0 or EMFILE", r,
		 strerror(errno));
	if (r) {
		close(low);
		errno = 0;
		r = sys_async_register(&ahu, sizeof(ahu));
		rt_check(r == 0, "async_register with one descriptor free: "
			 "%ld %s", r, strerror(errno));
		if (r)
			rt_die("no head with a descriptor free");
		/* Every descriptor taken again. */
		while (open("/dev/null", O_RDONLY) >= 0)
			;
	}

	/* An atom's open() fails as the call would. */
	path = (unsigned long)"/dev/null";
	rt_atom(&a, SYS_openat, &r, 0, NULL, &dirfd, &path, &flags);
	r = 0;
	errno = 0;
	done = sys_async_exec(&a);
	if (!done && !errno) {
		for (i = 0; i < 10000 &&
		     !__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE); i++)
			nanosleep(&ms, NULL);
		done = rt_drain(ring, ENTRIES, &idx, NULL, 0) ? &a : NULL;
	}
	rt_check(done == &a && r == -EMFILE,
		 "open() at the limit: %p, ret %ld, want -EMFILE",
		 (void *)done, r);

	/* wait4() of a child that exits later. */
	c = rt_child_exits_later(5);
	pid = (unsigned long)c;
	statp = (unsigned long)&status;
	r = 0;
	rt_atom(&a, SYS_wait4, &r, 0, NULL, &pid, &statp, &zero);
	a.arg_ptr[3] = &zero;
	errno = 0;
	done = sys_async_exec(&a);
	if (!done) {
		rt_check(errno == 0, "wait4 at the limit: async_exec: %s",
			 strerror(errno));
		for (i = 0; i < 10000 &&
		     !__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE); i++)
			nanosleep(&ms, NULL);
		done = ring[idx];
		rt_drain(ring, ENTRIES, &idx, NULL, 0);
	}
	rt_check(done == &a && r == c && WIFEXITED(status) &&
		 WEXITSTATUS(status) == 5,
		 "wait4 at the limit: %p (want %p), ret %ld, status %#x",
		 (void *)done, (void *)&a, r, status);
	rt_unregister(&ahu);
	/* Descriptors free again: a sanitizer's leak check at exit reads
	 * /proc/self/task. */
	for (int fd = low; fd < LIMIT; fd++)
		close(fd);
	return rt_done("fdlimit");
}
