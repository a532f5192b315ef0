/* pass-test.h: run one front-end pass alone on a parsed source and compare its return and printed records with what a test expects. */
#ifndef SYSLET_TESTS_PASS_TEST_H
#define SYSLET_TESTS_PASS_TEST_H

#define _GNU_SOURCE	/* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "grammar/ast.h"

typedef int pass_fn(const struct ast_file *f,
		    const struct sysletc_options *opt, struct diag *d);

static int failures;

/* Parse src, let edit (if given) change the tree as no source can, run
 * pass and nothing else: its return and its records, printed, must be
 * ret and want (NULL: none). */
static void pass_expect(pass_fn *pass, const char *src,
			void (*edit)(struct ast_file *),
			const struct sysletc_options *opt, int ret,
			const char *want)
{
	struct ast_file *f = NULL;
	struct diag d;
	char *text = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&text, &n);
	int r;

	if (!out)
		exit(99);
	diag_init(&d, "t.syslet", src, strlen(src), out);
	if (ast_parse(src, strlen(src), &d, &f) || !f) {
		fprintf(stderr, "FAIL: does not parse:\n%s", src);
		exit(99);
	}
	if (edit)
		edit(f);
	r = pass(f, opt, &d);
	diag_sort(&d, 0);
	diag_flush(&d);
	fclose(out);
	if (r != ret || strcmp(text, want ? want : "")) {
		fprintf(stderr, "FAIL: for\n%sreturned %d (want %d) and said\n"
			"%s--- instead of\n%s---\n", src, r, ret, text,
			want ? want : "");
		failures++;
	}
	free(text);
	ast_file_free(f);
}

#endif
