/* textbuf.c: unit tests of the common text buffer: appends, formats, and its one out-of-memory rule, with realloc failing on demand (-Wl,--wrap=realloc). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/textbuf.h"

/* The next realloc fails when set; counts the calls. */
static int fail_next, reallocs;

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
	reallocs++;
	if (fail_next) {
		fail_next = 0;
		return NULL;
	}
	return __real_realloc(p, n);
}

static void appends(void **state)
{
	struct text_buf b = { 0 };
	char big[1000];

	(void)state;
	assert_string_equal(text_buf_str(&b), "");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(text_buf_add(&b, "a\0b", 3), 0);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.s, "a\0b", 4);
	assert_int_equal(text_buf_puts(&b, "cd"), 0);
	assert_int_equal(text_buf_printf(&b, "%d-%s", 42, big), 0);
	assert_int_equal(b.len, 5 + 3 + sizeof(big) - 1);
	assert_memory_equal(b.s + 5, "42-", 3);
	assert_string_equal(b.s + 8, big);
	assert_false(b.failed);
	text_buf_free(&b);
	assert_null(b.s);
	assert_int_equal(b.len, 0);
}

/*
 * An append that cannot grow the buffer fails it: the text stays what
 * was written before, and a later append that would fit is not taken
 * either, so the text never has a piece missing in the middle.
 */
static void fails_whole(void **state)
{
	struct text_buf b = { 0 };
	char big[200];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(text_buf_printf(&b, "abc"), 0);
	fail_next = 1;
	assert_int_equal(text_buf_printf(&b, "%s", big), -1);
	assert_true(b.failed);
	assert_int_equal(text_buf_printf(&b, "d"), -1);
	assert_int_equal(text_buf_add(&b, "e", 1), -1);
	assert_string_equal(b.s, "abc");
	assert_int_equal(b.len, 3);
	text_buf_free(&b);
	assert_false(b.failed);

	/* The same through the byte append, the one slo_quote() uses. */
	assert_int_equal(text_buf_add(&b, "abc", 3), 0);
	fail_next = 1;
	assert_int_equal(text_buf_add(&b, big, sizeof(big) - 1), -1);
	assert_int_equal(text_buf_puts(&b, "d"), -1);
	assert_string_equal(b.s, "abc");
	text_buf_free(&b);
}

/* Growth doubles: 64 KiB appended a byte at a time is a handful of
 * reallocs, not one per byte. */
static void grows_geometrically(void **state)
{
	struct text_buf b = { 0 };

	(void)state;
	reallocs = 0;
	for (int i = 0; i < 65536; i++)
		assert_int_equal(text_buf_add(&b, "z", 1), 0);
	assert_int_equal(b.len, 65536);
	assert_true(reallocs <= 12);
	text_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(appends),
		cmocka_unit_test(fails_whole),
		cmocka_unit_test(grows_geometrically),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
