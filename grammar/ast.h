/* ast.h: the syntax tree the parser builds, and the source location type it carries. */
#ifndef SYSLET_AST_H
#define SYSLET_AST_H

/*
 * The parser only builds this tree; every check of meaning (names,
 * types, what the atom model can express) is done by lowering.  So the
 * grammar stays permissive (any expression where an expression may be)
 * and the errors that say *why* something cannot be compiled come from
 * one place.
 */

#include <stddef.h>
#include <stdint.h>

#include "grammar/diag.h"

/* Bison's location type (api.location.type); offsets are byte offsets
 * into the source so lowering can quote a statement's text. */
struct ast_loc {
	unsigned int	first_line;
	unsigned int	first_column;
	unsigned int	last_line;
	unsigned int	last_column;	/* inclusive */
	size_t		first_off;
	size_t		last_off;	/* exclusive */
};

/* Replacement for bison's YYLLOC_DEFAULT that also carries offsets. */
#define AST_LLOC_DEFAULT(cur, rhs, n)					\
	do {								\
		if (n) {						\
			(cur).first_line = (rhs)[1].first_line;		\
			(cur).first_column = (rhs)[1].first_column;	\
			(cur).first_off = (rhs)[1].first_off;		\
			(cur).last_line = (rhs)[n].last_line;		\
			(cur).last_column = (rhs)[n].last_column;	\
			(cur).last_off = (rhs)[n].last_off;		\
		} else {						\
			(cur).first_line = (cur).last_line =		\
				(rhs)[0].last_line;			\
			(cur).first_column = (cur).last_column =	\
				(rhs)[0].last_column + 1;		\
			(cur).first_off = (cur).last_off =		\
				(rhs)[0].last_off;			\
		}							\
	} while (0)

/* Deeper expressions are refused by the parser, so every walk over
 * the tree is bounded (the fuzzer feeds `a+a+a+...`). */
#define AST_MAX_EXPR_DEPTH	200
/* The same for statements inside statements: if, else, while, do, for,
 * loop, a block, a label or a modifier each add a level. */
#define AST_MAX_STMT_DEPTH	1000
/* Each statement that calls the kernel or assigns a variable makes one
 * atom or more, and an image holds at most SLO_MAX_ATOMS: past this many
 * the parser stops, before a 64 MiB source of `x++;` takes ~1 KB a
 * statement (16 GB) only to be refused at the end. */
#define AST_MAX_EXPR_STMTS	(1u << 20)
/* The same for variables: each takes a cell, and an image holds at most
 * SLO_MAX_CELLS (64 MiB of `var v1, v2, ...` took ~4 GB). */
#define AST_MAX_VARS		(1u << 20)
/* And for buffers and data objects: each takes a symbol, and past as
 * many as an image holds cells the parser stops (64 MiB of `data dN =
 * "x";` took ~700 bytes a declaration, 2.9 GB, before the image's
 * 4194304 symbols refused it at the end).  With variables and atoms
 * capped alike, what a parse accepts stays under SLO_MAX_SYMBOLS. */
#define AST_MAX_OBJECTS		(1u << 20)

enum ast_expr_kind {
	AST_NUM,	/* num */
	AST_STR,	/* str, len: a string literal (escapes decoded) */
	AST_NAME,	/* name */
	AST_ADDR,	/* &name, &name[l] */
	AST_SIZEOF,	/* sizeof(name | string | name[l]) */
	AST_LEN,	/* len(name | string) */
	AST_UNARY,	/* op l: '-', '~', '!' */
	AST_BINARY,	/* l op r: arithmetic, comparisons, && || */
	AST_CALL,	/* name(args): syscalls and data constructors */
	AST_ASSIGN,	/* l op= r; op is '=' or AST_OP_* compound */
	AST_INCDEC,	/* ++l, --l, l++, l-- */
	AST_BYTES,	/* { args }: a byte list in data */
	AST_INDEX,	/* name[l]: an element of a buffer or data */
};

/* Multi-character operators. */
enum ast_op {
	AST_OP_SHL = 256,
	AST_OP_SHR,
	AST_OP_LE,
	AST_OP_GE,
	AST_OP_EQ,
	AST_OP_NE,
	AST_OP_AND,
	AST_OP_OR,
	AST_OP_ADD_ASSIGN,
	AST_OP_SUB_ASSIGN,
	AST_OP_MUL_ASSIGN,
	AST_OP_DIV_ASSIGN,
	AST_OP_MOD_ASSIGN,
	AST_OP_SHL_ASSIGN,
	AST_OP_SHR_ASSIGN,
	AST_OP_AND_ASSIGN,
	AST_OP_OR_ASSIGN,
	AST_OP_XOR_ASSIGN,
	AST_OP_INC,
	AST_OP_DEC,
};

struct ast_expr {
	enum ast_expr_kind	kind;
	int			op;
	int			postfix;	/* AST_INCDEC: x++ rather than ++x */
	int			paren;		/* written inside parentheses */
	unsigned int		depth;
	int64_t			num;
	char			*name;
	char			*str;
	size_t			len;
	struct ast_expr		*l, *r;
	struct ast_expr		*args;		/* AST_CALL, AST_BYTES */
	struct ast_expr		*next;		/* in an argument list */
	struct ast_expr		*last;		/* valid in the list head */
	struct ast_loc		loc;
};

enum ast_stmt_kind {
	AST_S_EMPTY,
	AST_S_EXPR,	/* expr; (calls, assignments) */
	AST_S_BLOCK,	/* { body } */
	AST_S_IF,	/* if (cond) body else els */
	AST_S_WHILE,	/* while (cond) body */
	AST_S_DO,	/* do body while (cond); */
	AST_S_FOR,	/* for (init; cond; step) body */
	AST_S_LOOP,	/* loop body */
	AST_S_BREAK,
	AST_S_CONTINUE,
	AST_S_GOTO,	/* goto name; */
	AST_S_LABEL,	/* name: body */
	AST_S_STOP,
	AST_S_MOD,	/* async/sync/nocomplete body; flags in mods */
	AST_S_DECL,	/* a declaration inside a syslet: decl */
};

/* Atom modifiers (values are the SYSLET_* flags they set). */
#define AST_MOD_ASYNC		0x1u
#define AST_MOD_SYNC		0x2u
#define AST_MOD_NOCOMPLETE	0x4u

struct ast_decl;

struct ast_stmt {
	enum ast_stmt_kind	kind;
	struct ast_expr		*expr;		/* EXPR; cond of IF/WHILE/DO/FOR */
	struct ast_expr		*init, *step;	/* FOR */
	struct ast_stmt		*body, *els;
	struct ast_decl		*decl;		/* DECL */
	char			*name;		/* GOTO, LABEL */
	unsigned int		mods;		/* MOD */
	struct ast_stmt		*next;
	struct ast_stmt		*last;		/* valid in the list head */
	struct ast_loc		loc;
	struct ast_loc		head;		/* "while (...)": for listings */
	unsigned int		height;		/* levels, this one included */
};

enum ast_decl_kind {
	AST_D_CONST,	/* const name = expr; */
	AST_D_VAR,	/* var name [= expr]; one decl per name */
	AST_D_BUFFER,	/* buffer name[expr];  or  TYPE name[expr]; */
	AST_D_DATA,	/* data [TYPE] name = items; (items chained by next) */
	AST_D_SYSLET,	/* syslet name(params) { body } */
	AST_D_PARAM,	/* str|int|TYPE name, in a syslet's params */
};

/* AST_PARAM_NAMED: the type is a name (sockaddr_in), in decl->type. */
enum ast_param_type { AST_PARAM_INT, AST_PARAM_STR, AST_PARAM_NAMED };

struct ast_decl {
	enum ast_decl_kind	kind;
	char			*name;
	struct ast_expr		*expr;		/* value, size, or data items */
	struct ast_decl		*params;	/* SYSLET */
	enum ast_param_type	ptype;		/* PARAM */
	char			*type;		/* element or parameter type as
						   written (u32, sockaddr_in), or
						   NULL */
	struct ast_loc		type_loc;
	struct ast_stmt		*body;		/* SYSLET */
	struct ast_decl		*next;
	struct ast_decl		*last;		/* valid in the list head */
	struct ast_loc		loc;		/* the whole declaration */
	struct ast_loc		name_loc;
};

struct ast_file {
	struct ast_decl		*decls;
	struct ast_stmt		*stmts;	/* AST_UNIT_STMTS: the statements */
};

/* Constructors; all abort-free: on allocation failure they return NULL
 * after freeing their operands, and the parser reports "out of memory". */
struct ast_expr *ast_expr_new(enum ast_expr_kind kind, struct ast_loc loc);
struct ast_expr *ast_num(int64_t v, struct ast_loc loc);
struct ast_expr *ast_name(char *name, struct ast_loc loc);
struct ast_expr *ast_unary(int op, struct ast_expr *l, struct ast_loc loc);
struct ast_expr *ast_binary(int op, struct ast_expr *l, struct ast_expr *r,
			    struct ast_loc loc);
struct ast_expr *ast_expr_append(struct ast_expr *list, struct ast_expr *e);
void ast_expr_free(struct ast_expr *e);

struct ast_stmt *ast_stmt_new(enum ast_stmt_kind kind, struct ast_loc loc);
struct ast_stmt *ast_stmt_append(struct ast_stmt *list, struct ast_stmt *s);
void ast_stmt_free(struct ast_stmt *s);

struct ast_decl *ast_decl_new(enum ast_decl_kind kind, char *name,
			      struct ast_loc loc);
struct ast_decl *ast_decl_append(struct ast_decl *list, struct ast_decl *d);
void ast_decl_free(struct ast_decl *d);

void ast_file_free(struct ast_file *f);

/* Parse src (len bytes, NULs allowed) into *out.  Every error goes to d;
 * returns the number of errors.  *out is always set (maybe partial) and
 * must be freed with ast_file_free. */
int ast_parse(const char *src, size_t len, struct diag *d,
	      struct ast_file **out);

/*
 * What a piece of input is parsed as: a file (declarations and
 * syslets), or statements as in a syslet's body (the shell's lines).
 */
enum ast_unit { AST_UNIT_FILE, AST_UNIT_STMTS };

/* What ast_probe() found. */
enum ast_probe_status {
	AST_PROBE_OK,		/* parses */
	AST_PROBE_EOF,		/* first error: "unexpected end of input" */
	AST_PROBE_ERROR,	/* first error before the end */
};

struct ast_probe {
	enum ast_probe_status	status;
	int			depth;		/* '{' minus '}' scanned */
	int			in_comment;	/* the input ended in one */
	int			wants_stmt;	/* at the end, a statement
						 * could have come next */
};

/*
 * Parse src as unit, quietly, and say whether the input is complete:
 * a shell asks this to decide whether to read another line.  *out, if
 * out is given, gets the tree as ast_parse() would.
 */
void ast_probe(const char *src, size_t len, enum ast_unit unit,
	       struct ast_probe *r, struct ast_file **out);

/*
 * '{' minus '}' tokens in src, a fragment scanned on its own, starting
 * inside a comment if *in_comment; *in_comment says whether it ends in
 * one.  Lets a shell skip parsing lines that cannot close what is open.
 */
int ast_brace_balance(const char *src, size_t len, int *in_comment);

/* Call fn for each name (identifier that is not a keyword here) of src,
 * as the scanner reads them: a shell finds what a line refers to. */
void ast_scan_names(const char *src, size_t len,
		    void (*fn)(void *ctx, const char *name), void *ctx);

/* A diagnostic position from a location (caret over the first line). */
struct diag_loc ast_diag_loc(struct ast_loc loc);

#endif /* SYSLET_AST_H */
