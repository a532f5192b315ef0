/* deny.c: calls that would take the thread away (fork, exit, execve, ...) or change per-task state a hand-off makes ambiguous are refused inside an atom. */
#include "helpers.h"

#ifndef PR_SET_SECCOMP
#define PR_SET_SECCOMP	22
#endif
#ifndef PR_GET_DUMPABLE
#define PR_GET_DUMPABLE	3
#endif
#define ARCH_GET_FS	0x1003

/*
 * prctl's operations that change one thread's security state (seccomp
 * above, no_new_privs, capabilities, securebits, speculation controls,
 * syscall user dispatch) are refused too, inline and after a hand-off:
 * after one they would change the thread that ran the atom, not the
 * program's, which would go on without the no_new_privs or with the
 * capabilities it believed it had dropped.  Each with arguments that
 * keep the test as it is if the call runs; the call made directly
 * first tells its own answer, so that an EPERM it gives by itself (an
 * unprivileged PR_SET_SECUREBITS) is not taken for a refusal (those
 * are told apart by the emul engine's count of refusals alone).
 */
static void deny_prctl_ops(struct syslet_uatom **ring, unsigned long *idx)
{
	static unsigned long ops[][2] = {
		{ 8, 0 },	/* PR_SET_KEEPCAPS, off */
		{ 24, 4095 },	/* PR_CAPBSET_DROP of no capability */
		{ 28, 0 },	/* PR_SET_SECUREBITS, set below */
		{ 38, 1 },	/* PR_SET_NO_NEW_PRIVS */
		{ 47, 1 },	/* PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET */
		{ 53, 4095 },	/* PR_SET_SPECULATION_CTRL of nothing */
		{ 59, 4095 },	/* PR_SET_SYSCALL_USER_DISPATCH, no mode */
	};
	SYSLET_OPTS(syslet_stats, st0);
	SYSLET_OPTS(syslet_stats, st1);
	unsigned long zero = 0, nrefused = 0;
	struct syslet_uatom a, *done;
	long ret, own;

	ops[2][1] = (unsigned long)syscall(__NR_prctl, 27, 0, 0, 0, 0);
	syslet_get_stats(&st0);
	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		errno = 0;
		own = syscall(__NR_prctl, ops[i][0], ops[i][1], 0, 0, 0);
		own = own == -1 ? -errno : own;
		/* Inline, after a hand-off, and (64-bit) with the upper half
		 * of the option set: prctl's option is an int, the kernel
		 * drops it, and the call is the same one. */
		for (int async = 0; async < 2 + (sizeof(long) > 4); async++) {
			unsigned long op = ops[i][0];

			if (async == 2)
				op |= (unsigned long)1 << (sizeof(long) * 4);
			ret = 12345;
			rt_atom(&a, __NR_prctl, &ret,
				async == 1 ? SYSLET_ASYNC : 0, NULL, &op,
				&ops[i][1], &zero);
			errno = 0;
			done = sys_async_exec(&a);
			if (!done && !errno) {
				for (int t = 0; t < 5000 && !ring[*idx]; t++) {
					sys_async_wait(1);
					if (!ring[*idx])
						usleep(1000);
				}
				rt_drain(ring, 4, idx, &done, 1);
			}
			rt_check(done == &a, "prctl(%lu): done %p", ops[i][0],
				 (void *)done);
			rt_check(ret == -EPERM, "prctl(%#lx, %lu)%s ran: %ld "
				 "(by itself %ld)", op, ops[i][1],
				 async == 1 ? " after a hand-off" : "", ret,
				 own);
			nrefused++;
		}
	}
	if (rt_is_emul()) {
		syslet_get_stats(&st1);
		rt_check(st1.denied - st0.denied == nrefused,
			 "%llu prctl operations counted as refused, of %lu",
			 st1.denied - st0.denied, nrefused);
	}
}

int main(void)
{
	struct syslet_uatom *ring[4], a, *done;
	struct async_head_user ahu;
	unsigned long zero = 0, minus = -1UL, inval = 99, tidcell = 0;
	unsigned long uid = (unsigned long)getuid(), gid = (unsigned long)getgid();
	unsigned long cellp = (unsigned long)&tidcell, seccomp_op = PR_SET_SECCOMP;
	unsigned long dumpable = PR_GET_DUMPABLE, getfs = ARCH_GET_FS;
	SYSLET_OPTS(syslet_stats, st0);
	SYSLET_OPTS(syslet_stats, st1);
	long ret;
	pid_t me = getpid();
	/* Each with arguments that would not give EPERM if the call ran:
	 * an EPERM result means it was refused. */
	static struct {
		long nr;
		const char *name;
		unsigned long *a[3];
	} deny[] = {
#ifdef __NR_fork
		{ __NR_fork, "fork", { 0 } },
#endif
#ifdef __NR_vfork
		{ __NR_vfork, "vfork", { 0 } },
#endif
		{ __NR_clone, "clone", { 0 } },
		{ __NR_exit, "exit", { 0 } },
		{ __NR_exit_group, "exit_group", { 0 } },
		{ __NR_execve, "execve", { 0 } },
		{ __NR_seccomp, "seccomp", { 0 } },
		{ __NR_setuid, "setuid", { 0 } },
		{ __NR_setgid, "setgid", { 0 } },
		{ __NR_setreuid, "setreuid", { 0 } },
		{ __NR_setregid, "setregid", { 0 } },
		{ __NR_setresuid, "setresuid", { 0 } },
		{ __NR_setresgid, "setresgid", { 0 } },
		{ __NR_setfsuid, "setfsuid", { 0 } },
		{ __NR_setfsgid, "setfsgid", { 0 } },
		{ __NR_setgroups, "setgroups", { 0 } },
#ifdef __NR_setuid32
		{ __NR_setuid32, "setuid32", { 0 } },
		{ __NR_setresuid32, "setresuid32", { 0 } },
		{ __NR_setgroups32, "setgroups32", { 0 } },
#endif
		{ __NR_capset, "capset", { 0 } },
		{ __NR_unshare, "unshare", { 0 } },
		{ __NR_setns, "setns", { 0 } },
#ifdef __NR_landlock_restrict_self
		{ __NR_landlock_restrict_self, "landlock_restrict_self", { 0 } },
#endif
		{ __NR_set_tid_address, "set_tid_address", { 0 } },
		{ __NR_set_robust_list, "set_robust_list", { 0 } },
#ifdef __NR_rseq
		{ __NR_rseq, "rseq", { 0 } },
#endif
		{ __NR_sigaltstack, "sigaltstack", { 0 } },
#ifdef __NR_ioperm
		{ __NR_ioperm, "ioperm", { 0 } },
		{ __NR_iopl, "iopl", { 0 } },
#endif
#ifdef __NR_arch_prctl
		{ __NR_arch_prctl, "arch_prctl", { 0 } },
#endif
		{ __NR_set_thread_area, "set_thread_area", { 0 } },
		{ __NR_prctl, "prctl(PR_SET_SECCOMP)", { 0 } },
	};
	unsigned int n = sizeof(deny) / sizeof(deny[0]), ndenied = 0;

	rt_init();
	for (unsigned int i = 0; i < n; i++) {
		long nr = deny[i].nr;

		/* What each would do if it ran: succeed, or fail otherwise
		 * than with EPERM. */
		if (nr == __NR_seccomp)
			deny[i].a[0] = &inval;
		else if (nr == __NR_setuid || nr == __NR_setfsuid)
			deny[i].a[0] = &uid;
		else if (nr == __NR_setgid || nr == __NR_setfsgid)
			deny[i].a[0] = &gid;
		else if (nr == __NR_setreuid || nr == __NR_setregid ||
			 nr == __NR_setresuid || nr == __NR_setresgid)
			deny[i].a[0] = deny[i].a[1] = deny[i].a[2] = &minus;
		else if (nr == __NR_setns)
			deny[i].a[0] = &minus;
		else if (nr == __NR_set_tid_address)
			deny[i].a[0] = &cellp;
		else if (nr == __NR_prctl)
			deny[i].a[0] = &seccomp_op, deny[i].a[1] = &inval;
#ifdef __NR_arch_prctl
		else if (nr == __NR_arch_prctl)
			deny[i].a[0] = &getfs, deny[i].a[1] = &cellp;
#endif
		if (!deny[i].a[0])
			deny[i].a[0] = deny[i].a[1] = deny[i].a[2] = &zero;
		if (!deny[i].a[1])
			deny[i].a[1] = deny[i].a[2] = &zero;
	}
	rt_register(&ahu, ring, 4, -1UL);
	syslet_get_stats(&st0);
	for (unsigned int i = 0; i < n; i++) {
		ret = 0;
		rt_atom(&a, deny[i].nr, &ret, 0, NULL, deny[i].a[0],
			deny[i].a[1], deny[i].a[2]);
		done = sys_async_exec(&a);
		/* Still here, one process, and EPERM in *ret_ptr. */
		rt_check(getpid() == me, "%s forked", deny[i].name);
		rt_check(done == &a && ret == -EPERM, "%s: done %p ret %ld",
			 deny[i].name, (void *)done, ret);
		ndenied++;
	}
	rt_check(tidcell == 0, "set_tid_address ran");
	if (rt_is_emul()) {
		syslet_get_stats(&st1);
		rt_check(st1.denied - st0.denied == ndenied,
			 "%llu calls counted as denied, %u refused",
			 st1.denied - st0.denied, ndenied);
	}
	/* prctl with any other operation runs. */
	ret = -1;
	rt_atom(&a, __NR_prctl, &ret, 0, NULL, &dumpable, NULL, NULL);
	done = sys_async_exec(&a);
	rt_check(done == &a && ret >= 0, "prctl(PR_GET_DUMPABLE): %ld", ret);
	rt_check(ring[0] == NULL, "a refused call queued a completion");
	{
		unsigned long idx = 0;

		deny_prctl_ops(ring, &idx);
	}
	rt_unregister(&ahu);
	return rt_done("deny");
}
