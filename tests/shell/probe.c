/* probe.c: sysletc_probe() and its kin (sysletc.h) answer the shell's questions as the parser does, and keep the sz rule of the public structs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/sysletc.h"
#include "grammar/words.h"

static int failed;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		failed = 1;						\
	}								\
} while (0)

/* "name:kind name:kind ..." of what the callback saw. */
static void seen(void *ctx, const char *name, int kind)
{
	char *buf = ctx;
	size_t n = strlen(buf);

	snprintf(buf + n, 256 - n, "%s%s:%d", n ? " " : "", name, kind);
}

struct want {
	const char	*src;
	int		unit;
	int		status, depth, in_comment, wants_stmt, els;
	const char	*names;
};

static const struct want wants[] = {
	{ "x = 1;", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_OK, 0, 0, 0, 0,
	  "x:5" },
	{ "x += 1;", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_OK, 0, 0, 0, 0, "" },
	{ "x = 1", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_EOF, 0, 0, 0, 0, "" },
	{ "if (x)", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_EOF, 0, 0, 1, 0, "" },
	{ "if (x) y = 1;", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_OK, 0, 0, 0, 1,
	  "" },
	{ "if (x) y = 1; else y = 2;", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_OK,
	  0, 0, 0, 0, "" },
	{ "while (x) {", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_EOF, 1, 0, 1, 0,
	  "" },
	{ "/* open", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_EOF, 0, 1, 0, 0, "" },
	{ "f(;", SYSLETC_UNIT_STMTS, SYSLETC_PROBE_ERROR, 0, 0, 0, 0, "" },
	{ "const N = 2; var v; buffer b[N]; u32 w[2]; data d = { 1 };\n"
	  "syslet s(int a) { }", SYSLETC_UNIT_FILE, SYSLETC_PROBE_OK,
	  0, 0, 0, 0, "N:0 v:1 b:2 w:2 d:3 s:4" },
	{ "syslet s() {", SYSLETC_UNIT_FILE, SYSLETC_PROBE_EOF, 1, 0, 1, 0,
	  "" },
};

static void check_probe(void)
{
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		char names[256] = "";
		struct sysletc_probe r = { .sz = sizeof(r), .name = seen,
					   .ctx = names };
		int ret = sysletc_probe(w->src, strlen(w->src), w->unit, &r);

		CHECK(ret == 0, "%s: returned %d", w->src, ret);
		CHECK(r.status == w->status, "%s: status %d, not %d", w->src,
		      r.status, w->status);
		CHECK(r.depth == w->depth, "%s: depth %d", w->src, r.depth);
		CHECK(r.in_comment == w->in_comment, "%s: in_comment %d",
		      w->src, r.in_comment);
		CHECK(!r.wants_stmt == !w->wants_stmt, "%s: wants_stmt %d",
		      w->src, r.wants_stmt);
		CHECK(r.else_may_follow == w->els, "%s: else_may_follow %d",
		      w->src, r.else_may_follow);
		CHECK(!strcmp(names, w->names), "%s: names '%s', not '%s'",
		      w->src, names, w->names);
	}
}

/* The sz rule of libsyslet.h's structs. */
static void check_sz(void)
{
	struct {
		struct sysletc_probe	r;
		unsigned char		more[8];
	} big;
	struct sysletc_probe r = { 0 };
	size_t old = offsetof(struct sysletc_probe, status) + sizeof(int);

	CHECK(sysletc_probe("x;", 2, SYSLETC_UNIT_STMTS, &r) == -EINVAL,
	      "sz 0 taken");
	memset(&big, 0, sizeof(big));
	big.r.sz = sizeof(big);
	CHECK(sysletc_probe("{", 1, SYSLETC_UNIT_STMTS, &big.r) == 0 &&
	      big.r.depth == 1, "a newer caller's zeroed struct refused");
	big.more[3] = 1;
	CHECK(sysletc_probe("{", 1, SYSLETC_UNIT_STMTS, &big.r) == -EINVAL,
	      "a newer caller's field taken for zero");
	/* An older caller knew status only: nothing past it is written. */
	memset(&r, 0x5a, sizeof(r));
	r.sz = old;
	r.name = NULL;
	CHECK(sysletc_probe("{", 1, SYSLETC_UNIT_STMTS, &r) == 0 &&
	      r.status == SYSLETC_PROBE_EOF, "an older caller's struct");
	CHECK(((unsigned char *)&r)[old] == 0x5a, "wrote past the caller's sz");
}

/* Words: the grammar's table, through the public classes. */
static void check_words(void)
{
	static const struct { const char *w; int cls; } some[] = {
		{ "const", SYSLETC_WORD_DECL }, { "syslet", SYSLETC_WORD_DECL },
		{ "else", SYSLETC_WORD_CLAUSE }, { "if", SYSLETC_WORD_STMT },
		{ "u32", SYSLETC_WORD_ELEM }, { "str", SYSLETC_WORD_PTYPE },
		{ "sizeof", SYSLETC_WORD_EXPR }, { "elsewhere", SYSLETC_WORD_NAME },
		{ "x", SYSLETC_WORD_NAME },
	};
	const struct ast_word *all;
	size_t n;

	for (size_t i = 0; i < sizeof(some) / sizeof(some[0]); i++)
		CHECK(sysletc_word_class(some[i].w, strlen(some[i].w)) ==
		      some[i].cls, "%s: class %d", some[i].w,
		      sysletc_word_class(some[i].w, strlen(some[i].w)));
	CHECK(sysletc_word_class("elsewhere", 4) == SYSLETC_WORD_CLAUSE,
	      "a prefix of length n");
	CHECK(sysletc_word_class("", 0) == SYSLETC_WORD_NAME, "empty");
	all = ast_words(&n);
	for (size_t i = 0; i < n; i++)
		CHECK(sysletc_word_class(all[i].name, strlen(all[i].name)) !=
		      SYSLETC_WORD_NAME, "%s: no class", all[i].name);
}

static void count(void *ctx, const char *name)
{
	char *buf = ctx;
	size_t n = strlen(buf);

	snprintf(buf + n, 256 - n, "%s%s", n ? " " : "", name);
}

static void check_scan(void)
{
	char names[256] = "";
	int c = 0;

	sysletc_scan_names("if (fd) write(fd, buf, len(buf)); /* n */", 41,
			   count, names);
	CHECK(!strcmp(names, "fd write fd buf buf"), "names '%s'", names);
	CHECK(sysletc_brace_balance("{ { } /* {", 10, &c) == 1 && c == 1,
	      "balance into a comment");
	CHECK(sysletc_brace_balance("} */ }", 6, &c) == -1 && c == 0,
	      "balance out of a comment");
}

int main(void)
{
	check_probe();
	check_sz();
	check_words();
	check_scan();
	return failed;
}
