/* nowait.c: a syslet that went async completes into the ring although the caller never calls async_wait, as the kernel guarantees. */
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include "helpers.h"

static struct syslet_uatom *ring[8];

/* Sleeps in nanosleep, which no engine treats as a call into itself. */
static int appeared(unsigned long idx, double secs)
{
	struct timespec nap = { 0, 1000000 };

	for (double t = 0; t < secs; t += 0.001) {
		if (__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int main(void)
{
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	struct syslet_uatom a[3], *done;
	unsigned long idx = 0, flags = O_RDONLY, fd = 0, buf, len = 64;
	unsigned long path;
	long ret[3] = { 0, 0, 0 };
	char data[64];

	/* A wait that never ends is a failure, not a hang. */
	alarm(120);
	rt_init();
	rt_register(&ahu, ring, 8, -1UL);

	/* A read that blocks until we write, long after async_exec. */
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	if (write(pr.pfd[1], "n", 1) != 1)
		rt_die("write: %s", strerror(errno));
	rt_check(appeared(idx, 10.0), "no completion in 10 s without "
		 "async_wait");
	rt_check(ring[idx] == &pr.atom && pr.ret == 1 && pr.c == 'n',
		 "completion %p ret %ld", (void *)ring[idx], pr.ret);
	rt_drain(ring, 8, &idx, NULL, 0);

	/* open, read, close of a file: inline, or (uring) through the
	 * ring, and then again without anyone waiting. */
	path = (unsigned long)"/proc/self/stat";
	buf = (unsigned long)data;
	rt_atom(&a[0], __NR_open, (long *)&fd, SYSLET_STOP_ON_NEGATIVE, &a[1],
		&path, &flags, NULL);
	rt_atom(&a[1], __NR_read, &ret[1], 0, &a[2], &fd, &buf, &len);
	rt_atom(&a[2], __NR_close, &ret[2], 0, NULL, &fd, NULL, NULL);
	errno = 0;
	done = sys_async_exec(&a[0]);
	if (!done) {
		rt_check(errno == 0, "async_exec: %s", strerror(errno));
		rt_check(appeared(idx, 10.0), "the file syslet never "
			 "completed without async_wait");
		rt_check(ring[idx] == &a[2], "completion %p, not the close",
			 (void *)ring[idx]);
		rt_drain(ring, 8, &idx, NULL, 0);
	} else {
		rt_check(done == &a[2], "inline: ended at %p", (void *)done);
	}
	rt_check((long)fd >= 0 && ret[1] > 0 && ret[2] == 0,
		 "open %ld read %ld close %ld", (long)fd, ret[1], ret[2]);

	rt_pipe_read_close(&pr);
	rt_unregister(&ahu);
	return rt_done("nowait");
}
