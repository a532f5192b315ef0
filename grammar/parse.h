/* parse.h: state shared by the reentrant scanner and the pure parser of one source. */
#ifndef SYSLET_PARSE_H
#define SYSLET_PARSE_H

#include <setjmp.h>
#include <stddef.h>

#include "grammar/ast.h"
#include "grammar/diag.h"

/* One per ast_parse() call: the scanner's extra data and the parser's
 * parameter, so nothing in grammar/ is global.  d NULL: errors are only
 * counted (ast_probe()). */
struct parse_ctx {
	struct diag	*d;
	struct ast_file	*file;
	const char	*src;
	size_t		len;
	/* Position of the next byte the scanner reads. */
	unsigned int	line;
	unsigned int	col;
	size_t		off;
	/* Comment start, for "unterminated comment". */
	struct ast_loc	comment;
	/* Set after PARSE_MAX_ERRORS: the scanner then ends the input, so
	 * a binary file gives a screenful, not a million lines. */
	int		too_many;
	unsigned int	errors;
	/* The first token the scanner returns: which unit to parse (0
	 * once returned), and whether to start inside a comment. */
	int		start_token;
	int		start_comment;
	/* For ast_probe(): braces open, and how the input ended. */
	int		depth;
	int		at_end;		/* the scanner returned END */
	int		end_in_comment;
	int		eof_error;	/* the first error was at END */
	int		wants_stmt;
	/* Statements that make atoms, up to AST_MAX_EXPR_STMTS. */
	unsigned long	expr_stmts;
	/* Variables declared, up to AST_MAX_VARS. */
	unsigned long	vars;
	/* Buffers and data objects declared, up to AST_MAX_OBJECTS. */
	unsigned long	objects;
	/* Syslets whose body made no atom of its own (each then ends in a
	 * stop atom), and expr_stmts when the last syslet ended: what the
	 * atoms' cap counts besides expr_stmts. */
	unsigned long	bare_syslets;
	unsigned long	stmts_at_syslet;
	/* For the message when bison's stack runs out: the last token,
	 * the else ifs read and not yet reduced (each holds its part of
	 * the stack until the chain ends), and where the first began. */
	int		last_token;
	unsigned long	else_ifs_open;
	struct ast_loc	else_if_first;
	/* Parentheses and braces open, for the same message. */
	unsigned long	parens_open;
	unsigned long	braces_open;
	/* Where flex's fatal errors (out of memory) go: set by parse()
	 * and scan_all() before the first call that can make one. */
	jmp_buf		*fatal;
};

#define PARSE_MAX_ERRORS	50

void parse_error(struct parse_ctx *ctx, struct ast_loc loc, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

#endif /* SYSLET_PARSE_H */
