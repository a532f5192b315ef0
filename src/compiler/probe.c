/* probe.c: the parser's answers to a shell (sysletc.h): whether input is complete, what it declares and names, what a word is. */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "compiler/sysletc.h"
#include "grammar/ast.h"
#include "grammar/words.h"

/* The public kinds are their own enum so that the tree's may change. */
static int probe_name_kind(enum ast_decl_kind kind)
{
	switch (kind) {
	case AST_D_CONST:	return SYSLETC_NAME_CONST;
	case AST_D_VAR:		return SYSLETC_NAME_VAR;
	case AST_D_BUFFER:	return SYSLETC_NAME_BUFFER;
	case AST_D_DATA:	return SYSLETC_NAME_DATA;
	case AST_D_SYSLET:	return SYSLETC_NAME_SYSLET;
	case AST_D_PARAM:	break;
	}
	return -1;
}

/* The names f's declarations define, and the name its first statement
 * assigns (`x = 1` at a shell's prompt declares x). */
static void probe_names(const struct ast_file *f, struct sysletc_probe *r)
{
	const struct ast_stmt *s = f->stmts;
	const struct ast_expr *e;

	for (const struct ast_decl *d = f->decls; d; d = d->next) {
		int kind = probe_name_kind(d->kind);

		if (d->name && kind >= 0)
			r->name(r->ctx, d->name, kind);
	}
	/* `async n = read(...)`: the modifiers' statement is the one. */
	while (s && s->kind == AST_S_MOD)
		s = s->body;
	e = s && s->kind == AST_S_EXPR ? s->expr : NULL;
	if (e && e->kind == AST_ASSIGN && e->op == '=' && e->l &&
	    e->l->kind == AST_NAME && e->l->name)
		r->name(r->ctx, e->l->name, SYSLETC_NAME_ASSIGNED);
}

int sysletc_probe(const char *src, size_t len, enum sysletc_unit unit,
		  struct sysletc_probe *user)
{
	struct sysletc_probe r = { 0 };
	struct ast_file *f = NULL;
	const struct ast_stmt *last;
	struct ast_probe p;
	size_t n;

	/* The sz rule of libsyslet.h: an older caller's smaller struct is
	 * filled as far as it goes, a newer one's must be zero past ours. */
	if (!user || user->sz < offsetof(struct sysletc_probe, status))
		return -EINVAL;
	n = user->sz < sizeof(r) ? user->sz : sizeof(r);
	for (size_t i = sizeof(r); i < user->sz; i++)
		if (((const unsigned char *)user)[i])
			return -EINVAL;
	memcpy(&r, user, n);

	ast_probe(src, len, unit == SYSLETC_UNIT_STMTS ? AST_UNIT_STMTS
						       : AST_UNIT_FILE,
		  &p, &f);
	r.status = p.status == AST_PROBE_OK ? SYSLETC_PROBE_OK :
		   p.status == AST_PROBE_EOF ? SYSLETC_PROBE_EOF :
		   SYSLETC_PROBE_ERROR;
	r.depth = p.depth;
	r.in_comment = p.in_comment;
	r.wants_stmt = p.wants_stmt;
	last = f && f->stmts ? f->stmts->last : NULL;
	r.else_may_follow = p.status == AST_PROBE_OK && last &&
			    last->kind == AST_S_IF && !last->els;
	if (f && r.name)
		probe_names(f, &r);
	ast_file_free(f);
	memcpy(user, &r, n);
	return 0;
}

int sysletc_brace_balance(const char *src, size_t len, int *in_comment)
{
	return ast_brace_balance(src, len, in_comment);
}

void sysletc_scan_names(const char *src, size_t len,
			void (*fn)(void *ctx, const char *name), void *ctx)
{
	ast_scan_names(src, len, fn, ctx);
}

static int word_class(const struct ast_word *w)
{
	if (!w)
		return SYSLETC_WORD_NAME;
	switch (w->cls) {
	case AST_WORD_DECL:	return SYSLETC_WORD_DECL;
	case AST_WORD_PTYPE:	return SYSLETC_WORD_PTYPE;
	case AST_WORD_STMT:	return SYSLETC_WORD_STMT;
	case AST_WORD_CLAUSE:	return SYSLETC_WORD_CLAUSE;
	case AST_WORD_MOD:	return SYSLETC_WORD_MOD;
	case AST_WORD_EXPR:	return SYSLETC_WORD_EXPR;
	case AST_WORD_ELEM:	return SYSLETC_WORD_ELEM;
	}
	return SYSLETC_WORD_NAME;
}

int sysletc_word_class(const char *s, size_t n)
{
	return word_class(n ? ast_word_find(s, n) : NULL);
}

int sysletc_word_near_class(const char *s, size_t n)
{
	return word_class(n ? ast_word_near(s, n) : NULL);
}
