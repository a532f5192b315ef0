/* parse.c: the parser builds the tree it should: kinds, lists, literals, locations and offsets, error counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "grammar/ast.h"
#include "grammar/words.h"

struct parsed {
	struct ast_file	*f;
	char		*out;
	int		errors;
};

static struct parsed parse(const char *src)
{
	struct parsed r = { 0 };
	size_t n = 0;
	FILE *f = open_memstream(&r.out, &n);
	struct diag d;

	diag_init(&d, "t.syslet", src, strlen(src), f);
	r.errors = ast_parse(src, strlen(src), &d, &r.f);
	diag_flush(&d);
	fclose(f);
	return r;
}

static void done(struct parsed *r)
{
	ast_file_free(r->f);
	free(r->out);
}

static void test_decls(void **state)
{
	struct parsed r = parse("const N = 4;\nvar a, b = 2, c;\nbuffer buf[N];\n"
				"data d = \"x\", u16(3);\nsyslet s(str p, int n) { }\n");
	struct ast_decl *d;

	(void)state;
	assert_int_equal(r.errors, 0);
	d = r.f->decls;
	assert_int_equal(d->kind, AST_D_CONST);
	assert_string_equal(d->name, "N");
	d = d->next;
	assert_int_equal(d->kind, AST_D_VAR);
	assert_string_equal(d->name, "a");
	assert_null(d->expr);
	d = d->next;
	assert_string_equal(d->name, "b");
	assert_int_equal(d->expr->kind, AST_NUM);
	assert_int_equal(d->expr->num, 2);
	d = d->next;
	assert_string_equal(d->name, "c");
	d = d->next;
	assert_int_equal(d->kind, AST_D_BUFFER);
	d = d->next;
	assert_int_equal(d->kind, AST_D_DATA);
	assert_int_equal(d->expr->kind, AST_STR);
	assert_int_equal(d->expr->next->kind, AST_CALL);
	d = d->next;
	assert_int_equal(d->kind, AST_D_SYSLET);
	assert_string_equal(d->params->name, "p");
	assert_int_equal(d->params->ptype, AST_PARAM_STR);
	assert_int_equal(d->params->next->ptype, AST_PARAM_INT);
	assert_null(d->next);
	done(&r);
}

static void test_literals(void **state)
{
	struct parsed r = parse("data d = \"a\\tb\" \"c\\x41\\0\";\n"
				"const X = 0x10 + 010 + 0b101 + 'A' + '\\n';\n");
	struct ast_expr *e;

	(void)state;
	assert_int_equal(r.errors, 0);
	e = r.f->decls->expr;
	assert_int_equal(e->len, 6);
	assert_memory_equal(e->str, "a\tbcA\0", 6);
	e = r.f->decls->next->expr;	/* ((((16 + 8) + 5) + 65) + 10) */
	assert_int_equal(e->kind, AST_BINARY);
	assert_int_equal(e->r->num, 10);
	assert_int_equal(e->l->r->num, 65);
	assert_int_equal(e->l->l->r->num, 5);
	assert_int_equal(e->l->l->l->r->num, 8);
	assert_int_equal(e->l->l->l->l->num, 16);
	done(&r);
}

static void test_locations(void **state)
{
	const char *src = "syslet s() {\n\tvar fd;\n\tfd = open(\"x\", 0);\n"
			  "\tif (fd < 0)\n\t\tstop;\n}\n";
	struct parsed r = parse(src);
	struct ast_stmt *s;

	(void)state;
	assert_int_equal(r.errors, 0);
	s = r.f->decls->body->body;	/* the block's statements */
	assert_int_equal(s->kind, AST_S_DECL);
	s = s->next;
	assert_int_equal(s->kind, AST_S_EXPR);
	assert_int_equal(s->loc.first_line, 3);
	assert_int_equal(s->loc.first_column, 2);
	assert_int_equal(s->loc.last_column, 19);
	assert_int_equal(s->loc.last_off - s->loc.first_off, 18);
	assert_memory_equal(src + s->loc.first_off, "fd = open(\"x\", 0);", 18);
	assert_int_equal(s->expr->kind, AST_ASSIGN);
	assert_int_equal(s->expr->r->kind, AST_CALL);
	s = s->next;
	assert_int_equal(s->kind, AST_S_IF);
	assert_memory_equal(src + s->head.first_off, "if (fd < 0)",
			    s->head.last_off - s->head.first_off);
	assert_int_equal(s->body->kind, AST_S_STOP);
	assert_int_equal(s->body->loc.first_line, 5);
	assert_null(s->next);
	done(&r);
}

static void test_statements(void **state)
{
	struct parsed r = parse("syslet s() { async sync(); L: goto L; loop break;"
				" do continue; while (1); for (;;) ; x++; --x; }");
	struct ast_stmt *s;

	(void)state;
	assert_int_equal(r.errors, 0);
	s = r.f->decls->body->body;
	assert_int_equal(s->kind, AST_S_MOD);
	assert_int_equal(s->mods, AST_MOD_ASYNC);
	/* sync( is the system call, not the modifier */
	assert_int_equal(s->body->expr->kind, AST_CALL);
	assert_string_equal(s->body->expr->name, "sync");
	s = s->next;
	assert_int_equal(s->kind, AST_S_LABEL);
	assert_int_equal(s->body->kind, AST_S_GOTO);
	s = s->next;
	assert_int_equal(s->kind, AST_S_LOOP);
	assert_int_equal(s->body->kind, AST_S_BREAK);
	s = s->next;
	assert_int_equal(s->kind, AST_S_DO);
	s = s->next;
	assert_int_equal(s->kind, AST_S_FOR);
	assert_null(s->expr);
	s = s->next;
	assert_int_equal(s->expr->kind, AST_INCDEC);
	assert_true(s->expr->postfix);
	s = s->next;
	assert_false(s->expr->postfix);
	done(&r);
}

static void test_errors_all_reported(void **state)
{
	struct parsed r = parse("syslet s() {\n\tf(;\n\tvar = 1;\n\tg() 2;\n}\n"
				"const = 3;\n");

	(void)state;
	assert_int_equal(r.errors, 4);
	assert_non_null(strstr(r.out, "t.syslet:2:4: error: syntax error, "
				      "unexpected ';'"));
	assert_non_null(strstr(r.out, "t.syslet:6:7: error:"));
	done(&r);
}

/* Files written on Windows end their lines with CR LF: a backslash at
 * the end of such a line continues a string as it does before LF. */
static void test_crlf(void **state)
{
	struct parsed r = parse("data d = \"ab\\\r\ncd\";\r\n"
				"syslet s() {\r\n\twrite(1, d, 4);\r\n}\r\n");
	struct ast_expr *e;

	(void)state;
	assert_int_equal(r.errors, 0);
	e = r.f->decls->expr;
	assert_int_equal(e->len, 4);
	assert_memory_equal(e->str, "abcd", 4);
	assert_int_equal(r.f->decls->next->loc.first_line, 3);
	done(&r);
}

static void test_nul_and_binary(void **state)
{
	static const char src[] = "syslet s() { f(); }\0\xff\x01 syslet";
	struct parsed r = { 0 };
	size_t n = 0;
	FILE *f = open_memstream(&r.out, &n);
	struct diag d;

	(void)state;
	diag_init(&d, "t.syslet", src, sizeof(src) - 1, f);
	r.errors = ast_parse(src, sizeof(src) - 1, &d, &r.f);
	diag_flush(&d);
	fclose(f);
	assert_true(r.errors >= 3);
	assert_non_null(strstr(r.out, "stray byte 0x00"));
	assert_non_null(strstr(r.out, "stray byte 0xff"));
	done(&r);
}

/* The scanner takes its keywords from the table: each one is refused
 * as a name, each element type is a name except before a name. */
static void test_words(void **state)
{
	size_t n, i;
	const struct ast_word *w = ast_words(&n);
	char src[128];

	(void)state;
	assert_true(n >= 28);
	for (i = 0; i < n; i++) {
		struct parsed r;

		snprintf(src, sizeof(src), "var %s;\n", w[i].name);
		r = parse(src);
		if (w[i].cls == AST_WORD_ELEM) {
			assert_int_equal(r.errors, 0);
			assert_string_equal(r.f->decls->name, w[i].name);
			done(&r);
			snprintf(src, sizeof(src), "%s\n x[2];\n", w[i].name);
			r = parse(src);
			assert_int_equal(r.errors, 0);
			assert_string_equal(r.f->decls->type, w[i].name);
		} else {
			assert_true(r.errors > 0);
		}
		done(&r);
		assert_ptr_equal(ast_word_find(w[i].name, strlen(w[i].name)),
				 &w[i]);
	}
	assert_null(ast_word_find("syncfs", 6));
	assert_null(ast_word_find("u", 1));
	/* sync( is the system call, a name. */
	{
		struct parsed r = parse("syslet s() { sync (); sync x(); }\n");

		assert_int_equal(r.errors, 0);
		done(&r);
	}
}

/* Whether input is complete, as the shell asks it line by line. */
static void test_probe(void **state)
{
	static const struct {
		const char		*src;
		enum ast_unit		unit;
		enum ast_probe_status	status;
		int			depth, in_comment, wants_stmt;
	} cases[] = {
		{ "x = 1;", AST_UNIT_STMTS, AST_PROBE_OK, 0, 0, 0 },
		{ "x = 1", AST_UNIT_STMTS, AST_PROBE_EOF, 0, 0, 0 },
		{ "if (x)", AST_UNIT_STMTS, AST_PROBE_EOF, 0, 0, 1 },
		{ "if (x) a(); else", AST_UNIT_STMTS, AST_PROBE_EOF, 0, 0, 1 },
		{ "while (x) {\n a();", AST_UNIT_STMTS, AST_PROBE_EOF, 1, 0, 1 },
		{ "do a();", AST_UNIT_STMTS, AST_PROBE_EOF, 0, 0, 0 },
		{ "foo(;", AST_UNIT_STMTS, AST_PROBE_ERROR, 0, 0, 0 },
		{ "\"abc", AST_UNIT_STMTS, AST_PROBE_ERROR, 0, 0, 0 },
		{ "a(); /* more", AST_UNIT_STMTS, AST_PROBE_EOF, 0, 1, 0 },
		{ "}", AST_UNIT_STMTS, AST_PROBE_ERROR, -1, 0, 0 },
		{ "var x", AST_UNIT_FILE, AST_PROBE_EOF, 0, 0, 0 },
		{ "var x;", AST_UNIT_FILE, AST_PROBE_OK, 0, 0, 0 },
		{ "syslet f() {", AST_UNIT_FILE, AST_PROBE_EOF, 1, 0, 1 },
		{ "x = 1;", AST_UNIT_FILE, AST_PROBE_ERROR, 0, 0, 0 },
	};
	struct ast_file *f;
	struct ast_probe r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ast_probe(cases[i].src, strlen(cases[i].src), cases[i].unit,
			  &r, NULL);
		if (r.status != cases[i].status || r.depth != cases[i].depth ||
		    r.in_comment != cases[i].in_comment ||
		    r.wants_stmt != cases[i].wants_stmt)
			fail_msg("'%s': status %d depth %d comment %d stmt %d",
				 cases[i].src, r.status, r.depth, r.in_comment,
				 r.wants_stmt);
	}
	ast_probe("fd = open(\"f\", 0);", 18, AST_UNIT_STMTS, &r, &f);
	assert_int_equal(r.status, AST_PROBE_OK);
	assert_int_equal(f->stmts->kind, AST_S_EXPR);
	assert_int_equal(f->stmts->expr->kind, AST_ASSIGN);
	assert_string_equal(f->stmts->expr->l->name, "fd");
	ast_file_free(f);
}

/* Braces counted by the scanner: not in strings or comments. */
static void test_brace_balance(void **state)
{
	const char *s = "{ \"}\" '}' /* } */ // }\n{";
	int c = 0;

	(void)state;
	assert_int_equal(ast_brace_balance(s, strlen(s), &c), 2);
	assert_int_equal(c, 0);
	s = "{ /* {";
	assert_int_equal(ast_brace_balance(s, strlen(s), &c), 1);
	assert_int_equal(c, 1);
	s = "} */ }";
	assert_int_equal(ast_brace_balance(s, strlen(s), &c), -1);
	assert_int_equal(c, 0);
}

static void add_name(void *ctx, const char *name)
{
	char *buf = ctx;

	strcat(buf, name);
	strcat(buf, " ");
}

/* Names as the scanner reads them: not keywords, strings or comments;
 * an element type is a name only where it is not a type. */
static void test_scan_names(void **state)
{
	const char *s = "word a[2]; x = u32(y) + sizeof(buf) /* z */; "
			"f(\"w\", word, sync); sync(); sync stop;";
	char buf[256] = "";

	(void)state;
	ast_scan_names(s, strlen(s), add_name, buf);
	assert_string_equal(buf, "a x u32 y buf f word sync ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decls),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_locations),
		cmocka_unit_test(test_statements),
		cmocka_unit_test(test_errors_all_reported),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_nul_and_binary),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_brace_balance),
		cmocka_unit_test(test_scan_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
