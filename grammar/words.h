/* words.h: the words of the syslet language in one table: the scanner reads its keywords from it, the shell completes from it. */
#ifndef SYSLET_WORDS_H
#define SYSLET_WORDS_H

#include <stddef.h>

/*
 * What a word is to the grammar.  A word of class AST_WORD_ELEM is a
 * type only before a name (u32 fds[2]; sockaddr_in a) and a plain name
 * elsewhere (u32(1) in data, a variable called word); `sync` is the
 * modifier except before '(' (the system call).  Adding a keyword is one
 * row here and its %token and rules in parser.y.
 */
enum ast_word_class {
	AST_WORD_DECL,		/* starts a declaration */
	AST_WORD_PTYPE,		/* a parameter type (int also an element) */
	AST_WORD_STMT,		/* starts a statement */
	AST_WORD_CLAUSE,	/* continues one (else) */
	AST_WORD_MOD,		/* a modifier before a statement */
	AST_WORD_EXPR,		/* sizeof, len */
	AST_WORD_ELEM,		/* a type before a name, else a name */
};

struct ast_word {
	const char		*name;
	int			token;	/* the parser's token (TYPE for ELEM) */
	enum ast_word_class	cls;
};

/* Every word, in the order syslet(5) introduces them. */
const struct ast_word *ast_words(size_t *n);
/* The word spelled s[0..n), or NULL for a plain name. */
const struct ast_word *ast_word_find(const char *s, size_t n);
/* The keyword that s[0..n), no word itself, misspells by one edit (a
 * letter changed, added or dropped, or two swapped), or NULL. */
const struct ast_word *ast_word_near(const char *s, size_t n);
/* The keyword whose token is tok (not ELEM words), or NULL. */
const struct ast_word *ast_word_of_token(int tok);

#endif /* SYSLET_WORDS_H */
