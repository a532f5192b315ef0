/* fault.c: unreadable atoms, argument pointers and ret pointers give -EFAULT, never a crash. */
#include "helpers.h"
#include <sys/mman.h>

int main(void)
{
	struct syslet_uatom *ring[8], a, b, *done;
	struct async_head_user ahu;
	unsigned long cell = 1, inc = 1, *p = &cell;
	long ret = 0;
	void *hole;

	rt_init();
	/* A mapped-then-unmapped page: certainly not readable. */
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	rt_register(&ahu, ring, 8, -1UL);

	errno = 0;
	done = sys_async_exec(hole);
	rt_check(!done && errno == EFAULT, "bad atom: %p errno %d",
		 (void *)done, errno);
	errno = 0;
	done = sys_async_exec((struct syslet_uatom *)8);
	rt_check(!done && errno == EFAULT, "atom at 8: %p errno %d",
		 (void *)done, errno);

	/* Bad argument pointer: the atom does not run. */
	rt_atom(&a, rt_umem_nr(), &ret, 0, NULL, (unsigned long *)&p, hole,
		NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(!done && errno == EFAULT, "bad arg pointer: %p errno %d",
		 (void *)done, errno);
	rt_check(cell == 1 && ret == 0, "the atom ran: cell %lu ret %ld", cell,
		 ret);

	/* A bad next atom after a good one: -EFAULT too (the kernel's
	 * exec_atom returns ERR_PTR(-EFAULT)), the first did run. */
	rt_atom(&a, rt_umem_nr(), &ret, 0, hole, (unsigned long *)&p, &inc,
		NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(!done && errno == EFAULT, "bad next: %p errno %d",
		 (void *)done, errno);
	rt_check(cell == 2 && ret == 2, "first atom: cell %lu ret %ld", cell,
		 ret);

	/* Bad ret pointer: the call runs, then -EFAULT is the result the
	 * stop test sees. */
	rt_atom(&a, rt_umem_nr(), hole, SYSLET_STOP_ON_NEGATIVE, &b,
		(unsigned long *)&p, &inc, NULL);
	rt_atom(&b, rt_umem_nr(), &ret, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(done == &a, "bad ret_ptr did not stop on negative: %p %s",
		 (void *)done, strerror(errno));
	rt_check(cell == 3, "the call did not run once: cell %lu", cell);
	a.flags = SYSLET_STOP_ON_ZERO;
	done = sys_async_exec(&a);
	rt_check(done == &b && cell == 5, "-EFAULT is nonzero: %p cell %lu",
		 (void *)done, cell);

	/* umem_add itself with a bad pointer. */
	errno = 0;
	long r = sys_umem_add(hole, 1);
	rt_check(r == -EFAULT && errno == EFAULT, "umem_add(hole): %ld", r);
	/* Through an atom: a bad target is -EFAULT in *ret_ptr. */
	unsigned long *hp = hole;
	rt_atom(&a, rt_umem_nr(), &ret, 0, NULL, (unsigned long *)&hp, &inc,
		NULL);
	done = sys_async_exec(&a);
	rt_check(done == &a && ret == -EFAULT, "umem atom on a hole: %p %ld",
		 (void *)done, ret);

	rt_check(ring[0] == NULL, "faults queued a completion");
	rt_unregister(&ahu);
	munmap(hole, 4096);
	return rt_done("fault");
}
