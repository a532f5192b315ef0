/* drop-check.c: lower_finish() refuses a program that lost atoms no lower_drop() accounts for, and accepts the ones left on purpose. */
#define _GNU_SOURCE	/* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/lower.h"

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

/*
 * One entry a0 -> end, and a1 that nothing reaches; `drop` says whether
 * a1 was left behind on purpose.  Returns the errors reported and the
 * atoms kept.
 */
static unsigned int finish(int drop, size_t *atoms, char **text,
			   unsigned int *internal)
{
	struct lower L = { 0 };
	struct diag d;
	size_t n = 0;
	FILE *out = open_memstream(text, &n);
	int a0, a1;

	if (!out)
		exit(99);
	diag_init(&d, "t.syslet", NULL, 0, out);
	L.d = &d;
	L.profile = SYSTAB_X86_64;
	L.word = 8;
	L.p = calloc(1, sizeof(*L.p));
	if (!L.p)
		exit(99);
	L.p->profile = L.profile;
	a1 = lower_atom(&L, 39, "getpid", IR_NONE, NULL, 0, SLO_ROLE_CALL,
			(struct ast_loc){ .first_line = 3, .first_column = 2 },
			lower_plain(LOWER_END));
	a0 = lower_atom(&L, 110, "getppid", IR_NONE, NULL, 0, SLO_ROLE_CALL,
			(struct ast_loc){ .first_line = 2, .first_column = 2 },
			lower_plain(LOWER_END));
	if (drop)
		lower_drop(&L, a1);
	L.p->entries = calloc(1, sizeof(*L.p->entries));
	if (!L.p->entries)
		exit(99);
	L.p->entries[0].name = strdup("main");
	L.p->entries[0].first_atom = a0;
	L.p->nr_entries = 1;
	lower_finish(&L);
	/* lower_finish() leaves its records queued for the caller. */
	diag_flush(&d);
	fclose(out);
	*atoms = L.p->nr_atoms;
	*internal = d.internal;
	ir_program_free(L.p);
	free(L.dropped);
	return d.errors;
}

int main(void)
{
	size_t atoms;
	char *text = NULL;
	unsigned int internal;

	check(finish(1, &atoms, &text, &internal) == 0,
	      "a dropped atom gives an error");
	check(atoms == 1, "the unreached atom is not removed");
	free(text);
	text = NULL;
	check(finish(0, &atoms, &text, &internal) == 1,
	      "a lost atom gives no error");
	check(internal == 1, "the error is not counted as internal");
	check(text && strstr(text, "t.syslet:3:2: error: internal error: "
			     "the atoms of this statement were lost"),
	      "the internal error does not point at the lost statement");
	if (text)
		fputs(text, stdout);
	free(text);
	return failures ? 1 : 0;
}
