/* words.c: the table of the language's words and its look-ups. */
#include <string.h>

#include "grammar/words.h"
#include "grammar/parser.h"

static const struct ast_word words[] = {
	{ "const", CONST, AST_WORD_DECL },
	{ "var", VAR, AST_WORD_DECL },
	{ "buffer", BUFFER, AST_WORD_DECL },
	{ "data", DATA, AST_WORD_DECL },
	{ "syslet", SYSLET, AST_WORD_DECL },
	{ "str", STR_T, AST_WORD_PTYPE },
	{ "int", INT_T, AST_WORD_PTYPE },
	{ "if", IF, AST_WORD_STMT },
	{ "else", ELSE, AST_WORD_CLAUSE },
	{ "while", WHILE, AST_WORD_STMT },
	{ "do", DO, AST_WORD_STMT },
	{ "for", FOR, AST_WORD_STMT },
	{ "loop", LOOP, AST_WORD_STMT },
	{ "break", BREAK, AST_WORD_STMT },
	{ "continue", CONTINUE, AST_WORD_STMT },
	{ "goto", GOTO, AST_WORD_STMT },
	{ "stop", STOP, AST_WORD_STMT },
	{ "async", ASYNC, AST_WORD_MOD },
	{ "sync", SYNC, AST_WORD_MOD },
	{ "nocomplete", NOCOMPLETE, AST_WORD_MOD },
	{ "sizeof", SIZEOF, AST_WORD_EXPR },
	{ "len", LEN, AST_WORD_EXPR },
	{ "u8", TYPE, AST_WORD_ELEM },
	{ "u16", TYPE, AST_WORD_ELEM },
	{ "u32", TYPE, AST_WORD_ELEM },
	{ "u64", TYPE, AST_WORD_ELEM },
	{ "word", TYPE, AST_WORD_ELEM },
	{ "sockaddr_in", TYPE, AST_WORD_ELEM },
};

#define NR_WORDS	(sizeof(words) / sizeof(words[0]))

const struct ast_word *ast_words(size_t *n)
{
	*n = NR_WORDS;
	return words;
}

/* Called for every identifier the scanner sees: the first byte and the
 * length rule out almost every row before strncmp. */
const struct ast_word *ast_word_find(const char *s, size_t n)
{
	for (size_t i = 0; i < NR_WORDS; i++)
		if (words[i].name[0] == s[0] && !strncmp(words[i].name, s, n) &&
		    words[i].name[n] == '\0')
			return &words[i];
	return NULL;
}

const struct ast_word *ast_word_of_token(int tok)
{
	for (size_t i = 0; i < NR_WORDS; i++)
		if (words[i].token == tok && words[i].cls != AST_WORD_ELEM)
			return &words[i];
	return NULL;
}
