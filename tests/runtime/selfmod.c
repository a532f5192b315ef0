/* selfmod.c: chains that rewrite their own atoms, long and wrapping loops, results and stops, each expected value worked out from the 2007 core code by hand. */
#include "helpers.h"
#include <limits.h>
#include <stddef.h>
#include <sys/mman.h>

/*
 * 2007's exec_atom() copies each atom (copy_uatom(): nr, ret_ptr, flags,
 * next, then the arguments through arg_ptr[] up to the first NULL) before
 * it runs it, and decides where to go from that copy: a result stored
 * into a later atom's words changes what that atom does when it comes,
 * one stored into the running atom's own words changes nothing now but
 * does the next time round.  Every expectation below is that reading of
 * kernel/async.c, written out case by case, not the engine's output.
 */

#define W	sizeof(unsigned long)

static unsigned long umem;
static struct rt_ring8 ring;

static void atom(struct syslet_uatom *a, unsigned long nr, long *ret,
		 unsigned long flags, struct syslet_uatom *next,
		 unsigned long *a0, unsigned long *a1)
{
	rt_atom(a, nr, ret, flags, next, a0, a1, NULL);
}

/* The distance between two objects, whose addresses now escape: the
 * compiler must not assume that a cell reached only through a pointer
 * the syslet computed is never written. */
static unsigned long diff(void *to, void *from)
{
	__asm__ volatile("" : "+r"(to), "+r"(from) : : "memory");
	return (unsigned long)((const char *)to - (const char *)from);
}

/* A later atom's nr, rewritten by umem_add: the later atom runs the new
 * call (getpid becomes getppid). */
static void later_nr(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long d = (unsigned long)(SYS_getppid - SYS_getpid);
	unsigned long p = (unsigned long)&a[1].nr;
	long r0 = 0, r1 = 0;

	atom(&a[0], umem, &r0, 0, &a[1], &p, &d);
	atom(&a[1], SYS_getpid, &r1, 0, NULL, NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1], "ended at %p, not a[1] %p", (void *)done,
		 (void *)&a[1]);
	rt_check(a[1].nr == SYS_getppid, "a[1].nr %lu", a[1].nr);
	rt_check(r1 == getppid(), "a[1] returned %ld, getppid %d", r1,
		 (int)getppid());
}

/*
 * The running atom's own next, rewritten by its own umem_add: this run
 * follows the copy (to a[1]); the rewrite shows the next time a[0] runs.
 * Then a loop: a[0] sends itself to a[2] for the second pass.
 */
static void own_next(void)
{
	struct syslet_uatom a[3], *done;
	unsigned long d = diff(&a[2], &a[1]);
	unsigned long p = (unsigned long)&a[0].next;
	long r0 = 0, r1 = -1, r2 = -1;

	atom(&a[0], umem, &r0, 0, &a[1], &p, &d);
	atom(&a[1], SYS_getpid, &r1, 0, NULL, NULL, NULL);
	atom(&a[2], SYS_getppid, &r2, 0, NULL, NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1], "first pass ended at %p, not a[1] %p",
		 (void *)done, (void *)&a[1]);
	rt_check(r1 == getpid() && r2 == -1, "r1 %ld r2 %ld", r1, r2);
	rt_check(a[0].next == &a[2], "a[0].next %p", (void *)a[0].next);
	r1 = r2 = -1;
	/* Second pass: the stored next (a[2]) is used, and a[0] moves it
	 * on by the same distance again, past the array: not followed. */
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[2], "second pass ended at %p, not a[2] %p",
		 (void *)done, (void *)&a[2]);
	rt_check(r1 == -1 && r2 == getppid(), "r1 %ld r2 %ld", r1, r2);
}

/* The running atom's own flags, rewritten to STOP_ON_NONZERO by a call
 * that returns non-zero: the copy had no stop flag, so it goes on. */
static void own_flags(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long f = SYSLET_STOP_ON_NONZERO;
	unsigned long p = (unsigned long)&a[0].flags;
	long r0 = 0, r1 = -1;

	atom(&a[0], umem, &r0, 0, &a[1], &p, &f);
	atom(&a[1], SYS_getpid, &r1, 0, NULL, NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1] && r1 == getpid(),
		 "ended at %p (a[1] %p), r1 %ld", (void *)done,
		 (void *)&a[1], r1);
	rt_check(r0 == SYSLET_STOP_ON_NONZERO, "r0 %ld", r0);
	/* The second time the copy has it: umem_add returns 16, stop. */
	r1 = -1;
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[0] && r1 == -1, "second run ended at %p, r1 %ld",
		 (void *)done, r1);
}

/* The running atom's own ret_ptr, rewritten through itself: the result
 * goes where the copy pointed (the old cell), the new pointer is used
 * the next time. */
static void own_ret(void)
{
	struct syslet_uatom a;
	long old = 0, new = 0;
	unsigned long d = diff(&new, &old);
	unsigned long p = (unsigned long)&a.ret_ptr;
	unsigned long before;

	atom(&a, umem, &old, 0, NULL, &p, &d);
	before = (unsigned long)a.ret_ptr;
	rt_check(rt_run(&ring, &a) == &a, "did not end at the atom");
	rt_check(a.ret_ptr == &new, "ret_ptr %p", (void *)a.ret_ptr);
	rt_check((unsigned long)old == before + d && new == 0,
		 "old %ld (want %lu) new %ld", old, before + d, new);
}

/*
 * An argument read from the cell the same atom's result goes to: the
 * argument is the value before the call.  a[0]: x += r, r = x; a[1] the
 * loop's gate, fuel - 1, back to a[0] until it is zero.  From x 0, r 1,
 * ten passes double x from 1: 512.
 */
static void arg_is_ret(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long x = 0, fuel = 10, m1 = -1UL;
	unsigned long px = (unsigned long)&x, pf = (unsigned long)&fuel;
	long r = 1, g = 0;

	atom(&a[0], umem, &r, 0, &a[1], &px, (unsigned long *)&r);
	atom(&a[1], umem, &g, SYSLET_STOP_ON_ZERO, &a[0], &pf, &m1);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1], "ended at %p", (void *)done);
	rt_check(x == 512 && r == 512 && fuel == 0 && g == 0,
		 "x %lu r %ld fuel %lu g %ld", x, r, fuel, g);
}

/* A later atom's argument pointers rewritten: arg_ptr[1] moved to
 * another cell, and arg_ptr[0] of a third atom made NULL (its umem_add
 * then gets no arguments at all: address 0, -EFAULT). */
static void later_args(void)
{
	struct syslet_uatom a[4], *done;
	unsigned long x = 0, c1 = 1, c2 = 100;
	unsigned long px = (unsigned long)&x;
	unsigned long pslot = (unsigned long)&a[1].arg_ptr[1];
	unsigned long d = diff(&c2, &c1);
	unsigned long pnull = (unsigned long)&a[3].arg_ptr[0];
	unsigned long neg = -(unsigned long)&px;
	long r0, r1 = 0, r2, r3 = 0;

	atom(&a[0], umem, &r0, 0, &a[1], &pslot, &d);
	atom(&a[1], umem, &r1, 0, &a[2], &px, &c1);
	atom(&a[2], umem, &r2, 0, &a[3], &pnull, &neg);
	atom(&a[3], umem, &r3, 0, NULL, &px, &c1);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[3], "ended at %p", (void *)done);
	rt_check(x == 100 && r1 == 100, "x %lu r1 %ld", x, r1);
	rt_check(a[3].arg_ptr[0] == NULL, "a[3].arg_ptr[0] %p",
		 (void *)a[3].arg_ptr[0]);
	rt_check(r3 == -EFAULT, "a[3] returned %ld, not -EFAULT", r3);
}

/*
 * A loop whose gate stores its result into the body's flags: fuel 3, 2,
 * 1, 0 make the body's flags 2 (SYNC), 1 (ASYNC: the third pass hands
 * off to a worker), 0.  None is a stop flag, so the gate ends the loop.
 */
static void loop_rewrites(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long x = 0, one = 1, fuel = 3, m1 = -1UL;
	unsigned long px = (unsigned long)&x, pf = (unsigned long)&fuel;
	long r = 0;

	atom(&a[0], umem, &r, 0, &a[1], &px, &one);
	atom(&a[1], umem, (long *)&a[0].flags, SYSLET_STOP_ON_ZERO, &a[0],
	     &pf, &m1);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1] && x == 3 && fuel == 0 && a[0].flags == 0,
		 "ended at %p x %lu fuel %lu flags %lx", (void *)done, x, fuel,
		 a[0].flags);
}

/*
 * A counting loop of 100,000 passes: n counts the passes, c runs from
 * -100,000 up to 0, where STOP_ON_ZERO ends the chain at the loop atom.
 * With @mid, a getppid atom in the loop makes it a loop of system calls
 * too; with @async, the first atom is ASYNC (the loop runs on a worker
 * and completes into the ring).
 */
static void long_loop(int mid, int async)
{
	struct syslet_uatom a[3], *done;
	unsigned long n = 0, c = -100000UL, one = 1;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	long rn = 0, rc = 0, rp = 0;

	atom(&a[0], umem, &rn, async ? SYSLET_ASYNC : 0, mid ? &a[2] : &a[1],
	     &pn, &one);
	atom(&a[1], umem, &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc, &one);
	atom(&a[2], SYS_getppid, &rp, 0, &a[1], NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1], "mid %d async %d: ended at %p", mid, async,
		 (void *)done);
	rt_check(n == 100000 && c == 0 && rn == 100000 && rc == 0,
		 "mid %d async %d: n %lu c %lu rn %ld rc %ld", mid, async, n,
		 c, rn, rc);
	rt_check(!mid || rp == getppid(), "rp %ld", rp);
}

/* Counts that wrap: from ULONG_MAX - 5 up by one, STOP_ON_ZERO ends at
 * the sixth pass; from LONG_MAX - 2, STOP_ON_NEGATIVE at the third
 * (LONG_MIN is negative); STOP_ON_NON_POSITIVE with SKIP leaves the loop
 * to the atom after it. */
static void wrap_loops(void)
{
	struct syslet_uatom a[2], *done;
	unsigned long n = 0, c, one = 1, two = 2;
	unsigned long pn = (unsigned long)&n, pc = (unsigned long)&c;
	long rc = 0, r1 = 0;

	c = ULONG_MAX - 5;
	atom(&a[0], umem, &rc, SYSLET_STOP_ON_ZERO, &a[0], &pc, &one);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[0] && c == 0 && rc == 0, "wrap to 0: c %lu",
		 c);

	c = (unsigned long)LONG_MAX - 2;
	atom(&a[0], umem, &rc, SYSLET_STOP_ON_NEGATIVE, &a[0], &pc, &one);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[0] && c == (unsigned long)LONG_MIN &&
		 rc == LONG_MIN, "wrap to LONG_MIN: c %lx", c);

	/* 1, 3, 5, ... LONG_MAX then LONG_MAX + 2 = LONG_MIN + 1: the
	 * first non-positive; SKIP goes to a[1], which counts once. */
	c = (unsigned long)LONG_MAX - 6;
	atom(&a[0], umem, &rc,
	     SYSLET_STOP_ON_NON_POSITIVE | SYSLET_SKIP_TO_NEXT_ON_STOP, &a[0],
	     &pc, &two);
	atom(&a[1], umem, &r1, 0, NULL, &pn, &one);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1] && c == (unsigned long)LONG_MIN + 1 && n == 1,
		 "skip out of the wrap: ended at %p c %lx n %lu",
		 (void *)done, c, n);
}

/* umem_add(p, 0) only reads (so a read-only word answers its value);
 * a number past the table answers -ENOSYS without storing it; a result
 * that cannot be stored is -EFAULT for the stop test; two stop flags
 * never stop. */
static void results(void)
{
	struct syslet_uatom a[3], *done;
	long page = sysconf(_SC_PAGESIZE);
	unsigned long *ro = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long zero = 0, one = 1, pro, big = 1UL << 20;
	long r0 = -7, r1 = -7;

	if (ro == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	ro[0] = 4242;
	mprotect(ro, (size_t)page, PROT_READ);
	pro = (unsigned long)ro;

	atom(&a[0], umem, &r0, 0, &a[1], &pro, &zero);
	atom(&a[1], umem, &r1, 0, NULL, &pro, &one);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1] && r0 == 4242 && ro[0] == 4242,
		 "read-only read: r0 %ld", r0);
	rt_check(r1 == -EFAULT, "read-only add: r1 %ld", r1);

	/* Past the table: ret not written; STOP_ON_NEGATIVE | SKIP goes to
	 * a[1] (atom + 1), not to next (a[2]). */
	r0 = -7, r1 = -7;
	atom(&a[0], big, &r0,
	     SYSLET_STOP_ON_NEGATIVE | SYSLET_SKIP_TO_NEXT_ON_STOP, &a[2],
	     NULL, NULL);
	atom(&a[1], SYS_getpid, &r1, 0, NULL, NULL, NULL);
	atom(&a[2], SYS_getppid, &r1, 0, NULL, NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[1] && r0 == -7 && r1 == getpid(),
		 "past the table: ended at %p r0 %ld r1 %ld", (void *)done,
		 r0, r1);

	/* A result that cannot be stored (read-only ret_ptr): -EFAULT
	 * stops on STOP_ON_NEGATIVE. */
	r1 = -7;
	atom(&a[0], SYS_getpid, (long *)ro, SYSLET_STOP_ON_NEGATIVE, &a[1],
	     NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[0] && r1 == -7, "unstorable result: ended at %p",
		 (void *)done);

	/* Two stop flags: neither a zero nor a negative result stops. */
	r1 = -7;
	atom(&a[0], umem, &r0, SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NEGATIVE,
	     &a[1], &pro, &one);
	atom(&a[1], umem, &r1, SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NONZERO,
	     &a[2], (unsigned long *)&zero, &zero);
	atom(&a[2], SYS_getppid, &r0, 0, NULL, NULL, NULL);
	done = rt_run(&ring, &a[0]);
	rt_check(done == &a[2] && r1 == -EFAULT && r0 == getppid(),
		 "two stop flags: ended at %p r1 %ld", (void *)done, r1);
	munmap(ro, (size_t)page);
}

int main(void)
{
	struct async_head_user ahu;

	rt_init();
	umem = rt_umem_nr();
	rt_register(&ahu, ring.slot, 8, -1UL);
	later_nr();
	own_next();
	own_flags();
	own_ret();
	arg_is_ret();
	later_args();
	loop_rewrites();
	for (int mid = 0; mid < 2; mid++)
		for (int async = 0; async < 2; async++)
			long_loop(mid, async);
	wrap_loops();
	results();
	rt_unregister(&ahu);
	return rt_done("selfmod");
}
