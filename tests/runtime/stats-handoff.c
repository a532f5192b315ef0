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
	struct rt_pipe_read pr;
	SYSLET_OPTS(syslet_stats, s0);
	SYSLET_OPTS(syslet_stats, s1);

	rt_init();
	if (!rt_is_emul()) {
		fprintf(stderr, "SKIP: statistics are the emul engine's\n");
		return RT_SKIP;
	}
	rt_pipe_read_init(&pr);
	rt_register(&ahu, ring, 4, -1UL);
	syslet_get_stats(&s0);
	rt_pipe_read_exec(&pr);
	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	for (int t = 0; t < 5000 && !__atomic_load_n(&ring[0],
						      __ATOMIC_ACQUIRE); t++) {
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
		usleep(100);
	}
	rt_check(ring[0] == &pr.atom && pr.ret == 1, "completion %p ret %ld",
		 (void *)ring[0], pr.ret);
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
	rt_pipe_read_close(&pr);
	return rt_done("stats-handoff");
}
