/* stats-handoff.c: a read that blocks and moves to a worker is one atom that issued one syscall. */
#include "helpers.h"

/*
 * syslet_stats.syscalls counts "atoms that issued a syscall".  A read of
 * an empty pipe is tried inline (preadv2 RWF_NOWAIT), would block, and
 * is handed to a worker, which issues the real read: one atom, so
 * syscalls must move by 1, never by more than atoms (the engine once
 * counted the worker's resumed call a second time).
 */
int main(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu;
	struct syslet_uatom a, *done;
	struct syslet_stats s0, s1;
	unsigned long fd, buf, len = 1;
	long ret = 0;
	int pfd[2];
	char c = 0;

	rt_init();
	if (!rt_is_emul()) {
		fprintf(stderr, "SKIP: statistics are the emul engine's\n");
		return RT_SKIP;
	}
	if (pipe(pfd))
		rt_die("pipe: %s", strerror(errno));
	rt_register(&ahu, ring, 4, -1UL);
	fd = (unsigned long)pfd[0];
	buf = (unsigned long)&c;
	rt_atom(&a, __NR_read, &ret, 0, NULL, &fd, &buf, &len);
	syslet_get_stats(&s0);
	errno = 0;
	done = sys_async_exec(&a);
	if (done || errno)
		rt_die("the read did not go async: %p %s", (void *)done,
		       strerror(errno));
	if (write(pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int t = 0; t < 5000 && !__atomic_load_n(&ring[0],
						      __ATOMIC_ACQUIRE); t++) {
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
		usleep(100);
	}
	rt_check(ring[0] == &a && ret == 1, "completion %p ret %ld",
		 (void *)ring[0], ret);
	syslet_get_stats(&s1);
	rt_check(s1.atoms - s0.atoms == 1, "atoms moved by %llu",
		 s1.atoms - s0.atoms);
	rt_check(s1.handoffs - s0.handoffs == 1, "handoffs moved by %llu",
		 s1.handoffs - s0.handoffs);
	rt_check(s1.syscalls - s0.syscalls == 1,
		 "one blocked read counted as %llu syscalls",
		 s1.syscalls - s0.syscalls);
	ring[0] = NULL;
	rt_unregister(&ahu);
	return rt_done("stats-handoff");
}
