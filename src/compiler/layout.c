/* layout.c: order the atoms so that every skip lands on the atom right after its branch. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "common/systab.h"
#include "syslet.h"

/*
 * A stop with SYSLET_SKIP_TO_NEXT_ON_STOP continues at the atom one
 * further in memory, so each skipping atom needs its target as physical
 * successor.  Every atom has at most one skip, so these wishes form a
 * graph where each atom wants at most one successor; granting at most one
 * predecessor per target (and none that would close a cycle) leaves
 * disjoint chains, which are placed whole.  A branch whose wish was not
 * granted gets a trampoline right after it: an atom whose `next` is the
 * real target.
 *
 * The trampoline is getppid() with no arguments and no result cell: it
 * needs no cells, cannot fail, changes nothing, never blocks in the
 * kernel or the emulator, and exists in every profile.  (umem_add(&c, 0)
 * would need an address cell and a zero cell, and is a syslet call whose
 * number differs between profiles.)  Its flags are zero, so it never
 * stops and always continues at the target.
 *
 * Chains are placed in the order a depth-first walk from each entry
 * meets them, so each entry's atoms are contiguous and start at its
 * first atom.  Atoms no entry reaches can never run: they are dropped
 * first, by the front end's own pass (ir_drop_unreachable()), which a
 * program from the front end has been through already.
 */

#define TRAMPOLINE_SYSCALL "getppid"

struct layout {
	struct ir_program	*p;
	struct diag		*d;
	size_t			n;
	int			*pred, *succ;	/* granted physical neighbours */
	int			*uf;		/* union-find over chains */
	int			*pos;		/* old index -> new index, or -1 */
	int			*order;		/* new atoms: old index, or -1-k */
	int			*tramp_for;	/* trampoline k: its branch */
	size_t			nr_order, nr_tramps;
	int			*stack;
	size_t			sp;
	unsigned char		*is_start;	/* an entry's first atom */
};

static int wants_skip(const struct ir_atom *a)
{
	return (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) &&
	       (a->flags & SYSLET_STOP_MASK);
}

static int uf_find(int *uf, int x)
{
	while (uf[x] != x) {
		uf[x] = uf[uf[x]];
		x = uf[x];
	}
	return x;
}

static void internal(struct layout *l, const struct ir_atom *a,
		     const char *what)
{
	struct diag_loc loc = { a ? a->loc.line : 0, a ? a->loc.col : 0, 1 };

	diag_report(l->d, DIAG_ERROR, loc, "internal error in layout: %s",
		    what);
}

static void nomem(struct layout *l)
{
	diag_report(l->d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 },
		    "out of memory");
}

static int check_ir(struct layout *l)
{
	const struct ir_program *p = l->p;
	long n = (long)p->nr_atoms;

	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];

		if (a->next != IR_NONE && (a->next < 0 || a->next >= n))
			internal(l, a, "next is not an atom");
		if (wants_skip(a) && (a->skip < 0 || a->skip >= n))
			internal(l, a, "skip is not an atom");
	}
	for (size_t e = 0; e < p->nr_entries; e++)
		if (p->entries[e].first_atom < 0 ||
		    p->entries[e].first_atom >= n)
			internal(l, NULL, "entry has no first atom");
	for (size_t k = 0; k < p->nr_labels; k++)
		if (p->labels[k].atom < 0 || p->labels[k].atom >= n)
			internal(l, NULL, "label is not at an atom");
	return l->d->errors ? -1 : 0;
}

/*
 * Grant wishes in source order; an entry's first atom has no
 * predecessor, so the entry symbol starts its block of atoms.  Copies
 * come last: a copy skips only to test the sign of what it copies
 * (lower-cond.c, sign_first()), a branch that the values of a loop's
 * counter rarely take, while the subtraction after it often skips to
 * the same target (i < 10 goes to the body from both): the trampoline
 * goes on the rare path.
 */
static void grant(struct layout *l)
{
	const struct ir_program *p = l->p;

	for (size_t i = 0; i < l->n; i++)
		l->uf[i] = (int)i;
	for (size_t e = 0; e < p->nr_entries; e++)
		l->is_start[p->entries[e].first_atom] = 1;
	for (size_t k = 0; k < 2 * l->n; k++) {
		size_t i = k % l->n;
		const struct ir_atom *a = &p->atoms[i];
		int t;

		if (!wants_skip(a) ||
		    (a->role == SLO_ROLE_COPY) != (k >= l->n))
			continue;
		t = a->skip;
		if (l->pred[t] >= 0 || l->is_start[t] ||
		    uf_find(l->uf, (int)i) == uf_find(l->uf, t))
			continue;
		l->pred[t] = (int)i;
		l->succ[i] = t;
		l->uf[uf_find(l->uf, t)] = uf_find(l->uf, (int)i);
	}
}

static void push(struct layout *l, int atom)
{
	if (atom != IR_NONE && l->pos[atom] < 0)
		l->stack[l->sp++] = atom;
}

/* Place the chain holding `atom`, then queue where its atoms go next. */
static void place_chain(struct layout *l, int atom)
{
	const struct ir_program *p = l->p;
	size_t first = l->nr_order, last;

	while (l->pred[atom] >= 0)
		atom = l->pred[atom];
	for (int x = atom; x >= 0; x = l->succ[x]) {
		l->pos[x] = (int)l->nr_order;
		l->order[l->nr_order++] = x;
		if (wants_skip(&p->atoms[x]) && l->succ[x] < 0) {
			l->tramp_for[l->nr_tramps] = x;
			l->order[l->nr_order++] = -1 - (int)l->nr_tramps++;
		}
	}
	last = l->nr_order;
	/* Pushed in reverse so the first atom's next is placed first. */
	for (size_t k = last; k-- > first;) {
		int x = l->order[k];

		if (x < 0) {
			push(l, p->atoms[l->tramp_for[-1 - x]].skip);
			continue;
		}
		push(l, p->atoms[x].next);
	}
}

static void walk(struct layout *l)
{
	const struct ir_program *p = l->p;

	for (size_t e = 0; e < p->nr_entries; e++) {
		push(l, p->entries[e].first_atom);
		while (l->sp) {
			int x = l->stack[--l->sp];

			if (l->pos[x] < 0)
				place_chain(l, x);
		}
	}
}

static int new_index(const struct layout *l, int old)
{
	return old == IR_NONE ? IR_NONE : l->pos[old];
}

static int rebuild(struct layout *l)
{
	struct ir_program *p = l->p;
	struct ir_atom *atoms = calloc(l->nr_order ? l->nr_order : 1,
				       sizeof(*atoms));
	long getppid = systab_lookup((enum systab_profile)p->profile,
				     TRAMPOLINE_SYSCALL);
	size_t nl = 0;

	if (!atoms)
		return -1;
	if (getppid < 0 && l->nr_tramps) {
		free(atoms);
		internal(l, NULL, "profile has no " TRAMPOLINE_SYSCALL);
		return -1;
	}
	for (size_t k = 0; k < l->nr_order; k++) {
		int x = l->order[k];
		struct ir_atom *a = &atoms[k];

		if (x < 0) {
			const struct ir_atom *br = &p->atoms[l->tramp_for[-1 - x]];

			a->nr = getppid;
			a->sysname = strdup(TRAMPOLINE_SYSCALL);
			a->ret = IR_NONE;
			for (int i = 0; i < 6; i++)
				a->args[i] = IR_NONE;
			a->next = new_index(l, br->skip);
			a->skip = IR_NONE;
			a->role = SLO_ROLE_TRAMPOLINE;
			a->loc = br->loc;
			if (!a->sysname)
				goto oom;
			continue;
		}
		*a = p->atoms[x];
		/* Moved: the strings are a's now (the rest of the old atom is
		 * still read, by the trampolines of its branch). */
		p->atoms[x].sysname = NULL;
		p->atoms[x].text = NULL;
		memset(p->atoms[x].names, 0, sizeof(p->atoms[x].names));
		a->next = new_index(l, a->next);
		a->skip = wants_skip(a) ? (int)k + 1 : IR_NONE;
	}
	/* The old atoms' strings moved; free what is left. */
	for (size_t i = 0; i < l->n; i++)
		ir_atom_clear(&p->atoms[i]);
	free(p->atoms);
	p->atoms = atoms;
	p->nr_atoms = l->nr_order;
	p->cap_atoms = l->nr_order ? l->nr_order : 1;	/* as allocated */
	for (size_t e = 0; e < p->nr_entries; e++)
		p->entries[e].first_atom = new_index(l, p->entries[e].first_atom);
	for (size_t k = 0; k < p->nr_labels; k++) {
		int at = new_index(l, p->labels[k].atom);

		if (at < 0) {
			free(p->labels[k].name);
			continue;
		}
		p->labels[nl] = p->labels[k];
		p->labels[nl++].atom = at;
	}
	p->nr_labels = nl;
	return 0;
oom:
	for (size_t k = 0; k < l->nr_order; k++)
		if (l->order[k] < 0)
			free(atoms[k].sysname);
	free(atoms);
	return -1;
}

int ir_layout(struct ir_program *p, struct diag *d)
{
	struct layout l = { .p = p, .d = d, .n = p->nr_atoms };
	size_t n = l.n ? l.n : 1;
	int rc = -1;

	if (check_ir(&l))
		return -1;
	/* The front end's pass, for programs built by other means: only
	 * atoms an entry reaches are placed. */
	if (ir_drop_unreachable(p)) {
		nomem(&l);
		return -1;
	}
	l.n = p->nr_atoms;
	n = l.n ? l.n : 1;
	l.pred = malloc(n * sizeof(int));
	l.succ = malloc(n * sizeof(int));
	l.uf = malloc(n * sizeof(int));
	l.pos = malloc(n * sizeof(int));
	l.order = malloc(2 * n * sizeof(int));
	l.tramp_for = malloc(n * sizeof(int));
	l.stack = malloc((2 * n + 2) * sizeof(int));
	l.is_start = calloc(n, 1);
	if (!l.pred || !l.succ || !l.uf || !l.pos || !l.order ||
	    !l.tramp_for || !l.stack || !l.is_start) {
		nomem(&l);
		goto out;
	}
	for (size_t i = 0; i < l.n; i++)
		l.pred[i] = l.succ[i] = l.pos[i] = -1;
	grant(&l);
	walk(&l);
	if (rebuild(&l)) {
		if (!d->errors)
			nomem(&l);
		goto out;
	}
	rc = 0;
out:
	free(l.pred);
	free(l.succ);
	free(l.uf);
	free(l.pos);
	free(l.order);
	free(l.tramp_for);
	free(l.stack);
	free(l.is_start);
	return rc;
}
