/* resolve.c: sysletc_resolve(): the names a file declares, judged before lowering: redefinitions, predefined names, parameter counts, element types. */

/*
 * What the declarations say on their own, before any expression is
 * looked at: each name declared once in its scope (file scope, or a
 * syslet's parameters and locals together), none of them a predefined
 * constant (a parameter may be: it is bound by the runner), at most
 * SLO_MAX_PARAMS parameters, and the element type of an array or data
 * object one an atom can read.  Lowering builds its own symbol table
 * from the same declarations, leaves out the ones refused here without
 * a word, and trusts this pass for the messages.
 *
 * The tables are filled in lowering's order (file scope in order, then
 * per syslet its parameters, then its locals as they come, nested
 * blocks included) so that which of two declarations is "previous" is
 * what it always was; the records are sorted by position afterwards
 * (sysletc_front()).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/consts.h"
#include "common/hidx.h"
#include "common/systab.h"
#include "compiler/compiler.h"
#include "grammar/ast.h"

struct resolve_tab {
	const struct ast_decl	**v;
	size_t			n, cap;
	struct common_hidx	index;		/* name -> position in v */
};

struct resolve {
	struct diag		*d;
	struct resolve_tab	globals, locals;
	bool			oom;
};

bool sysletc_predefined(const char *name, int64_t *v)
{
	int e;

	if (sysconst_lookup(name, v))
		return true;
	if (name[0] == 'E' && (e = errno_lookup(name)) > 0) {
		*v = e;
		return true;
	}
	return false;
}

static void error(struct resolve *R, struct ast_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error(struct resolve *R, struct ast_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(R->d, DIAG_ERROR, ast_diag_loc(loc), fmt, ap);
	va_end(ap);
}

/* The element type of an array or data object: a data constructor that
 * is also an element type (builtins.c), never int. */
static void elem_type(struct resolve *R, const struct ast_decl *d)
{
	const struct sysletc_builtin *b = sysletc_builtin_find(d->type);
	const char *what = d->kind == AST_D_DATA ? "data" : "an array";
	char list[80];

	if (b && b->elem)
		return;
	sysletc_builtin_list(list, sizeof(list), SYSLETC_B_DATA, true);
	if (!strcmp(d->type, "int"))
		error(R, d->type_loc, "%s cannot have 'int' elements: an int "
		      "read into a word would need sign extension, which no "
		      "atom does; use u32 (pipe and socketpair write "
		      "descriptors, which are never negative)", what);
	else
		error(R, d->type_loc, "'%s' is not an element type of %s (%s)",
		      d->type, what, list);
}

/* Declare d in t; false (and why, reported) when lowering leaves it out. */
static bool declare(struct resolve *R, struct resolve_tab *t,
		    const struct ast_decl *d)
{
	uint32_t h = common_hash_str(d->name);
	struct common_hidx_iter it;
	int64_t v;

	for (long i = common_hidx_first(&t->index, h, &it); i >= 0;
	     i = common_hidx_next(&t->index, &it)) {
		if (strcmp(t->v[i]->name, d->name))
			continue;
		error(R, d->name_loc, "redefinition of '%s'", d->name);
		diag_note(R->d, ast_diag_loc(t->v[i]->name_loc),
			  "previous definition of '%s' was here", d->name);
		return false;
	}
	if ((t == &R->globals || d->kind != AST_D_PARAM) &&
	    sysletc_predefined(d->name, &v)) {
		error(R, d->name_loc, "'%s' is a predefined constant and "
		      "cannot be redefined", d->name);
		return false;
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 32;
		const struct ast_decl **nv = realloc(t->v, nc * sizeof(*nv));

		if (!nv) {
			R->oom = true;
			return false;
		}
		t->v = nv;
		t->cap = nc;
	}
	if (common_hidx_add(&t->index, h, t->n)) {
		R->oom = true;
		return false;
	}
	t->v[t->n++] = d;
	return true;
}

/* A declaration lowering keeps: its own checks. */
static void declared(struct resolve *R, const struct ast_decl *d)
{
	if ((d->kind == AST_D_BUFFER || d->kind == AST_D_DATA) && d->type)
		elem_type(R, d);
}

/* A syslet's locals are visible in its whole body: every declaration
 * statement, in blocks and branches too, in the order they come. */
static void locals(struct resolve *R, const struct ast_stmt *s)
{
	for (; s && !R->oom; s = s->next) {
		switch (s->kind) {
		case AST_S_DECL:
			for (const struct ast_decl *d = s->decl; d; d = d->next)
				if (declare(R, &R->locals, d))
					declared(R, d);
			break;
		case AST_S_EMPTY:
			break;
		default:
			locals(R, s->body);
			locals(R, s->els);
			break;
		}
	}
}

static void resolve_syslet(struct resolve *R, const struct ast_decl *d)
{
	unsigned int nr = 0;

	R->locals.n = 0;
	common_hidx_free(&R->locals.index);
	for (const struct ast_decl *pd = d->params; pd && !R->oom;
	     pd = pd->next, nr++)
		declare(R, &R->locals, pd);
	if (nr > SLO_MAX_PARAMS)
		error(R, d->name_loc, "syslet '%s' has %u parameters; %u is "
		      "the most a runner binds", d->name, nr, SLO_MAX_PARAMS);
	locals(R, d->body ? d->body->body : NULL);
}

int sysletc_resolve(const struct ast_file *f,
		    const struct sysletc_options *opt, struct diag *d)
{
	struct resolve R = { .d = d };
	unsigned int errors = d->errors;

	(void)opt;	/* no warning of its own yet */
	for (const struct ast_decl *gd = f->decls; gd && !R.oom; gd = gd->next)
		declare(&R, &R.globals, gd);
	for (size_t i = 0; i < R.globals.n; i++)
		declared(&R, R.globals.v[i]);
	for (const struct ast_decl *sd = f->decls; sd && !R.oom; sd = sd->next)
		if (sd->kind == AST_D_SYSLET)
			resolve_syslet(&R, sd);
	free(R.globals.v);
	free(R.locals.v);
	common_hidx_free(&R.globals.index);
	common_hidx_free(&R.locals.index);
	if (R.oom)
		diag_report(d, DIAG_ERROR, (struct diag_loc){ 0, 0, 0 },
			    "out of memory");
	return R.oom || d->errors != errors ? -1 : 0;
}
