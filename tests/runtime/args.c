/* args.c: arguments are fetched at run time, only up to the first NULL, and nr >= NR_syscalls gives -ENOSYS. */
#include "helpers.h"

int main(void)
{
	struct syslet_uatom *ring[8], a, *done;
	struct async_head_user ahu;
	unsigned long cell = 10, inc = 5, junk = 77;
	long ret = 0;

	rt_init();
	rt_register(&ahu, ring, 8, -1UL);

	/* Args are read when the atom runs: change a cell between execs. */
	unsigned long *p = &cell;
	rt_atom(&a, rt_umem_nr(), &ret, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	done = sys_async_exec(&a);
	rt_check(done == &a, "exec returned %p, not the atom", (void *)done);
	rt_check(ret == 15 && cell == 15, "ret %ld cell %lu", ret, cell);
	inc = 100;
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 115 && cell == 115,
		 "second exec with a changed cell: ret %ld cell %lu", ret,
		 cell);

	/* First NULL ends the arguments: getppid(void) would ignore them,
	 * so use umem_add with inc's pointer NULL and a junk pointer after
	 * it: inc must read as 0 (a pure read), not as 77. */
	a.arg_ptr[1] = NULL;
	a.arg_ptr[2] = &junk;
	ret = 0;
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 115 && cell == 115,
		 "args after the first NULL were used: ret %ld cell %lu", ret,
		 cell);
	/* And a pointer after the first NULL is not even read. */
	a.arg_ptr[2] = (unsigned long *)8;
	a.arg_ptr[3] = (unsigned long *)16;
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 115,
		 "an unreadable pointer after the first NULL was read: %p %s",
		 (void *)done, strerror(errno));

	/* nr >= NR_syscalls: -ENOSYS, which the kernel does not store
	 * (__exec_atom returns before put_user) but the stop test sees. */
	struct syslet_uatom b[2];
	long r2 = 12345;

	rt_atom(&b[0], 100000, &r2, SYSLET_STOP_ON_NEGATIVE, &b[1], NULL,
		NULL, NULL);
	rt_atom(&b[1], rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&p,
		&inc, NULL);
	done = sys_async_exec(&b[0]);
	rt_check(done == &b[0], "ENOSYS atom did not stop the chain: %p",
		 (void *)done);
	rt_check(r2 == 12345, "ENOSYS stored in *ret_ptr: %ld", r2);
	rt_check(cell == 115, "the next atom ran: cell %lu", cell);
	/* Without a stop flag the chain goes on past it. */
	b[0].flags = 0;
	done = sys_async_exec(&b[0]);
	rt_check(done == &b[1] && cell == 215, "chain past ENOSYS: %p %lu",
		 (void *)done, cell);

	/* ret_ptr NULL: the atom runs, nothing is stored. */
	rt_atom(&a, rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	done = sys_async_exec(&a);
	rt_check(done == &a && cell == 315, "ret_ptr NULL: %p %lu",
		 (void *)done, cell);

	rt_check(ring[0] == NULL, "a synchronous syslet queued a completion");
	rt_unregister(&ahu);
	return rt_done("args");
}
