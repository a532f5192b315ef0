/* umem.c: sys_umem_add(p, 0) reads, (p, k) adds and returns the new value, directly and through an atom. */
#include "helpers.h"

int main(void)
{
	struct syslet_uatom *ring[4], a, *done;
	struct async_head_user ahu;
	unsigned long cell = 40, inc, *p = &cell;
	long r, ret;

	rt_init();
	r = sys_umem_add(&cell, 0);
	rt_check(r == 40 && cell == 40, "read: %ld %lu", r, cell);
	r = sys_umem_add(&cell, 2);
	rt_check(r == 42 && cell == 42, "add 2: %ld %lu", r, cell);
	r = sys_umem_add(&cell, -43UL);
	rt_check(r == -1 && cell == -1UL, "add -43: %ld %lu", r, cell);
	r = sys_umem_add(&cell, 1);
	rt_check(r == 0 && cell == 0, "wrap: %ld %lu", r, cell);

	rt_register(&ahu, ring, 4, -1UL);
	inc = 7;
	rt_atom(&a, rt_umem_nr(), &ret, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 7 && cell == 7, "atom add: %ld %lu", ret,
		 cell);
	inc = 0;
	ret = 0;
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 7 && cell == 7, "atom read: %ld %lu",
		 ret, cell);
	/* One argument only (inc's pointer NULL): a read. */
	a.arg_ptr[1] = NULL;
	ret = 0;
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == 7, "atom, one arg: %ld", ret);

	/* A counting loop: the atom's next is itself, it stops at zero. */
	unsigned long left = 1000, minus = -1UL, *lp = &left;
	rt_atom(&a, rt_umem_nr(), &ret, SYSLET_STOP_ON_ZERO, &a,
		(unsigned long *)&lp, &minus, NULL);
	done = sys_async_exec(&a);
	rt_check(done == &a && left == 0 && ret == 0, "loop: left %lu",
		 left);
	rt_unregister(&ahu);
	return rt_done("umem");
}
