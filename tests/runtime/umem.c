/* umem.c: sys_umem_add(p, 0) reads, (p, k) adds and returns the new value, directly and through an atom; on a read-only word (p, 0) still reads and (p, k) fails with EFAULT, the word unchanged. */
#include "helpers.h"
#include <sys/mman.h>

/*
 * A word that can be read but not written: seeds/006's sys_umem_add()
 * only get_user()s it for inc 0 and returns it, and every backend does
 * (asm-i386's syslet_umem_add too); a sum is never stored there, and is
 * answered EFAULT (syslet(7): 2007's generic version returned it
 * unstored).  Directly and through an atom, whose stop test sees the
 * EFAULT.
 */
static void check_read_only(struct syslet_uatom *a)
{
	unsigned long *ro, inc, *rp;
	long r, ret;
	struct syslet_uatom *done;

	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	ro[3] = 1234;
	if (mprotect(ro, 4096, PROT_READ))
		rt_die("mprotect: %s", strerror(errno));
	rp = &ro[3];
	r = sys_umem_add(rp, 0);
	rt_check(r == 1234, "read-only word, inc 0: %ld, not its value 1234",
		 r);
	errno = 0;
	r = sys_umem_add(rp, 5);
	rt_check(r == -EFAULT && errno == EFAULT && ro[3] == 1234,
		 "read-only word, inc 5: %ld (%s), the word %lu", r,
		 strerror(errno), ro[3]);

	inc = 0;
	ret = 0;
	rt_atom(a, rt_umem_nr(), &ret, SYSLET_STOP_ON_NEGATIVE, NULL,
		(unsigned long *)&rp, &inc, NULL);
	done = sys_async_exec(a);
	rt_check(done == a && ret == 1234, "atom, read-only word, inc 0: "
		 "%ld", ret);
	inc = 5;
	done = sys_async_exec(a);
	rt_check(done == a && ret == -EFAULT && ro[3] == 1234,
		 "atom, read-only word, inc 5: %ld, the word %lu", ret, ro[3]);
	munmap(ro, 4096);
}

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
	check_read_only(&a);
	rt_unregister(&ahu);
	return rt_done("umem");
}
