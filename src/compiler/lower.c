/* lower.c: sysletc_front(): parse, then lower the syntax tree to the atom IR; statements and control flow. */

/*
 * The language, and the atoms each construct becomes, are told once, in
 * syslet(5) (man/syslet.5): DECLARATIONS, ARGUMENTS, ELEMENTS and
 * STATEMENTS (Arithmetic, Conditions, Control flow, Atom modifiers).
 * Its words are grammar/words.c and builtins.c.  Here: declarations,
 * statements and control flow; lower-cond.c assignments and conditions,
 * lower-expr.c names, constants and operands, lower-call.c calls,
 * lower-data.c buffers and data, lower-ir.c growing the IR.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/lower.h"
#include "syslet.h"

/*
 * Statements are lowered back to front: the records are queued as they
 * come, and sysletc_front() sorts the lowering's by position (a note
 * stays under the record it belongs to).
 */
static void report(struct lower *L, enum diag_level lvl, struct ast_loc loc,
		   const char *fmt, va_list ap)
{
	if (lvl == DIAG_NOTE)
		diag_vnote(L->d, ast_diag_loc(loc), fmt, ap);
	else
		diag_vreport(L->d, lvl, ast_diag_loc(loc), fmt, ap);
}

void lower_error(struct lower *L, struct ast_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(L, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

void lower_warn(struct lower *L, unsigned int wbit, struct ast_loc loc,
		const char *fmt, ...)
{
	unsigned int on = SYSLETC_W_DEFAULT;
	va_list ap;

	if (L->opt)
		on = (on | L->opt->warnings) & ~L->opt->no_warnings;
	if (!(on & wbit))
		return;
	va_start(ap, fmt);
	report(L, DIAG_WARNING, loc, fmt, ap);
	va_end(ap);
}

void lower_note(struct lower *L, struct ast_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(L, DIAG_NOTE, loc, fmt, ap);
	va_end(ap);
}

struct lower_branch lower_plain(int next)
{
	return (struct lower_branch){ 0, next, IR_NONE };
}

/* ---- symbols ---------------------------------------------------------- */

static struct lower_sym *add_sym(struct lower *L, struct lower_symtab *t,
				 struct ast_decl *d, enum lower_sym_kind kind)
{
	uint32_t h = common_hash_str(d->name);
	struct common_hidx_iter it;
	struct lower_sym *s;

	/* A name declared twice, or a predefined one: told by
	 * sysletc_resolve(), and left out here as it does. */
	for (long i = common_hidx_first(&t->index, h, &it); i >= 0;
	     i = common_hidx_next(&t->index, &it))
		if (!strcmp(t->v[i].name, d->name))
			return NULL;
	if (t == &L->globals || kind != LSYM_PARAM) {
		int64_t v;

		if (sysletc_predefined(d->name, &v))
			return NULL;
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 32;
		struct lower_sym *nv = realloc(t->v, nc * sizeof(*nv));

		if (!nv) {
			lower_oom(L);
			return NULL;
		}
		t->v = nv;
		t->cap = nc;
	}
	if (common_hidx_add(&t->index, h, t->n)) {
		lower_oom(L);
		return NULL;
	}
	s = &t->v[t->n++];
	memset(s, 0, sizeof(*s));
	s->name = d->name;
	s->kind = kind;
	s->decl = d;
	s->cell = -1;
	s->obj = -1;
	s->local = t == &L->locals;
	return s;
}

static enum lower_sym_kind decl_kind(const struct ast_decl *d)
{
	switch (d->kind) {
	case AST_D_CONST: return LSYM_CONST;
	case AST_D_VAR: return LSYM_VAR;
	case AST_D_BUFFER: return LSYM_BUFFER;
	case AST_D_DATA: return LSYM_DATA;
	case AST_D_PARAM: return LSYM_PARAM;
	default: return LSYM_SYSLET;
	}
}

static void make_var(struct lower *L, struct lower_sym *s, int64_t init)
{
	char *name = s->local ? lower_fmt(L, "%s.%s", L->syslet->name, s->name)
			      : lower_strdup(L, s->name);

	s->cell = lower_cell(L, IR_CELL_VAR, name, s->name, init,
			     s->decl->name_loc);
	free(name);
	if (L->oom)
		s->cell = -1;
}

/* Objects and cells in declaration order, so output is stable. */
static void define(struct lower *L, struct lower_sym *s, bool prologue)
{
	int64_t v = 0;

	switch (s->kind) {
	case LSYM_CONST:
		if (s->state == LEVAL_TODO)
			lower_eval(L, &(struct ast_expr){ .kind = AST_NAME,
				   .name = (char *)s->name,
				   .loc = s->decl->name_loc }, &v);
		s->used--;	/* that lookup was not a use */
		break;
	case LSYM_VAR:
		if (s->decl->expr && (!s->local || prologue)) {
			int r = lower_eval(L, s->decl->expr, &v);

			if (r == 0 && !s->local) {
				lower_eval_must(L, s->decl->expr, &v,
						"a file-scope initializer");
				v = 0;
			}
			if (r == 0)
				s->state = LEVAL_TODO;	/* an atom sets it */
			else
				s->state = LEVAL_DONE;
			if (r == 1 && !lower_fits_word(L, v, s->decl->expr->loc))
				v = 0;
		} else {
			s->state = s->decl->expr ? LEVAL_TODO : LEVAL_DONE;
		}
		make_var(L, s, s->state == LEVAL_DONE ? v : 0);
		break;
	case LSYM_BUFFER:
		lower_buffer(L, s);
		break;
	case LSYM_DATA:
		lower_data(L, s);
		break;
	default:
		break;
	}
}

static void warn_unused(struct lower *L, struct lower_symtab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct lower_sym *s = &t->v[i];
		const char *what = s->kind == LSYM_VAR ? "variable" :
				   s->kind == LSYM_BUFFER ? "buffer" :
				   s->kind == LSYM_DATA ? "data" : NULL;

		if (what && !s->used)
			lower_warn(L, SYSLETC_W_UNUSED, s->decl->name_loc,
				   "%s '%s' is never used", what, s->name);
	}
}

/* ---- statements ------------------------------------------------------- */

static int lower_stmt(struct lower *L, struct ast_stmt *s, int succ);

/* Local declarations are visible in the whole syslet: collect them all
 * first, since statements are lowered back to front. */
static void collect_locals(struct lower *L, struct ast_stmt *s, bool *prologue)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case AST_S_DECL:
			for (struct ast_decl *d = s->decl; d; d = d->next) {
				struct lower_sym *sym =
					add_sym(L, &L->locals, d, decl_kind(d));

				if (sym)
					define(L, sym, prologue && *prologue);
			}
			break;
		case AST_S_EMPTY:
			break;
		default:
			if (prologue)
				*prologue = false;
			collect_locals(L, s->body, NULL);
			collect_locals(L, s->els, NULL);
			break;
		}
	}
}

static struct lower_label *label(struct lower *L, const char *name,
				 struct ast_loc loc)
{
	uint32_t h = common_hash_str(name);
	struct common_hidx_iter it;
	struct lower_label *l;

	for (long i = common_hidx_first(&L->label_index, h, &it); i >= 0;
	     i = common_hidx_next(&L->label_index, &it))
		if (!strcmp(L->labels[i].name, name))
			return &L->labels[i];
	if (L->nr_labels == L->cap_labels_l) {
		size_t nc = L->cap_labels_l ? L->cap_labels_l * 2 : 8;
		struct lower_label *nv = realloc(L->labels, nc * sizeof(*nv));

		if (!nv) {
			lower_oom(L);
			return NULL;
		}
		L->labels = nv;
		L->cap_labels_l = nc;
	}
	if (common_hidx_add(&L->label_index, h, L->nr_labels)) {
		lower_oom(L);
		return NULL;
	}
	l = &L->labels[L->nr_labels++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->ph = lower_ph_new(L);
	l->loc = loc;
	return l;
}

/* The assignment a statement is, for fusing into a following `if`. */
static bool fusable(struct lower *L, struct ast_stmt *s, struct lower_fuse *fz)
{
	const struct ast_expr *e;
	unsigned int mods = 0;

	while (s->kind == AST_S_MOD) {
		mods |= s->mods;
		s = s->body;
		if (!s || s->next)
			return false;
	}
	/* Contradicting modifiers are reported by lower_stmt(). */
	if ((mods & (SYSLET_ASYNC | SYSLET_SYNC)) ==
	    (SYSLET_ASYNC | SYSLET_SYNC))
		return false;
	memset(fz, 0, sizeof(*fz));
	fz->text = s->loc;
	fz->mods = mods;
	if (s->kind == AST_S_DECL) {
		struct lower_sym *sym;

		if (s->decl->kind != AST_D_VAR || s->decl->next ||
		    !s->decl->expr)
			return false;
		sym = lower_lookup(L, s->decl->name, s->decl->loc);
		if (!sym || sym->decl != s->decl || sym->state != LEVAL_TODO ||
		    sym->cell < 0)
			return false;
		sym->used--;
		fz->cell = sym->cell;
		fz->op = '=';
		fz->rhs = s->decl->expr;
		fz->loc = s->decl->loc;
		return true;
	}
	if (s->kind != AST_S_EXPR)
		return false;
	e = s->expr;
	if (e->kind != AST_ASSIGN && !(e->kind == AST_INCDEC))
		return false;
	fz->cell = lower_var_cell(L, e->l);
	if (fz->cell < 0)
		return false;
	fz->op = e->op;
	fz->lhs = e->l;
	fz->rhs = e->r;
	fz->loc = e->loc;
	return true;
}

static int lower_if(struct lower *L, struct ast_stmt *s, int succ,
		    struct lower_fuse *fz)
{
	struct ast_loc text = L->text;
	int t, f, first;

	t = lower_stmt(L, s->body, succ);
	f = s->els ? lower_stmt(L, s->els, succ) : succ;
	L->text = s->head;
	first = lower_cond(L, s->expr, t, f, fz);
	L->text = text;
	return first;
}

/*
 * The assignment whose value the if's test reads, lowered as its
 * statement would be (its text and modifiers on its atoms) to go on at
 * first, the if; its atom that goes on to the test is offered the test,
 * for ir_fuse().
 */
static int lower_fused(struct lower *L, struct lower_fuse *fz, int first)
{
	struct ast_loc text = L->text;
	unsigned int mods = L->mods;
	size_t from = L->p->nr_atoms, n = 0;
	int r, into = IR_NONE;

	L->text = fz->text;
	L->mods |= fz->mods;
	r = lower_assign(L, fz->cell, fz->op, fz->lhs, fz->rhs, fz->loc,
			 lower_plain(first));
	L->text = text;
	L->mods = mods;
	if (fz->test < 0)
		return r;
	for (size_t a = from; a < L->p->nr_atoms; a++)
		if (L->p->atoms[a].next == fz->test) {
			into = (int)a;
			n++;
		}
	if (n == 1 && ir_add_fuse(L->p, fz->test, into) < 0)
		lower_oom(L);
	return r;
}

static int lower_seq(struct lower *L, struct ast_stmt *list, int succ)
{
	struct ast_stmt **v = NULL;
	size_t n = 0, cap = 0;
	int t = succ;

	for (struct ast_stmt *s = list; s; s = s->next) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct ast_stmt **nv = realloc(v, nc * sizeof(*nv));

			if (!nv) {
				free(v);
				lower_oom(L);
				return succ;
			}
			v = nv;
			cap = nc;
		}
		v[n++] = s;
	}
	for (size_t i = n; i-- > 0;) {
		struct lower_fuse fz;

		if (L->oom)
			break;
		if (v[i]->kind == AST_S_IF && i > 0 &&
		    fusable(L, v[i - 1], &fz)) {
			struct ast_loc text = L->text;

			/* The assignment's atom may carry the if's test. */
			L->text = v[i]->loc;
			t = lower_if(L, v[i], t, &fz);
			L->text = text;
			i--;
			if (!fz.used)
				t = lower_stmt(L, v[i], t);
			else
				t = lower_fused(L, &fz, t);
			continue;
		}
		t = lower_stmt(L, v[i], t);
	}
	free(v);
	return t;
}

/* A loop body with its break and continue targets. */
static int loop_body(struct lower *L, struct ast_stmt *body, int succ,
		     int brk, int cont)
{
	int ob = L->brk, oc = L->cont, r;
	bool ol = L->in_loop;

	L->brk = brk;
	L->cont = cont;
	L->in_loop = true;
	r = lower_stmt(L, body, succ);
	L->brk = ob;
	L->cont = oc;
	L->in_loop = ol;
	return r;
}

static int lower_loop(struct lower *L, struct ast_stmt *s, int succ)
{
	int head = lower_ph_new(L), step = head, body, cond;

	switch (s->kind) {
	case AST_S_WHILE:
		body = loop_body(L, s->body, head, succ, head);
		L->text = s->head;
		cond = lower_cond(L, s->expr, body, succ, NULL);
		lower_ph_bind(L, head, cond, s->head, "this while loop");
		return cond;
	case AST_S_DO: {
		int again = lower_ph_new(L);

		L->text = s->head;
		cond = lower_cond(L, s->expr, head, succ, NULL);
		lower_ph_bind(L, again, cond, s->head, "this do loop");
		body = loop_body(L, s->body, again, succ, again);
		lower_ph_bind(L, head, body, s->head, "this do loop");
		return body;
	}
	case AST_S_FOR:
		if (s->step) {
			L->text = s->step->loc;
			step = lower_expr_stmt(L, s->step, head);
		}
		body = loop_body(L, s->body, step, succ, step);
		L->text = s->head;
		cond = lower_cond(L, s->expr, body, succ, NULL);
		lower_ph_bind(L, head, cond, s->head, "this for loop");
		if (s->init) {
			L->text = s->init->loc;
			cond = lower_expr_stmt(L, s->init, cond);
		}
		return cond;
	default:	/* loop */
		/* Only a break leads on; without one, what follows is left. */
		lower_drop(L, succ);
		body = loop_body(L, s->body, head, succ, head);
		lower_ph_bind(L, head, body, s->head, "this loop");
		return body;
	}
}

/* `var a = f(), b = 2;` inside a body: initialisers that are not the
 * cell's initial value are assignments, lowered back to front. */
static int lower_decl_stmt(struct lower *L, struct ast_decl *d, int succ)
{
	struct lower_sym *sym;
	int t;

	if (!d)
		return succ;
	t = lower_decl_stmt(L, d->next, succ);
	/* A nested syslet (which the grammar does not make) is
	 * sysletc_check()'s error. */
	if (d->kind != AST_D_VAR || !d->expr)
		return t;
	sym = lower_lookup(L, d->name, d->loc);
	if (!sym || sym->decl != d || sym->state != LEVAL_TODO || sym->cell < 0)
		return t;
	sym->used--;
	return lower_assign(L, sym->cell, '=', NULL, d->expr, d->loc,
			    lower_plain(t));
}

static int lower_stmt(struct lower *L, struct ast_stmt *s, int succ)
{
	struct ast_loc text = L->text;
	unsigned int mods = L->mods;
	struct lower_label *l;
	int r = succ;

	if (!s || L->oom)
		return succ;
	L->text = s->loc;
	switch (s->kind) {
	case AST_S_EMPTY:
		break;
	case AST_S_EXPR:
		r = lower_expr_stmt(L, s->expr, succ);
		break;
	case AST_S_BLOCK:
		r = lower_seq(L, s->body, succ);
		break;
	case AST_S_IF:
		r = lower_if(L, s, succ, NULL);
		break;
	case AST_S_WHILE:
	case AST_S_DO:
	case AST_S_FOR:
	case AST_S_LOOP:
		r = lower_loop(L, s, succ);
		break;
	case AST_S_BREAK:
	case AST_S_CONTINUE:
		if (!L->in_loop)	/* told by sysletc_check() */
			break;
		r = s->kind == AST_S_BREAK ? L->brk : L->cont;
		lower_drop(L, succ);
		break;
	case AST_S_STOP:
		r = LOWER_END;
		lower_drop(L, succ);
		break;
	case AST_S_GOTO:
		l = label(L, s->name, s->loc);
		if (l) {
			if (!l->defined)
				l->loc = s->loc;
			r = l->ph;
			lower_drop(L, succ);
		}
		break;
	case AST_S_LABEL:
		l = label(L, s->name, s->head);
		if (l && l->defined)	/* twice: told by sysletc_check() */
			break;
		if (l) {
			/* The body's gotos may grow the label table: keep
			 * the index, not the pointer. */
			size_t at = (size_t)(l - L->labels);

			r = lower_stmt(L, s->body, succ);
			l = &L->labels[at];
			l->defined = true;
			l->loc = s->head;
			lower_ph_bind(L, l->ph, r, s->head, "this goto loop");
		} else {
			r = lower_stmt(L, s->body, succ);
		}
		break;
	case AST_S_MOD:
		if (((s->mods | L->mods) & (SYSLET_ASYNC | SYSLET_SYNC)) ==
		    (SYSLET_ASYNC | SYSLET_SYNC))
			break;	/* told by sysletc_check() */
		L->mods |= s->mods;
		r = lower_stmt(L, s->body, succ);
		break;
	case AST_S_DECL:
		r = lower_decl_stmt(L, s->decl, succ);
		break;
	}
	L->text = text;
	L->mods = mods;
	return r;
}

/* ---- syslets and the program ----------------------------------------- */

static void lower_syslet(struct lower *L, struct ast_decl *d)
{
	struct ir_program *p = L->p;
	bool prologue = true;
	unsigned int idx = 0;
	int first;

	L->syslet = d;
	L->entry = (int)p->nr_entries;
	L->scratch = -1;
	L->widen = -1;
	L->locals.n = 0;
	common_hidx_free(&L->locals.index);
	L->nr_labels = 0;
	common_hidx_free(&L->label_index);
	L->in_loop = false;
	L->mods = 0;
	L->text = d->loc;

	if (ir_add_entry(p, d->name, LOWER_END) < 0) {
		lower_oom(L);
		return;
	}
	p->entries[p->nr_entries - 1].loc =
		(struct ir_loc){ d->name_loc.first_line,
				 d->name_loc.first_column };

	for (struct ast_decl *pd = d->params; pd; pd = pd->next, idx++) {
		struct lower_sym *s = add_sym(L, &L->locals, pd, LSYM_PARAM);
		char *name;
		struct ir_cell *c;

		if (!s)
			continue;
		s->used = 1;	/* bound by the runner: never "unused" */
		name = lower_fmt(L, "%s.%s", d->name, pd->name);
		s->cell = lower_cell(L, IR_CELL_PARAM, name, pd->name, 0,
				     pd->name_loc);
		free(name);
		if (L->oom)
			return;
		c = &p->cells[s->cell];
		c->entry = L->entry;
		c->param_index = (int)idx;
		c->param_type = pd->ptype == AST_PARAM_STR ? SLO_PARAM_STR :
							     SLO_PARAM_INT;
		/* The runner binds "HOST:PORT" as a pointer to the struct:
		 * the cell is an address, as for str.  Other named types
		 * are sysletc_check()'s errors. */
		if (pd->ptype == AST_PARAM_NAMED &&
		    !strcmp(pd->type, "sockaddr_in")) {
			c->param_type = SLO_PARAM_SOCKADDR_IN;
			s->elem_name = "sockaddr_in";
		}
	}
	/* More than SLO_MAX_PARAMS: told by sysletc_resolve(). */

	collect_locals(L, d->body ? d->body->body : NULL, &prologue);
	first = lower_stmt(L, d->body, LOWER_END);
	if (lower_resolve(L, first) == LOWER_END && !L->oom) {
		/* Nothing to run, yet the entry needs an atom. */
		L->text = d->loc;
		first = lower_umem_add(L, lower_scratch(L),
				       lower_const_cell(L, 0), IR_NONE,
				       SLO_ROLE_STOP, d->name_loc,
				       lower_plain(LOWER_END));
	}
	p->entries[L->entry].first_atom = first;

	for (size_t i = 0; i < L->nr_labels; i++) {
		struct lower_label *l = &L->labels[i];
		char *name;

		if (!l->defined)	/* told by sysletc_check() */
			continue;
		name = lower_fmt(L, "%s.%s", d->name, l->name);
		if (name && ir_add_label(p, name, l->ph) < 0)
			lower_oom(L);
		free(name);
	}
	warn_unused(L, &L->locals);
}

/* AST -> IR: the checks that need the names' meaning, and atoms whose targets
 * are still placeholders (lower_finish() resolves them). */
static int lower_file(struct lower *L, struct ast_file *f)
{
	size_t nsys = 0;

	for (struct ast_decl *d = f->decls; d; d = d->next)
		add_sym(L, &L->globals, d, decl_kind(d));
	for (size_t i = 0; i < L->globals.n && !L->oom; i++)
		define(L, &L->globals.v[i], false);
	for (struct ast_decl *d = f->decls; d && !L->oom; d = d->next)
		if (d->kind == AST_D_SYSLET) {
			lower_syslet(L, d);
			nsys++;
		}
	if (!nsys && !L->d->errors)
		lower_error(L, (struct ast_loc){ 0 }, "no syslet in this file: "
			    "nothing to run (write `syslet main() { ... }`)");
	warn_unused(L, &L->globals);
	return L->oom || L->d->errors != L->errors_at_start ? -1 : 0;
}

struct ir_program *sysletc_front(const char *src, size_t len,
				 const struct sysletc_options *opt,
				 struct diag *d)
{
	struct lower L = { 0 };
	struct ast_file *f = NULL;
	unsigned int before = d->errors;
	size_t mark;
	int err;

	L.d = d;
	L.opt = opt;
	L.profile = opt ? opt->profile : (int)systab_native_profile();
	if (L.profile < 0 || L.profile >= SYSTAB_NR_PROFILES) {
		diag_report(d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 },
			    "unknown target profile %d", L.profile);
		return NULL;
	}
	L.word = systab_word_size(L.profile);
	L.suggest_budget = LOWER_SUGGEST_BUDGET;
	L.src = src;
	L.len = len;
	L.p = ir_program_new(L.profile, d->file);
	if (!L.p) {
		lower_oom(&L);
		return NULL;
	}
	L.errors_at_start = d->errors;

	/* The passes, chained: the first to fail ends the chain. */
	err = ast_parse(src, len, d, &f) || !f ? -1 : 0;
	mark = d->nr_recs;
	/* The errors of the check and resolve passes do not end the chain:
	 * lowering still runs and adds what else is wrong, one run telling
	 * all of a file's errors; it fails for theirs as for its own. */
	if (!err) {
		sysletc_check(f, opt, d);
		sysletc_resolve(f, opt, d);
	}
	err = err ?: lower_file(&L, f);
	err = err ?: lower_finish(&L);
	diag_sort(d, mark);
	ast_file_free(f);
	free(L.globals.v);
	free(L.locals.v);
	common_hidx_free(&L.globals.index);
	common_hidx_free(&L.locals.index);
	free(L.labels);
	common_hidx_free(&L.label_index);
	common_hidx_free(&L.const_index);
	common_hidx_free(&L.addr_index);
	common_hidx_free(&L.str_index);
	free(L.ph);
	free(L.dropped);
	for (int k = 0; k < 7; k++)
		free(L.names[k]);
	if (d->errors != before || L.oom) {
		ir_program_free(L.p);
		return NULL;
	}
	return L.p;
}
