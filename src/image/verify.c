/* verify.c: check an image against the layout contract before anyone runs it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "common/systab.h"
#include "syslet.h"

#define ATOM_WORDS 11
enum { W_FLAGS, W_NR, W_RET, W_NEXT, W_ARG0, W_ARG5 = W_ARG0 + 5 };

struct verifier {
	const struct slo_image *img;
	void (*report)(void *ctx, size_t atom, const char *msg);
	void *ctx;
	int problems;
};

static void __attribute__((format(printf, 3, 4)))
problem(struct verifier *v, size_t atom, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	v->problems++;
	if (v->report)
		v->report(v->ctx, atom, msg);
}

/* Does r land inside its target with at least `room` bytes after it? */
static int reloc_in_bounds(const struct slo_image *img,
			   const struct slo_reloc *r, uint64_t room)
{
	return (unsigned)r->target < SLO_NR_SECTIONS &&
	       r->addend <= img->size[r->target] &&
	       img->size[r->target] - r->addend >= room;
}

/* A pointer field must be NULL or relocated to a word inside a section
 * the field may point at; `writable` excludes read-only targets. */
static void check_pointer(struct verifier *v, size_t atom, uint64_t off,
			  const char *what, int writable)
{
	const struct slo_image *img = v->img;
	const struct slo_reloc *r = slo_image_reloc_at(img, SLO_SEC_ATOMS, off);

	if (!r) {
		if (slo_image_word(img, SLO_SEC_ATOMS, off))
			problem(v, atom, "%s points outside the image", what);
		return;
	}
	if (!reloc_in_bounds(img, r, img->word_size))
		problem(v, atom, "%s points outside the image", what);
	else if (writable && (r->target == SLO_SEC_RODATA ||
			      r->target == SLO_SEC_ATOMS))
		problem(v, atom, "%s points into read-only memory", what);
}

static void check_atom(struct verifier *v, size_t i)
{
	const struct slo_image *img = v->img;
	uint64_t asz = (uint64_t)ATOM_WORDS * img->word_size;
	uint64_t base = i * asz;
	uint64_t flags = slo_image_word(img, SLO_SEC_ATOMS, base);
	uint64_t nr = slo_image_word(img, SLO_SEC_ATOMS,
				     base + W_NR * img->word_size);
	uint64_t stop = flags & SYSLET_STOP_MASK;
	const struct slo_reloc *next;

	/* Plain words: a relocation would put an address where the model
	 * (and every check below) sees the value it holds. */
	if (slo_image_reloc_at(img, SLO_SEC_ATOMS, base))
		problem(v, i, "flags holds no pointer, yet has a relocation");
	if (slo_image_reloc_at(img, SLO_SEC_ATOMS, base + W_NR * img->word_size))
		problem(v, i, "nr holds no pointer, yet has a relocation");
	if (flags & ~SYSLET_FLAGS_MASK)
		problem(v, i, "atom has flags outside the ABI");
	/* The kernel switches on the masked value: two stop flags never stop. */
	if (stop & (stop - 1))
		problem(v, i, "atom has two stop flags and would never stop");
	if ((flags & SYSLET_SKIP_TO_NEXT_ON_STOP) && i + 1 >= img->nr_atoms)
		problem(v, i, "atom skips past the last atom");
	if (systab_denied((enum systab_profile)img->profile, (long)nr))
		problem(v, i, "syscall %s is denied in atoms",
			systab_name((enum systab_profile)img->profile, (long)nr));

	check_pointer(v, i, base + W_RET * img->word_size, "ret_ptr", 1);
	for (int a = W_ARG0; a <= W_ARG5; a++)
		check_pointer(v, i, base + (uint64_t)a * img->word_size,
			      "arg_ptr", 0);
	next = slo_image_reloc_at(img, SLO_SEC_ATOMS,
				  base + W_NEXT * img->word_size);
	if (next && (next->target != SLO_SEC_ATOMS || next->addend % asz ||
		     next->addend >= img->size[SLO_SEC_ATOMS]))
		problem(v, i, "next does not point at an atom");
	else if (!next &&
		 slo_image_word(img, SLO_SEC_ATOMS, base + W_NEXT * img->word_size))
		problem(v, i, "next points outside the image");
}

static int param_order(const void *a, const void *b)
{
	const struct slo_symbol *x = *(const struct slo_symbol *const *)a;
	const struct slo_symbol *y = *(const struct slo_symbol *const *)b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->param_index < y->param_index ? -1 :
	       x->param_index > y->param_index;
}

/* Labels apart from the rest (a label may share a variable's name:
 * they are looked up apart), then by name. */
static int name_order(const void *a, const void *b)
{
	const struct slo_symbol *x = *(const struct slo_symbol *const *)a;
	const struct slo_symbol *y = *(const struct slo_symbol *const *)b;
	int xl = x->kind == SLO_SYM_LABEL, yl = y->kind == SLO_SYM_LABEL;

	if (xl != yl)
		return xl - yl;
	return strcmp(x->name, y->name);
}

/*
 * A name is given once: sysletc refuses a redefinition, and every lookup
 * by name (--entry, a cell, the header's declarations) takes the first
 * it finds, so that a second entry or cell of the same name could never
 * be chosen ("choose one with --entry: main main").  Sorted: 4 million
 * symbols in O(n log n).
 */
static void check_names(struct verifier *v)
{
	const struct slo_image *img = v->img;
	const struct slo_symbol **by = malloc((img->nr_syms + 1) *
					      sizeof(*by));

	if (!by) {
		problem(v, (size_t)-1, "out of memory");
		return;
	}
	for (size_t i = 0; i < img->nr_syms; i++)
		by[i] = &img->syms[i];
	qsort(by, img->nr_syms, sizeof(*by), name_order);
	for (size_t i = 1; i < img->nr_syms; i++)
		if (!name_order(&by[i - 1], &by[i])) {
			problem(v, (size_t)-1, "%s %s is defined twice",
				by[i]->kind == SLO_SYM_LABEL ? "label" :
				"symbol", by[i]->name);
			break;
		}
	free(by);
}

/* The format's limits: what sysletc would never write. */
static void check_limits(struct verifier *v)
{
	static const char *const names[SLO_NR_SECTIONS] = {
		".syslet.atoms", ".syslet.cells", ".syslet.rodata", ".syslet.bss",
	};
	const struct slo_image *img = v->img;
	const struct slo_symbol **params;
	size_t np = 0;

	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		if (img->size[s] > slo_section_max((enum slo_section)s,
						   img->word_size))
			problem(v, (size_t)-1, "%s holds %llu bytes, more than "
				"the %llu an image may hold", names[s],
				(unsigned long long)img->size[s],
				(unsigned long long)slo_section_max(
					(enum slo_section)s, img->word_size));
	if (img->nr_syms > SLO_MAX_SYMBOLS)
		problem(v, (size_t)-1, "%zu symbols, more than the %u an image "
			"may have", img->nr_syms, SLO_MAX_SYMBOLS);
	params = malloc((img->nr_syms + 1) * sizeof(*params));
	if (!params) {
		problem(v, (size_t)-1, "out of memory");
		return;
	}
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if ((s->kind == SLO_SYM_BUFFER || s->kind == SLO_SYM_DATA) &&
		    s->size > SLO_MAX_OBJECT)
			problem(v, (size_t)-1, "object %s holds %llu bytes, "
				"more than the %u an object may hold", s->name,
				(unsigned long long)s->size, SLO_MAX_OBJECT);
		if (s->kind == SLO_SYM_PARAM)
			params[np++] = s;
	}
	/* Parameters of each entry: numbered 0..n-1, n at most 16. */
	qsort(params, np, sizeof(*params), param_order);
	for (size_t i = 0, k = 0; i < np; i++, k++) {
		if (i && params[i]->entry != params[i - 1]->entry)
			k = 0;
		if (params[i]->param_index != (int)k ||
		    k >= SLO_MAX_PARAMS) {
			problem(v, (size_t)-1, "parameter %s: %s",
				params[i]->name, k >= SLO_MAX_PARAMS ?
				"more parameters than the 16 a runner binds" :
				"parameters are misnumbered");
			break;
		}
	}
	free(params);
}

int slo_image_verify(const struct slo_image *img,
		     void (*report)(void *ctx, size_t atom, const char *msg),
		     void *ctx)
{
	struct verifier v = { img, report, ctx, 0 };
	uint64_t asz = (uint64_t)ATOM_WORDS * img->word_size;

	check_limits(&v);
	if (v.problems)
		return v.problems;
	check_names(&v);
	if (v.problems)
		return v.problems;

	if (img->size[SLO_SEC_ATOMS] % asz ||
	    img->size[SLO_SEC_ATOMS] / asz != img->nr_atoms) {
		problem(&v, 0, ".syslet.atoms is not a whole number of atoms");
		return v.problems;
	}
	for (size_t i = 0; i < img->nr_atoms; i++)
		check_atom(&v, i);
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];

		if (r->where != SLO_SEC_CELLS)
			continue;
		/* An address cell may hold one-past-the-end of an object. */
		if (!reloc_in_bounds(img, r, 0) ||
		    r->offset > img->size[SLO_SEC_CELLS] ||
		    img->size[SLO_SEC_CELLS] - r->offset < img->word_size)
			problem(&v, (size_t)-1,
				"address cell points outside the image");
	}
	return v.problems;
}
