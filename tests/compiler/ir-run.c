/* ir-run.c: run a program's IR with the kernel's atom semantics and scripted syscall results, printing a trace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/compiler.h"
#include "tests/lib/slurp.h"
#include "syslet.h"

/*
 * The semantics follow the 2007 core code: arguments are read through
 * their cells when the atom runs; the result goes to ret; the stop test
 * is a switch on the masked flags (two flags never stop); a true test
 * continues at skip with SKIP set, otherwise ends; false goes to next.
 * umem_add works on the cells; every other call returns the next value
 * scripted for its name (--ret=read:5,5,0), or 0.
 */

struct script {
	const char	*name;
	long		vals[64];
	int		n, at;
};

static struct script scripts[16];
static int nr_scripts;

static long scripted(const char *name)
{
	for (int i = 0; i < nr_scripts; i++) {
		struct script *s = &scripts[i];

		if (strcmp(s->name, name))
			continue;
		if (s->at < s->n)
			return s->vals[s->at++];
		return s->n ? s->vals[s->n - 1] : 0;
	}
	return 0;
}

static int64_t word(const struct ir_program *p, int64_t v)
{
	return systab_word_size(p->profile) == 4 ? (int64_t)(int32_t)v : v;
}

static bool stop_test(unsigned long flags, long r)
{
	switch (flags & SYSLET_STOP_MASK) {
	case SYSLET_STOP_ON_NONZERO: return r != 0;
	case SYSLET_STOP_ON_ZERO: return r == 0;
	case SYSLET_STOP_ON_NEGATIVE: return r < 0;
	case SYSLET_STOP_ON_NON_POSITIVE: return r <= 0;
	default: return false;
	}
}

static int run(const struct ir_program *p, int entry, int64_t *cells)
{
	int a = p->entries[entry].first_atom, steps = 0;

	while (a >= 0 && steps < 2000) {
		const struct ir_atom *at = &p->atoms[a];
		long r;

		steps++;
		printf("a%d %s(", a, at->sysname);
		for (int j = 0; j < 6 && at->args[j] != IR_NONE; j++) {
			const struct ir_cell *c = &p->cells[at->args[j]];

			if (c->kind == IR_CELL_ADDR)
				printf("%s%s", j ? ", " : "", c->display);
			else
				printf("%s%lld", j ? ", " : "",
				       (long long)cells[at->args[j]]);
		}
		if (!strcmp(at->sysname, "umem_add")) {
			const struct ir_cell *c = &p->cells[at->args[0]];
			int t = c->target_cell;

			if (c->kind != IR_CELL_ADDR || t < 0) {
				printf(") = -EFAULT\n");
				return 1;
			}
			cells[t] = word(p, cells[t] + cells[at->args[1]]);
			r = (long)cells[t];
		} else {
			r = scripted(at->sysname);
		}
		printf(") = %ld", r);
		if (at->ret != IR_NONE) {
			cells[at->ret] = word(p, r);
			printf(" -> %s", p->cells[at->ret].display);
		}
		putchar('\n');
		if (stop_test(at->flags, r)) {
			if (!(at->flags & SYSLET_SKIP_TO_NEXT_ON_STOP)) {
				printf("stopped at a%d\n", a);
				return 0;
			}
			a = at->skip;
		} else {
			a = at->next;
		}
	}
	if (a >= 0)
		printf("still running after %d atoms\n", steps);
	else
		printf("ended\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct sysletc_options opt = { SYSTAB_X86_64, 0 };
	const char *file = NULL, *entry = NULL;
	char *sets[16];
	int nr_sets = 0, e = 0, rc;
	struct ir_program *p;
	struct diag d;
	int64_t *cells;
	size_t len;
	char *src;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--ret=", 6) && nr_scripts < 16) {
			struct script *s = &scripts[nr_scripts++];
			char *v = strchr(argv[i] + 6, ':');

			s->name = argv[i] + 6;
			if (v) {
				*v++ = 0;
				for (char *t = strtok(v, ","); t && s->n < 64;
				     t = strtok(NULL, ","))
					s->vals[s->n++] = strtol(t, NULL, 0);
			}
		} else if (!strncmp(argv[i], "--set=", 6) && nr_sets < 16) {
			sets[nr_sets++] = argv[i] + 6;
		} else if (!strncmp(argv[i], "--entry=", 8)) {
			entry = argv[i] + 8;
		} else if (!strncmp(argv[i], "--target=", 9)) {
			opt.profile = systab_profile_parse(argv[i] + 9);
			if (opt.profile < 0)
				return 2;
		} else {
			file = argv[i];
		}
	}
	if (!file || !(src = slurp(file, &len))) {
		fprintf(stderr, "usage: ir-run [--ret=CALL:V,V..] [--set=NAME=V] "
			"[--entry=S] FILE\n");
		return 2;
	}
	diag_init(&d, file, src, len, stdout);
	p = sysletc_front(src, len, &opt, &d);
	if (!p) {
		free(src);
		return 1;
	}
	cells = calloc(p->nr_cells + 1, sizeof(*cells));
	for (size_t i = 0; i < p->nr_cells; i++)
		cells[i] = p->cells[i].kind == IR_CELL_ADDR ? 0 :
			   word(p, p->cells[i].value);
	for (int i = 0; i < nr_sets; i++) {
		char *eq = strchr(sets[i], '=');

		if (!eq)
			continue;
		*eq = 0;
		for (size_t c = 0; c < p->nr_cells; c++)
			if (p->cells[c].kind != IR_CELL_ADDR &&
			    p->cells[c].display &&
			    !strcmp(p->cells[c].display, sets[i]))
				cells[c] = strtol(eq + 1, NULL, 0);
	}
	for (size_t i = 0; entry && i < p->nr_entries; i++)
		if (!strcmp(p->entries[i].name, entry))
			e = (int)i;
	rc = run(p, e, cells);
	for (size_t i = 0; i < p->nr_cells; i++)
		if (p->cells[i].kind == IR_CELL_VAR)
			printf("%s = %lld\n", p->cells[i].display,
			       (long long)cells[i]);
	free(cells);
	ir_program_free(p);
	free(src);
	return rc;
}
