/* lower-ir.c: growing the IR program (cells, objects, atoms), target placeholders, and the final clean-up. */
#define _GNU_SOURCE	/* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/lower.h"
#include "syslet.h"

void lower_oom(struct lower *L)
{
	if (!L->oom)
		diag_report(L->d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 },
			    "out of memory");
	L->oom = true;
}

/* Grow *v (n used, *cap allocated) to hold one more element of size sz. */
static bool grow(struct lower *L, void **v, size_t n, size_t *cap, size_t sz)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return true;
	nc = *cap ? *cap * 2 : 16;
	nv = realloc(*v, nc * sz);
	if (!nv) {
		lower_oom(L);
		return false;
	}
	*v = nv;
	*cap = nc;
	return true;
}

char *lower_strdup(struct lower *L, const char *s)
{
	char *r;

	if (!s)
		return NULL;
	r = strdup(s);
	if (!r)
		lower_oom(L);
	return r;
}

char *lower_fmt(struct lower *L, const char *fmt, ...)
{
	va_list ap;
	char *r;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&r, fmt, ap);
	va_end(ap);
	if (n < 0) {
		lower_oom(L);
		return NULL;
	}
	return r;
}

static struct ir_loc irloc(struct ast_loc l)
{
	return (struct ir_loc){ l.first_line, l.first_column };
}

int lower_cell(struct lower *L, enum ir_cell_kind kind, const char *name,
	       const char *display, int64_t value, struct ast_loc loc)
{
	struct ir_program *p = L->p;
	int c = ir_add_cell(p, kind, name, value);

	if (c < 0) {
		lower_oom(L);
		return 0;
	}
	p->cells[c].display = lower_strdup(L, display);
	p->cells[c].loc = irloc(loc);
	return c;
}

/* Remember where a pooled entry is; a pool that cannot grow only costs
 * a duplicate later, but an index must not miss entries, so it is an
 * out-of-memory error like any other. */
static void pool_add(struct lower *L, struct common_hidx *x, uint32_t hash,
		     int pos)
{
	if (!L->oom && common_hidx_add(x, hash, (size_t)pos))
		lower_oom(L);
}

/* One cell per distinct value, program-wide. */
int lower_const_cell(struct lower *L, int64_t v)
{
	struct ir_program *p = L->p;
	uint32_t h = common_hash_u64((uint64_t)v);
	struct common_hidx_iter it;
	char disp[32];
	int c;

	for (long i = common_hidx_first(&L->const_index, h, &it); i >= 0;
	     i = common_hidx_next(&L->const_index, &it))
		if (p->cells[i].kind == IR_CELL_CONST && p->cells[i].value == v)
			return (int)i;
	snprintf(disp, sizeof(disp), "$%lld", (long long)v);
	c = lower_cell(L, IR_CELL_CONST, NULL, disp, v, (struct ast_loc){ 0 });
	pool_add(L, &L->const_index, h, c);
	return c;
}

static uint32_t addr_hash(int obj, int cell, uint64_t off)
{
	return common_hash_u64(((uint64_t)(uint32_t)obj << 32 | (uint32_t)cell) ^
			       common_hash_u64(off));
}

/* Address cells are pooled too: one per (target, offset). */
int lower_addr_cell(struct lower *L, int obj, int cell, uint64_t off,
		    const char *display)
{
	struct ir_program *p = L->p;
	uint32_t h = addr_hash(obj, cell, off);
	struct common_hidx_iter it;
	int c;

	for (long i = common_hidx_first(&L->addr_index, h, &it); i >= 0;
	     i = common_hidx_next(&L->addr_index, &it)) {
		struct ir_cell *x = &p->cells[i];

		if (x->kind == IR_CELL_ADDR && x->target_obj == obj &&
		    x->target_cell == cell && x->target_off == off)
			return (int)i;
	}
	c = lower_cell(L, IR_CELL_ADDR, NULL, display, 0, (struct ast_loc){ 0 });
	if (L->oom)
		return c;
	p->cells[c].target_obj = obj;
	p->cells[c].target_cell = cell;
	p->cells[c].target_off = off;
	pool_add(L, &L->addr_index, h, c);
	return c;
}

static int object_cell(struct lower *L, enum ir_cell_kind kind, int obj,
		       uint64_t off, unsigned int width, const char *display)
{
	struct ir_program *p = L->p;
	int c;

	for (size_t i = 0; i < p->nr_cells; i++) {
		struct ir_cell *x = &p->cells[i];

		if (x->kind == kind && x->target_obj == obj &&
		    x->target_off == off && x->width == width)
			return (int)i;
	}
	c = lower_cell(L, kind, NULL, display, 0, (struct ast_loc){ 0 });
	if (L->oom)
		return -1;
	p->cells[c].target_obj = obj;
	p->cells[c].target_off = off;
	p->cells[c].width = width;
	return c;
}

int lower_mem_cell(struct lower *L, int obj, uint64_t off, unsigned int width,
		   const char *display)
{
	return object_cell(L, IR_CELL_MEM, obj, off, width, display);
}

int lower_narrow_cell(struct lower *L, int obj, uint64_t off,
		      unsigned int width, const char *display)
{
	return object_cell(L, IR_CELL_NARROW, obj, off, width, display);
}

int lower_object(struct lower *L, enum ir_obj_kind kind, const char *name,
		 uint64_t size, uint8_t *bytes, unsigned int align,
		 struct ast_loc loc)
{
	struct ir_program *p = L->p;
	int o = ir_add_object(p, kind, name, NULL, size);

	if (o < 0) {
		free(bytes);
		lower_oom(L);
		return 0;
	}
	p->objects[o].bytes = bytes;	/* the program's now */
	p->objects[o].align = align;
	p->objects[o].loc = irloc(loc);
	return o;
}

/* Anonymous string literals are pooled by content; the object holds
 * the bytes and a final NUL so the kernel can read it as a C string. */
int lower_string_obj(struct lower *L, const char *s, size_t n,
		     struct ast_loc loc)
{
	struct ir_program *p = L->p;
	uint32_t h = common_hash_bytes(s, n);
	struct common_hidx_iter it;
	uint8_t *b;
	int o;

	for (long i = common_hidx_first(&L->str_index, h, &it); i >= 0;
	     i = common_hidx_next(&L->str_index, &it)) {
		struct ir_object *x = &p->objects[i];

		if (x->kind == IR_OBJ_STRING && x->size == n + 1 &&
		    !memcmp(x->bytes, s, n))
			return (int)i;
	}
	b = malloc(n + 1);
	if (!b) {
		lower_oom(L);
		return 0;
	}
	memcpy(b, s, n);
	b[n] = 0;
	o = lower_object(L, IR_OBJ_STRING, NULL, n + 1, b, 1, loc);
	pool_add(L, &L->str_index, h, o);
	return o;
}

/* Collapse whitespace, keep the text printable and short. */
char *lower_text(struct lower *L, struct ast_loc loc)
{
	enum { MAX_TEXT = 160 };
	size_t a = loc.first_off, b = loc.last_off, o = 0, i;
	char *t;
	bool space = false;

	if (!L->src || a >= b || b > L->len)
		return NULL;
	t = malloc(MAX_TEXT + 8);
	if (!t) {
		/* Else the image went out without the statement's text in
		 * its debug records, and sysletc said nothing. */
		lower_oom(L);
		return NULL;
	}
	for (i = a; i < b && o + 2 <= MAX_TEXT; i++) {
		unsigned char c = (unsigned char)L->src[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = o > 0;
			continue;
		}
		if (space)
			t[o++] = ' ';
		space = false;
		t[o++] = (char)(c >= 0x20 && c < 0x7f ? c : '?');
	}
	if (i < b) {
		memcpy(t + o, "...", 3);
		o += 3;
	}
	t[o] = 0;
	return t;
}

/*
 * Narrow elements.  An atom reads a whole word through each argument,
 * and umem_add adds whole words, so an element narrower than a word
 * (u32 fds[1] on x86_64) is first widened into a word of a scratch
 * object, with atoms only:
 *
 *   COPY   umem_add(&word holding the element, 0) -> written so that
 *          the element's bytes land at the start of scratch word W
 *   CLEAR  umem_add(&$0, 0) -> W + width (zeroes W's other bytes; only
 *          when the element is not the top of the word read)
 *
 * and the atom points at W.  The word read is the one that ends with
 * the element when there is room before it (then the element is its
 * top and W's upper bytes, never written, stay zero: one atom), else
 * the object's first word.  A result lands through ret_ptr, which may
 * point anywhere (x86 does not care about alignment); the scratch
 * object keeps a word between slots, so the spill of one slot's writes
 * never reaches another.  Values are zero-extended: the elements are
 * unsigned.
 */
#define WIDEN_SLOTS	6

static int widen_object(struct lower *L, struct ast_loc loc)
{
	if (L->widen < 0)
		L->widen = lower_object(L, IR_OBJ_BUFFER, NULL,
					(2 * WIDEN_SLOTS + 1) * L->word, NULL,
					L->word, loc);
	return L->oom ? -1 : L->widen;
}

/* The scratch word of slot j, where a widened element is read from. */
static int widen_slot(struct lower *L, unsigned int j, struct ast_loc loc)
{
	int obj = widen_object(L, loc);
	char disp[16];

	if (obj < 0)
		return -1;
	snprintf(disp, sizeof(disp), "%%w%u", j);
	return lower_mem_cell(L, obj, (2 * j + 1) * L->word, L->word, disp);
}

/* Room for a word read: an object smaller than a word gets zero bytes
 * after it (its size, what sizeof and the symbol say, stays). */
static int word_room(struct lower *L, struct ir_object *o)
{
	if (o->size < L->word && o->pad < L->word - o->size)
		o->pad = L->word - o->size;
	return 0;
}

/* The atoms that put narrow cell n into slot j, continuing at next. */
static int widen(struct lower *L, int n, unsigned int j, struct ast_loc loc,
		 int next)
{
	struct ir_program *p = L->p;
	struct ir_cell c = p->cells[n];
	uint64_t w = L->word, at = (2 * j + 1) * w, from, k;
	int obj = widen_object(L, loc), zero, src, dst, len;
	char *name, *disp;

	if (obj < 0 || word_room(L, &p->objects[c.target_obj]))
		return LOWER_END;
	if (c.target_off + c.width >= w) {
		from = c.target_off + c.width - w;	/* the top of the word */
		k = w - c.width;
	} else {
		from = 0;
		k = c.target_off;
	}
	zero = lower_const_cell(L, 0);
	/* The word read is named as the source names an address: the
	 * array, plus an offset (fds, t+4). */
	len = c.display ? (int)strcspn(c.display, "[") : 0;
	name = from ? lower_fmt(L, "%.*s+%llu", len, c.display,
				(unsigned long long)from) :
		      lower_fmt(L, "%.*s", len, c.display ? c.display : "");
	src = lower_mem_cell(L, c.target_obj, from, L->word, name);
	disp = lower_fmt(L, "%%w%u-%llu", j, (unsigned long long)k);
	dst = lower_mem_cell(L, obj, at - k, L->word, disp);
	free(disp);
	if (L->oom || src < 0 || dst < 0) {
		free(name);
		return LOWER_END;
	}
	if (k != w - c.width) {
		int clr;

		disp = lower_fmt(L, "%%w%u+%u", j, c.width);
		clr = lower_mem_cell(L, obj, at + c.width, L->word, disp);
		free(disp);
		if (clr >= 0)
			next = lower_umem_add(L, zero, zero, clr, SLO_ROLE_COPY,
					      loc, lower_plain(next));
	}
	L->names[1] = name;
	return lower_umem_add(L, src, zero, dst, SLO_ROLE_COPY, loc,
			      lower_plain(next));
}

static bool is_narrow(struct lower *L, int c)
{
	return c >= 0 && (size_t)c < L->p->nr_cells &&
	       L->p->cells[c].kind == IR_CELL_NARROW;
}

int lower_atom(struct lower *L, long nr, const char *sysname, int ret,
	       const int *args, unsigned int nargs, enum slo_role role,
	       struct ast_loc loc, struct lower_branch br)
{
	struct ir_program *p = L->p;
	struct ir_atom *a;
	int narrow[6], cells[6], first;
	bool any = false;

	if (is_narrow(L, ret)) {
		lower_error(L, loc, "internal error: a result into a narrow "
			    "element");
		goto fail;
	}
	/* Narrow arguments are read from their widened copies. */
	for (unsigned int i = 0; i < nargs && i < 6; i++) {
		narrow[i] = -1;
		cells[i] = args[i];
		if (!is_narrow(L, args[i]))
			continue;
		narrow[i] = args[i];
		cells[i] = widen_slot(L, i, loc);
		if (cells[i] < 0)
			goto fail;
		any = true;
	}
	if (any) {
		int at = lower_atom(L, nr, sysname, ret, cells, nargs, role,
				    loc, br);

		/* The listing names the argument as the source did. */
		for (unsigned int i = 0; at >= 0 && i < nargs && i < 6; i++)
			if (narrow[i] >= 0 && !p->atoms[at].names[1 + i])
				p->atoms[at].names[1 + i] = lower_strdup(
					L, p->cells[narrow[i]].display);
		first = at;
		for (unsigned int i = nargs < 6 ? nargs : 6; i-- > 0;)
			if (narrow[i] >= 0)
				first = widen(L, narrow[i], i, loc, first);
		return first;
	}
	for (unsigned int i = 0; i < 6; i++)
		cells[i] = i < nargs ? args[i] : IR_NONE;
	first = ir_add_atom(p, br.flags | L->mods, nr, sysname, ret, cells,
			    br.next, (br.flags & SYSLET_SKIP_TO_NEXT_ON_STOP) ?
				     br.skip : IR_NONE);
	if (first < 0) {
		lower_oom(L);
		goto fail;
	}
	a = &p->atoms[first];
	a->role = role;
	a->loc = irloc(loc);
	a->text = lower_text(L, L->text);
	for (int k = 0; k < 7; k++) {
		a->names[k] = L->names[k];
		L->names[k] = NULL;
	}
	return first;
fail:
	/* Names meant for this atom must not land on another. */
	for (int k = 0; k < 7; k++) {
		free(L->names[k]);
		L->names[k] = NULL;
	}
	return LOWER_END;
}

int lower_umem_add(struct lower *L, int ptr_cell, int inc_cell, int ret,
		   enum slo_role role, struct ast_loc loc,
		   struct lower_branch br)
{
	/* A name the caller chose for the pointer (widen's), else ours. */
	char *name = L->names[1], disp[64];
	int args[2], narrow = -1, a;
	enum ir_cell_kind kind;
	const char *d;

	L->names[1] = NULL;
	if (L->oom || ptr_cell < 0 || inc_cell < 0)
		goto fail;
	if (L->p->cells[ptr_cell].kind == IR_CELL_NARROW) {
		/* Reading one (inc 0) reads its widened copy; adding to
		 * one is refused before we get here. */
		if (L->p->cells[inc_cell].kind != IR_CELL_CONST ||
		    L->p->cells[inc_cell].value != 0) {
			lower_error(L, loc, "umem_add adds to a whole word; "
				    "'%s' is narrower",
				    L->p->cells[ptr_cell].display);
			goto fail;
		}
		narrow = ptr_cell;
		ptr_cell = widen_slot(L, 0, loc);
		if (ptr_cell < 0)
			goto fail;
	}
	kind = L->p->cells[ptr_cell].kind;
	d = L->p->cells[ptr_cell].display;
	snprintf(disp, sizeof(disp), "&%s", d ? d : "?");
	/* &fds[0], as the source named the word (its widened copy too). */
	if (!name && (narrow >= 0 || kind == IR_CELL_MEM))
		name = lower_fmt(L, "&%s", L->p->cells[narrow >= 0 ? narrow :
						       ptr_cell].display);
	/* A word inside an object: its address is the object's plus the
	 * offset, an ordinary address cell. */
	if (kind == IR_CELL_MEM)
		args[0] = lower_addr_cell(L, L->p->cells[ptr_cell].target_obj,
					  IR_NONE,
					  L->p->cells[ptr_cell].target_off,
					  disp);
	else
		args[0] = lower_addr_cell(L, IR_NONE, ptr_cell, 0, disp);
	args[1] = inc_cell;
	if (L->oom)
		goto fail;
	L->names[1] = name;
	a = lower_atom(L, systab_syslet_nr(L->profile, SYSLET_CALL_UMEM_ADD),
		       "umem_add", ret, args, 2, role, loc, br);
	if (narrow >= 0)
		a = widen(L, narrow, 0, loc, a);
	return a;
fail:
	free(name);
	return LOWER_END;
}

int lower_scratch(struct lower *L)
{
	if (L->scratch < 0) {
		char *name = lower_fmt(L, "%s.tmp", L->syslet->name);

		L->scratch = lower_cell(L, IR_CELL_SCRATCH, NULL,
					name ? name : "tmp", 0,
					L->syslet->loc);
		free(name);
	}
	return L->scratch;
}

int lower_ph_new(struct lower *L)
{
	if (!grow(L, (void **)&L->ph, L->nr_ph, &L->cap_ph, sizeof(int)))
		return LOWER_END;
	L->ph[L->nr_ph] = LOWER_PH_UNBOUND;
	return -2 - (int)L->nr_ph++;
}

/*
 * Where t leads: an atom, the end, or the unbound placeholder its chain
 * stops at.  Every placeholder on the way is pointed straight there, so
 * chains such as `goto l1; l1: goto l2; l2: ...` cost O(1) amortised
 * per lookup instead of their length.  (A placeholder is bound once and
 * bind refuses cycles, so the walk ends.)
 */
static int ph_root(struct lower *L, int t)
{
	int r = t;

	while (r <= -2 && L->ph[-2 - r] != LOWER_PH_UNBOUND)
		r = L->ph[-2 - r];
	while (t <= -2 && t != r) {
		int next = L->ph[-2 - t];

		L->ph[-2 - t] = r;
		t = next;
	}
	return r;
}

/* Follow placeholders to an atom or the end; an unbound one (a label
 * never defined, already reported) ends the syslet. */
int lower_resolve(struct lower *L, int t)
{
	t = ph_root(L, t);
	return t <= -2 ? LOWER_END : t;
}

void lower_drop(struct lower *L, int target)
{
	if (target == LOWER_END)
		return;
	if (!grow(L, (void **)&L->dropped, L->nr_dropped, &L->cap_dropped,
		  sizeof(int)))
		return;
	L->dropped[L->nr_dropped++] = target;
}

/* Bind ph to target.  A placeholder that would resolve to itself is a
 * loop without any atom in it (`loop {}`, `L: goto L;`): the kernel
 * would have nothing to run, so it is an error. */
int lower_ph_bind(struct lower *L, int ph, int target, struct ast_loc loc,
		  const char *what)
{
	if (ph > -2)
		return 0;
	if (ph_root(L, target) == ph) {
		lower_error(L, loc, "%s has no atom to run: every turn of a "
			    "syslet loop must make a system call", what);
		target = LOWER_END;
	}
	L->ph[-2 - ph] = target;
	return 0;
}

/*
 * Every atom no entry reaches must have been left behind on purpose
 * (lower_drop): otherwise reachable code would vanish without a word.
 * Once an error was reported no image is made, and the paths that
 * reported it may return any target.
 */
static int check_dropped(struct lower *L)
{
	struct ir_program *p = L->p;
	unsigned char *seen = calloc(p->nr_atoms + 1, 1);
	int *from = malloc(sizeof(int) *
			   (p->nr_entries + L->nr_dropped + 1));
	size_t n = 0;
	int rc = -1;

	if (!seen || !from)
		goto out;
	for (size_t i = 0; i < p->nr_entries; i++)
		from[n++] = p->entries[i].first_atom;
	for (size_t i = 0; i < L->nr_dropped; i++)
		from[n++] = lower_resolve(L, L->dropped[i]);
	if (ir_reach(p, from, n, seen, NULL) == (size_t)-1)
		goto out;
	rc = 0;
	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];

		if (seen[i])
			continue;
		lower_error(L, (struct ast_loc){ .first_line = a->loc.line,
						 .first_column = a->loc.col,
						 .last_line = a->loc.line,
						 .last_column = a->loc.col },
			    "internal error: the atoms of this statement were "
			    "lost without a diagnostic (please report this "
			    "bug); no image is made");
		rc = -1;
		break;
	}
out:
	if (rc && !L->d->errors)
		lower_oom(L);
	free(seen);
	free(from);
	return rc;
}

/* Placeholders to the atoms or the end they stand for: branches,
 * entries and labels (label resolution). */
static int resolve_targets(struct lower *L)
{
	struct ir_program *p = L->p;

	for (size_t i = 0; i < p->nr_atoms; i++) {
		struct ir_atom *a = &p->atoms[i];

		a->next = lower_resolve(L, a->next);
		if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
			a->skip = lower_resolve(L, a->skip);
	}
	for (size_t i = 0; i < p->nr_entries; i++)
		p->entries[i].first_atom =
			lower_resolve(L, p->entries[i].first_atom);
	for (size_t i = 0; i < p->nr_labels; i++)
		p->labels[i].atom = lower_resolve(L, p->labels[i].atom);
	return 0;
}

/* A pass of ir-pass.c, its failure (no memory) reported. */
static int ir_pass(struct lower *L, int (*pass)(struct ir_program *))
{
	if (!pass(L->p))
		return 0;
	lower_oom(L);
	return -1;
}

/*
 * After lowering, the passes from its program (targets as placeholders)
 * to the front end's result, chained as ply does: the first to fail
 * ends the chain.  A program with errors goes no further: no image is
 * made of it.
 */
int lower_finish(struct lower *L)
{
	int err = L->d->errors != L->errors_at_start ? -1 : 0;

	err = err ?: resolve_targets(L);
	err = err ?: ir_pass(L, ir_tidy_branches);
	err = err ?: check_dropped(L);
	err = err ?: ir_pass(L, ir_fuse);
	err = err ?: ir_pass(L, ir_drop_unreachable);
	err = err ?: ir_pass(L, ir_tidy_cells);
	return err;
}
