/* ir-pass.c: passes from an IR program to a tidier one: branch flags, unreachable atoms, unused cells; each alone, each testable. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir.h"
#include "syslet.h"

#define BRANCH (SYSLET_STOP_MASK | SYSLET_SKIP_TO_NEXT_ON_STOP)

/*
 * A test whose two sides lead to one place tests nothing; a skip to the
 * end is a plain stop; an atom that ends the syslet either way needs no
 * stop test.  Targets must be atoms or IR_NONE (resolved).
 */
int ir_tidy_branches(struct ir_program *p)
{
	for (size_t i = 0; i < p->nr_atoms; i++) {
		struct ir_atom *a = &p->atoms[i];

		if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
			if (a->skip == IR_NONE) {
				a->flags &= ~SYSLET_SKIP_TO_NEXT_ON_STOP;
			} else if (a->skip == a->next) {
				a->flags &= ~(SYSLET_SKIP_TO_NEXT_ON_STOP |
					      SYSLET_STOP_MASK);
				a->skip = IR_NONE;
			}
		} else {
			a->skip = IR_NONE;
		}
		if (a->next == IR_NONE &&
		    !(a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP))
			a->flags &= ~SYSLET_STOP_MASK;
	}
	return 0;
}

/* Whether address cells x and y point at the same word. */
static bool same_addr(const struct ir_program *p, int x, int y)
{
	const struct ir_cell *a = &p->cells[x], *b = &p->cells[y];

	return a->kind == IR_CELL_ADDR && b->kind == IR_CELL_ADDR &&
	       a->target_obj == b->target_obj &&
	       a->target_cell == b->target_cell &&
	       a->target_off == b->target_off;
}

/* Whether atom a leaves in its result the word that address cell x
 * points at: it writes that cell, or adds to that word (umem_add
 * yields the sum). */
static bool computes(const struct ir_program *p, const struct ir_atom *a,
		     int x)
{
	const struct ir_cell *ac = &p->cells[x], *r;

	if (a->sysname && !strcmp(a->sysname, "umem_add") &&
	    a->args[0] >= 0 && (size_t)a->args[0] < p->nr_cells &&
	    same_addr(p, a->args[0], x))
		return true;
	if (a->ret < 0 || (size_t)a->ret >= p->nr_cells)
		return false;
	r = &p->cells[a->ret];
	if (r->kind == IR_CELL_MEM)
		return ac->target_cell == IR_NONE &&
		       ac->target_obj == r->target_obj &&
		       ac->target_off == r->target_off;
	return ac->target_obj == IR_NONE && ac->target_cell == a->ret &&
	       ac->target_off == 0;
}

/* Whether candidate f can merge: test only reads the word into leaves
 * in its result (umem_add(&c, $0), no result of its own), into runs
 * nothing after itself but test, and test's modifiers are into's. */
static bool can_fuse(const struct ir_program *p, const struct ir_fuse *f)
{
	const struct ir_atom *t, *a;
	int x, z;

	if (f->test < 0 || f->into < 0 || f->test == f->into ||
	    (size_t)f->test >= p->nr_atoms || (size_t)f->into >= p->nr_atoms)
		return false;
	t = &p->atoms[f->test];
	a = &p->atoms[f->into];
	x = t->args[0];
	z = t->args[1];
	if (!t->sysname || strcmp(t->sysname, "umem_add") ||
	    t->ret != IR_NONE || x < 0 || (size_t)x >= p->nr_cells ||
	    p->cells[x].kind != IR_CELL_ADDR || z < 0 ||
	    (size_t)z >= p->nr_cells || p->cells[z].kind != IR_CELL_CONST ||
	    p->cells[z].value != 0 || t->args[2] != IR_NONE)
		return false;
	if (a->next != f->test || (a->flags & BRANCH) ||
	    (t->flags & ~BRANCH & ~a->flags))
		return false;
	return computes(p, a, x);
}

/*
 * `x = f(); if (x) ...`: the assignment's atom can carry the if's
 * test, for its result is the value tested.  Which pairs merge is
 * lowering's choice, handed over as p->fuses, not found here by
 * looking at the atoms: an atom followed by a test of the cell it
 * writes is also what `{ x = f(); } if (x)` and `do { x = f(); }
 * while (x)` lower to, and those have always kept their test atom.
 * The rule users see (syslet(5), Conditions) is a statement-level one,
 * the assignment statement right before the if in the same statement
 * list, so the atoms a program makes, its images and listings, can be
 * told from its text and do not move when the IR around them changes.
 * This pass only checks that each merge keeps the meaning.  It runs
 * after the targets are resolved and before unreachable atoms go: a
 * merged test is left unreached.
 */
int ir_fuse(struct ir_program *p)
{
	for (size_t i = 0; i < p->nr_fuses; i++) {
		const struct ir_fuse *f = &p->fuses[i];
		struct ir_atom *a, *t;

		if (!can_fuse(p, f))
			continue;
		a = &p->atoms[f->into];
		t = &p->atoms[f->test];
		a->flags |= t->flags & BRANCH;
		a->next = t->next;
		a->skip = t->skip;
	}
	p->nr_fuses = 0;
	return 0;
}

size_t ir_reach(const struct ir_program *p, const int *from, size_t nr_from,
		unsigned char *seen, int *order)
{
	int *stack = malloc(sizeof(int) * (2 * p->nr_atoms + nr_from + 1));
	size_t n = 0, sp = 0;

	if (!stack)
		return (size_t)-1;
	for (size_t k = 0; k < nr_from; k++) {
		if (from[k] >= 0)
			stack[sp++] = from[k];
		/* Depth first, next before skip: the order a reader
		 * follows, so dumps list atoms roughly in source order.
		 * Each atom is pushed at most by its two edges. */
		while (sp) {
			int x = stack[--sp];

			if (x < 0 || (size_t)x >= p->nr_atoms || seen[x])
				continue;
			seen[x] = 1;
			if (order)
				order[n] = x;
			n++;
			if (p->atoms[x].skip >= 0)
				stack[sp++] = p->atoms[x].skip;
			if (p->atoms[x].next >= 0)
				stack[sp++] = p->atoms[x].next;
		}
	}
	free(stack);
	return n;
}

/*
 * Drop the atoms no entry reaches (statements after `stop`, folded-away
 * branches, a hand-built program's strays) and number the rest in
 * reading order; labels of dropped atoms go with them.
 */
int ir_drop_unreachable(struct ir_program *p)
{
	size_t na = p->nr_atoms + 1, n, nl = 0;
	unsigned char *seen = calloc(na, 1);
	int *map = malloc(sizeof(int) * na);
	int *order = malloc(sizeof(int) * na);
	int *from = malloc(sizeof(int) * (p->nr_entries + 1));
	struct ir_atom *atoms = malloc(sizeof(*atoms) * na);
	int rc = -1;

	if (!seen || !map || !order || !from || !atoms)
		goto out;
	for (size_t i = 0; i < p->nr_entries; i++)
		from[i] = p->entries[i].first_atom;
	n = ir_reach(p, from, p->nr_entries, seen, order);
	if (n == (size_t)-1)
		goto out;
	for (size_t i = 0; i < p->nr_atoms; i++) {
		map[i] = IR_NONE;
		if (!seen[i])
			ir_atom_clear(&p->atoms[i]);
	}
	for (size_t i = 0; i < n; i++) {
		map[order[i]] = (int)i;
		atoms[i] = p->atoms[order[i]];
	}
	if (n)
		memcpy(p->atoms, atoms, n * sizeof(*atoms));
	p->nr_atoms = n;
	for (size_t i = 0; i < n; i++) {
		struct ir_atom *a = &p->atoms[i];

		if (a->next >= 0)
			a->next = map[a->next];
		if (a->skip >= 0)
			a->skip = map[a->skip];
	}
	for (size_t i = 0; i < p->nr_entries; i++)
		if (p->entries[i].first_atom >= 0)
			p->entries[i].first_atom = map[p->entries[i].first_atom];
	for (size_t i = 0; i < p->nr_labels; i++) {
		struct ir_label *l = &p->labels[i];

		if (l->atom >= 0 && map[l->atom] >= 0) {
			l->atom = map[l->atom];
			p->labels[nl++] = *l;
		} else {
			free(l->name);
		}
	}
	p->nr_labels = nl;
	nl = 0;
	for (size_t i = 0; i < p->nr_fuses; i++) {
		struct ir_fuse *f = &p->fuses[i];

		if (f->test >= 0 && f->into >= 0 && (size_t)f->test < na - 1 &&
		    (size_t)f->into < na - 1 && map[f->test] >= 0 &&
		    map[f->into] >= 0) {
			f->test = map[f->test];
			f->into = map[f->into];
			p->fuses[nl++] = *f;
		}
	}
	p->nr_fuses = nl;
	rc = 0;
out:
	free(seen);
	free(map);
	free(order);
	free(from);
	free(atoms);
	return rc;
}

struct renum {
	int	*map;		/* old index -> new, IR_NONE if dropped */
	int	*order;		/* new index -> old */
	size_t	n;
};

static void keep_obj(struct renum *o, int i)
{
	if (i >= 0 && o->map[i] == IR_NONE) {
		o->map[i] = (int)o->n;
		o->order[o->n++] = i;
	}
}

static void keep_cell(const struct ir_program *p, struct renum *c,
		      struct renum *o, int i)
{
	if (i < 0 || c->map[i] != IR_NONE)
		return;
	if (p->cells[i].kind == IR_CELL_ADDR ||
	    p->cells[i].kind == IR_CELL_MEM) {
		keep_cell(p, c, o, p->cells[i].target_cell);
		keep_obj(o, p->cells[i].target_obj);
	}
	c->map[i] = (int)c->n;
	c->order[c->n++] = i;
}

/*
 * Drop the anonymous cells and strings no atom uses any more (those of
 * dropped atoms) and number the rest in reading order: named cells and
 * objects as declared, then the anonymous ones in order of first use.
 */
int ir_tidy_cells(struct ir_program *p)
{
	struct renum c, o;
	struct ir_cell *cells;
	struct ir_object *objs;
	int rc = -1;

	c.map = malloc(sizeof(int) * (p->nr_cells + 1));
	c.order = malloc(sizeof(int) * (p->nr_cells + 1));
	o.map = malloc(sizeof(int) * (p->nr_objects + 1));
	o.order = malloc(sizeof(int) * (p->nr_objects + 1));
	cells = malloc(sizeof(*cells) * (p->nr_cells + 1));
	objs = malloc(sizeof(*objs) * (p->nr_objects + 1));
	if (!c.map || !c.order || !o.map || !o.order || !cells || !objs)
		goto out;
	c.n = o.n = 0;
	for (size_t i = 0; i < p->nr_cells; i++)
		c.map[i] = IR_NONE;
	for (size_t i = 0; i < p->nr_objects; i++)
		o.map[i] = IR_NONE;
	for (size_t i = 0; i < p->nr_cells; i++)
		if (p->cells[i].name)
			keep_cell(p, &c, &o, (int)i);
	for (size_t i = 0; i < p->nr_objects; i++)
		if (p->objects[i].name)
			keep_obj(&o, (int)i);
	for (size_t i = 0; i < p->nr_atoms; i++) {
		struct ir_atom *a = &p->atoms[i];

		keep_cell(p, &c, &o, a->ret);
		for (int j = 0; j < 6 && a->args[j] != IR_NONE; j++)
			keep_cell(p, &c, &o, a->args[j]);
	}
	for (size_t i = 0; i < p->nr_cells; i++)
		if (c.map[i] == IR_NONE) {
			free(p->cells[i].name);
			free(p->cells[i].display);
		}
	for (size_t i = 0; i < p->nr_objects; i++)
		if (o.map[i] == IR_NONE) {
			free(p->objects[i].name);
			free(p->objects[i].bytes);
		}
	for (size_t i = 0; i < c.n; i++) {
		struct ir_cell *x = &cells[i];

		*x = p->cells[c.order[i]];
		if (x->target_cell >= 0)
			x->target_cell = c.map[x->target_cell];
		if (x->target_obj >= 0)
			x->target_obj = o.map[x->target_obj];
	}
	for (size_t i = 0; i < o.n; i++)
		objs[i] = p->objects[o.order[i]];
	if (c.n)
		memcpy(p->cells, cells, c.n * sizeof(*cells));
	if (o.n)
		memcpy(p->objects, objs, o.n * sizeof(*objs));
	p->nr_cells = c.n;
	p->nr_objects = o.n;
	for (size_t i = 0; i < p->nr_atoms; i++) {
		struct ir_atom *a = &p->atoms[i];

		if (a->ret >= 0)
			a->ret = c.map[a->ret];
		for (int j = 0; j < 6 && a->args[j] != IR_NONE; j++)
			a->args[j] = c.map[a->args[j]];
	}
	rc = 0;
out:
	free(c.map);
	free(c.order);
	free(o.map);
	free(o.order);
	free(cells);
	free(objs);
	return rc;
}
