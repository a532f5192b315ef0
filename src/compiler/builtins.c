/* builtins.c: the compiler's built-in names in one table: data constructors, element types and syscall(). */
#include <stdio.h>
#include <string.h>

#include "common/consts.h"
#include "compiler/compiler.h"
#include "compiler/sysletc.h"
#include "grammar/words.h"

/*
 * What a name means before any declaration, once: lowering checks
 * calls and data items against it, and the shell completes from it.
 * The order is the one messages list them in.
 */
static const struct sysletc_builtin builtins[] = {
	{ "u8", SYSLETC_B_DATA, 1, false, true, 1, 1 },
	{ "u16", SYSLETC_B_DATA, 2, false, true, 1, 1 },
	{ "u32", SYSLETC_B_DATA, 4, false, true, 1, 1 },
	{ "u64", SYSLETC_B_DATA, 8, false, true, 1, 1 },
	{ "word", SYSLETC_B_DATA, 0, false, true, 1, 1 },
	{ "htons", SYSLETC_B_DATA, 2, true, false, 1, 1 },
	{ "htonl", SYSLETC_B_DATA, 4, true, false, 1, 1 },
	{ "be16", SYSLETC_B_DATA, 2, true, false, 1, 1 },
	{ "be32", SYSLETC_B_DATA, 4, true, false, 1, 1 },
	{ "be64", SYSLETC_B_DATA, 8, true, false, 1, 1 },
	/* family, port, address, padding: struct sockaddr_in. */
	{ "sockaddr_in", SYSLETC_B_DATA, 16, false, false, 2, 2 },
	/* The number, then at most six arguments. */
	{ "syscall", SYSLETC_B_CALL, 0, false, false, 1, 7 },
};

#define NR_BUILTINS	(sizeof(builtins) / sizeof(builtins[0]))

const struct sysletc_builtin *sysletc_builtins(size_t *n)
{
	*n = NR_BUILTINS;
	return builtins;
}

const struct sysletc_builtin *sysletc_builtin_find(const char *name)
{
	for (size_t i = 0; i < NR_BUILTINS; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/* "u8, u16 ... or sockaddr_in": the names of a kind, for messages. */
size_t sysletc_builtin_list(char *buf, size_t len, unsigned int kind,
			    bool elem_only)
{
	size_t i, k = 0, total = 0, used = 0;

	for (i = 0; i < NR_BUILTINS; i++)
		total += builtins[i].kind == kind &&
			 (!elem_only || builtins[i].elem);
	if (len)
		buf[0] = '\0';
	for (i = 0; i < NR_BUILTINS; i++) {
		const char *sep;
		int n;

		if (builtins[i].kind != kind || (elem_only && !builtins[i].elem))
			continue;
		sep = k == 0 ? "" : k + 1 == total ? " or " : ", ";
		k++;
		n = snprintf(buf + (used < len ? used : len),
			     used < len ? len - used : 0, "%s%s", sep,
			     builtins[i].name);
		if (n > 0)
			used += (size_t)n;
	}
	return used;
}

void sysletc_words(void (*add)(void *ctx, const char *word), void *ctx)
{
	const struct ast_word *w;
	const struct sysconst *c;
	size_t i, n;

	w = ast_words(&n);
	for (i = 0; i < n; i++)
		add(ctx, w[i].name);
	for (i = 0; i < NR_BUILTINS; i++)
		add(ctx, builtins[i].name);
	c = sysconst_all(&n);
	for (i = 0; i < n; i++)
		add(ctx, c[i].name);
}
