/* deny.c: calls that would take the thread away (fork, exit, execve, ...) are refused inside an atom. */
#include "helpers.h"

int main(void)
{
	struct syslet_uatom *ring[4], a, *done;
	struct async_head_user ahu;
	unsigned long zero = 0;
	long ret;
	pid_t me = getpid();
	static const struct {
		long nr;
		const char *name;
	} deny[] = {
#ifdef __NR_fork
		{ __NR_fork, "fork" },
#endif
#ifdef __NR_vfork
		{ __NR_vfork, "vfork" },
#endif
		{ __NR_clone, "clone" },
		{ __NR_exit, "exit" },
		{ __NR_exit_group, "exit_group" },
		{ __NR_execve, "execve" },
	};

	rt_init();
	rt_register(&ahu, ring, 4, -1UL);
	for (unsigned i = 0; i < sizeof(deny) / sizeof(deny[0]); i++) {
		ret = 0;
		rt_atom(&a, deny[i].nr, &ret, 0, NULL, &zero, &zero, &zero);
		done = sys_async_exec(&a);
		/* Still here, one process, and an error in *ret_ptr. */
		rt_check(getpid() == me, "%s forked", deny[i].name);
		rt_check(done == &a && ret < 0 && ret > -4096,
			 "%s: done %p ret %ld", deny[i].name, (void *)done,
			 ret);
	}
	rt_check(ring[0] == NULL, "a refused call queued a completion");
	rt_unregister(&ahu);
	return rt_done("deny");
}
