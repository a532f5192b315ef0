/* emit.c: turn a laid-out IR program into the image model, then check it. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "common/systab.h"
#include "grammar/ast.h"
#include "syslet.h"

_Static_assert(AST_MAX_EXPR_STMTS == SLO_MAX_ATOMS,
	       "the parser stops at the statements an image's atoms can hold");
_Static_assert(AST_MAX_VARS == SLO_MAX_CELLS,
	       "the parser stops at the variables an image's cells can hold");
_Static_assert((uint64_t)AST_MAX_VARS + AST_MAX_OBJECTS + AST_MAX_EXPR_STMTS
	       < SLO_MAX_SYMBOLS, "what the parser accepts names fewer "
	       "symbols than an image holds, with room for syslets and labels");

#define ATOM_WORDS 11
enum { W_FLAGS, W_NR, W_RET, W_NEXT, W_ARG0 };

struct emitter {
	const struct ir_program	*p;
	struct diag		*d;
	struct slo_image	*img;
	unsigned int		w;
	uint64_t		asz;
	uint64_t		*obj_off;
	/* A cell's word in .syslet.cells; -1 for MEM cells, which are
	 * words of objects. */
	long			*slot;
	size_t			nr_slots;
	size_t			cap_relocs, cap_syms;
	int			oom;
};

/* An error at @loc: @prefix, then the message. */
static void verror(struct emitter *e, const struct ir_loc *loc,
		   const char *prefix, const char *fmt, va_list ap)
{
	struct diag_loc dl = { loc ? loc->line : 0, loc ? loc->col : 0, 1 };
	char *msg = NULL;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n >= 0)
		msg = malloc((size_t)n + 1);
	if (!msg) {
		diag_report(e->d, DIAG_ERROR, dl, "%sno memory for the message",
			    prefix);
		return;
	}
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	diag_report(e->d, DIAG_ERROR, dl, "%s%s", prefix, msg);
	free(msg);
}

static void __attribute__((format(printf, 3, 4)))
internal(struct emitter *e, const struct ir_loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(e, loc, "internal error in emit: ", fmt, ap);
	va_end(ap);
}

/* A program too large for the format (slo-format.h): the user's error. */
static void __attribute__((format(printf, 3, 4)))
too_large(struct emitter *e, const struct ir_loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(e, loc, "", fmt, ap);
	va_end(ap);
}

/* No bug of the compiler's, no "internal error": said as every other
 * pass says it. */
static void nomem(struct emitter *e)
{
	diag_report(e->d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 },
		    "out of memory");
}

static void add_reloc(struct emitter *e, enum slo_section where,
		      uint64_t offset, enum slo_section target, uint64_t addend)
{
	struct slo_image *img = e->img;

	if (img->nr_relocs == e->cap_relocs) {
		size_t cap = e->cap_relocs ? 2 * e->cap_relocs : 64;
		struct slo_reloc *r = realloc(img->relocs, cap * sizeof(*r));

		if (!r) {
			e->oom = 1;
			return;
		}
		img->relocs = r;
		e->cap_relocs = cap;
	}
	img->relocs[img->nr_relocs++] =
		(struct slo_reloc){ where, offset, target, addend };
}

static struct slo_symbol *add_sym(struct emitter *e, const char *name,
				  enum slo_sym_kind kind, enum slo_section sec,
				  uint64_t value, uint64_t size)
{
	struct slo_image *img = e->img;
	struct slo_symbol *s;

	if (img->nr_syms == e->cap_syms) {
		size_t cap = e->cap_syms ? 2 * e->cap_syms : 32;
		struct slo_symbol *n = realloc(img->syms, cap * sizeof(*n));

		if (!n) {
			e->oom = 1;
			return NULL;
		}
		img->syms = n;
		e->cap_syms = cap;
	}
	s = &img->syms[img->nr_syms];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name) {
		e->oom = 1;
		return NULL;
	}
	img->nr_syms++;
	s->kind = kind;
	s->section = sec;
	s->value = value;
	s->size = size;
	s->entry = -1;
	s->param_index = -1;
	return s;
}

static int cell_ok(const struct ir_program *p, int c)
{
	return c >= 0 && (size_t)c < p->nr_cells;
}

static enum slo_section obj_section(const struct ir_object *o)
{
	return o->kind == IR_OBJ_BUFFER ? SLO_SEC_BSS : SLO_SEC_RODATA;
}

/* Where cell c lives: its word of .syslet.cells, or for a MEM cell the
 * word of its object.  -1 when c is no place an atom may point at. */
static int cell_loc(const struct emitter *e, int c, enum slo_section *sec,
		    uint64_t *off)
{
	const struct ir_program *p = e->p;
	const struct ir_cell *x;

	if (!cell_ok(p, c))
		return -1;
	x = &p->cells[c];
	if (x->kind == IR_CELL_MEM) {
		if (x->target_obj < 0 || (size_t)x->target_obj >= p->nr_objects ||
		    x->target_off > p->objects[x->target_obj].size +
					    p->objects[x->target_obj].pad ||
		    p->objects[x->target_obj].size +
				    p->objects[x->target_obj].pad -
				    x->target_off < e->w)
			return -1;
		*sec = obj_section(&p->objects[x->target_obj]);
		*off = e->obj_off[x->target_obj] + x->target_off;
		return 0;
	}
	if (x->kind == IR_CELL_NARROW || e->slot[c] < 0)
		return -1;
	*sec = SLO_SEC_CELLS;
	*off = (uint64_t)e->slot[c] * e->w;
	return 0;
}

/* Cells that are words of .syslet.cells, numbered in order. */
static int number_cells(struct emitter *e)
{
	const struct ir_program *p = e->p;

	e->slot = calloc(p->nr_cells + 1, sizeof(*e->slot));
	if (!e->slot)
		return -1;
	for (size_t i = 0; i < p->nr_cells; i++) {
		enum ir_cell_kind k = p->cells[i].kind;

		e->slot[i] = k == IR_CELL_MEM || k == IR_CELL_NARROW ?
			     -1 : (long)e->nr_slots++;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Buffers go to .syslet.bss, data and strings to .syslet.rodata. */
static int place_objects(struct emitter *e)
{
	const struct ir_program *p = e->p;
	struct slo_image *img = e->img;
	uint64_t off[SLO_NR_SECTIONS] = { 0 };
	uint64_t align[SLO_NR_SECTIONS] = { 0 };

	e->obj_off = calloc(p->nr_objects + 1, sizeof(*e->obj_off));
	if (!e->obj_off)
		return -1;
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		align[s] = e->w;
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];
		enum slo_section s = o->kind == IR_OBJ_BUFFER ? SLO_SEC_BSS
							      : SLO_SEC_RODATA;
		uint64_t a = o->align ? o->align : 1;

		if (a & (a - 1) || a > 4096) {
			internal(e, &o->loc, "object alignment %llu",
				 (unsigned long long)a);
			return -1;
		}
		if (s == SLO_SEC_RODATA && o->size && !o->bytes) {
			internal(e, &o->loc, "data object without bytes");
			return -1;
		}
		if (o->size > SLO_MAX_OBJECT || o->pad > 8) {
			internal(e, &o->loc, "object too large");
			return -1;
		}
		off[s] = align_up(off[s], a);
		e->obj_off[i] = off[s];
		off[s] += o->size + o->pad;
		if (off[s] > slo_section_max(s, e->w)) {
			too_large(e, &o->loc, "%s bring%s the image's %s to "
				  "%llu bytes, more than the %llu MiB it may "
				  "hold", o->kind == IR_OBJ_BUFFER ? "this "
				  "buffer" : o->kind == IR_OBJ_DATA ? "this "
				  "data" : "this string",
				  "s", s == SLO_SEC_BSS ? "buffers" :
				  "data and strings", (unsigned long long)off[s],
				  (unsigned long long)(slo_section_max(s, e->w) >>
						       20));
			return -1;
		}
		if (a > align[s])
			align[s] = a;
	}
	img->size[SLO_SEC_RODATA] = off[SLO_SEC_RODATA];
	img->size[SLO_SEC_BSS] = off[SLO_SEC_BSS];
	img->align[SLO_SEC_RODATA] = align[SLO_SEC_RODATA];
	img->align[SLO_SEC_BSS] = align[SLO_SEC_BSS];
	img->data[SLO_SEC_RODATA] = calloc(1, off[SLO_SEC_RODATA] + 1);
	if (!img->data[SLO_SEC_RODATA])
		return -1;
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];

		if (o->kind != IR_OBJ_BUFFER && o->size)
			memcpy(img->data[SLO_SEC_RODATA] + e->obj_off[i],
			       o->bytes, o->size);
	}
	return 0;
}

static int emit_cells(struct emitter *e)
{
	const struct ir_program *p = e->p;
	struct slo_image *img = e->img;

	img->size[SLO_SEC_CELLS] = e->nr_slots * e->w;
	img->data[SLO_SEC_CELLS] = calloc(e->nr_slots + 1, e->w);
	if (!img->data[SLO_SEC_CELLS])
		return -1;
	for (size_t i = 0; i < p->nr_cells; i++) {
		const struct ir_cell *c = &p->cells[i];
		uint64_t at = (uint64_t)e->slot[i] * e->w, toff;
		enum slo_section tsec;

		if (e->slot[i] < 0)
			continue;
		if (c->kind != IR_CELL_ADDR) {
			slo_image_set_word(img, SLO_SEC_CELLS, at,
					   (uint64_t)c->value);
			continue;
		}
		if (c->target_obj >= 0 && (size_t)c->target_obj < p->nr_objects &&
		    c->target_cell == IR_NONE) {
			const struct ir_object *o = &p->objects[c->target_obj];

			add_reloc(e, SLO_SEC_CELLS, at, obj_section(o),
				  e->obj_off[c->target_obj] + c->target_off);
		} else if (c->target_obj == IR_NONE &&
			   !cell_loc(e, c->target_cell, &tsec, &toff)) {
			add_reloc(e, SLO_SEC_CELLS, at, tsec, toff + c->target_off);
		} else {
			internal(e, &c->loc, "address cell %zu has no target", i);
			return -1;
		}
	}
	return 0;
}

/* Names of the words inside objects that the atom's pointers reach:
 * the element as written, for listings (see slo_debug). */
static int debug_names(const struct emitter *e, const struct ir_atom *a,
		       struct slo_debug *dr)
{
	const struct ir_program *p = e->p;

	for (int k = 0; k < 7; k++) {
		int c = k ? a->args[k - 1] : a->ret;
		const char *n = a->names[k];

		if (!n && cell_ok(p, c) && p->cells[c].kind == IR_CELL_MEM)
			n = p->cells[c].display;
		if (!n || (c == IR_NONE && k))
			continue;
		dr->name[k] = strdup(n);
		if (!dr->name[k])
			return -1;
	}
	return 0;
}

static int emit_atoms(struct emitter *e)
{
	const struct ir_program *p = e->p;
	struct slo_image *img = e->img;
	long nr_sys = systab_nr_syscalls((enum systab_profile)p->profile);

	img->nr_atoms = p->nr_atoms;
	img->size[SLO_SEC_ATOMS] = p->nr_atoms * e->asz;
	img->data[SLO_SEC_ATOMS] = calloc(p->nr_atoms + 1, e->asz);
	img->debug = calloc(p->nr_atoms + 1, sizeof(*img->debug));
	if (!img->data[SLO_SEC_ATOMS] || !img->debug)
		return -1;
	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];
		uint64_t base = i * e->asz, off;
		struct slo_debug *dr = &img->debug[i];
		enum slo_section sec;
		const char *name;
		int ended = 0;

		if ((a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) &&
		    (a->flags & SYSLET_STOP_MASK) && a->skip != (int)i + 1) {
			internal(e, &a->loc, "atom %zu skips to atom %d, not %zu",
				 i, a->skip, i + 1);
			return -1;
		}
		if (a->nr < 0 || a->nr >= nr_sys) {
			internal(e, &a->loc, "atom %zu: syscall number %ld", i,
				 a->nr);
			return -1;
		}
		slo_image_set_word(img, SLO_SEC_ATOMS, base, a->flags);
		slo_image_set_word(img, SLO_SEC_ATOMS, base + W_NR * e->w,
				   (uint64_t)a->nr);
		if (a->ret != IR_NONE) {
			if (cell_loc(e, a->ret, &sec, &off)) {
				internal(e, &a->loc, "atom %zu: bad ret cell", i);
				return -1;
			}
			add_reloc(e, SLO_SEC_ATOMS, base + W_RET * e->w, sec, off);
		}
		if (a->next != IR_NONE) {
			if (a->next < 0 || (size_t)a->next >= p->nr_atoms) {
				internal(e, &a->loc, "atom %zu: bad next", i);
				return -1;
			}
			add_reloc(e, SLO_SEC_ATOMS, base + W_NEXT * e->w,
				  SLO_SEC_ATOMS, (uint64_t)a->next * e->asz);
		}
		for (int k = 0; k < 6; k++) {
			if (a->args[k] == IR_NONE) {
				ended = 1;
				continue;
			}
			/* The kernel stops at the first NULL: no holes. */
			if (ended || cell_loc(e, a->args[k], &sec, &off)) {
				internal(e, &a->loc, "atom %zu: bad argument %d",
					 i, k);
				return -1;
			}
			add_reloc(e, SLO_SEC_ATOMS, base + (W_ARG0 + k) * e->w,
				  sec, off);
		}
		dr->line = a->loc.line;
		dr->col = a->loc.col;
		dr->role = a->role;
		name = a->sysname ? a->sysname
				  : systab_name((enum systab_profile)p->profile,
						a->nr);
		dr->syscall = strdup(name ? name : "syscall");
		dr->text = a->text ? strdup(a->text) : NULL;
		if (!dr->syscall || (a->text && !dr->text))
			return -1;
		if (debug_names(e, a, dr))
			return -1;
	}
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* An entry owns the atoms from its first one up to the next entry's:
 * the next larger first atom, found in the sorted starts. */
static uint64_t entry_size(const struct emitter *e, const size_t *starts,
			   size_t k)
{
	const struct ir_program *p = e->p;
	size_t start = (size_t)p->entries[k].first_atom, end = p->nr_atoms;
	size_t lo = 0, hi = p->nr_entries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (starts[mid] <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->nr_entries)
		end = starts[lo];
	return (end - start) * e->asz;
}

static int emit_symbols(struct emitter *e)
{
	const struct ir_program *p = e->p;
	size_t first_entry, *starts;

	/* Labels first: they are ELF locals, and locals come first. */
	for (size_t k = 0; k < p->nr_labels; k++) {
		const struct ir_label *l = &p->labels[k];

		if (l->atom < 0 || (size_t)l->atom >= p->nr_atoms || !l->name) {
			internal(e, NULL, "label %zu", k);
			return -1;
		}
		add_sym(e, l->name, SLO_SYM_LABEL, SLO_SEC_ATOMS,
			(uint64_t)l->atom * e->asz, 0);
	}
	first_entry = e->img->nr_syms;
	starts = malloc((p->nr_entries + 1) * sizeof(*starts));
	if (!starts)
		return -1;
	for (size_t k = 0; k < p->nr_entries; k++) {
		const struct ir_entry *en = &p->entries[k];

		if (en->first_atom < 0 || (size_t)en->first_atom >= p->nr_atoms) {
			internal(e, &en->loc, "syslet %s has no atoms", en->name);
			free(starts);
			return -1;
		}
		starts[k] = (size_t)en->first_atom;
	}
	qsort(starts, p->nr_entries, sizeof(*starts), cmp_size);
	for (size_t k = 0; k < p->nr_entries; k++) {
		const struct ir_entry *en = &p->entries[k];

		add_sym(e, en->name, SLO_SYM_ENTRY, SLO_SEC_ATOMS,
			(uint64_t)en->first_atom * e->asz,
			entry_size(e, starts, k));
	}
	free(starts);
	for (size_t i = 0; i < p->nr_cells; i++) {
		const struct ir_cell *c = &p->cells[i];
		struct slo_symbol *s;

		if (!c->name || e->slot[i] < 0)
			continue;
		s = add_sym(e, c->name,
			    c->kind == IR_CELL_PARAM ? SLO_SYM_PARAM : SLO_SYM_VAR,
			    SLO_SEC_CELLS, (uint64_t)e->slot[i] * e->w, e->w);
		if (!s || c->kind != IR_CELL_PARAM)
			continue;
		if (c->entry < 0 || (size_t)c->entry >= p->nr_entries ||
		    (c->param_type != SLO_PARAM_INT &&
		     c->param_type != SLO_PARAM_STR &&
		     c->param_type != SLO_PARAM_SOCKADDR_IN)) {
			internal(e, &c->loc, "parameter %s", c->name);
			return -1;
		}
		s->entry = (int)(first_entry + (size_t)c->entry);
		s->param_index = c->param_index;
		s->param_type = c->param_type;
	}
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];

		if (!o->name)
			continue;
		if (o->kind == IR_OBJ_BUFFER)
			add_sym(e, o->name, SLO_SYM_BUFFER, SLO_SEC_BSS,
				e->obj_off[i], o->size);
		else
			add_sym(e, o->name, SLO_SYM_DATA, SLO_SEC_RODATA,
				e->obj_off[i], o->size);
	}
	return e->oom ? -1 : 0;
}

static void report(void *ctx, size_t atom, const char *msg)
{
	struct emitter *e = ctx;
	const struct ir_loc *loc = atom < e->p->nr_atoms
					   ? &e->p->atoms[atom].loc : NULL;

	/* The check without memory found nothing wrong with the image. */
	if (atom == (size_t)-1 && !strcmp(msg, "out of memory"))
		nomem(e);
	else if (atom == (size_t)-1)
		internal(e, NULL, "emitted image fails its check: %s", msg);
	else
		internal(e, loc, "emitted image fails its check: atom %zu: %s",
			 atom, msg);
}

struct slo_image *ir_emit(const struct ir_program *p, struct diag *d)
{
	struct emitter e = { .p = p, .d = d };
	unsigned int errors = d->errors;

	if ((unsigned)p->profile >= SYSTAB_NR_PROFILES) {
		internal(&e, NULL, "unknown profile %d", p->profile);
		return NULL;
	}
	e.w = systab_word_size((enum systab_profile)p->profile);
	e.asz = (uint64_t)ATOM_WORDS * e.w;
	e.img = slo_image_new(e.w, p->profile);
	if (!e.img)
		goto fail;
	if (p->source && !(e.img->source = strdup(p->source)))
		goto fail;
	if (number_cells(&e))
		goto fail;
	if (p->nr_atoms > SLO_MAX_ATOMS || e.nr_slots > SLO_MAX_CELLS) {
		too_large(&e, NULL, "the program needs %zu atoms and %zu "
			  "cells; an image holds at most %u of each",
			  p->nr_atoms, e.nr_slots, SLO_MAX_ATOMS);
		goto fail;
	}
	if (place_objects(&e) || emit_cells(&e) || emit_atoms(&e) ||
	    emit_symbols(&e) || e.oom)
		goto fail;
	if (e.img->nr_syms > SLO_MAX_SYMBOLS) {
		too_large(&e, NULL, "the program has %zu symbols; an image has "
			  "at most %u", e.img->nr_syms, SLO_MAX_SYMBOLS);
		goto fail;
	}
	slo_image_sort_relocs(e.img);
	slo_image_verify(e.img, report, &e);
	if (d->errors > errors)
		goto fail;
	free(e.obj_off);
	free(e.slot);
	return e.img;
fail:
	if (d->errors == errors)
		nomem(&e);
	free(e.obj_off);
	free(e.slot);
	slo_image_free(e.img);
	return NULL;
}
