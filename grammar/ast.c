/* ast.c: constructors and destructors of the syntax tree. */
#include <stdlib.h>
#include <string.h>

#include "grammar/ast.h"

struct ast_expr *ast_expr_new(enum ast_expr_kind kind, struct ast_loc loc)
{
	struct ast_expr *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->kind = kind;
	e->loc = loc;
	e->depth = 1;
	e->last = e;
	return e;
}

struct ast_expr *ast_num(int64_t v, struct ast_loc loc)
{
	struct ast_expr *e = ast_expr_new(AST_NUM, loc);

	if (e)
		e->num = v;
	return e;
}

struct ast_expr *ast_name(char *name, struct ast_loc loc)
{
	struct ast_expr *e = ast_expr_new(AST_NAME, loc);

	if (!e) {
		free(name);
		return NULL;
	}
	e->name = name;
	return e;
}

struct ast_expr *ast_unary(int op, struct ast_expr *l, struct ast_loc loc)
{
	struct ast_expr *e = ast_expr_new(AST_UNARY, loc);

	if (!e || !l) {
		free(e);
		ast_expr_free(l);
		return NULL;
	}
	e->op = op;
	e->l = l;
	e->depth = l->depth + 1;
	return e;
}

struct ast_expr *ast_binary(int op, struct ast_expr *l, struct ast_expr *r,
			    struct ast_loc loc)
{
	struct ast_expr *e = ast_expr_new(AST_BINARY, loc);

	if (!e || !l || !r) {
		free(e);
		ast_expr_free(l);
		ast_expr_free(r);
		return NULL;
	}
	e->op = op;
	e->l = l;
	e->r = r;
	e->depth = (l->depth > r->depth ? l->depth : r->depth) + 1;
	return e;
}

struct ast_expr *ast_expr_append(struct ast_expr *list, struct ast_expr *e)
{
	if (!list)
		return e;
	if (e) {
		list->last->next = e;
		list->last = e->last;
	}
	return list;
}

/* Lists are walked iteratively; only l/r/args recurse, and the parser
 * bounds their depth by AST_MAX_EXPR_DEPTH. */
void ast_expr_free(struct ast_expr *e)
{
	while (e) {
		struct ast_expr *next = e->next;

		ast_expr_free(e->l);
		ast_expr_free(e->r);
		ast_expr_free(e->args);
		free(e->name);
		free(e->str);
		free(e);
		e = next;
	}
}

struct ast_stmt *ast_stmt_new(enum ast_stmt_kind kind, struct ast_loc loc)
{
	struct ast_stmt *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->kind = kind;
	s->loc = loc;
	s->head = loc;
	s->last = s;
	return s;
}

struct ast_stmt *ast_stmt_append(struct ast_stmt *list, struct ast_stmt *s)
{
	if (!list)
		return s;
	if (s) {
		list->last->next = s;
		list->last = s->last;
	}
	return list;
}

void ast_stmt_free(struct ast_stmt *s)
{
	while (s) {
		struct ast_stmt *next = s->next;

		ast_expr_free(s->expr);
		ast_expr_free(s->init);
		ast_expr_free(s->step);
		ast_stmt_free(s->body);
		ast_stmt_free(s->els);
		ast_decl_free(s->decl);
		free(s->name);
		free(s);
		s = next;
	}
}

struct ast_decl *ast_decl_new(enum ast_decl_kind kind, char *name,
			      struct ast_loc loc)
{
	struct ast_decl *d = calloc(1, sizeof(*d));

	if (!d) {
		free(name);
		return NULL;
	}
	d->kind = kind;
	d->last = d;
	d->name = name;
	d->loc = loc;
	d->name_loc = loc;
	return d;
}

struct ast_decl *ast_decl_append(struct ast_decl *list, struct ast_decl *d)
{
	if (!list)
		return d;
	if (d) {
		/* d may itself be a list (var a, b, c;). */
		list->last->next = d;
		list->last = d->last;
	}
	return list;
}

void ast_decl_free(struct ast_decl *d)
{
	while (d) {
		struct ast_decl *next = d->next;

		free(d->name);
		free(d->type);
		ast_expr_free(d->expr);
		ast_decl_free(d->params);
		ast_stmt_free(d->body);
		free(d);
		d = next;
	}
}

void ast_file_free(struct ast_file *f)
{
	if (!f)
		return;
	ast_decl_free(f->decls);
	ast_stmt_free(f->stmts);
	free(f);
}

struct diag_loc ast_diag_loc(struct ast_loc loc)
{
	struct diag_loc dl = { loc.first_line, loc.first_column, 1 };

	if (loc.last_line == loc.first_line &&
	    loc.last_column >= loc.first_column)
		dl.len = loc.last_column - loc.first_column + 1;
	return dl;
}
