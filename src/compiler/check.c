/* check.c: sysletc_check(): the checks of a syslet's statements that need only the syntax tree, a pass of its own before lowering. */

/*
 * What a statement may say regardless of what its names mean: break and
 * continue inside a loop, modifiers that do not contradict, every goto's
 * label defined once (and every label used), parameter types, statements
 * after a jump, no syslet inside another.  Lowering (lower.c) needs the
 * same structure to place atoms and trusts this pass for the messages.
 *
 * The walk visits statements in lowering's order (a block back to front,
 * an if's body before its else, a loop's body) so that what depends on
 * the order — which goto a missing label is reported at, which of two
 * definitions is "first" — is what it always was; the records are
 * sorted by position afterwards (sysletc_front()).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hidx.h"
#include "compiler/compiler.h"
#include "grammar/ast.h"
#include "syslet.h"

struct check_label {
	const char	*name;
	bool		defined;
	unsigned int	used;
	struct ast_loc	loc;
};

struct check {
	struct diag			*d;
	const struct sysletc_options	*opt;
	struct check_label		*labels;
	size_t				nr_labels, cap_labels;
	struct common_hidx		label_index;
	bool				in_loop;
	unsigned int			mods;
	bool				oom;
};

static void report(struct check *C, enum diag_level lvl, struct ast_loc loc,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void report(struct check *C, enum diag_level lvl, struct ast_loc loc,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (lvl == DIAG_NOTE)
		diag_vnote(C->d, ast_diag_loc(loc), fmt, ap);
	else
		diag_vreport(C->d, lvl, ast_diag_loc(loc), fmt, ap);
	va_end(ap);
}

static bool warning_on(const struct check *C, unsigned int wbit)
{
	unsigned int on = SYSLETC_W_DEFAULT;

	if (C->opt)
		on = (on | C->opt->warnings) & ~C->opt->no_warnings;
	return on & wbit;
}

static struct check_label *label(struct check *C, const char *name,
				 struct ast_loc loc)
{
	uint32_t h = common_hash_str(name);
	struct common_hidx_iter it;
	struct check_label *l;

	for (long i = common_hidx_first(&C->label_index, h, &it); i >= 0;
	     i = common_hidx_next(&C->label_index, &it))
		if (!strcmp(C->labels[i].name, name))
			return &C->labels[i];
	if (C->nr_labels == C->cap_labels) {
		size_t nc = C->cap_labels ? C->cap_labels * 2 : 8;
		struct check_label *nv = realloc(C->labels, nc * sizeof(*nv));

		if (!nv) {
			C->oom = true;
			return NULL;
		}
		C->labels = nv;
		C->cap_labels = nc;
	}
	if (common_hidx_add(&C->label_index, h, C->nr_labels)) {
		C->oom = true;
		return NULL;
	}
	l = &C->labels[C->nr_labels++];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->loc = loc;
	return l;
}

/* Does a `break` in s leave the loop s belongs to (not an inner one)? */
static bool breaks_out(const struct ast_stmt *s)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case AST_S_BREAK:
			return true;
		case AST_S_WHILE:
		case AST_S_DO:
		case AST_S_FOR:
		case AST_S_LOOP:
			break;		/* its breaks are its own */
		default:
			if (breaks_out(s->body) || breaks_out(s->els))
				return true;
			break;
		}
	}
	return false;
}

/* Can control reach the end of s?  Only the plain cases: jumps, blocks
 * ending in one, if/else with both sides ending, loops without a way
 * out.  (`while (1)` is left alone: its condition may be any test.) */
static bool falls_through(const struct ast_stmt *s)
{
	switch (s->kind) {
	case AST_S_STOP:
	case AST_S_GOTO:
	case AST_S_BREAK:
	case AST_S_CONTINUE:
		return false;
	case AST_S_BLOCK:
		return !s->body || falls_through(s->body->last);
	case AST_S_IF:
		return !s->els || !s->body || falls_through(s->body) ||
		       falls_through(s->els);
	case AST_S_LOOP:
		return breaks_out(s->body);
	case AST_S_MOD:
	case AST_S_LABEL:
		return !s->body || falls_through(s->body);
	default:
		return true;
	}
}

static void check_stmt(struct check *C, const struct ast_stmt *s);

static void check_seq(struct check *C, const struct ast_stmt *list)
{
	const struct ast_stmt **v = NULL;
	size_t n = 0, cap = 0;

	for (const struct ast_stmt *s = list; s; s = s->next) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			const struct ast_stmt **nv =
				realloc(v, nc * sizeof(*nv));

			if (!nv) {
				free(v);
				C->oom = true;
				return;
			}
			v = nv;
			cap = nc;
		}
		v[n++] = s;
	}
	for (size_t i = 0; i + 1 < n; i++) {
		const struct ast_stmt *nx = v[i + 1];

		if (!falls_through(v[i]) && nx->kind != AST_S_LABEL &&
		    nx->kind != AST_S_EMPTY && nx->kind != AST_S_DECL &&
		    warning_on(C, SYSLETC_W_UNREACHABLE))
			report(C, DIAG_WARNING, nx->loc,
			       "statement is unreachable");
	}
	for (size_t i = n; i-- > 0 && !C->oom;)
		check_stmt(C, v[i]);
	free(v);
}

static void check_stmt(struct check *C, const struct ast_stmt *s)
{
	unsigned int mods = C->mods;
	struct check_label *l;
	bool in_loop;

	if (!s || C->oom)
		return;
	switch (s->kind) {
	case AST_S_BLOCK:
		check_seq(C, s->body);
		break;
	case AST_S_IF:
		check_stmt(C, s->body);
		check_stmt(C, s->els);
		break;
	case AST_S_WHILE:
	case AST_S_DO:
	case AST_S_FOR:
	case AST_S_LOOP:
		in_loop = C->in_loop;
		C->in_loop = true;
		check_stmt(C, s->body);
		C->in_loop = in_loop;
		break;
	case AST_S_BREAK:
	case AST_S_CONTINUE:
		if (!C->in_loop)
			report(C, DIAG_ERROR, s->loc, "'%s' outside a loop",
			       s->kind == AST_S_BREAK ? "break" : "continue");
		break;
	case AST_S_GOTO:
		l = label(C, s->name, s->loc);
		if (l) {
			l->used++;
			if (!l->defined)
				l->loc = s->loc;
		}
		break;
	case AST_S_LABEL:
		l = label(C, s->name, s->head);
		if (l && l->defined) {
			/* Lowering leaves this one's body out: so do we. */
			report(C, DIAG_ERROR, s->head,
			       "label '%s' is defined twice", s->name);
			report(C, DIAG_NOTE, l->loc, "first defined here");
			break;
		}
		if (l) {
			/* The body's gotos may grow the table. */
			size_t at = (size_t)(l - C->labels);

			check_stmt(C, s->body);
			l = &C->labels[at];
			l->defined = true;
			l->loc = s->head;
		} else {
			check_stmt(C, s->body);
		}
		break;
	case AST_S_MOD:
		if (((s->mods | C->mods) & (SYSLET_ASYNC | SYSLET_SYNC)) ==
		    (SYSLET_ASYNC | SYSLET_SYNC)) {
			report(C, DIAG_ERROR, s->loc, "'async' and 'sync' "
			       "contradict each other");
			break;
		}
		C->mods |= s->mods;
		check_stmt(C, s->body);
		break;
	case AST_S_DECL:
		/* The grammar makes none; a tree built otherwise might. */
		for (const struct ast_decl *d = s->decl; d; d = d->next)
			if (d->kind == AST_D_SYSLET)
				report(C, DIAG_ERROR, d->name_loc,
				       "syslets cannot be nested");
		break;
	default:	/* EMPTY, EXPR, STOP */
		break;
	}
	C->mods = mods;
}

static void check_params(struct check *C, const struct ast_decl *d)
{
	for (const struct ast_decl *pd = d->params; pd; pd = pd->next) {
		const struct ast_decl *q;

		/* A repeated name is sysletc_resolve()'s error; its
		 * type is not looked at. */
		for (q = d->params; q != pd && strcmp(q->name, pd->name);
		     q = q->next)
			;
		if (q != pd)
			continue;
		if (pd->ptype == AST_PARAM_NAMED &&
		    strcmp(pd->type, "sockaddr_in"))
			report(C, DIAG_ERROR, pd->type_loc, "'%s' is not a "
			       "parameter type (str, int or sockaddr_in)",
			       pd->type);
	}
}

static void check_syslet(struct check *C, const struct ast_decl *d)
{
	C->nr_labels = 0;
	common_hidx_free(&C->label_index);
	C->in_loop = false;
	C->mods = 0;
	check_params(C, d);
	check_stmt(C, d->body);
	for (size_t i = 0; i < C->nr_labels && !C->oom; i++) {
		const struct check_label *l = &C->labels[i];

		if (!l->defined)
			report(C, DIAG_ERROR, l->loc, "label '%s' is used but "
			       "not defined", l->name);
		else if (!l->used && warning_on(C, SYSLETC_W_UNUSED))
			report(C, DIAG_WARNING, l->loc,
			       "label '%s' is never used", l->name);
	}
}

int sysletc_check(const struct ast_file *f, const struct sysletc_options *opt,
		  struct diag *d)
{
	struct check C = { .d = d, .opt = opt };
	unsigned int errors = d->errors;

	for (const struct ast_decl *sd = f->decls; sd && !C.oom; sd = sd->next)
		if (sd->kind == AST_D_SYSLET)
			check_syslet(&C, sd);
	free(C.labels);
	common_hidx_free(&C.label_index);
	if (C.oom)
		diag_report(d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 },
			    "out of memory");
	return C.oom || d->errors != errors ? -1 : 0;
}
