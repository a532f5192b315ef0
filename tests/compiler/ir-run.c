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
 * umem_add works on the cells and on words of objects (buffers, data,
 * the scratch elements are widened through), little endian, in the
 * profile's word size; every other call returns the next value scripted
 * for its name (--ret=read:5,5,0), or 0.  --mem=NAME:OFF:WIDTH=V puts V
 * into an object before the run (what pipe() would have written).
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

static uint8_t **mem;		/* each object's bytes, size + pad */

static int64_t mem_get(const struct ir_program *p, int obj, uint64_t off,
		       unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)mem[obj][off + i] << (8 * i);
	return word(p, (int64_t)v);
}

static void mem_put(int obj, uint64_t off, unsigned int n, int64_t v)
{
	for (unsigned int i = 0; i < n; i++)
		mem[obj][off + i] = (uint8_t)((uint64_t)v >> (8 * i));
}

/* A cell's value, or the word of an object a MEM cell is. */
static int64_t get(const struct ir_program *p, const int64_t *cells, int c)
{
	const struct ir_cell *x = &p->cells[c];

	if (x->kind == IR_CELL_MEM)
		return mem_get(p, x->target_obj, x->target_off,
			       systab_word_size(p->profile));
	return cells[c];
}

static void put(const struct ir_program *p, int64_t *cells, int c,
		int64_t v)
{
	const struct ir_cell *x = &p->cells[c];

	if (x->kind == IR_CELL_MEM)
		mem_put(x->target_obj, x->target_off,
			systab_word_size(p->profile), v);
	else
		cells[c] = word(p, v);
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
				       (long long)get(p, cells, at->args[j]));
		}
		if (!strcmp(at->sysname, "umem_add")) {
			const struct ir_cell *c = &p->cells[at->args[0]];
			int64_t inc = get(p, cells, at->args[1]);
			unsigned int w = systab_word_size(p->profile);
			int t = c->target_cell;

			if (c->kind == IR_CELL_ADDR && c->target_obj >= 0) {
				r = (long)mem_get(p, c->target_obj,
						  c->target_off, w);
				/* inc 0 only reads, as in the kernel */
				if (inc) {
					r = (long)word(p, r + inc);
					mem_put(c->target_obj, c->target_off,
						w, r);
				}
			} else if (c->kind != IR_CELL_ADDR || t < 0) {
				printf(") = -EFAULT\n");
				return 1;
			} else {
				put(p, cells, t, get(p, cells, t) + inc);
				r = (long)get(p, cells, t);
			}
		} else {
			r = scripted(at->sysname);
		}
		printf(") = %ld", r);
		if (at->ret != IR_NONE) {
			put(p, cells, at->ret, r);
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
	struct sysletc_options opt = { .profile = SYSTAB_X86_64 };
	const char *file = NULL, *entry = NULL;
	char *sets[16], *mems[16];
	int nr_sets = 0, nr_mems = 0, e = 0, rc;
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
		} else if (!strncmp(argv[i], "--mem=", 6) && nr_mems < 16) {
			mems[nr_mems++] = argv[i] + 6;
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
			"[--mem=OBJ:OFF:WIDTH=V] [--entry=S] FILE\n");
		return 2;
	}
	diag_init(&d, file, src, len, stdout);
	p = sysletc_front(src, len, &opt, &d);
	diag_flush(&d);
	if (!p) {
		free(src);
		return 1;
	}
	cells = calloc(p->nr_cells + 1, sizeof(*cells));
	mem = calloc(p->nr_objects + 1, sizeof(*mem));
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];

		mem[i] = calloc(o->size + o->pad + 1, 1);
		if (o->bytes)
			memcpy(mem[i], o->bytes, o->size);
	}
	for (int i = 0; i < nr_mems; i++) {
		char name[64];
		unsigned long long off;
		unsigned int width;
		long long v;

		if (sscanf(mems[i], "%63[^:]:%llu:%u=%lli", name, &off, &width,
			   &v) != 4)
			continue;
		for (size_t o = 0; o < p->nr_objects; o++)
			if (p->objects[o].name &&
			    !strcmp(p->objects[o].name, name) && width <= 8 &&
			    off + width <= p->objects[o].size)
				mem_put((int)o, off, width, v);
	}
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
	for (size_t i = 0; i < p->nr_objects; i++)
		free(mem[i]);
	free(mem);
	ir_program_free(p);
	free(src);
	return rc;
}
