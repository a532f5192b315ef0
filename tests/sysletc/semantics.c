/* semantics.c: for real sources, the laid-out image runs the same atoms as the IR before layout, whatever the stops, and reads and writes the same values. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
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
#define DSEEDS 16

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

/*
 * Data.  Both sides run on a model of memory with the kernel's rules:
 * an argument is the word its pointer reaches when the atom runs,
 * umem_add adds to the word its first argument points at (0 only
 * reads), the result goes where ret_ptr points, and the stop test
 * looks at the result.  Other calls return a value drawn from the seed
 * and, through each pointer to a buffer, write a few bytes drawn from
 * it too (as pipe() or read() would).  The IR side works on cells and
 * objects, the image side on sections and relocations: values that
 * differ mean emit put a cell, an element or a widening scratch word
 * somewhere else than lowering meant.
 */
struct dstep {
	unsigned int	line, col;
	long		nr;
	int		nargs;
	int64_t		arg[6];		/* INT64_MIN: a pointer */
	int64_t		ret;
	unsigned int	wrote;		/* bytes written through pointers */
};

#define PTR_VALUE	INT64_MIN
#define DSTEPS		120

static int64_t trunc_word(unsigned int w, uint64_t v)
{
	return w == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
}

static uint64_t load(const uint8_t *m, uint64_t off, unsigned int w)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < w; i++)
		v |= (uint64_t)m[off + i] << (8 * i);
	return v;
}

static void store(uint8_t *m, uint64_t off, unsigned int w, uint64_t v)
{
	for (unsigned int i = 0; i < w; i++)
		m[off + i] = (uint8_t)(v >> (8 * i));
}

static long draw(unsigned int *x)
{
	*x = *x * 1103515245u + 12345u;
	return (long)((*x >> 16) % 9) - 2;	/* -2 .. 6 */
}

static bool stops(unsigned long flags, long r)
{
	switch (flags & SYSLET_STOP_MASK) {
	case SYSLET_STOP_ON_NONZERO: return r != 0;
	case SYSLET_STOP_ON_ZERO: return r == 0;
	case SYSLET_STOP_ON_NEGATIVE: return r < 0;
	case SYSLET_STOP_ON_NON_POSITIVE: return r <= 0;
	default: return false;
	}
}

/* IR side: a location is a cell, or a byte offset into an object. */
struct irmem {
	const struct ir_program	*p;
	unsigned int		w;
	int64_t			*cells;
	uint8_t			**obj;
};

static int64_t ir_get(struct irmem *m, int c)
{
	const struct ir_cell *x = &m->p->cells[c];

	if (x->kind == IR_CELL_MEM)
		return trunc_word(m->w, load(m->obj[x->target_obj],
					     x->target_off, m->w));
	return m->cells[c];
}

static void ir_put(struct irmem *m, int c, int64_t v)
{
	const struct ir_cell *x = &m->p->cells[c];

	if (x->kind == IR_CELL_MEM)
		store(m->obj[x->target_obj], x->target_off, m->w, (uint64_t)v);
	else
		m->cells[c] = trunc_word(m->w, (uint64_t)v);
}

static size_t run_ir_data(const struct ir_program *p, int at,
			  unsigned int seed, struct dstep *out)
{
	struct irmem m = { p, systab_word_size(p->profile), NULL, NULL };
	size_t n = 0;

	m.cells = calloc(p->nr_cells + 1, sizeof(*m.cells));
	m.obj = calloc(p->nr_objects + 1, sizeof(*m.obj));
	if (!m.cells || !m.obj)
		goto out;
	for (size_t i = 0; i < p->nr_cells; i++)
		m.cells[i] = trunc_word(m.w, (uint64_t)p->cells[i].value);
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];

		m.obj[i] = calloc(o->size + o->pad + 1, 1);
		if (!m.obj[i])
			goto out;
		if (o->bytes)
			memcpy(m.obj[i], o->bytes, o->size);
	}
	for (size_t k = 0; at >= 0 && k < 4 * DSTEPS && n < DSTEPS; k++) {
		const struct ir_atom *a = &p->atoms[at];
		struct dstep *d = &out[n];
		long r;

		if (a->role == SLO_ROLE_TRAMPOLINE) {
			at = a->next;
			continue;
		}
		memset(d, 0, sizeof(*d));
		d->line = a->loc.line;
		d->col = a->loc.col;
		d->nr = a->nr;
		for (int j = 0; j < 6 && a->args[j] != IR_NONE; j++, d->nargs++)
			d->arg[j] = p->cells[a->args[j]].kind == IR_CELL_ADDR ?
					    PTR_VALUE : ir_get(&m, a->args[j]);
		if (a->sysname && !strcmp(a->sysname, "umem_add")) {
			const struct ir_cell *c = &p->cells[a->args[0]];
			int64_t inc = ir_get(&m, a->args[1]);

			if (c->target_obj >= 0) {
				r = (long)trunc_word(m.w, load(m.obj[c->target_obj],
							       c->target_off, m.w));
				if (inc) {
					r = (long)trunc_word(m.w, (uint64_t)(r + inc));
					store(m.obj[c->target_obj], c->target_off,
					      m.w, (uint64_t)r);
				}
			} else {
				ir_put(&m, c->target_cell,
				       ir_get(&m, c->target_cell) + inc);
				r = (long)ir_get(&m, c->target_cell);
			}
		} else {
			r = draw(&seed);
			for (int j = 0; j < d->nargs; j++) {
				const struct ir_cell *c = &p->cells[a->args[j]];
				const struct ir_object *o;
				uint64_t room;

				if (c->kind != IR_CELL_ADDR || c->target_obj < 0)
					continue;
				o = &p->objects[c->target_obj];
				if (o->kind != IR_OBJ_BUFFER || c->target_off >= o->size)
					continue;
				room = o->size - c->target_off;
				d->wrote = room < 8 ? (unsigned int)room : 8;
				for (unsigned int b = 0; b < d->wrote; b++)
					m.obj[c->target_obj][c->target_off + b] =
						(uint8_t)(seed >> (b % 4 * 8));
				break;	/* one output per call */
			}
		}
		d->ret = r;
		if (a->ret != IR_NONE)
			ir_put(&m, a->ret, r);
		n++;
		if (!stops(a->flags, r))
			at = a->next;
		else if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
			at = a->skip;
		else
			at = IR_NONE;
	}
out:
	for (size_t i = 0; m.obj && i < p->nr_objects; i++)
		free(m.obj[i]);
	free(m.obj);
	free(m.cells);
	return n;
}

/* Image side: sections, pointer fields resolved through relocations. */
struct imgmem {
	const struct slo_image	*img;
	unsigned int		w;
	uint8_t			*sec[SLO_NR_SECTIONS];
};

/* Where the pointer stored at (s, off) points, or -1 when not one. */
static int target(const struct imgmem *m, enum slo_section s, uint64_t off,
		  enum slo_section *ts, uint64_t *toff)
{
	const struct slo_reloc *r = slo_image_reloc_at(m->img, s, off);

	if (!r)
		return -1;
	*ts = r->target;
	*toff = r->addend;
	return 0;
}

static int64_t img_get(const struct imgmem *m, enum slo_section s,
		       uint64_t off)
{
	return trunc_word(m->w, load(m->sec[s], off, m->w));
}

static size_t run_image_data(const struct slo_image *img, long at,
			     unsigned int seed, const struct dstep *want,
			     size_t nwant, struct dstep *out)
{
	struct imgmem m = { img, img->word_size, { NULL } };
	uint64_t asz = slo_atom_size(img);
	size_t n = 0;

	for (int s = 0; s < SLO_NR_SECTIONS; s++) {
		m.sec[s] = calloc(img->size[s] + 16, 1);
		if (!m.sec[s])
			goto out;
		if (s != SLO_SEC_BSS && img->data[s])
			memcpy(m.sec[s], img->data[s], img->size[s]);
	}
	for (size_t k = 0; at >= 0 && k < 4 * DSTEPS && n < DSTEPS; k++) {
		uint64_t base = (uint64_t)at * asz, off, aoff;
		uint64_t flags = slo_atom_word(img, (size_t)at, SLO_W_FLAGS);
		struct dstep *d = &out[n];
		enum slo_section ts, as;
		long r;

		if (img->debug[at].role == SLO_ROLE_TRAMPOLINE) {
			at = slo_atom_target(img, (size_t)at, SLO_W_NEXT);
			continue;
		}
		memset(d, 0, sizeof(*d));
		d->line = img->debug[at].line;
		d->col = img->debug[at].col;
		d->nr = (long)slo_atom_word(img, (size_t)at, SLO_W_NR);
		for (int j = 0; j < 6; j++, d->nargs++) {
			if (target(&m, SLO_SEC_ATOMS,
				   base + (uint64_t)(SLO_W_ARG0 + j) * m.w, &ts,
				   &off))
				break;
			d->arg[j] = slo_image_reloc_at(img, ts, off) ?
					    PTR_VALUE : img_get(&m, ts, off);
		}
		if (d->nr == systab_syslet_nr((enum systab_profile)img->profile,
					      SYSLET_CALL_UMEM_ADD) &&
		    d->nargs == 2) {
			int64_t inc = d->arg[1];

			if (target(&m, SLO_SEC_ATOMS, base + SLO_W_ARG0 * m.w,
				   &as, &aoff) ||
			    target(&m, as, aoff, &ts, &off))
				break;
			r = (long)img_get(&m, ts, off);
			if (inc) {
				r = (long)trunc_word(m.w, (uint64_t)(r + inc));
				store(m.sec[ts], off, m.w, (uint64_t)r);
			}
		} else {
			r = draw(&seed);
			/* As many bytes as the IR side wrote at this step. */
			for (int j = 0; j < d->nargs && n < nwant; j++) {
				if (!want[n].wrote || d->arg[j] != PTR_VALUE ||
				    target(&m, SLO_SEC_ATOMS,
					   base + (uint64_t)(SLO_W_ARG0 + j) * m.w,
					   &as, &aoff) ||
				    target(&m, as, aoff, &ts, &off) ||
				    ts != SLO_SEC_BSS)
					continue;
				d->wrote = want[n].wrote;
				for (unsigned int b = 0; b < d->wrote; b++)
					m.sec[ts][off + b] =
						(uint8_t)(seed >> (b % 4 * 8));
				break;
			}
		}
		d->ret = r;
		if (!target(&m, SLO_SEC_ATOMS, base + SLO_W_RET * m.w, &ts, &off))
			store(m.sec[ts], off, m.w, (uint64_t)r);
		n++;
		if (!stops(flags, r))
			at = slo_atom_target(img, (size_t)at, SLO_W_NEXT);
		else if (flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
			at = at + 1;
		else
			at = -1;
	}
out:
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		free(m.sec[s]);
	return n;
}

static int same_data(const struct dstep *a, const struct dstep *b, size_t na,
		     size_t nb, size_t *where)
{
	for (size_t i = 0; i < na && i < nb; i++) {
		*where = i;
		if (a[i].line != b[i].line || a[i].col != b[i].col ||
		    a[i].nr != b[i].nr || a[i].nargs != b[i].nargs ||
		    a[i].ret != b[i].ret || a[i].wrote != b[i].wrote ||
		    memcmp(a[i].arg, b[i].arg, sizeof(a[i].arg)))
			return 0;
	}
	*where = na < nb ? na : nb;
	return na == nb;
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
	struct sysletc_options opt = { .profile = profile };
	static struct step after[MAX_STEPS];
	size_t na, len, nent;
	struct ir_program *p;
	struct slo_image *img;
	struct diag d;
	struct step (*all)[SEEDS][MAX_STEPS] = NULL;
	size_t (*alln)[SEEDS] = NULL;
	struct dstep (*dall)[DSEEDS][DSTEPS] = NULL;
	size_t (*dalln)[DSEEDS] = NULL;
	static struct dstep dafter[DSTEPS];
	size_t where;
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
	diag_flush(&d);
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
	dall = calloc(nent ? nent : 1, sizeof(*dall));
	dalln = calloc(nent ? nent : 1, sizeof(*dalln));
	if (!all || !alln || !names || !dall || !dalln) {
		bad = 1;
		goto out;
	}

	for (size_t e = 0; e < nent; e++) {
		names[e] = strdup(p->entries[e].name);
		for (unsigned int s = 0; s < SEEDS; s++)
			alln[e][s] = run_ir(p, p->entries[e].first_atom, s,
					    all[e][s]);
		for (unsigned int s = 0; s < DSEEDS; s++)
			dalln[e][s] = run_ir_data(p, p->entries[e].first_atom,
						  s, dall[e][s]);
	}
	if (ir_layout(p, &d) || !(img = ir_emit(p, &d))) {
		diag_flush(&d);
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
		for (unsigned int s = 0; s < DSEEDS && !bad; s++) {
			na = run_image_data(img,
					    (long)(sym->value / slo_atom_size(img)),
					    s, dall[e][s], dalln[e][s], dafter);
			if (!same_data(dafter, dall[e][s], na, dalln[e][s],
				       &where)) {
				fprintf(stderr,
					"semantics: %s (%s): entry %s, seed %u: step %zu (line %u) reads or writes other values in the image than in the IR\n",
					path, systab_profile_name(profile),
					names[e], s, where,
					where < na ? dafter[where].line : 0);
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
	free(dall);
	free(dalln);
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
		printf("semantics: %d sources keep their behaviour and their data through layout\n",
		       n);
	return bad;
}
