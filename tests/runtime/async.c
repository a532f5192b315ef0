/* async.c: a syslet that never blocks returns its last atom and queues nothing; one that goes async returns NULL and completes into the ring; NO_COMPLETE and SYNC. */
#include "helpers.h"
#include <poll.h>

static struct syslet_uatom *ring[16];
static unsigned long idx;

/* Wait for one completion and pop it. */
static struct syslet_uatom *one(void)
{
	struct syslet_uatom *got = NULL;

	for (int tries = 0; tries < 5000 && !ring[idx]; tries++) {
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
		if (!ring[idx])
			usleep(1000);
	}
	rt_drain(ring, 16, &idx, &got, 1);
	return got;
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a, b, *done;
	unsigned long cell = 0, inc = 1, *p = &cell;
	unsigned long fd, buf, len = 1;
	int pfd[2];
	long ret = 0;
	char c = 'x';

	rt_init();
	rt_register(&ahu, ring, 16, -1UL);
	if (pipe(pfd))
		rt_die("pipe: %s", strerror(errno));

	/* Never blocked: the last atom back, the ring untouched. */
	rt_atom(&a, rt_umem_nr(), &ret, 0, &b, (unsigned long *)&p, &inc,
		NULL);
	rt_atom(&b, rt_umem_nr(), &ret, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	done = sys_async_exec(&a);
	rt_check(done == &b && cell == 2, "sync chain: %p cell %lu",
		 (void *)done, cell);
	rt_check(ring[0] == NULL, "a sync chain queued a completion");

	/* SYSLET_ASYNC: NULL with errno 0, the last atom in the ring. */
	a.flags = SYSLET_ASYNC;
	errno = 42;
	done = sys_async_exec(&a);
	rt_check(!done && errno == 0, "ASYNC: %p errno %d", (void *)done,
		 errno);
	struct syslet_uatom *got = one();
	rt_check(got == &b && cell == 4, "ASYNC completion %p (want %p) %lu",
		 (void *)got, (void *)&b, cell);

	/* A read on an empty pipe blocks: NULL, then the completion once
	 * the pipe is filled. */
	fd = (unsigned long)pfd[0];
	buf = (unsigned long)&c;
	rt_atom(&a, __NR_read, &ret, 0, NULL, &fd, &buf, &len);
	c = 0;
	ret = 0;
	errno = 42;
	done = sys_async_exec(&a);
	rt_check(!done && errno == 0, "blocking read: %p errno %d",
		 (void *)done, errno);
	rt_check(ring[idx] == NULL, "completed before the pipe was filled");
	if (write(pfd[1], "y", 1) != 1)
		rt_die("write: %s", strerror(errno));
	got = one();
	rt_check(got == &a && ret == 1 && c == 'y',
		 "read completion %p ret %ld c %c", (void *)got, ret, c);

	/* SYNC: the read blocks in the caller, nothing is queued. */
	a.flags = SYSLET_SYNC;
	if (write(pfd[1], "z", 1) != 1)
		rt_die("write");
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 1 && c == 'z', "SYNC read: %p %ld",
		 (void *)done, ret);
	rt_check(ring[idx] == NULL, "SYNC queued a completion");

	/* NO_COMPLETE on the last atom: it goes async, nothing queued. */
	rt_atom(&a, rt_umem_nr(), &ret, SYSLET_ASYNC, &b, (unsigned long *)&p,
		&inc, NULL);
	b.flags = SYSLET_NO_COMPLETE;
	cell = 0;
	done = sys_async_exec(&a);
	rt_check(!done && errno == 0, "ASYNC|NO_COMPLETE: %p", (void *)done);
	if (sys_async_wait(1))
		rt_die("async_wait: %s", strerror(errno));
	/* Nothing busy now: async_wait returned without a completion. */
	for (int i = 0; i < 1000 && cell != 2; i++)
		usleep(1000);
	rt_check(cell == 2, "NO_COMPLETE chain did not run: %lu", cell);
	rt_check(ring[idx] == NULL, "NO_COMPLETE queued %p",
		 (void *)ring[idx]);
	/* NO_COMPLETE is the last atom's flag: on the first atom only, the
	 * completion still comes. */
	a.flags = SYSLET_ASYNC | SYSLET_NO_COMPLETE;
	b.flags = 0;
	done = sys_async_exec(&a);
	got = one();
	rt_check(!done && got == &b, "NO_COMPLETE on the first atom: %p",
		 (void *)got);

	rt_unregister(&ahu);
	return rt_done("async");
}
