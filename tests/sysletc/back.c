/* back.c: layout and emit on hand-built IR: skips land right, trampolines only where needed, behaviour kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "irb.h"

/*
 * The diagnostics of the running test.  A failed assertion leaves the
 * test at once, with what layout or emit said still queued: the
 * teardown (and the next quiet()) prints them to stderr, where they
 * tell why, and frees them.
 */
static struct diag quiet_diag;

static struct diag *quiet(void)
{
	diag_flush(&quiet_diag);
	diag_init(&quiet_diag, "hand.syslet", "", 0, stderr);
	return &quiet_diag;
}

static int flush_quiet(void **state)
{
	(void)state;
	diag_flush(&quiet_diag);
	return 0;
}

static int wants_skip(const struct ir_atom *a)
{
	return (a->flags & SKIP) && (a->flags & SYSLET_STOP_MASK);
}

static size_t count_tramps(const struct ir_program *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_atoms; i++)
		n += p->atoms[i].role == SLO_ROLE_TRAMPOLINE;
	return n;
}

/* The contract layout promises emit. */
static void assert_laid_out(const struct ir_program *p)
{
	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];

		if (wants_skip(a))
			assert_int_equal(a->skip, (int)i + 1);
		if (a->role == SLO_ROLE_TRAMPOLINE) {
			assert_int_equal(a->flags, 0);
			assert_int_equal(a->ret, IR_NONE);
			assert_int_equal(a->args[0], IR_NONE);
			assert_string_equal(a->sysname, "getppid");
			assert_true(a->next >= 0);
		}
	}
}

/*
 * Run a program with stop outcomes drawn from `seed` and record the
 * texts of the atoms it runs.  physical: skips go to atom + 1 (the
 * kernel's rule, after layout); otherwise to ir_atom.skip (before).
 */
static size_t run(const struct ir_program *p, int start, unsigned seed,
		  int physical, const char **trace, size_t max)
{
	size_t n = 0;
	unsigned x = seed * 2654435761u + 1;
	int i = start;

	for (size_t steps = 0; i >= 0 && steps < 4 * max && n < max; steps++) {
		const struct ir_atom *a = &p->atoms[i];
		int stop = 0;

		if (a->text)
			trace[n++] = a->text;
		if (a->flags & SYSLET_STOP_MASK) {
			x = x * 1103515245u + 12345u;
			stop = (x >> 16) & 1;
		}
		if (!stop)
			i = a->next;
		else if (a->flags & SKIP)
			i = physical ? i + 1 : a->skip;
		else
			i = IR_NONE;
	}
	return n;
}

static void assert_same_behaviour(struct ir_program *p)
{
	enum { MAX = 64, SEEDS = 32 };
	const char *before[SEEDS][MAX], *after[MAX];
	size_t nb[SEEDS], na;
	struct diag *d = quiet();
	int start = p->entries[0].first_atom;

	for (unsigned s = 0; s < SEEDS; s++) {
		nb[s] = run(p, start, s, 0, before[s], MAX);
		/* Texts must survive layout: keep copies. */
		for (size_t k = 0; k < nb[s]; k++)
			before[s][k] = strdup(before[s][k]);
	}
	assert_int_equal(ir_layout(p, d), 0);
	assert_int_equal(d->errors, 0);
	assert_laid_out(p);
	for (unsigned s = 0; s < SEEDS; s++) {
		na = run(p, p->entries[0].first_atom, s, 1, after, MAX);
		assert_int_equal(na, nb[s]);
		for (size_t k = 0; k < na; k++) {
			assert_string_equal(after[k], before[s][k]);
			free((char *)before[s][k]);
		}
	}
}

/* The builder grows as needed: more atoms, cells and labels than the
 * fixed 256 the tests' own builder had room for. */
static void test_big(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	enum { N = 1000 };
	char name[32];

	(void)state;
	for (int i = 0; i < N; i++) {
		int c = irb_cell(p, IR_CELL_VAR, NULL, i);

		irb_atom(p, SYSLET_STOP_ON_NEGATIVE, "getpid", c, NULL,
			 i + 1 < N ? i + 1 : IR_NONE, IR_NONE, "a");
		snprintf(name, sizeof(name), "s.l%d", i);
		irb_label(p, name, i);
	}
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	assert_int_equal(p->nr_atoms, N);
	assert_int_equal(p->nr_labels, N);
	assert_string_equal(p->labels[N - 1].name, "s.l999");
	irb_free(p);
}

/* The front end's passes over the IR, each alone (ir-pass.c). */
static void test_passes(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	int a0, a1, a2, a3, used, unused;

	(void)state;
	used = irb_cell(p, IR_CELL_CONST, NULL, 1);
	unused = irb_cell(p, IR_CELL_CONST, NULL, 2);
	irb_cell(p, IR_CELL_VAR, "s.x", 0);
	/* a0 tests, but both ways lead to a2; a1 is reached by nothing. */
	a0 = irb_atom(p, SYSLET_STOP_ON_ZERO | SKIP, "getpid", IR_NONE,
		      ARGS(used), 2, 2, "a0");
	a1 = irb_atom(p, 0, "getppid", IR_NONE, ARGS(unused), 2, IR_NONE,
		      "a1");
	/* a2 skips to the end: a plain stop; a3 ends either way. */
	a2 = irb_atom(p, SYSLET_STOP_ON_NEGATIVE | SKIP, "getpid", IR_NONE,
		      NULL, 3, IR_NONE, "a2");
	a3 = irb_atom(p, SYSLET_STOP_ON_NEGATIVE, "getpid", IR_NONE, NULL,
		      IR_NONE, IR_NONE, "a3");
	irb_entry(p, "s", a0);
	irb_label(p, "s.dead", a1);
	irb_label(p, "s.last", a3);

	assert_int_equal(ir_tidy_branches(p), 0);
	assert_int_equal(p->atoms[a0].flags, 0);
	assert_int_equal(p->atoms[a0].skip, IR_NONE);
	assert_int_equal(p->atoms[a2].flags, SYSLET_STOP_ON_NEGATIVE);
	assert_int_equal(p->atoms[a3].flags, 0);

	assert_int_equal(ir_drop_unreachable(p), 0);
	assert_int_equal(p->nr_atoms, 3);
	assert_string_equal(p->atoms[1].text, "a2");
	assert_int_equal(p->atoms[0].next, 1);
	assert_int_equal(p->atoms[1].next, 2);
	assert_int_equal(p->nr_labels, 1);
	assert_string_equal(p->labels[0].name, "s.last");
	assert_int_equal(p->labels[0].atom, 2);

	assert_int_equal(ir_tidy_cells(p), 0);
	assert_int_equal(p->nr_cells, 2);	/* s.x, then $1 */
	assert_string_equal(p->cells[0].name, "s.x");
	assert_int_equal(p->cells[1].value, 1);
	assert_int_equal(p->atoms[0].args[0], 1);
	irb_free(p);
}

/*
 * The fusion pass alone (ir_fuse): a test of what the atom before it
 * computed merges into that atom where lowering linked the two, and
 * nowhere else, though the shape is the same.
 */
static void test_fuse(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	int x, y, zero, one, ax, ay, a0, a1, a2, a3, a4, a5, a6;

	(void)state;
	x = irb_cell(p, IR_CELL_VAR, "s.x", 0);
	y = irb_cell(p, IR_CELL_VAR, "s.y", 0);
	zero = irb_cell(p, IR_CELL_CONST, NULL, 0);
	one = irb_cell(p, IR_CELL_CONST, NULL, 1);
	ax = irb_addr(p, IR_NONE, x);
	ay = irb_addr(p, IR_NONE, y);
	/* x = getpid(); if (x == 0) A else B;  linked: fuses. */
	a0 = irb_atom(p, 0, "getpid", x, NULL, 1, IR_NONE, "x = getpid();");
	a1 = irb_atom(p, SYSLET_STOP_ON_ZERO | SKIP, "umem_add", IR_NONE,
		      ARGS(ax, zero), 2, 3, "if (x == 0)");
	/* B: y = getppid(); then a test of y, not linked (as after
	 * `{ y = getppid(); } if (y)`): stays. */
	a2 = irb_atom(p, 0, "getppid", y, NULL, 4, IR_NONE, "y = getppid();");
	a3 = irb_atom(p, 0, "getpid", IR_NONE, NULL, 4, IR_NONE, "A");
	a4 = irb_atom(p, SYSLET_STOP_ON_NONZERO, "umem_add", IR_NONE,
		      ARGS(ay, zero), 5, IR_NONE, "if (y) stop;");
	/* x++; if (x <= 0) stop;  umem_add yields the sum: fuses. */
	a5 = irb_atom(p, 0, "umem_add", IR_NONE, ARGS(ax, one), 6, IR_NONE,
		      "x++;");
	a6 = irb_atom(p, SYSLET_STOP_ON_NON_POSITIVE, "umem_add", IR_NONE,
		      ARGS(ax, zero), 7, IR_NONE, "if (x <= 0) stop;");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "C");
	irb_entry(p, "s", a0);
	irb_must(ir_add_fuse(p, a1, a0));
	irb_must(ir_add_fuse(p, a6, a5));
	/* A link that does not hold: a2 writes y, not x. */
	irb_must(ir_add_fuse(p, a1, a2));

	assert_int_equal(ir_fuse(p), 0);
	assert_int_equal(p->nr_fuses, 0);
	assert_int_equal(p->atoms[a0].flags, SYSLET_STOP_ON_ZERO | SKIP);
	assert_int_equal(p->atoms[a0].next, a2);
	assert_int_equal(p->atoms[a0].skip, a3);
	assert_int_equal(p->atoms[a0].ret, x);
	assert_int_equal(p->atoms[a2].flags, 0);
	assert_int_equal(p->atoms[a2].next, a4);
	assert_int_equal(p->atoms[a4].flags, SYSLET_STOP_ON_NONZERO);
	assert_int_equal(p->atoms[a5].flags, SYSLET_STOP_ON_NON_POSITIVE);
	assert_int_equal(p->atoms[a5].next, 7);

	/* The merged tests are left unreached, for the next pass. */
	assert_int_equal(ir_drop_unreachable(p), 0);
	assert_int_equal(p->nr_atoms, 6);
	for (size_t i = 0; i < p->nr_atoms; i++)
		assert_true(strncmp(p->atoms[i].text, "if (x", 5));
	assert_same_behaviour(p);
	irb_free(p);
}

/* A link whose atoms are not an assignment and its test is refused:
 * the test reads another cell, the atom has a test of its own, or the
 * test has modifiers the atom lacks. */
static void test_fuse_refused(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	int x, y, zero, ax, a0, a1, a2, a3, a4, a5;

	(void)state;
	x = irb_cell(p, IR_CELL_VAR, "s.x", 0);
	y = irb_cell(p, IR_CELL_VAR, "s.y", 0);
	zero = irb_cell(p, IR_CELL_CONST, NULL, 0);
	ax = irb_addr(p, IR_NONE, x);
	a0 = irb_atom(p, 0, "getpid", y, NULL, 1, IR_NONE, "y = getpid();");
	a1 = irb_atom(p, SYSLET_STOP_ON_ZERO, "umem_add", IR_NONE,
		      ARGS(ax, zero), 2, IR_NONE, "if (x) stop;");
	a2 = irb_atom(p, SYSLET_STOP_ON_NEGATIVE, "getpid", x, NULL, 3,
		      IR_NONE, "x = getpid(); (tested)");
	a3 = irb_atom(p, SYSLET_STOP_ON_ZERO, "umem_add", IR_NONE,
		      ARGS(ax, zero), 4, IR_NONE, "if (x) stop;");
	a4 = irb_atom(p, 0, "getpid", x, NULL, 5, IR_NONE, "x = getpid();");
	a5 = irb_atom(p, SYSLET_ASYNC | SYSLET_STOP_ON_ZERO, "umem_add",
		      IR_NONE, ARGS(ax, zero), IR_NONE, IR_NONE,
		      "async if (x) stop;");
	irb_entry(p, "s", a0);
	irb_must(ir_add_fuse(p, a1, a0));
	irb_must(ir_add_fuse(p, a3, a2));
	irb_must(ir_add_fuse(p, a5, a4));

	assert_int_equal(ir_fuse(p), 0);
	assert_int_equal(p->atoms[a0].flags, 0);
	assert_int_equal(p->atoms[a0].next, a1);
	assert_int_equal(p->atoms[a2].flags, SYSLET_STOP_ON_NEGATIVE);
	assert_int_equal(p->atoms[a2].next, a3);
	assert_int_equal(p->atoms[a4].flags, 0);
	assert_int_equal(p->atoms[a4].next, a5);
	assert_int_equal(ir_drop_unreachable(p), 0);
	assert_int_equal(p->nr_atoms, 6);
	irb_free(p);
}

static void test_straight(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);

	irb_atom(p, 0, "getpid", IR_NONE, NULL, 1, IR_NONE, "a");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, 2, IR_NONE, "b");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "c");
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	assert_int_equal(p->nr_atoms, 3);
	assert_string_equal(p->atoms[2].text, "c");
	irb_free(p);
}

/* if (x) A else B; C: the then-branch follows the test, no trampoline. */
static void test_if_else(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);

	irb_atom(p, SYSLET_STOP_ON_ZERO | SKIP, "getpid", IR_NONE, NULL, 2, 1, "x");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, 3, IR_NONE, "A");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, 3, IR_NONE, "B");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "C");
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	assert_int_equal(count_tramps(p), 0);
	assert_int_equal(p->nr_atoms, 4);
	irb_free(p);
}

/* if (a() < 0 || b() < 0) X; D: both tests skip to X: one trampoline. */
static void test_or_join(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_I386);
	unsigned long f = SYSLET_STOP_ON_NEGATIVE | SKIP;

	irb_atom(p, f, "getpid", IR_NONE, NULL, 1, 2, "a");
	irb_atom(p, f, "getpid", IR_NONE, NULL, 3, 2, "b");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, 3, IR_NONE, "X");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "D");
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	assert_int_equal(count_tramps(p), 1);
	assert_int_equal(p->nr_atoms, 5);
	irb_free(p);
}

/* Three branches to one join: two trampolines, not more. */
static void test_three_way_join(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	unsigned long f = SYSLET_STOP_ON_NEGATIVE | SKIP;

	irb_atom(p, f, "getpid", IR_NONE, NULL, 1, 3, "a");
	irb_atom(p, f, "getpid", IR_NONE, NULL, 2, 3, "b");
	irb_atom(p, f, "getpid", IR_NONE, NULL, 4, 3, "c");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "J");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, 3, IR_NONE, "E");
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	assert_int_equal(count_tramps(p), 2);
	irb_free(p);
}

/* while ((n = read()) > 0) write(); close(): the exit skip falls through
 * to close, the body loops back through next. */
static void test_while(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);

	irb_atom(p, SYSLET_STOP_ON_NON_POSITIVE | SKIP, "read", IR_NONE, NULL,
		 1, 2, "read");
	irb_atom(p, 0, "write", IR_NONE, NULL, 0, IR_NONE, "write");
	irb_atom(p, 0, "close", IR_NONE, NULL, IR_NONE, IR_NONE, "close");
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	assert_int_equal(count_tramps(p), 0);
	irb_free(p);
}

/* Skips that cannot all be granted: to itself, in a cycle, to the entry. */
static void test_cycles(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	unsigned long f = SYSLET_STOP_ON_ZERO | SKIP;

	irb_atom(p, f, "getpid", IR_NONE, NULL, 1, 0, "self");
	irb_atom(p, f, "getpid", IR_NONE, NULL, 3, 2, "p");
	irb_atom(p, f, "getpid", IR_NONE, NULL, IR_NONE, 1, "q");
	irb_atom(p, f, "getpid", IR_NONE, NULL, IR_NONE, 0, "back");
	irb_entry(p, "s", 0);
	assert_same_behaviour(p);
	/* self: 1, the p/q cycle: 1, back to the entry's first atom: 1 */
	assert_int_equal(count_tramps(p), 3);
	assert_int_equal(p->entries[0].first_atom, 0);
	irb_free(p);
}

static void test_unreachable_and_labels(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	struct diag *d = quiet();

	irb_atom(p, 0, "getpid", IR_NONE, NULL, 2, IR_NONE, "a");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "dead");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "b");
	irb_entry(p, "s", 0);
	irb_label(p, "s.dead", 1);
	irb_label(p, "s.b", 2);
	assert_int_equal(ir_layout(p, d), 0);
	assert_int_equal(p->nr_atoms, 2);
	assert_int_equal(p->nr_labels, 1);
	assert_string_equal(p->labels[0].name, "s.b");
	assert_int_equal(p->labels[0].atom, 1);
	irb_free(p);
}

/* Two entries, each contiguous and starting at its first atom. */
static void test_two_entries(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	struct diag *d = quiet();
	struct slo_image *img;

	irb_atom(p, 0, "getpid", IR_NONE, NULL, 2, IR_NONE, "a1");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "b1");
	irb_atom(p, 0, "getpid", IR_NONE, NULL, IR_NONE, IR_NONE, "a2");
	irb_entry(p, "one", 0);
	irb_entry(p, "two", 1);
	assert_int_equal(ir_layout(p, d), 0);
	assert_int_equal(p->entries[0].first_atom, 0);
	assert_string_equal(p->atoms[1].text, "a2");
	assert_int_equal(p->entries[1].first_atom, 2);
	img = ir_emit(p, d);
	assert_non_null(img);
	assert_int_equal(slo_image_find(img, "one", SLO_SYM_ENTRY)->size, 2 * 88);
	assert_int_equal(slo_image_find(img, "two", SLO_SYM_ENTRY)->size, 88);
	slo_image_free(img);
	irb_free(p);
}

/* Random graphs: layout keeps what every run does. */
static void test_random(void **state)
{
	unsigned x = 12345;

	for (int round = 0; round < 400; round++) {
		struct ir_program *p = irb_new(SYSTAB_X86_64);
		int n = 1 + round % 12;
		char text[16];
		struct diag *d = quiet();
		struct slo_image *img;

		for (int i = 0; i < n; i++) {
			unsigned long flags = 0;
			int next, skip;

			x = x * 1103515245u + 12345u;
			if (x >> 28 & 1)
				flags = SYSLET_STOP_ON_NEGATIVE;
			if (x >> 27 & 1)
				flags |= SYSLET_STOP_ON_ZERO * !flags | SKIP;
			next = (int)((x >> 8) % (unsigned)(n + 1)) - 1;
			skip = (int)((x >> 16) % (unsigned)n);
			snprintf(text, sizeof(text), "t%d", i);
			irb_atom(p, flags, "getpid", IR_NONE, NULL, next, skip, text);
		}
		irb_entry(p, "r", 0);
		assert_same_behaviour(p);
		img = ir_emit(p, d);
		assert_non_null(img);
		assert_int_equal(d->errors, 0);
		slo_image_free(img);
		irb_free(p);
	}
}

static void test_bad_ir(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	struct diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	diag_init(&d, "hand.syslet", "", 0, out);
	irb_atom(p, SYSLET_STOP_ON_ZERO | SKIP, "getpid", IR_NONE, NULL, 7,
		 -3, "a");
	irb_entry(p, "s", 0);
	assert_int_equal(ir_layout(p, &d), -1);
	diag_flush(&d);
	fclose(out);
	assert_non_null(strstr(buf, "internal error"));
	free(buf);
	irb_free(p);
}

/* emit: two stop flags on one atom is caught by the check, as an
 * internal error that says so. */
static void test_emit_checks(void **state)
{
	struct ir_program *p = irb_new(SYSTAB_X86_64);
	struct diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	diag_init(&d, "hand.syslet", "", 0, out);
	irb_atom(p, SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NEGATIVE, "getpid",
		 IR_NONE, NULL, IR_NONE, IR_NONE, "a");
	irb_entry(p, "s", 0);
	assert_int_equal(ir_layout(p, &d), 0);
	assert_null(ir_emit(p, &d));
	diag_flush(&d);
	fclose(out);
	assert_non_null(strstr(buf, "two stop flags"));
	free(buf);
	irb_free(p);
}

/* Every test, its diagnostics flushed after it however it ended. */
#define T(f) cmocka_unit_test_teardown(f, flush_quiet)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_straight),
		T(test_big),
		T(test_passes),
		T(test_fuse),
		T(test_fuse_refused),
		T(test_if_else),
		T(test_or_join),
		T(test_three_way_join),
		T(test_while),
		T(test_cycles),
		T(test_unreachable_and_labels),
		T(test_two_entries),
		T(test_random),
		T(test_bad_ir),
		T(test_emit_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
