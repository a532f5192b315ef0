/* copy-uatom.c: the i386 assembly copy_uatom against the C reference and a model, on random and faulting atoms. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "syslet-asm.h"
#include "uasm.h"
#include "uatom-ref.h"
#include "asm-test.h"

#define EFAULT_RET	(-SYSLET_UASM_EFAULT)
#define NR_RANDOM	20000

/*
 * The arena: page 0 holds read-write argument cells, page 1 read-only
 * cells, page 2 and 3 atoms, page 4 is PROT_NONE; guard pages around.
 */
enum { PG_CELLS, PG_RO, PG_ATOMS, PG_ATOMS2, PG_NONE, NR_PAGES };

static char *arena;

static char *page(int i)
{
	return arena + (size_t)i * at_page_size;
}

static char *arena_end(void)
{
	return page(NR_PAGES);
}

/* What one arg_ptr slot of a generated atom is. */
enum slot_kind { SLOT_NULL, SLOT_GOOD, SLOT_BAD };

struct gen_case {
	char *uatom;			/* where the user atom lives */
	size_t readable;		/* bytes of it that can be read */
	uint32_t head[4];
	uint32_t slot[SYSLET_NR_ARGS];	/* the arg_ptr values */
	enum slot_kind kind[SYSLET_NR_ARGS];
};

static void put32(void *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static uint32_t get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t addr(const void *p)
{
	return (uint32_t)(uintptr_t)p;
}

/* A pointer to a cell that can be read, sometimes unaligned or read-only. */
static uint32_t good_cell(void)
{
	int pg = at_rand_below(4) ? PG_CELLS : PG_RO;
	size_t off = at_rand_below((uint32_t)(at_page_size - 4));
	char *p;

	/* across the boundary of two readable pages */
	if (!at_rand_below(16))
		return addr(page(PG_RO)) - 1 - at_rand_below(3);

	if (at_rand_below(8))
		off &= ~(size_t)3;
	p = page(pg) + off;
	return addr(p);
}

/* A pointer the routines must refuse or fault on. */
static uint32_t bad_cell(void)
{
	switch (at_rand_below(6)) {
	case 0:
		return addr(page(PG_NONE)) + at_rand_below((uint32_t)at_page_size);
	case 1:
		return addr(arena_end()) + at_rand_below((uint32_t)at_page_size);
	case 2:		/* straddles the end of the cells into PROT_NONE */
		return addr(page(PG_NONE)) - 1 - at_rand_below(3);
	case 3:
		return AT_KERNEL_ADDR + at_rand_below(0xffc);
	case 4:		/* the first address the range check refuses */
		return SYSLET_UASM_TASK_SIZE_MAX - 3;
	default:	/* below the arena: the guard page */
		return addr(arena) - 1 - at_rand_below((uint32_t)at_page_size - 1);
	}
}

static void gen_random(struct gen_case *c)
{
	uint32_t null_pct = at_rand_below(40);
	uint32_t bad_pct = at_rand_below(4) ? 0 : at_rand_below(20);
	size_t off;
	int i;

	if (!at_rand_below(16)) {
		/* across the boundary of two mapped pages */
		off = 1 + at_rand_below(SYSLET_UATOM_SIZE - 1);
		c->uatom = page(PG_ATOMS2) - off;
		c->readable = SYSLET_UATOM_SIZE;
	} else if (at_rand_below(16)) {
		off = at_rand_below((uint32_t)(at_page_size - SYSLET_UATOM_SIZE));
		if (at_rand_below(8))
			off &= ~(size_t)3;
		c->uatom = page(PG_ATOMS) + off;
		c->readable = SYSLET_UATOM_SIZE;
	} else {
		/* near the end of a page followed by PROT_NONE */
		off = 1 + at_rand_below(SYSLET_UATOM_SIZE + 4);
		c->uatom = page(PG_NONE) - off;
		c->readable = off < SYSLET_UATOM_SIZE ? off : SYSLET_UATOM_SIZE;
	}
	for (i = 0; i < 4; i++)
		c->head[i] = at_rand();
	for (i = 0; i < SYSLET_NR_ARGS; i++) {
		uint32_t r = at_rand_below(100);

		if (r < null_pct) {
			c->kind[i] = SLOT_NULL;
			c->slot[i] = 0;
		} else if (r < null_pct + bad_pct) {
			c->kind[i] = SLOT_BAD;
			c->slot[i] = bad_cell();
		} else {
			c->kind[i] = SLOT_GOOD;
			c->slot[i] = good_cell();
		}
	}
}

/* Write the generated atom where it belongs, as far as it is mapped. */
static void gen_store(const struct gen_case *c)
{
	unsigned char img[SYSLET_UATOM_SIZE];
	int i;

	for (i = 0; i < 4; i++)
		put32(img + 4 * i, c->head[i]);
	for (i = 0; i < SYSLET_NR_ARGS; i++)
		put32(img + SYSLET_UATOM_ARG_PTR + 4 * i, c->slot[i]);
	put32(img + SYSLET_UATOM_PRIVATE, at_rand());
	memcpy(c->uatom, img, c->readable);
}

/*
 * The model: the head (16 bytes) and the slots up to the first NULL are
 * read; each followed slot must be a good cell.
 */
static long gen_expect(const struct gen_case *c, struct syslet_atom *want)
{
	size_t need = SYSLET_UATOM_ARG_PTR;
	int i;

	memset(want, 0, sizeof(*want));
	want->flags = c->head[0];
	want->nr = c->head[1];
	want->ret_ptr = c->head[2];
	want->next = c->head[3];
	if (c->readable < need)
		return EFAULT_RET;
	for (i = 0; i < SYSLET_NR_ARGS; i++) {
		need += 4;
		if (c->readable < need)
			return EFAULT_RET;
		if (c->kind[i] == SLOT_NULL)
			break;
		if (c->kind[i] == SLOT_BAD)
			return EFAULT_RET;
		/* read now: an atom stored over a cell may have changed it */
		want->args[i] = get32((const void *)(uintptr_t)c->slot[i]);
	}
	return 0;
}

static void describe(const struct gen_case *c, long a, long r, long e)
{
	static const char kinds[] = "NGB";
	char buf[64];
	int i;

	for (i = 0; i < SYSLET_NR_ARGS; i++)
		buf[i] = kinds[c->kind[i]];
	buf[i] = 0;
	at_diag("uatom %p (readable %zu) slots %s: asm %ld, C %ld, model %ld",
		(void *)c->uatom, c->readable, buf, a, r, e);
}

/*
 * Run both routines on one generated atom; 0 when both agree with the
 * model and with each other and left the user atom as it was.
 */
static int run_case(const struct gen_case *c, int verbose)
{
	struct syslet_atom got_a, got_c, want;
	unsigned char before[SYSLET_UATOM_SIZE];
	long ra, rc, re;
	unsigned int i;
	int bad = 0;

	for (i = 0; i < sizeof(got_a); i++)
		((unsigned char *)&got_a)[i] = (unsigned char)at_rand();
	memcpy(&got_c, &got_a, sizeof(got_a));
	memcpy(before, c->uatom, c->readable);

	re = gen_expect(c, &want);
	ra = syslet_copy_uatom(&got_a, (const void *)c->uatom);
	rc = syslet_copy_uatom_c(&got_c, c->uatom);

	if (ra != re || rc != re)
		bad = 1;
	else if (re == 0 && (memcmp(&got_a, &want, sizeof(want)) ||
			     memcmp(&got_c, &want, sizeof(want))))
		bad = 2;
	else if (memcmp(before, c->uatom, c->readable))
		bad = 3;
	if (bad && verbose)
		describe(c, ra, rc, re);
	return bad;
}

static void test_random(void)
{
	unsigned int n, fails = 0, ok0 = 0, full = 0, straddle = 0;
	struct gen_case c;

	for (n = 0; n < NR_RANDOM; n++) {
		struct syslet_atom want;
		long e;

		gen_random(&c);
		gen_store(&c);
		e = gen_expect(&c, &want);
		ok0 += e == 0;
		full += e == 0 && c.kind[5] == SLOT_GOOD;
		straddle += c.readable < SYSLET_UATOM_SIZE;
		if (run_case(&c, fails < 5))
			fails++;
	}
	at_diag("random: %u atoms, %u copied, %u with six args, %u at a page end",
		NR_RANDOM, ok0, full, straddle);
	at_ok(fails == 0 && ok0 > NR_RANDOM / 4 && ok0 < NR_RANDOM,
	      "%u random atoms: asm == C == model (%u mismatches)", NR_RANDOM,
	      fails);
}

/* A well-formed atom with @nargs good args at @where. */
static void make_atom(struct gen_case *c, char *where, size_t readable,
		      int nargs)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->uatom = where;
	c->readable = readable;
	for (i = 0; i < 4; i++)
		c->head[i] = at_rand();
	for (i = 0; i < nargs; i++) {
		c->kind[i] = SLOT_GOOD;
		c->slot[i] = good_cell();
	}
}

static void test_directed(void)
{
	unsigned long faults;
	struct syslet_atom a;
	struct gen_case c;
	size_t off;
	int i, fails;

	memset(&a, 0, sizeof(a));
	at_ok(syslet_copy_uatom(&a, NULL) == EFAULT_RET &&
	      syslet_copy_uatom_c(&a, NULL) == EFAULT_RET,
	      "NULL atom: -EFAULT");
	at_ok(syslet_copy_uatom(&a, (void *)page(PG_NONE)) == EFAULT_RET &&
	      syslet_copy_uatom_c(&a, page(PG_NONE)) == EFAULT_RET,
	      "atom in a PROT_NONE page: -EFAULT");
	at_ok(syslet_copy_uatom(&a, (void *)arena_end()) == EFAULT_RET &&
	      syslet_copy_uatom_c(&a, arena_end()) == EFAULT_RET,
	      "atom in an unmapped guard page: -EFAULT");

	faults = uasm_fault_count();
	at_ok(syslet_copy_uatom(&a, (void *)(uintptr_t)AT_KERNEL_ADDR) ==
			      EFAULT_RET &&
		      syslet_copy_uatom(&a, (void *)(uintptr_t)(
				      SYSLET_UASM_TASK_SIZE_MAX -
				      SYSLET_UATOM_SIZE + 1)) == EFAULT_RET &&
		      syslet_copy_uatom_c(&a, (void *)(uintptr_t)(
				      SYSLET_UASM_TASK_SIZE_MAX -
				      SYSLET_UATOM_SIZE + 1)) == EFAULT_RET &&
		      uasm_fault_count() == faults,
	      "atom ending above TASK_SIZE: refused before any access");

	faults = uasm_fault_count();
	at_ok(syslet_copy_uatom(&a, (void *)page(PG_NONE)) == EFAULT_RET &&
		      uasm_fault_count() == faults + 1,
	      "a fault is fixed up once, through the exception table");

	/* Every straddle position of a six-arg atom against the guard. */
	fails = 0;
	for (off = 1; off <= SYSLET_UATOM_SIZE + 4; off++) {
		make_atom(&c, page(PG_NONE) - off,
			  off < SYSLET_UATOM_SIZE ? off : SYSLET_UATOM_SIZE, 6);
		gen_store(&c);
		fails += run_case(&c, 1) != 0;
	}
	at_ok(fails == 0, "six-arg atom straddling into PROT_NONE at every offset");

	/* private is never read: the 40 bytes before a guard page suffice */
	make_atom(&c, page(PG_NONE) - 40, 40, 6);
	gen_store(&c);
	at_ok(run_case(&c, 1) == 0 &&
	      syslet_copy_uatom(&a, (void *)c.uatom) == 0,
	      "private in an unmapped page is not touched");

	/* a NULL arg_ptr[0] needs only the first 20 bytes */
	make_atom(&c, page(PG_NONE) - 20, 20, 0);
	gen_store(&c);
	at_ok(run_case(&c, 1) == 0 &&
	      syslet_copy_uatom(&a, (void *)c.uatom) == 0,
	      "no arguments: the words after arg_ptr[0] are not read");

	/* slots after the first NULL may point anywhere */
	fails = 0;
	for (i = 0; i < SYSLET_NR_ARGS; i++) {
		int j;

		make_atom(&c, page(PG_ATOMS) + 64, SYSLET_UATOM_SIZE, i);
		c.kind[i] = SLOT_NULL;
		for (j = i + 1; j < SYSLET_NR_ARGS; j++) {
			c.kind[j] = SLOT_BAD;
			c.slot[j] = bad_cell();
		}
		gen_store(&c);
		fails += run_case(&c, 1) != 0;
	}
	at_ok(fails == 0, "pointers after the first NULL are never followed");

	/* one bad pointer at each position, good ones before it */
	fails = 0;
	for (i = 0; i < SYSLET_NR_ARGS; i++) {
		int k;

		for (k = 0; k < 6; k++) {
			make_atom(&c, page(PG_ATOMS2) + 128, SYSLET_UATOM_SIZE,
				  SYSLET_NR_ARGS);
			c.kind[i] = SLOT_BAD;
			c.slot[i] = bad_cell();
			gen_store(&c);
			fails += run_case(&c, 1) != 0;
		}
	}
	at_ok(fails == 0, "a faulting or refused arg_ptr at each position: -EFAULT");

	/*
	 * The range checks are exact: the last cell that ends at
	 * TASK_SIZE_MAX is accessed (it faults unless the stack is mapped
	 * there), the next address is refused without an access.
	 */
	make_atom(&c, page(PG_ATOMS) + 192, SYSLET_UATOM_SIZE, 1);
	c.slot[0] = SYSLET_UASM_TASK_SIZE_MAX - 3;
	gen_store(&c);
	faults = uasm_fault_count();
	at_ok(syslet_copy_uatom(&a, (void *)c.uatom) == EFAULT_RET &&
		      syslet_copy_uatom_c(&a, c.uatom) == EFAULT_RET &&
		      uasm_fault_count() == faults,
	      "arg_ptr ending past TASK_SIZE: refused before any access");
	c.slot[0] = SYSLET_UASM_TASK_SIZE_MAX - 4;
	gen_store(&c);
	faults = uasm_fault_count();
	at_ok(syslet_copy_uatom(&a, (void *)c.uatom) == 0 ||
		      uasm_fault_count() == faults + 1,
	      "arg_ptr ending at TASK_SIZE is accessed");
	faults = uasm_fault_count();
	at_ok(syslet_copy_uatom(&a, (void *)(uintptr_t)(
			      SYSLET_UASM_TASK_SIZE_MAX - SYSLET_UATOM_SIZE)) ==
			      0 ||
		      uasm_fault_count() == faults + 1,
	      "an atom ending at TASK_SIZE is accessed");

	/* arguments in read-only memory are fine: they are only read */
	make_atom(&c, page(PG_ATOMS) + 256, SYSLET_UATOM_SIZE, 6);
	for (i = 0; i < SYSLET_NR_ARGS; i++) {
		c.slot[i] = addr(page(PG_RO) + 8 * i);
	}
	gen_store(&c);
	at_ok(run_case(&c, 1) == 0, "arguments in a read-only page are read");

	/* ret_ptr and next are copied, never dereferenced */
	make_atom(&c, page(PG_ATOMS) + 512, SYSLET_UATOM_SIZE, 2);
	c.head[2] = addr(page(PG_NONE));
	c.head[3] = AT_KERNEL_ADDR;
	gen_store(&c);
	faults = uasm_fault_count();
	at_ok(run_case(&c, 1) == 0 && uasm_fault_count() == faults,
	      "unmapped ret_ptr and a kernel next pointer are only copied");

	/* the atom itself read-only: copy_uatom must not need to write it */
	make_atom(&c, page(PG_RO) + 1024, SYSLET_UATOM_SIZE, 3);
	at_protect(page(PG_RO), 1, PROT_READ | PROT_WRITE);
	gen_store(&c);
	at_protect(page(PG_RO), 1, PROT_READ);
	at_ok(run_case(&c, 1) == 0, "an atom in read-only memory is copied");
}

static void bench_one(int nargs)
{
	const int iters = 500000;
	struct syslet_atom a;
	struct gen_case c;
	double t0, ta, tc;
	long sink = 0;
	int i;

	make_atom(&c, page(PG_ATOMS2) + 256, SYSLET_UATOM_SIZE, nargs);
	gen_store(&c);
	t0 = at_now_ns();
	for (i = 0; i < iters; i++)
		sink += syslet_copy_uatom(&a, (void *)c.uatom);
	ta = at_now_ns() - t0;
	t0 = at_now_ns();
	for (i = 0; i < iters; i++)
		sink += syslet_copy_uatom_c(&a, c.uatom);
	tc = at_now_ns() - t0;
	at_diag("bench: copy_uatom with %d args: asm %.2f ns, C %.2f ns (%.1fx)%s",
		nargs, ta / iters, tc / iters, ta > 0 ? tc / ta : 0.0,
		sink ? " (errors!)" : "");
}

int main(void)
{
	at_init("copy-uatom");
	arena = at_pages(NR_PAGES);
	at_protect(page(PG_NONE), 1, PROT_NONE);
	for (size_t i = 0; i < at_page_size; i += 4) {
		put32(page(PG_CELLS) + i, at_rand());
		put32(page(PG_RO) + i, at_rand());
	}
	at_protect(page(PG_RO), 1, PROT_READ);
	at_diag("exception table: %zu entries", uasm_extable_size());
	at_ok(uasm_extable_size() >= 16, "the routines' exception table is linked");

	test_directed();
	test_random();
	bench_one(3);
	bench_one(6);
	at_pages_free(arena, NR_PAGES);
	return at_done();
}
