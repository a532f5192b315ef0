/* names.c: the shell completes exactly the language's words: the grammar's keyword table, the compiler's built-ins and the predefined constants, nothing missing, nothing of its own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/consts.h"
#include "compiler/compiler.h"
#include "grammar/words.h"
#include "run/shell-int.h"

struct list {
	char	*v[1024];
	size_t	n;
};

static void add(void *ctx, const char *name)
{
	struct list *l = ctx;

	if (l->n < sizeof(l->v) / sizeof(l->v[0]))
		l->v[l->n++] = strdup(name);
}

static int has(const struct list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] && !strcmp(l->v[i], name))
			return 1;
	return 0;
}

int main(void)
{
	/* The words the shell's own copy had lost, and two it had. */
	static const char *const must[] = {
		"u8", "word", "htonl", "be16", "be32", "be64", "syscall",
		"sockaddr_in", "O_RDONLY", "AF_INET",
	};
	struct shell sh;
	struct list got = { .n = 0 }, want = { .n = 0 };
	const struct ast_word *w;
	const struct sysletc_builtin *b;
	const struct sysconst *c;
	size_t i, n;
	int bad = 0;

	memset(&sh, 0, sizeof(sh));
	shl_names(&sh, SHL_N_KEYWORD, add, &got);
	w = ast_words(&n);
	for (i = 0; i < n; i++)
		add(&want, w[i].name);
	b = sysletc_builtins(&n);
	for (i = 0; i < n; i++)
		add(&want, b[i].name);
	c = sysconst_all(&n);
	for (i = 0; i < n; i++)
		add(&want, c[i].name);
	for (i = 0; i < want.n; i++)
		if (!has(&got, want.v[i])) {
			fprintf(stderr, "names: '%s' is in the tables but "
				"not completed\n", want.v[i]);
			bad = 1;
		}
	for (i = 0; i < got.n; i++)
		if (!has(&want, got.v[i])) {
			fprintf(stderr, "names: '%s' is completed but in no "
				"table\n", got.v[i]);
			bad = 1;
		}
	for (i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!has(&got, must[i])) {
			fprintf(stderr, "names: '%s' is not completed\n",
				must[i]);
			bad = 1;
		}
	if (!bad)
		printf("names: %zu words completed, as the tables have\n",
		       got.n);
	for (i = 0; i < got.n; i++)
		free(got.v[i]);
	for (i = 0; i < want.n; i++)
		free(want.v[i]);
	return bad;
}
