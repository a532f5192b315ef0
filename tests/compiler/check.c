/* check.c: sysletc_check() alone on parsed sources: its diagnostics, no symbol table and no IR needed. */
#include "pass-test.h"

static void expect_edit(const char *src, void (*edit)(struct ast_file *),
			const struct sysletc_options *opt, int ret,
			const char *want)
{
	pass_expect(sysletc_check, src, edit, opt, ret, want);
}

static void expect(const char *src, const struct sysletc_options *opt,
		   int ret, const char *want)
{
	expect_edit(src, NULL, opt, ret, want);
}

/* The body's first statement, a declaration, made a syslet's: a nested
 * syslet, which the grammar does not make. */
static void nest_syslet(struct ast_file *f)
{
	f->decls->body->body->decl->kind = AST_D_SYSLET;
}

int main(void)
{
	struct sysletc_options all = { .warnings = SYSLETC_W_ALL };

	/* Names are not its business: an undeclared one passes. */
	expect("syslet main() { x = nosuch(y); }\n", NULL, 0, NULL);

	expect("syslet main() { break; }\n", NULL, -1,
	       "t.syslet:1:17: error: 'break' outside a loop\n"
	       "syslet main() { break; }\n"
	       "                ^~~~~~\n");
	expect("syslet main() { loop { if (1) continue; } }\n", NULL, 0, NULL);

	/* Walked as lowering does, back to front: the later definition is
	 * the "first", a missing label is told at its first goto. */
	expect("syslet main() {\nl:\tgetpid();\nl:\tgetppid();\n\tgoto l;\n}\n",
	       NULL, -1,
	       "t.syslet:2:1: error: label 'l' is defined twice\n"
	       "l:\tgetpid();\n"
	       "^\n"
	       "t.syslet:3:1: note: first defined here\n"
	       "l:\tgetppid();\n"
	       "^\n");
	expect("syslet main() {\n\tgoto out;\n\tgoto out;\n}\n", NULL, -1,
	       "t.syslet:2:2: error: label 'out' is used but not defined\n"
	       "\tgoto out;\n"
	       "\t^~~~~~~~~\n");

	expect("syslet main() { async { sync getpid(); } }\n", NULL, -1,
	       "t.syslet:1:25: error: 'async' and 'sync' contradict each "
	       "other\n"
	       "syslet main() { async { sync getpid(); } }\n"
	       "                        ^~~~~~~~~~~~~~\n");

	/* A repeated name is sysletc_resolve()'s error: its type is left
	 * alone. */
	expect("syslet main(sockaddr_in a, u32 b, u8 b) { }\n", NULL, -1,
	       "t.syslet:1:28: error: 'u32' is not a parameter type (str, "
	       "int or sockaddr_in)\n"
	       "syslet main(sockaddr_in a, u32 b, u8 b) { }\n"
	       "                           ^~~\n");

	expect_edit("syslet main() {\n\tvar inner;\n}\n", nest_syslet, NULL,
		    -1,
		    "t.syslet:2:6: error: syslets cannot be nested\n"
		    "\tvar inner;\n"
		    "\t    ^~~~~\n");

	/* Warnings: only those enabled. */
	expect("syslet main() {\nl:\tstop;\n\tgetpid();\n}\n", NULL, 0, NULL);
	expect("syslet main() {\nl:\tstop;\n\tgetpid();\n}\n", &all, 0,
	       "t.syslet:2:1: warning: label 'l' is never used\n"
	       "l:\tstop;\n"
	       "^\n"
	       "t.syslet:3:2: warning: statement is unreachable\n"
	       "\tgetpid();\n"
	       "\t^~~~~~~~~\n");

	if (failures)
		return 1;
	printf("sysletc_check: all cases as expected\n");
	return 0;
}
