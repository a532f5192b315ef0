/* signal.c: a signal arriving during an atom ends the chain there; denied calls give -EPERM; umem_add reads and adds. */
#include <signal.h>
#include "helpers.h"

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	got = sig;
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	struct syslet_uatom a[2], *done;
	unsigned long pid, sig = SIGUSR1, cell = 1, one = 1, *bad = (void *)16;
	unsigned long cellp;
	long ret = 0, r2 = 777;
	struct sigaction sa;

	rt_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	rt_register(&ahu, ring, 8, 4);

	/* kill(getpid(), SIGUSR1) then umem_add: the second never runs. */
	pid = (unsigned long)getpid();
	rt_atom(&a[0], SYS_kill, &ret, 0, &a[1], &pid, &sig, NULL);
	rt_atom(&a[1], rt_umem_nr(), &r2, 0, NULL, NULL, NULL, NULL);
	cellp = (unsigned long)&cell;
	a[1].arg_ptr[0] = &cellp;
	a[1].arg_ptr[1] = &one;
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[0], "chain went past the signal: %p", (void *)done);
	rt_check(ret == 0 && cell == 1 && r2 == 777, "ret %ld cell %lu r2 %ld",
		 ret, cell, r2);
	rt_check(got == SIGUSR1, "handler did not run");
	rt_check(ring[0] == NULL, "inline chain queued a completion");

	/* A denied call (exit_group) is refused, not run. */
	rt_atom(&a[0], SYS_exit_group, &ret, 0, NULL, &one, NULL, NULL);
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[0] && ret == -EPERM, "exit_group: %p %ld",
		 (void *)done, ret);

	/* sys_umem_add() itself: 0 reads, else adds; bad pointer -EFAULT. */
	cell = 40;
	rt_check(sys_umem_add(&cell, 0) == 40, "read");
	rt_check(sys_umem_add(&cell, 2) == 42 && cell == 42, "add");
	rt_check(sys_umem_add(bad, 1) == -EFAULT, "bad pointer");
	rt_unregister(&ahu);
	return rt_done("signal");
}
