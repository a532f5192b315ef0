/* umem-add.c: the i386 assembly umem_add against the C reference: reads, adds, wrap-around, faults, atomicity. */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "syslet-asm.h"
#include "uasm.h"
#include "uatom-ref.h"
#include "asm-test.h"

#define EFAULT_RET	(-SYSLET_UASM_EFAULT)
#define NR_RANDOM	20000

/* Two twin arenas, one per implementation: RW page, RO page, PROT_NONE. */
enum { PG_RW, PG_RW2, PG_RO, PG_NONE, NR_PAGES };

static char *twin[2];

static char *at(int t, int pg, size_t off)
{
	return twin[t] + (size_t)pg * at_page_size + off;
}

static uint32_t get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void put32(void *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Run both on the same offset of their twin arena; compare all results. */
static int both(int pg, size_t off, uint32_t inc, long *ret)
{
	unsigned long *pa = (unsigned long *)at(0, pg, off);
	unsigned long *pc = (unsigned long *)at(1, pg, off);
	long ra, rc;

	ra = syslet_umem_add(pa, inc);
	rc = syslet_umem_add_c(pc, inc);
	*ret = ra;
	if (ra != rc)
		return 1;
	return memcmp(twin[0], twin[1], (size_t)PG_NONE * at_page_size) != 0;
}

/* Store @v in both twins; the RO page is opened for it (a cell may straddle into it). */
static void set_both(int pg, size_t off, uint32_t v)
{
	int t;

	for (t = 0; t < 2; t++) {
		at_protect(at(t, PG_RO, 0), 1, PROT_READ | PROT_WRITE);
		put32(at(t, pg, off), v);
		at_protect(at(t, PG_RO, 0), 1, PROT_READ);
	}
}

static void test_random(void)
{
	unsigned int n, fails = 0;

	for (n = 0; n < NR_RANDOM; n++) {
		size_t off = at_rand_below((uint32_t)(2 * at_page_size - 4));
		uint32_t v = at_rand(), inc;
		long want, got;

		switch (at_rand_below(4)) {
		case 0:
			inc = 0;
			break;
		case 1:
			inc = at_rand_below(16) - 8;	/* small, both signs */
			break;
		default:
			inc = at_rand();
		}
		if (at_rand_below(8))
			off &= ~(size_t)3;
		put32(at(0, PG_RW, 0) + off, v);
		put32(at(1, PG_RW, 0) + off, v);
		want = (long)(uint32_t)(v + inc);
		if (both(PG_RW, off, inc, &got) || got != want ||
		    get32(at(0, PG_RW, off)) != (uint32_t)want) {
			if (fails++ < 5)
				at_diag("umem_add(%p = %#x, %#x) = %ld, want %ld",
					(void *)at(0, PG_RW, off), v, inc, got,
					want);
		}
	}
	at_ok(fails == 0, "%u random reads and adds: asm == C == v + inc",
	      NR_RANDOM);
}

static void test_directed(void)
{
	unsigned long faults;
	long r;
	size_t edge = at_page_size - 2;

	set_both(PG_RW, 8, 1234);
	at_ok(!both(PG_RW, 8, 0, &r) && r == 1234 &&
	      get32(at(0, PG_RW, 8)) == 1234, "inc 0 reads");
	at_ok(!both(PG_RW, 8, 10, &r) && r == 1244, "inc 10 adds");
	at_ok(!both(PG_RW, 8, (uint32_t)-1244, &r) && r == 0,
	      "a negative increment subtracts");
	set_both(PG_RW, 8, 0xffffffff);
	at_ok(!both(PG_RW, 8, 1, &r) && r == 0 && get32(at(0, PG_RW, 8)) == 0,
	      "0xffffffff + 1 wraps to 0");
	set_both(PG_RW, 8, 0x7fffffff);
	at_ok(!both(PG_RW, 8, 1, &r) && r == (long)0x80000000u,
	      "0x7fffffff + 1 overflows to INT_MIN");
	set_both(PG_RW, 8, 0xfffffff2);
	at_ok(!both(PG_RW, 8, 0, &r) && r == EFAULT_RET,
	      "a stored -14 reads back as -EFAULT (the ABI cannot tell)");

	set_both(PG_RO, 16, 77);
	at_ok(!both(PG_RO, 16, 0, &r) && r == 77,
	      "inc 0 on read-only memory reads");
	at_ok(!both(PG_RO, 16, 1, &r) && r == EFAULT_RET &&
	      get32(at(0, PG_RO, 16)) == 77,
	      "inc 1 on read-only memory: -EFAULT, unchanged");
	at_ok(!both(PG_NONE, 0, 0, &r) && r == EFAULT_RET,
	      "PROT_NONE read: -EFAULT");
	at_ok(!both(PG_NONE, 0, 5, &r) && r == EFAULT_RET,
	      "PROT_NONE add: -EFAULT");
	at_ok(syslet_umem_add(NULL, 1) == EFAULT_RET &&
	      syslet_umem_add_c(NULL, 1) == EFAULT_RET, "NULL: -EFAULT");
	at_ok(syslet_umem_add((void *)at(0, NR_PAGES, 0), 0) == EFAULT_RET,
	      "guard page: -EFAULT");

	faults = uasm_fault_count();
	at_ok(syslet_umem_add((void *)(uintptr_t)AT_KERNEL_ADDR, 1) ==
			      EFAULT_RET &&
		      syslet_umem_add((void *)(uintptr_t)(
				      SYSLET_UASM_TASK_SIZE_MAX - 3), 0) ==
			      EFAULT_RET &&
		      syslet_umem_add_c((void *)(uintptr_t)(
				      SYSLET_UASM_TASK_SIZE_MAX - 3), 0) ==
			      EFAULT_RET &&
		      uasm_fault_count() == faults,
	      "above TASK_SIZE: refused before any access");

	faults = uasm_fault_count();
	r = syslet_umem_add((void *)(uintptr_t)(SYSLET_UASM_TASK_SIZE_MAX - 4),
			    0);
	at_ok(uasm_fault_count() == faults + 1 || r != EFAULT_RET,
	      "a cell ending at TASK_SIZE is accessed");

	/* unaligned, across two read-write pages */
	set_both(PG_RW, edge, 0x01020304);
	at_ok(!both(PG_RW, edge, 0x10, &r) && r == 0x01020314,
	      "unaligned across two pages adds");
	/* unaligned, into read-only: the store faults and writes nothing */
	set_both(PG_RW2, edge, 0xaabbccdd);
	at_ok(!both(PG_RW2, edge, 1, &r) && r == EFAULT_RET &&
	      get32(at(0, PG_RW2, edge)) == 0xaabbccdd,
	      "unaligned into a read-only page: -EFAULT, unchanged");
	at_ok(!both(PG_RW2, edge, 0, &r) && r == (long)0xaabbccddu,
	      "unaligned read into a read-only page works");
	at_ok(!both(PG_RO, edge, 0, &r) && r == EFAULT_RET,
	      "unaligned read into PROT_NONE: -EFAULT");
}

#define NR_THREADS	4
#define NR_ADDS		1000000

static pthread_barrier_t start_line;

static void *adder(void *p)
{
	int i;

	/* start together, or the threads barely overlap */
	pthread_barrier_wait(&start_line);
	for (i = 0; i < NR_ADDS; i++)
		syslet_umem_add(p, 3);
	return NULL;
}

static void test_atomic(void)
{
	pthread_t th[NR_THREADS];
	unsigned long *cell = (unsigned long *)at(0, PG_RW, 64);
	int i, started = 0;

	*cell = 0;
	if (pthread_barrier_init(&start_line, NULL, NR_THREADS))
		at_bail("pthread_barrier_init failed");
	for (i = 0; i < NR_THREADS; i++)
		started += pthread_create(&th[i], NULL, adder, cell) == 0;
	if (started != NR_THREADS)
		at_bail("only %d of %d threads started", started, NR_THREADS);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start_line);
	at_ok(*cell == 3ul * NR_THREADS * NR_ADDS,
	      "%d threads x %d adds: no update lost (%lu)", NR_THREADS, NR_ADDS,
	      *cell);
}

static void bench(void)
{
	const int iters = 1000000;
	unsigned long *cell = (unsigned long *)at(0, PG_RW, 128);
	double t0, ta, tc;
	int i;

	t0 = at_now_ns();
	for (i = 0; i < iters; i++)
		syslet_umem_add(cell, 1);
	ta = at_now_ns() - t0;
	t0 = at_now_ns();
	for (i = 0; i < iters; i++)
		syslet_umem_add_c(cell, 1);
	tc = at_now_ns() - t0;
	at_diag("bench: umem_add: asm (lock xadd) %.2f ns, C (not atomic) %.2f ns",
		ta / iters, tc / iters);
}

int main(void)
{
	int t;

	at_init("umem-add");
	for (t = 0; t < 2; t++) {
		twin[t] = at_pages(NR_PAGES);
		at_protect(at(t, PG_RO, 0), 1, PROT_READ);
		at_protect(at(t, PG_NONE, 0), 1, PROT_NONE);
	}
	test_directed();
	test_random();
	test_atomic();
	bench();
	for (t = 0; t < 2; t++)
		at_pages_free(twin[t], NR_PAGES);
	return at_done();
}
