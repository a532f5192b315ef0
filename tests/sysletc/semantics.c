/* semantics.c: for real sources, the laid-out image runs the same atoms as the IR before layout, whatever the stops. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "compiler/compiler.h"
#include "tests/lib/slurp.h"
#include "common/systab.h"
#include "syslet.h"

#define MAX_STEPS 200
#define SEEDS 64

static FILE *devnull;

/* What identifies an atom across layout: where it came from and why. */
struct step {
	unsigned int	line, col;
	int		role;
	long		nr;
};

static unsigned int next_bit(unsigned int *x)
{
	*x = *x * 1103515245u + 12345u;
	return (*x >> 16) & 1;
}

/* The IR before layout: a skip goes to ir_atom.skip. */
static size_t run_ir(const struct ir_program *p, int at, unsigned int seed,
		     struct step *out)
{
	size_t n = 0;

	for (size_t k = 0; at >= 0 && k < 4 * MAX_STEPS && n < MAX_STEPS; k++) {
		const struct ir_atom *a = &p->atoms[at];
		int stop = 0;

		if (a->role != SLO_ROLE_TRAMPOLINE)
			out[n++] = (struct step){ a->loc.line, a->loc.col,
						  (int)a->role, a->nr };
		if (a->flags & SYSLET_STOP_MASK)
			stop = (int)next_bit(&seed);
		if (!stop)
			at = a->next;
		else if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
			at = a->skip;
		else
			at = IR_NONE;
	}
	return n;
}

/* The image, as the kernel runs it: a skip goes to the next atom. */
static size_t run_image(const struct slo_image *img, long at,
			unsigned int seed, struct step *out)
{
	size_t n = 0;

	for (size_t k = 0; at >= 0 && k < 4 * MAX_STEPS && n < MAX_STEPS; k++) {
		uint64_t flags = slo_atom_word(img, (size_t)at, SLO_W_FLAGS);
		const struct slo_debug *d = &img->debug[at];
		int stop = 0;

		if (d->role != SLO_ROLE_TRAMPOLINE)
			out[n++] = (struct step){
				d->line, d->col, (int)d->role,
				(long)slo_atom_word(img, (size_t)at, SLO_W_NR)
			};
		if (flags & SYSLET_STOP_MASK)
			stop = (int)next_bit(&seed);
		if (!stop)
			at = slo_atom_target(img, (size_t)at, SLO_W_NEXT);
		else if (flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
			at = at + 1;
		else
			at = -1;
	}
	return n;
}

static int same(const struct step *a, const struct step *b, size_t na,
		size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (a[i].line != b[i].line || a[i].col != b[i].col ||
		    a[i].role != b[i].role || a[i].nr != b[i].nr)
			return 0;
	return 1;
}

static int check(const char *path, int profile)
{
	struct sysletc_options opt = { profile, 0 };
	static struct step after[MAX_STEPS];
	size_t na, len, nent;
	struct ir_program *p;
	struct slo_image *img;
	struct diag d;
	struct step (*all)[SEEDS][MAX_STEPS] = NULL;
	size_t (*alln)[SEEDS] = NULL;
	char **names = NULL;
	char *src = slurp(path, &len);
	int bad = 0;

	if (!src) {
		fprintf(stderr, "semantics: %s: %s\n", path, strerror(errno));
		return 1;
	}
	/* Sources a profile cannot compile are skipped quietly. */
	diag_init(&d, path, src, len, devnull);
	p = sysletc_front(src, len, &opt, &d);
	if (!p || d.errors) {
		/* Calls the profile lacks: not this test's business. */
		ir_program_free(p);
		free(src);
		return 0;
	}
	/* All entries: run them before layout, then compare after. */
	nent = p->nr_entries;
	all = calloc(nent ? nent : 1, sizeof(*all));
	alln = calloc(nent ? nent : 1, sizeof(*alln));
	names = calloc(nent ? nent : 1, sizeof(*names));
	if (!all || !alln || !names) {
		bad = 1;
		goto out;
	}

	for (size_t e = 0; e < nent; e++) {
		names[e] = strdup(p->entries[e].name);
		for (unsigned int s = 0; s < SEEDS; s++)
			alln[e][s] = run_ir(p, p->entries[e].first_atom, s,
					    all[e][s]);
	}
	if (ir_layout(p, &d) || !(img = ir_emit(p, &d))) {
		fprintf(stderr, "semantics: %s: layout or emit failed\n", path);
		bad = 1;
		goto out;
	}
	for (size_t e = 0; e < nent && !bad; e++) {
		const struct slo_symbol *sym = slo_image_find(img, names[e],
							      SLO_SYM_ENTRY);

		if (!sym) {
			fprintf(stderr, "semantics: %s: no entry %s\n", path,
				names[e]);
			bad = 1;
			break;
		}
		for (unsigned int s = 0; s < SEEDS && !bad; s++) {
			na = run_image(img, (long)(sym->value / slo_atom_size(img)),
				       s, after);
			if (!same(after, all[e][s], na, alln[e][s])) {
				fprintf(stderr,
					"semantics: %s (%s): entry %s, seed %u: the image runs other atoms than the IR\n",
					path, systab_profile_name(profile),
					names[e], s);
				bad = 1;
			}
		}
	}
	slo_image_free(img);
out:
	for (size_t e = 0; names && e < nent; e++)
		free(names[e]);
	free(names);
	free(all);
	free(alln);
	ir_program_free(p);
	free(src);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, n = 0;

	devnull = fopen("/dev/null", "w");
	if (!devnull)
		return 99;
	for (int i = 1; i < argc; i++) {
		for (int prof = 0; prof < SYSTAB_NR_PROFILES; prof++)
			bad |= check(argv[i], prof);
		n++;
	}
	if (!bad)
		printf("semantics: %d sources keep their behaviour through layout\n",
		       n);
	return bad;
}
