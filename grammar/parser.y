/* parser.y: the pure bison grammar of the syslet language; it builds an AST and nothing else. */
%require "3.8"
%define api.pure full
%define api.prefix {syl_}
%define api.location.type {struct ast_loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {struct parse_ctx *ctx}

%code requires {
#include <stdint.h>
#include "grammar/ast.h"
#include "grammar/parse.h"
#include "grammar/words.h"
typedef void *yyscan_t;
struct ast_string { char *s; size_t n; };
}

%code {
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define YYLLOC_DEFAULT(cur, rhs, n) AST_LLOC_DEFAULT(cur, rhs, n)
/* Room for AST_MAX_STMT_DEPTH levels of the widest statement (for:
 * 8 symbols a level) around an expression of AST_MAX_EXPR_DEPTH levels
 * (a call, 4 a level), and more: past it is past one of them, and
 * syl_error() says so.  Both bound the walks over the tree. */
#define YYMAXDEPTH 12000

int syl_lex(SYL_STYPE *lval, SYL_LTYPE *lloc, yyscan_t scanner);
static int lex_counted(SYL_STYPE *lval, SYL_LTYPE *lloc, yyscan_t scanner,
		       struct parse_ctx *ctx);
/* Every token passes lex_counted(), which counts the open else ifs. */
#undef yylex
#define yylex(lval, lloc, scanner) lex_counted(lval, lloc, scanner, ctx)
void syl_error(SYL_LTYPE *loc, yyscan_t scanner, struct parse_ctx *ctx,
	       const char *msg);

/* Allocation failures abort the parse; destructors free the stack. */
#define NN(x)								\
	do {								\
		if (!(x)) {						\
			parse_error(ctx, yylloc, "out of memory");	\
			YYABORT;					\
		}							\
	} while (0)

/* A too deep expression becomes a 0 marked as reported, deeper than any
 * real one, so that the nodes a long chain still adds above it are
 * replaced without a second message for the same expression. */
#define DEPTH_REPORTED	(UINT_MAX / 2)

static struct ast_expr *depth_check(struct parse_ctx *ctx,
				    struct ast_expr *e)
{
	if (e && e->depth > AST_MAX_EXPR_DEPTH) {
		struct ast_loc loc = e->loc;

		if (e->depth < DEPTH_REPORTED)
			parse_error(ctx, loc, "expression nested too deeply (more than %d levels)",
				    AST_MAX_EXPR_DEPTH);
		ast_expr_free(e);
		e = ast_num(0, loc);
		if (e)
			e->depth = DEPTH_REPORTED;
	}
	return e;
}

/*
 * What the levels of a nest that went too deep are, as written: 500
 * ifs each guarding a block are 1000 levels, and an else-if chain nests
 * an arm a level, which "more than 1000 levels" alone did not say.  The
 * deepest path is followed through the child one level lower.
 */
static void nest_note(struct parse_ctx *ctx, const struct ast_stmt *s)
{
	enum { N_IF, N_ELSE_IF, N_LOOP, N_BLOCK, N_OTHER, N_KINDS };
	static const char *const kind[N_KINDS][2] = {
		{ "if", "ifs" }, { "else if", "else ifs" },
		{ "loop", "loops" }, { "block", "blocks" },
		{ "label or modifier", "labels or modifiers" },
	};
	unsigned int n[N_KINDS] = { 0 }, left = 0;
	char why[256];
	size_t w = 0;
	int i;

	if (!ctx->d || ctx->too_many)
		return;
	/* The deepest statement itself (height 1) is no level around it. */
	for (const struct ast_stmt *c = s, *next; c && c->height > 1;
	     c = next) {
		next = NULL;
		for (const struct ast_stmt *b = c->body; b && !next; b = b->next)
			if (b->height + 1 == c->height)
				next = b;
		switch (c->kind) {
		case AST_S_IF:
			n[N_IF]++;
			/* An if that is the else of the one before it. */
			if (!next && c->els && c->els->height + 1 == c->height) {
				next = c->els;
				if (next->kind == AST_S_IF) {
					n[N_ELSE_IF]++;
					n[N_IF]--;
				}
			}
			break;
		case AST_S_WHILE:
		case AST_S_DO:
		case AST_S_FOR:
		case AST_S_LOOP:
			n[N_LOOP]++;
			break;
		case AST_S_BLOCK:
			n[N_BLOCK]++;
			break;
		default:
			n[N_OTHER]++;
			break;
		}
	}
	for (i = 0; i < N_KINDS; i++)
		left += n[i] != 0;
	for (i = 0; i < N_KINDS && w < sizeof(why); i++) {
		if (!n[i])
			continue;
		left--;
		w += snprintf(why + w, sizeof(why) - w, "%s%u %s",
			      !w ? "" : left ? ", " : " and ", n[i],
			      kind[i][n[i] != 1]);
	}
	diag_report(ctx->d, DIAG_NOTE, ast_diag_loc(s->loc),
		    "its deepest statement is inside %s, a level each%s", why,
		    n[N_ELSE_IF] * 2 > AST_MAX_STMT_DEPTH ?
		    "; each else if of a chain nests in the one before it, "
		    "where ifs one after the other that end in goto or stop "
		    "do not" : "");
}

/* As depth_check() for statements: one too deep becomes an empty one
 * marked as reported, so the levels around it add no second message. */
static struct ast_stmt *nest_check(struct parse_ctx *ctx,
				   struct ast_stmt *s)
{
	unsigned int h = 0;
	struct ast_stmt *e;

	if (!s)
		return NULL;
	for (const struct ast_stmt *c = s->body; c; c = c->next)
		h = c->height > h ? c->height : h;
	if (s->els && s->els->height > h)
		h = s->els->height;
	s->height = h + 1;
	if (s->height <= AST_MAX_STMT_DEPTH)
		return s;
	if (s->height < DEPTH_REPORTED) {
		parse_error(ctx, s->loc, "program nested too deeply (more than %d levels of statements)",
			    AST_MAX_STMT_DEPTH);
		nest_note(ctx, s);
	}
	e = ast_stmt_new(AST_S_EMPTY, s->loc);
	ast_stmt_free(s);
	if (e)
		e->height = DEPTH_REPORTED;
	return e;
}

/* One variable more: past the cells an image holds, say so (the parse
 * then stops). */
static bool too_many_vars(struct parse_ctx *ctx, struct ast_loc loc)
{
	if (++ctx->vars <= AST_MAX_VARS)
		return false;
	parse_error(ctx, loc, "more than %u variables: an image holds at most %u cells",
		    AST_MAX_VARS, AST_MAX_VARS);
	return true;
}

/* One buffer or data object more: as too_many_vars(). */
static bool too_many_objects(struct parse_ctx *ctx, struct ast_loc loc)
{
	if (++ctx->objects <= AST_MAX_OBJECTS)
		return false;
	parse_error(ctx, loc, "more than %u buffers and data objects: an image holds at most %u",
		    AST_MAX_OBJECTS, AST_MAX_OBJECTS);
	return true;
}

/*
 * One syslet more.  A syslet whose body has no statement that makes an
 * atom still takes one (its stop), so such syslets count against the
 * atoms an image holds with the statements: 64 MiB of `syslet sN(){}`
 * took 1.3 KB each (2 GB for 1.5 million) only to be refused at the end.
 */
static bool too_many_syslets(struct parse_ctx *ctx, struct ast_loc loc)
{
	if (ctx->expr_stmts == ctx->stmts_at_syslet)
		ctx->bare_syslets++;
	ctx->stmts_at_syslet = ctx->expr_stmts;
	if (ctx->expr_stmts + ctx->bare_syslets <= AST_MAX_EXPR_STMTS)
		return false;
	parse_error(ctx, loc, "more than %u atoms: an image holds at most %u (a statement that calls the kernel or assigns a variable makes one or more, a syslet without one a stop)",
		    AST_MAX_EXPR_STMTS, AST_MAX_EXPR_STMTS);
	return true;
}

static struct ast_loc span(struct ast_loc a, struct ast_loc b)
{
	a.last_line = b.last_line;
	a.last_column = b.last_column;
	a.last_off = b.last_off;
	return a;
}

static struct ast_expr *assign(int op, struct ast_expr *l,
			       struct ast_expr *r, struct ast_loc loc)
{
	struct ast_expr *e = ast_binary(op, l, r, loc);

	if (e)
		e->kind = AST_ASSIGN;
	return e;
}

static struct ast_expr *incdec(int op, int postfix, struct ast_expr *l,
			       struct ast_loc loc)
{
	struct ast_expr *e = ast_unary(op, l, loc);

	if (e) {
		e->kind = AST_INCDEC;
		e->postfix = postfix;
	}
	return e;
}

static struct ast_expr *strlit(struct ast_string s, struct ast_loc loc)
{
	struct ast_expr *e = ast_expr_new(AST_STR, loc);

	if (!e) {
		free(s.s);
		return NULL;
	}
	e->str = s.s;
	e->len = s.n;
	return e;
}

static struct ast_stmt *stmt(enum ast_stmt_kind k, struct ast_loc loc,
			     struct ast_expr *e, struct ast_stmt *body)
{
	struct ast_stmt *s = ast_stmt_new(k, loc);

	if (!s) {
		ast_expr_free(e);
		ast_stmt_free(body);
		return NULL;
	}
	s->expr = e;
	s->body = body;
	return s;
}
}

%initial-action {
	@$.first_line = @$.last_line = 1;
	@$.first_column = @$.last_column = 1;
	@$.first_off = @$.last_off = 0;
}

%union {
	int64_t			num;
	char			*str;
	struct ast_string	string;
	struct ast_expr		*expr;
	struct ast_stmt		*stmt;
	struct ast_decl		*decl;
	unsigned int		mods;
}

%destructor { free($$); } <str>
%destructor { free($$.s); } <string>
%destructor { ast_expr_free($$); } <expr>
%destructor { ast_stmt_free($$); } <stmt>
%destructor { ast_decl_free($$); } <decl>
%destructor { } <num> <mods>

%token END 0 "end of file"
/* The scanner's first token says what to parse (ast.h: enum ast_unit);
 * only ever first, so never among the tokens a message expects. */
%token START_FILE START_STMTS
%token <str> NAME "identifier"
%token <str> TYPE "type name"
%token <num> NUMBER "number"
%token <string> STRING "string"
%token CONST "const" VAR "var" BUFFER "buffer" DATA "data" SYSLET "syslet"
%token STR_T "str" INT_T "int"
%token IF "if" ELSE "else" WHILE "while" DO "do" FOR "for" LOOP "loop"
%token BREAK "break" CONTINUE "continue" GOTO "goto" STOP "stop"
%token ASYNC "async" SYNC "sync" NOCOMPLETE "nocomplete"
%token SIZEOF "sizeof" LEN "len"
%token ADD_ASSIGN "+=" SUB_ASSIGN "-=" MUL_ASSIGN "*=" DIV_ASSIGN "/="
%token MOD_ASSIGN "%=" SHL_ASSIGN "<<=" SHR_ASSIGN ">>=" AND_ASSIGN "&="
%token OR_ASSIGN "|=" XOR_ASSIGN "^="
%token INC "++" DEC "--" SHL "<<" SHR ">>" LE "<=" GE ">=" EQ "==" NE "!="
%token ANDAND "&&" OROR "||"

%type <expr> expr expr_opt primary args args_opt string data_items data_item
%type <expr> byte_list
%type <stmt> stmts stmt bare_stmt block
%type <decl> top decl var_list var_item params params_opt param syslet
%type <mods> modifier

%precedence THEN
%precedence ELSE
%right '=' ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN DIV_ASSIGN MOD_ASSIGN SHL_ASSIGN
	SHR_ASSIGN AND_ASSIGN OR_ASSIGN XOR_ASSIGN
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY
%precedence INC DEC

%start input

%%

input:		START_FILE file
	|	START_STMTS stmts	{ ctx->file->stmts = $2; }
	;

file:		%empty
	|	file top
		{ ctx->file->decls = ast_decl_append(ctx->file->decls, $2); }
	;

top:		decl
	|	syslet
	|	error ';'	{ $$ = NULL; yyerrok; }
	|	error '}'	{ $$ = NULL; yyerrok; }
	;

decl:		CONST NAME '=' expr ';'
		{
			NN($$ = ast_decl_new(AST_D_CONST, $2, @$));
			$$->name_loc = @2;
			$$->expr = $4;
		}
	|	VAR var_list ';'	{ $$ = $2; }
	|	BUFFER NAME '[' expr ']' ';'
		{
			if (too_many_objects(ctx, @$)) {
				free($2);
				ast_expr_free($4);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_BUFFER, $2, @$));
			$$->name_loc = @2;
			$$->expr = $4;
		}
	|	DATA NAME '=' data_items ';'
		{
			if (too_many_objects(ctx, @$)) {
				free($2);
				ast_expr_free($4);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_DATA, $2, @$));
			$$->name_loc = @2;
			$$->expr = $4;
		}
	|	DATA TYPE NAME '=' data_items ';'
		{
			struct ast_decl *d;

			if (too_many_objects(ctx, @$)) {
				free($2);
				free($3);
				ast_expr_free($5);
				YYABORT;
			}
			d = ast_decl_new(AST_D_DATA, $3, @$);
			if (!d) {
				free($2);
				ast_expr_free($5);
			}
			NN($$ = d);
			$$->type = $2;
			$$->type_loc = @2;
			$$->name_loc = @3;
			$$->expr = $5;
		}
	/* An array of typed elements, as in C: u32 fds[2]; (a type name
	 * is one only before a name, so u8 ... word are not reserved). */
	|	TYPE NAME '[' expr ']' ';'
		{
			struct ast_decl *d;

			if (too_many_objects(ctx, @$)) {
				free($1);
				free($2);
				ast_expr_free($4);
				YYABORT;
			}
			d = ast_decl_new(AST_D_BUFFER, $2, @$);
			if (!d) {
				free($1);
				ast_expr_free($4);
			}
			NN($$ = d);
			$$->type = $1;
			$$->type_loc = @1;
			$$->name_loc = @2;
			$$->expr = $4;
		}
	|	INT_T NAME '[' expr ']' ';'
		{
			struct ast_decl *d;
			char *t;

			if (too_many_objects(ctx, @$)) {
				free($2);
				ast_expr_free($4);
				YYABORT;
			}
			d = ast_decl_new(AST_D_BUFFER, $2, @$);
			t = strdup("int");

			if (!d || !t) {
				ast_expr_free($4);
				ast_decl_free(d);
				free(t);
			}
			NN(d && t);
			$$ = d;
			$$->type = t;
			$$->type_loc = @1;
			$$->name_loc = @2;
			$$->expr = $4;
		}
	;

var_list:	var_item
	|	var_list ',' var_item	{ $$ = ast_decl_append($1, $3); }
	;

var_item:	NAME
		{
			/* An abort leaves the rule's own symbols. */
			if (too_many_vars(ctx, @$)) {
				free($1);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_VAR, $1, @$));
		}
	|	NAME '=' expr
		{
			if (too_many_vars(ctx, @$)) {
				free($1);
				ast_expr_free($3);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_VAR, $1, @$));
			$$->name_loc = @1;
			$$->expr = $3;
		}
	;

data_items:	data_item
	|	data_items ',' data_item	{ $$ = ast_expr_append($1, $3); }
	;

data_item:	expr
	|	'{' byte_list '}'
		{
			NN($$ = ast_expr_new(AST_BYTES, @$));
			$$->args = $2;
		}
	;

byte_list:	%empty			{ $$ = NULL; }
	|	args
	|	args ','
	;

syslet:		SYSLET NAME '(' params_opt ')' block
		{
			if (too_many_syslets(ctx, @$)) {
				free($2);
				ast_decl_free($4);
				ast_stmt_free($6);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_SYSLET, $2, @$));
			$$->name_loc = @2;
			$$->params = $4;
			$$->body = $6;
		}
	|	SYSLET NAME '(' error ')' block
		{
			if (too_many_syslets(ctx, @$)) {
				free($2);
				ast_stmt_free($6);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_SYSLET, $2, @$));
			$$->name_loc = @2;
			$$->body = $6;
		}
	;

params_opt:	%empty			{ $$ = NULL; }
	|	params
	;

params:		param
	|	params ',' param	{ $$ = ast_decl_append($1, $3); }
	;

param:		STR_T NAME
		{
			if (too_many_vars(ctx, @$)) {
				free($2);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_PARAM, $2, @$));
			$$->name_loc = @2;
			$$->ptype = AST_PARAM_STR;
		}
	|	INT_T NAME
		{
			if (too_many_vars(ctx, @$)) {
				free($2);
				YYABORT;
			}
			NN($$ = ast_decl_new(AST_D_PARAM, $2, @$));
			$$->name_loc = @2;
			$$->ptype = AST_PARAM_INT;
		}
	|	TYPE NAME
		{
			struct ast_decl *d;

			if (too_many_vars(ctx, @$)) {
				free($1);
				free($2);
				YYABORT;
			}
			d = ast_decl_new(AST_D_PARAM, $2, @$);
			if (!d)
				free($1);
			NN($$ = d);
			$$->name_loc = @2;
			$$->ptype = AST_PARAM_NAMED;
			$$->type = $1;
			$$->type_loc = @1;
		}
	;

block:		'{' stmts '}'
		{
			NN($$ = stmt(AST_S_BLOCK, @$, NULL, $2));
		}
	|	'{' stmts error '}'
		{
			NN($$ = stmt(AST_S_BLOCK, @$, NULL, $2));
		}
	;

stmts:		%empty			{ $$ = NULL; }
	|	stmts stmt		{ $$ = ast_stmt_append($1, $2); }
	;

modifier:	ASYNC			{ $$ = AST_MOD_ASYNC; }
	|	SYNC			{ $$ = AST_MOD_SYNC; }
	|	NOCOMPLETE		{ $$ = AST_MOD_NOCOMPLETE; }
	;

stmt:		bare_stmt
		{
			struct ast_stmt *in = $1;

			$$ = nest_check(ctx, in);
			NN($$ || !in);
		}
	;

bare_stmt:	';'			{ NN($$ = stmt(AST_S_EMPTY, @$, NULL, NULL)); }
	|	expr ';'
		{
			if (++ctx->expr_stmts > AST_MAX_EXPR_STMTS) {
				parse_error(ctx, @$, "more than %u statements that call the kernel or assign a variable: an image holds at most %u atoms",
					    AST_MAX_EXPR_STMTS,
					    AST_MAX_EXPR_STMTS);
				/* An abort leaves the rule's own symbols. */
				ast_expr_free($1);
				YYABORT;
			}
			NN($$ = stmt(AST_S_EXPR, @$, $1, NULL));
		}
	|	block
	|	IF '(' expr ')' stmt %prec THEN
		{
			NN($$ = stmt(AST_S_IF, @$, $3, $5));
			$$->head = span(@1, @4);
		}
	|	IF '(' expr ')' stmt ELSE stmt
		{
			/* An else if ends here, and gives its stack back. */
			if (ctx->else_ifs_open && $7 &&
			    ($7->kind == AST_S_IF ||
			     $7->height == DEPTH_REPORTED))
				ctx->else_ifs_open--;
			NN($$ = stmt(AST_S_IF, @$, $3, $5));
			$$->head = span(@1, @4);
			$$->els = $7;
		}
	|	WHILE '(' expr ')' stmt
		{
			NN($$ = stmt(AST_S_WHILE, @$, $3, $5));
			$$->head = span(@1, @4);
		}
	|	DO stmt WHILE '(' expr ')' ';'
		{
			NN($$ = stmt(AST_S_DO, @$, $5, $2));
			$$->head = span(@3, @7);
		}
	|	FOR '(' expr_opt ';' expr_opt ';' expr_opt ')' stmt
		{
			struct ast_stmt *s = stmt(AST_S_FOR, @$, $5, $9);

			if (!s) {
				ast_expr_free($3);
				ast_expr_free($7);
			}
			NN($$ = s);
			$$->init = $3;
			$$->step = $7;
			$$->head = span(@1, @8);
		}
	/* C99's for (int i = 0; ...): a syslet's locals are the whole
	 * syslet's, so the loop cannot own one; said plainly, instead of
	 * a syntax error at 'var' and another at the ')'. */
	|	FOR '(' VAR var_list ';' expr_opt ';' expr_opt ')' stmt
		{
			parse_error(ctx, span(@3, @4), "a for loop cannot declare its variable: a syslet's variables are the whole syslet's; declare it before the loop ('var %s;') and write 'for (%s = ...; ...)'",
				    $4 ? $4->name : "i", $4 ? $4->name : "i");
			ast_decl_free($4);
			ast_expr_free($6);
			ast_expr_free($8);
			ast_stmt_free($10);
			$$ = NULL;
		}
	|	LOOP stmt
		{
			NN($$ = stmt(AST_S_LOOP, @$, NULL, $2));
			$$->head = @1;
		}
	|	BREAK ';'		{ NN($$ = stmt(AST_S_BREAK, @$, NULL, NULL)); }
	|	CONTINUE ';'		{ NN($$ = stmt(AST_S_CONTINUE, @$, NULL, NULL)); }
	|	STOP ';'		{ NN($$ = stmt(AST_S_STOP, @$, NULL, NULL)); }
	|	GOTO NAME ';'
		{
			struct ast_stmt *s = stmt(AST_S_GOTO, @$, NULL, NULL);

			if (!s)
				free($2);
			NN($$ = s);
			$$->name = $2;
		}
	|	NAME ':' stmt
		{
			struct ast_stmt *s = stmt(AST_S_LABEL, @$, NULL, $3);

			if (!s)
				free($1);
			NN($$ = s);
			$$->name = $1;
			$$->head = @1;
		}
	|	modifier stmt
		{
			NN($$ = stmt(AST_S_MOD, @$, NULL, $2));
			$$->mods = $1;
		}
	|	decl
		{
			struct ast_stmt *s = stmt(AST_S_DECL, @$, NULL, NULL);

			if (!s)
				ast_decl_free($1);
			NN($$ = s);
			$$->decl = $1;
		}
	|	error ';'		{ $$ = NULL; yyerrok; }
	;

expr_opt:	%empty			{ $$ = NULL; }
	|	expr
	;

expr:		primary
	|	expr '=' expr		{ NN($$ = assign('=', $1, $3, @$)); }
	|	expr ADD_ASSIGN expr	{ NN($$ = assign(AST_OP_ADD_ASSIGN, $1, $3, @$)); }
	|	expr SUB_ASSIGN expr	{ NN($$ = assign(AST_OP_SUB_ASSIGN, $1, $3, @$)); }
	|	expr MUL_ASSIGN expr	{ NN($$ = assign(AST_OP_MUL_ASSIGN, $1, $3, @$)); }
	|	expr DIV_ASSIGN expr	{ NN($$ = assign(AST_OP_DIV_ASSIGN, $1, $3, @$)); }
	|	expr MOD_ASSIGN expr	{ NN($$ = assign(AST_OP_MOD_ASSIGN, $1, $3, @$)); }
	|	expr SHL_ASSIGN expr	{ NN($$ = assign(AST_OP_SHL_ASSIGN, $1, $3, @$)); }
	|	expr SHR_ASSIGN expr	{ NN($$ = assign(AST_OP_SHR_ASSIGN, $1, $3, @$)); }
	|	expr AND_ASSIGN expr	{ NN($$ = assign(AST_OP_AND_ASSIGN, $1, $3, @$)); }
	|	expr OR_ASSIGN expr	{ NN($$ = assign(AST_OP_OR_ASSIGN, $1, $3, @$)); }
	|	expr XOR_ASSIGN expr	{ NN($$ = assign(AST_OP_XOR_ASSIGN, $1, $3, @$)); }
	|	expr OROR expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_OR, $1, $3, @$))); }
	|	expr ANDAND expr	{ NN($$ = depth_check(ctx, ast_binary(AST_OP_AND, $1, $3, @$))); }
	|	expr '|' expr		{ NN($$ = depth_check(ctx, ast_binary('|', $1, $3, @$))); }
	|	expr '^' expr		{ NN($$ = depth_check(ctx, ast_binary('^', $1, $3, @$))); }
	|	expr '&' expr		{ NN($$ = depth_check(ctx, ast_binary('&', $1, $3, @$))); }
	|	expr EQ expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_EQ, $1, $3, @$))); }
	|	expr NE expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_NE, $1, $3, @$))); }
	|	expr '<' expr		{ NN($$ = depth_check(ctx, ast_binary('<', $1, $3, @$))); }
	|	expr '>' expr		{ NN($$ = depth_check(ctx, ast_binary('>', $1, $3, @$))); }
	|	expr LE expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_LE, $1, $3, @$))); }
	|	expr GE expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_GE, $1, $3, @$))); }
	|	expr SHL expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_SHL, $1, $3, @$))); }
	|	expr SHR expr		{ NN($$ = depth_check(ctx, ast_binary(AST_OP_SHR, $1, $3, @$))); }
	|	expr '+' expr		{ NN($$ = depth_check(ctx, ast_binary('+', $1, $3, @$))); }
	|	expr '-' expr		{ NN($$ = depth_check(ctx, ast_binary('-', $1, $3, @$))); }
	|	expr '*' expr		{ NN($$ = depth_check(ctx, ast_binary('*', $1, $3, @$))); }
	|	expr '/' expr		{ NN($$ = depth_check(ctx, ast_binary('/', $1, $3, @$))); }
	|	expr '%' expr		{ NN($$ = depth_check(ctx, ast_binary('%', $1, $3, @$))); }
	|	'-' expr %prec UNARY	{ NN($$ = depth_check(ctx, ast_unary('-', $2, @$))); }
	|	'+' expr %prec UNARY	{ $$ = $2; }
	|	'~' expr %prec UNARY	{ NN($$ = depth_check(ctx, ast_unary('~', $2, @$))); }
	|	'!' expr %prec UNARY	{ NN($$ = depth_check(ctx, ast_unary('!', $2, @$))); }
	|	INC expr %prec UNARY	{ NN($$ = depth_check(ctx, incdec(AST_OP_INC, 0, $2, @$))); }
	|	DEC expr %prec UNARY	{ NN($$ = depth_check(ctx, incdec(AST_OP_DEC, 0, $2, @$))); }
	|	expr INC		{ NN($$ = depth_check(ctx, incdec(AST_OP_INC, 1, $1, @$))); }
	|	expr DEC		{ NN($$ = depth_check(ctx, incdec(AST_OP_DEC, 1, $1, @$))); }
	|	'&' NAME %prec UNARY
		{
			NN($$ = ast_expr_new(AST_ADDR, @$));
			$$->name = $2;
		}
	|	'&' NAME '[' expr ']'
		{
			struct ast_expr *e = ast_expr_new(AST_ADDR, @$);

			if (!e) {
				free($2);
				ast_expr_free($4);
			}
			NN($$ = e);
			$$->name = $2;
			$$->l = $4;
			$$->depth = $4->depth + 1;
		}
	;

primary:	NUMBER			{ NN($$ = ast_num($1, @$)); }
	|	string
	|	NAME			{ NN($$ = ast_name($1, @$)); }
	|	NAME '(' args_opt ')'
		{
			struct ast_expr *e = ast_expr_new(AST_CALL, @$);

			if (!e) {
				free($1);
				ast_expr_free($3);
			}
			NN($$ = e);
			$$->name = $1;
			$$->args = $3;
			$$->loc = @$;
		}
	|	NAME '[' expr ']'
		{
			struct ast_expr *e = ast_expr_new(AST_INDEX, @$);

			if (!e) {
				free($1);
				ast_expr_free($3);
			}
			NN($$ = e);
			$$->name = $1;
			$$->l = $3;
			$$->depth = $3->depth + 1;
		}
	|	SIZEOF '(' NAME '[' expr ']' ')'
		{
			struct ast_expr *e = ast_expr_new(AST_SIZEOF, @$);

			if (!e) {
				free($3);
				ast_expr_free($5);
			}
			NN($$ = e);
			$$->name = $3;
			$$->l = $5;
			$$->depth = $5->depth + 1;
		}
	|	SIZEOF '(' NAME ')'
		{
			NN($$ = ast_name($3, @3));
			$$->kind = AST_SIZEOF;
			$$->loc = @$;
		}
	|	SIZEOF '(' string ')'
		{
			$$ = $3;
			$$->kind = AST_SIZEOF;
			$$->loc = @$;
		}
	|	LEN '(' NAME ')'
		{
			NN($$ = ast_name($3, @3));
			$$->kind = AST_LEN;
			$$->loc = @$;
		}
	|	LEN '(' string ')'
		{
			$$ = $3;
			$$->kind = AST_LEN;
			$$->loc = @$;
		}
	|	'(' expr ')'		{ $$ = $2; $$->paren = 1; }
	;

/* Adjacent literals concatenate, as in C. */
string:		STRING			{ NN($$ = strlit($1, @$)); }
	|	string STRING
		{
			char *s = realloc($1->str, $1->len + $2.n + 1);

			if (!s)
				free($2.s);
			NN(s);
			memcpy(s + $1->len, $2.s, $2.n + 1);
			free($2.s);
			$1->str = s;
			$1->len += $2.n;
			$1->loc = @$;
			$$ = $1;
		}
	;

args_opt:	%empty			{ $$ = NULL; }
	|	args
	;

args:		expr			{ $$ = ast_expr_append(NULL, $1); }
	|	args ',' expr		{ $$ = ast_expr_append($1, $3); }
	;

%%

/* "'stop'" for keywords and punctuation, plain words for classes. */
static void put_symbol(FILE *f, yysymbol_kind_t sym)
{
	const char *n = yysymbol_name(sym);
	size_t len = strlen(n);

	if (n[0] == '"' && len >= 2) {		/* older bisons keep quotes */
		n++;
		len -= 2;
	}
	if (n[0] == '\'' || sym == YYSYMBOL_NAME || sym == YYSYMBOL_NUMBER ||
	    sym == YYSYMBOL_STRING || sym == YYSYMBOL_YYEOF ||
	    sym == YYSYMBOL_TYPE)
		fprintf(f, "%.*s", (int)len, n);
	else
		fprintf(f, "'%.*s'", (int)len, n);
}

/*
 * Long lists of expected tokens read better as classes: "expected ';'
 * or an operator" rather than twenty operators.  Classes are stored as
 * negative kinds (-1 - index into group_names).
 */
static const char *const group_names[] = {
	"an operator", "an expression", "a statement", "a declaration",
};

static int group_of(yysymbol_kind_t sym, bool have_expr, bool have_stmt,
		    bool have_decl)
{
	static const char *const ops[] = {
		"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=",
		"^=", "||", "&&", "|", "^", "&", "==", "!=", "<", ">", "<=",
		">=", "<<", ">>", "+", "-", "*", "/", "%", "++", "--",
	};
	/* Keywords by their class in grammar/words.c; the rest here. */
	static const char *const expr[] = {
		"identifier", "number", "string", "(", "~", "!", "-", "+",
		"&", "++", "--",
	};
	static const char *const stmt[] = { ";", "{" };
	static const char *const decl[] = { "type name" };
	char name[32];
	const char *n = yysymbol_name(sym);
	size_t len = strlen(n), nw;
	const struct ast_word *w = ast_words(&nw);

	for (size_t i = 0; i < nw; i++) {
		if (w[i].cls == AST_WORD_ELEM ||
		    YYTRANSLATE(w[i].token) != sym)
			continue;
		if (have_expr && w[i].cls == AST_WORD_EXPR)
			return 1;
		if (have_stmt && (w[i].cls == AST_WORD_STMT ||
				  w[i].cls == AST_WORD_MOD))
			return 2;
		/* int x[4]; declares an array of int (refused later). */
		if (have_decl && (w[i].cls == AST_WORD_DECL ||
				  w[i].token == INT_T))
			return 3;
		break;
	}

	if ((n[0] == '"' || n[0] == '\'') && len >= 2) {
		n++;
		len -= 2;
	}
	if (len >= sizeof(name))
		return -1;
	memcpy(name, n, len);
	name[len] = 0;
	/* An expression start beats an operator: '-' and '&' are both. */
	for (size_t i = 0; have_expr && i < sizeof(expr) / sizeof(expr[0]); i++)
		if (!strcmp(name, expr[i]))
			return 1;
	for (size_t i = 0; have_stmt && i < sizeof(stmt) / sizeof(stmt[0]); i++)
		if (!strcmp(name, stmt[i]))
			return 2;
	for (size_t i = 0; have_decl && i < sizeof(decl) / sizeof(decl[0]); i++)
		if (!strcmp(name, decl[i]))
			return 3;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(name, ops[i]))
			return 0;
	return -1;
}

static int group_expected(yysymbol_kind_t *v, int n)
{
	bool have_expr = false, have_stmt = false, have_decl = false;
	bool used[4] = { false, false, false, false };
	int out = 0;

	for (int i = 0; i < n; i++) {
		have_expr |= v[i] == YYSYMBOL_NUMBER;
		have_stmt |= v[i] == YYSYMBOL_IF;
		have_decl |= v[i] == YYSYMBOL_SYSLET;
	}
	for (int i = 0; i < n; i++) {
		int g = group_of(v[i], have_expr, have_stmt,
				 have_decl || have_stmt);

		/* Inside a body, declarations are statements too. */
		if (g == 3 && have_stmt)
			g = 2;
		if (g < 0)
			v[out++] = v[i];
		else
			used[g] = true;
	}
	for (int g = 0; g < 4; g++)
		if (used[g])
			v[out++] = (yysymbol_kind_t)(-1 - g);
	return out;
}

/*
 * C habits that the grammar can only call syntax errors: by the first
 * word of the statement in error, what the language writes instead.
 * The word is found by scanning back to the statement's start, which a
 * ';', '{' or '}' in a string or a comment can fool: the note is only
 * a hint, under the error.
 */
static const struct {
	const char	*word;
	const char	*hint;
} c_habits[] = {
	{ "int", NULL }, { "long", NULL }, { "short", NULL },
	{ "char", NULL }, { "unsigned", NULL }, { "signed", NULL },
	{ "size_t", NULL }, { "ssize_t", NULL }, { "void", NULL },
	{ "static", NULL }, { "struct", NULL },
	{ "return", "a syslet has no return: 'stop;' ends it" },
	{ "var", "'var' declares one word each; an array is declared with "
		 "its element type: 'word NAME[N];' or 'u32 NAME[N];'" },
};

static void c_habit_note(struct parse_ctx *ctx, const struct ast_loc *loc)
{
	size_t at = loc->first_off, start, end;
	const char *hint;

	if (!ctx->d || at > ctx->len)
		return;
	while (at > 0 && !strchr(";{}", ctx->src[at - 1]))
		at--;
	while (at < loc->first_off && strchr(" \t\r\n", ctx->src[at]))
		at++;
	start = at;
	while (at < loc->first_off && (ctx->src[at] == '_' ||
	       ((ctx->src[at] | 0x20) >= 'a' && (ctx->src[at] | 0x20) <= 'z')))
		at++;
	end = at;
	if (end == start)
		return;
	for (size_t i = 0; i < sizeof(c_habits) / sizeof(c_habits[0]); i++) {
		if (strlen(c_habits[i].word) != end - start ||
		    memcmp(c_habits[i].word, ctx->src + start, end - start))
			continue;
		/* 'var' is a habit only before an array's brackets. */
		if (!strcmp(c_habits[i].word, "var") &&
		    (loc->first_off >= ctx->len ||
		     ctx->src[loc->first_off] != '['))
			return;
		hint = c_habits[i].hint ? c_habits[i].hint :
		       "C's types declare nothing here: a variable is "
		       "'var NAME;' (one word), a byte buffer "
		       "'buffer NAME[SIZE];', an array 'u32 NAME[N];'";
		diag_report(ctx->d, DIAG_NOTE, ast_diag_loc(*loc), "%s",
			    hint);
		return;
	}
}

/*
 * A keyword where a name was wanted, 'var fd, len;' (a C programmer's
 * name for a length), or written as a name, 'len = 0;' where len() must
 * follow: the error says only what the parser expected, not that the
 * word is taken.  @kw: the keyword token the parser met, or the word
 * before the error when only '(' could follow it.
 */
static void keyword_note(struct parse_ctx *ctx, const struct ast_loc *loc,
			 const char *kw, size_t kwlen)
{
	if (!ctx->d)
		return;
	diag_report(ctx->d, DIAG_NOTE, ast_diag_loc(*loc),
		    "'%.*s' is a keyword (syslet(5) lists them), which no "
		    "variable, buffer, data or label can be named: choose "
		    "another name", (int)kwlen, kw);
}

/* The word that ends right before @loc (blanks skipped), or NULL. */
static const char *word_before(const struct parse_ctx *ctx,
			       const struct ast_loc *loc, size_t *len)
{
	size_t at = loc->first_off, end;

	if (at > ctx->len)
		return NULL;
	while (at > 0 && strchr(" \t\r\n", ctx->src[at - 1]))
		at--;
	end = at;
	while (at > 0 && (ctx->src[at - 1] == '_' ||
	       ((ctx->src[at - 1] | 0x20) >= 'a' &&
		(ctx->src[at - 1] | 0x20) <= 'z')))
		at--;
	*len = end - at;
	return end > at ? ctx->src + at : NULL;
}

/*
 * A statement whose ';' was left out at the end of its line: the error is
 * at the next line's first word, which the parser could not take; the
 * note points at the end of the line before, where the ';' belongs, as
 * a C compiler says "expected ';' after expression".
 */
static void semicolon_note(struct parse_ctx *ctx, const struct ast_loc *loc)
{
	size_t at = loc->first_off, bol;
	unsigned int lines = 0;
	struct diag_loc dl;

	if (!ctx->d || at > ctx->len)
		return;
	while (at > 0 && strchr(" \t\r\n", ctx->src[at - 1]))
		lines += ctx->src[--at] == '\n';
	if (!lines || at == 0 || lines >= loc->first_line)
		return;
	for (bol = at - 1; bol > 0 && ctx->src[bol - 1] != '\n'; bol--)
		;
	/* A comment that ends the line: the statement ends before it. */
	for (size_t i = bol, q = 0; i + 1 < at; i++) {
		char c = ctx->src[i];

		if (q && c == '\\')
			i++;
		else if (q && c == (char)q)
			q = 0;
		else if (!q && (c == '"' || c == '\''))
			q = (unsigned char)c;
		else if (!q && c == '/' && strchr("/*", ctx->src[i + 1])) {
			at = i;
			break;
		}
	}
	while (at > bol && strchr(" \t", ctx->src[at - 1]))
		at--;
	if (at == bol || strchr(";{}/", ctx->src[at - 1]))
		return;
	dl.line = loc->first_line - lines;
	dl.col = (unsigned int)(at - bol);
	if (bol == 0 && ctx->len >= 3 && !memcmp(ctx->src, "\xef\xbb\xbf", 3)) {
		if (at <= 3)
			return;	/* nothing but the byte order mark */
		dl.col -= 3;
	}
	dl.len = 1;
	diag_report(ctx->d, DIAG_NOTE, dl,
		    "a ';' may be missing at the end of this line");
}

/*
 * A keyword misspelled by one edit, 'bufer buf[64];' or 'whlie (...)':
 * the parser saw a name, so the error says what it expected, or, for a
 * word that reads as a call, that a ';' may be missing after it.  As a
 * C compiler says "did you mean", the note names the keyword: for the
 * name the parser met where that keyword could stand, or for the first
 * word of the statement in error when what follows it is what follows
 * that keyword (a '(' after while, a name after buffer).  Returns true
 * when it wrote the note, which then replaces the one about a ';'.
 */
static bool misspelt_note(struct parse_ctx *ctx, const struct ast_loc *loc,
			  yysymbol_kind_t tok, const yysymbol_kind_t *expected,
			  int n)
{
	const struct ast_word *w = NULL;
	struct ast_loc at = *loc;
	size_t p, start, end;

	if (!ctx->d || loc->first_off > ctx->len)
		return false;
	if (tok == YYSYMBOL_NAME && loc->last_off > loc->first_off &&
	    loc->last_off <= ctx->len &&
	    (w = ast_word_near(ctx->src + loc->first_off,
			       loc->last_off - loc->first_off))) {
		int i;

		for (i = 0; i < n && expected[i] != YYTRANSLATE(w->token); i++)
			;
		if (i == n)
			w = NULL;
	}
	if (!w) {
		/* The statement's first word, as c_habit_note finds it. */
		p = loc->first_off;
		while (p > 0 && !strchr(";{}", ctx->src[p - 1]))
			p--;
		while (p < loc->first_off && strchr(" \t\r\n", ctx->src[p]))
			p++;
		start = p;
		while (p < loc->first_off && (ctx->src[p] == '_' ||
		       ((ctx->src[p] | 0x20) >= 'a' &&
			(ctx->src[p] | 0x20) <= 'z')))
			p++;
		end = p;
		while (p < loc->first_off && strchr(" \t\r\n", ctx->src[p]))
			p++;
		if (end == start || p >= loc->first_off + 1 || p >= ctx->len ||
		    !(w = ast_word_near(ctx->src + start, end - start)))
			return false;
		if (ctx->src[p] == '(' ?
		    strcmp(w->name, "if") && strcmp(w->name, "while") &&
		    strcmp(w->name, "for") :
		    !(ctx->src[p] == '_' || ctx->src[p] == '{' ||
		      ((ctx->src[p] | 0x20) >= 'a' &&
		       (ctx->src[p] | 0x20) <= 'z')) ||
		    !(w->cls == AST_WORD_DECL || w->cls == AST_WORD_MOD ||
		      w->cls == AST_WORD_CLAUSE ||
		      !strcmp(w->name, "loop") || !strcmp(w->name, "do") ||
		      !strcmp(w->name, "goto")) ||
		    (ctx->src[p] == '{' && w->cls == AST_WORD_DECL))
			return false;
		/* Where the word is: count the lines back to it. */
		for (size_t q = start; q < loc->first_off; q++)
			at.first_line -= ctx->src[q] == '\n';
		for (p = start; p > 0 && ctx->src[p - 1] != '\n'; p--)
			;
		at.first_column = (unsigned int)(start - p) + 1;
		if (p == 0 && ctx->len >= 3 &&
		    !memcmp(ctx->src, "\xef\xbb\xbf", 3))
			at.first_column -= 3;
		at.first_off = start;
		at.last_off = end;
		at.last_line = at.first_line;
		at.last_column = at.first_column + (unsigned int)(end - start) - 1;
	}
	diag_report(ctx->d, DIAG_NOTE, ast_diag_loc(at),
		    "'%.*s' is not a keyword: did you mean '%s'?",
		    (int)(at.last_off - at.first_off), ctx->src + at.first_off,
		    w->name);
	return true;
}

static int yyreport_syntax_error(const yypcontext_t *yyctx,
				 yyscan_t scanner, struct parse_ctx *ctx)
{
	enum { MAX_SHOWN = 6 };
	yysymbol_kind_t expected[YYNTOKENS], raw[YYNTOKENS];
	yysymbol_kind_t tok = yypcontext_token(yyctx);
	int nraw;
	const struct ast_loc *loc = yypcontext_location(yyctx);
	char *msg = NULL;
	size_t msglen = 0;
	FILE *f = open_memstream(&msg, &msglen);
	bool semi = false, name_wanted = false, paren_only = false;
	bool misspelt = false;
	const struct ast_word *w;
	const char *kw;
	size_t kwlen;
	int n;

	(void)scanner;
	if (!f) {
		parse_error(ctx, *loc, "syntax error");
		return 0;
	}
	fputs("syntax error", f);
	if (tok != YYSYMBOL_YYEMPTY) {
		fputs(", unexpected ", f);
		put_symbol(f, tok);
		/* Quote the offending word, so `opne` reads as itself. */
		if ((tok == YYSYMBOL_NAME || tok == YYSYMBOL_NUMBER) &&
		    loc->last_off > loc->first_off &&
		    loc->last_off <= ctx->len &&
		    loc->last_off - loc->first_off <= 40)
			fprintf(f, " '%.*s'",
				(int)(loc->last_off - loc->first_off),
				ctx->src + loc->first_off);
	}
	n = yypcontext_expected_tokens(yyctx, expected, YYNTOKENS);
	/* For ast_probe(): the input ended where more was wanted. */
	if (ctx->errors == 0 && tok == YYSYMBOL_YYEOF) {
		ctx->eof_error = 1;
		for (int i = 0; i < n; i++)
			ctx->wants_stmt |= expected[i] == YYSYMBOL_IF;
	}
	for (int i = 0; i < n; i++) {
		semi |= !strcmp(yysymbol_name(expected[i]), "';'");
	}
	name_wanted = n == 1 && expected[0] == YYSYMBOL_NAME;
	paren_only = n == 1 && !strcmp(yysymbol_name(expected[0]), "'('");
	/* Before grouping: the keywords themselves are wanted. */
	memcpy(raw, expected, (size_t)n * sizeof(expected[0]));
	nraw = n;
	if (n > MAX_SHOWN)
		n = group_expected(expected, n);

	if (n > 0 && n <= MAX_SHOWN) {
		for (int i = 0; i < n; i++) {
			fputs(i == 0 ? ", expected " :
			      i == n - 1 ? " or " : ", ", f);
			if ((int)expected[i] < 0)
				fputs(group_names[-(int)expected[i] - 1], f);
			else
				put_symbol(f, expected[i]);
		}
	}
	fclose(f);
	parse_error(ctx, *loc, "%s", msg ? msg : "syntax error");
	free(msg);
	if (!ctx->too_many)
		c_habit_note(ctx, loc);
	if (!ctx->too_many)
		misspelt = misspelt_note(ctx, loc, tok, raw, nraw);
	if (!ctx->too_many && name_wanted && tok >= YYSYMBOL_CONST &&
	    tok <= YYSYMBOL_LEN && loc->last_off > loc->first_off &&
	    loc->last_off <= ctx->len)
		keyword_note(ctx, loc, ctx->src + loc->first_off,
			     loc->last_off - loc->first_off);
	else if (!ctx->too_many && paren_only &&
		 (kw = word_before(ctx, loc, &kwlen)) &&
		 ((kwlen == 3 && !memcmp(kw, "len", 3)) ||
		  (kwlen == 6 && !memcmp(kw, "sizeof", 6)))) {
		/* 'sizeof addr', C's sizeof of a variable: the operand
		 * wants parentheses; nobody named a variable sizeof. */
		if (tok == YYSYMBOL_NAME && ctx->d &&
		    loc->last_off > loc->first_off &&
		    loc->last_off <= ctx->len)
			diag_report(ctx->d, DIAG_NOTE, ast_diag_loc(*loc),
				    "%.*s takes its operand in parentheses: "
				    "%.*s(%.*s)", (int)kwlen, kw,
				    (int)kwlen, kw,
				    (int)(loc->last_off - loc->first_off),
				    ctx->src + loc->first_off);
		else
			keyword_note(ctx, loc, kw, kwlen);
	}
	/* loop: as a goto label, the keyword before the ':'. */
	else if (!ctx->too_many && tok != YYSYMBOL_YYEOF &&
		 !strcmp(yysymbol_name(tok), "':'") &&
		 (kw = word_before(ctx, loc, &kwlen)) &&
		 (w = ast_word_find(kw, kwlen)) && w->cls != AST_WORD_ELEM)
		keyword_note(ctx, loc, kw, kwlen);
	if (!ctx->too_many && semi && !misspelt && tok != YYSYMBOL_YYEOF)
		semicolon_note(ctx, loc);
	return 0;
}

/*
 * Bison's own messages.  Its stack runs out ("memory exhausted") only
 * past one of the two limits: YYMAXDEPTH holds the deepest statements
 * with the deepest expression inside, so that the message can name
 * them (a nesting is seen from its innermost part, once the stack holds
 * all of it).
 */
static int lex_counted(SYL_STYPE *lval, SYL_LTYPE *lloc, yyscan_t scanner,
		       struct parse_ctx *ctx)
{
	int t = syl_lex(lval, lloc, scanner);

	if (t == IF && ctx->last_token == ELSE &&
	    !ctx->else_ifs_open++)
		ctx->else_if_first = *lloc;
	if (t == '(')
		ctx->parens_open++;
	else if (t == ')' && ctx->parens_open)
		ctx->parens_open--;
	else if (t == '{')
		ctx->braces_open++;
	else if (t == '}' && ctx->braces_open)
		ctx->braces_open--;
	ctx->last_token = t;
	return t;
}

void syl_error(SYL_LTYPE *loc, yyscan_t scanner, struct parse_ctx *ctx,
	       const char *msg)
{
	(void)scanner;
	/*
	 * An else-if chain holds all its arms on the stack until its last
	 * one, so a long one runs the stack out before any arm is reduced
	 * and nest_check() could count it: say what nest_check() would.
	 */
	if (!strcmp(msg, "memory exhausted") &&
	    ctx->else_ifs_open > AST_MAX_STMT_DEPTH) {
		parse_error(ctx, ctx->else_if_first, "program nested too deeply (more than %d levels of statements)",
			    AST_MAX_STMT_DEPTH);
		if (ctx->d && !ctx->too_many)
			diag_report(ctx->d, DIAG_NOTE,
				    ast_diag_loc(ctx->else_if_first),
				    "this else if starts a chain of more than %lu else ifs, a level each; each else if of a chain nests in the one before it, where ifs one after the other that end in goto or stop do not",
				    ctx->else_ifs_open);
		return;
	}
	/* Parentheses make no level of the tree, so only the stack
	 * bounds them; braces make one each. */
	if (!strcmp(msg, "memory exhausted") &&
	    ctx->parens_open > ctx->braces_open) {
		parse_error(ctx, *loc, "expression nested too deeply (more than %lu parentheses open)",
			    ctx->parens_open);
		return;
	}
	if (!strcmp(msg, "memory exhausted") &&
	    ctx->braces_open > AST_MAX_STMT_DEPTH) {
		parse_error(ctx, *loc, "program nested too deeply (more than %d levels of statements: %lu braces open)",
			    AST_MAX_STMT_DEPTH, ctx->braces_open);
		return;
	}
	if (!strcmp(msg, "memory exhausted")) {
		parse_error(ctx, *loc, "program nested too deeply (more than %d levels of statements or %d of an expression)",
			    AST_MAX_STMT_DEPTH, AST_MAX_EXPR_DEPTH);
		return;
	}
	parse_error(ctx, *loc, "%s", msg);
}
