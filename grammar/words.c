/* words.c: the table of the language's words and its look-ups. */
#include <stdbool.h>
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

/*
 * One edit from @kw to s[0..n): two neighbours swapped at any length;
 * a letter changed, added or dropped only when kw has 4 letters or
 * more, so that a name such as 'fork' or 'it' is never taken for for
 * or if.
 */
static bool one_edit(const char *kw, const char *s, size_t n)
{
	size_t k = strlen(kw), i = 0;

	while (i < k && i < n && kw[i] == s[i])
		i++;
	if (k == n) {
		if (i == k)
			return false;
		if (i + 1 < k && kw[i] == s[i + 1] && kw[i + 1] == s[i] &&
		    !strncmp(kw + i + 2, s + i + 2, k - i - 2))
			return true;
		return k >= 4 && !strncmp(kw + i + 1, s + i + 1, k - i - 1);
	}
	if (k < 4)
		return false;
	if (n == k + 1)
		return !strncmp(kw + i, s + i + 1, k - i);
	if (n + 1 == k)
		return !strncmp(kw + i + 1, s + i, n - i);
	return false;
}

const struct ast_word *ast_word_near(const char *s, size_t n)
{
	if (ast_word_find(s, n))
		return NULL;
	for (size_t i = 0; i < NR_WORDS; i++)
		if (words[i].cls != AST_WORD_ELEM &&
		    one_edit(words[i].name, s, n))
			return &words[i];
	return NULL;
}
