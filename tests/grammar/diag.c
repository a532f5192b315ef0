/* diag.c: diagnostics quote the right line, align the caret, count errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "grammar/diag.h"

static char *run(const char *src, struct diag_loc loc, enum diag_level lvl,
		 int werror, unsigned int *errors)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct diag d;

	diag_init(&d, "t.syslet", src, strlen(src), f);
	d.werror = werror;
	diag_report(&d, lvl, loc, "unknown syscall '%s'", "opne");
	diag_flush(&d);
	fclose(f);
	*errors = d.errors;
	return buf;
}

static void test_caret(void **state)
{
	unsigned int e;
	char *s = run("var fd;\n\tfd = opne(x);\n", (struct diag_loc){ 2, 7, 4 },
		      DIAG_ERROR, 0, &e);

	assert_string_equal(s, "t.syslet:2:7: error: unknown syscall 'opne'\n"
			       "\tfd = opne(x);\n"
			       "\t     ^~~~\n");
	assert_int_equal(e, 1);
	free(s);
}

static void test_no_line_and_hostile_bytes(void **state)
{
	unsigned int e;
	char *s = run("a\x1b[2Jb", (struct diag_loc){ 1, 2, 1 }, DIAG_WARNING,
		      0, &e);

	assert_string_equal(s, "t.syslet:1:2: warning: unknown syscall 'opne'\n"
			       "a?[2Jb\n"
			       " ^\n");
	assert_int_equal(e, 0);
	free(s);
	s = run("x", (struct diag_loc){ 9, 1, 1 }, DIAG_WARNING, 1, &e);
	assert_string_equal(s, "t.syslet:9:1: error: unknown syscall 'opne'\n");
	assert_int_equal(e, 1);
	free(s);
	s = run("x", (struct diag_loc){ 0, 0, 0 }, DIAG_ERROR, 0, &e);
	assert_string_equal(s, "t.syslet: error: unknown syscall 'opne'\n");
	free(s);
}

/* The CR of a CRLF line end is not part of the line. */
static void test_crlf(void **state)
{
	unsigned int e;
	char *s = run("var fd;\r\n\tfd = opne(x);\r\n",
		      (struct diag_loc){ 2, 7, 4 }, DIAG_ERROR, 0, &e);

	(void)state;
	assert_string_equal(s, "t.syslet:2:7: error: unknown syscall 'opne'\n"
			       "\tfd = opne(x);\n"
			       "\t     ^~~~\n");
	free(s);
	/* A CR elsewhere is a control byte like any other. */
	s = run("a\rb\n", (struct diag_loc){ 1, 3, 1 }, DIAG_ERROR, 0, &e);
	assert_string_equal(s, "t.syslet:1:3: error: unknown syscall 'opne'\n"
			       "a?b\n"
			       "  ^\n");
	free(s);
}

/*
 * Records are queued, not printed, until the caller asks; a stage that
 * reports out of order sorts what it added; notes stay under their
 * record; a second location is marked with '~'.
 */
static void test_records(void **state)
{
	const char *src = "var a;\nx = a + b;\nvar b;\n";
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct diag d;

	(void)state;
	diag_init(&d, "t.syslet", src, strlen(src), f);
	diag_report(&d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 }, "first");
	diag_report2(&d, DIAG_WARNING, (struct diag_loc){ 2, 9, 1 },
		     (struct diag_loc){ 2, 1, 1 }, "'b' before its line");
	diag_note(&d, (struct diag_loc){ 3, 5, 1 }, "'b' is declared here");
	diag_report(&d, DIAG_ERROR, (struct diag_loc){ 1, 5, 1 }, "second");
	fflush(f);
	assert_int_equal(n, 0);
	assert_int_equal(d.errors, 2);
	assert_int_equal(d.warnings, 1);
	diag_sort(&d, 1);
	diag_flush(&d);
	fclose(f);
	assert_string_equal(buf,
		"t.syslet: error: first\n"
		"t.syslet:1:5: error: second\n"
		"var a;\n"
		"    ^\n"
		"t.syslet:2:9: warning: 'b' before its line\n"
		"x = a + b;\n"
		"~       ^\n"
		"t.syslet:3:5: note: 'b' is declared here\n"
		"var b;\n"
		"    ^\n");
	assert_int_equal(d.nr_recs, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caret),
		cmocka_unit_test(test_no_line_and_hostile_bytes),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
