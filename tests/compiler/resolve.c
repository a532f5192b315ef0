/* resolve.c: sysletc_resolve() alone on parsed sources: its diagnostics about declarations, no statement lowered and no IR built. */
#include "pass-test.h"

static void expect_edit(const char *src, void (*edit)(struct ast_file *),
			int ret, const char *want)
{
	pass_expect(sysletc_resolve, src, edit, NULL, ret, want);
}

static void expect(const char *src, int ret, const char *want)
{
	expect_edit(src, NULL, ret, want);
}

/* `data u8 d = ...` given a type that is a constructor but no element
 * type (the grammar only takes element type names there). */
static void data_type_sockaddr(struct ast_file *f)
{
	free(f->decls->type);
	f->decls->type = strdup("sockaddr_in");
	if (!f->decls->type)
		exit(99);
}

int main(void)
{
	char src[512], want[1024];
	int k;

	/* Statements are not its business: undeclared names, calls with
	 * the wrong count, breaks outside loops pass. */
	expect("syslet main() { x = nosuch(y); getpid(1); break; }\n", 0, NULL);

	/* File scope in order: the later one is the redefinition, a
	 * syslet's name included; a predefined constant is no name to
	 * declare. */
	expect("var x;\nbuffer x[16];\nsyslet x() { }\nconst O_RDONLY = 1;\n",
	       -1,
	       "t.syslet:2:8: error: redefinition of 'x'\n"
	       "buffer x[16];\n"
	       "       ^\n"
	       "t.syslet:1:5: note: previous definition of 'x' was here\n"
	       "var x;\n"
	       "    ^\n"
	       "t.syslet:3:8: error: redefinition of 'x'\n"
	       "syslet x() { }\n"
	       "       ^\n"
	       "t.syslet:1:5: note: previous definition of 'x' was here\n"
	       "var x;\n"
	       "    ^\n"
	       "t.syslet:4:7: error: 'O_RDONLY' is a predefined constant and "
	       "cannot be redefined\n"
	       "const O_RDONLY = 1;\n"
	       "      ^~~~~~~~\n");

	/* A parameter may carry a predefined name (the runner binds it); a
	 * local may not, nor repeat a parameter, even in an inner block.
	 * Locals may shadow file scope. */
	expect("var v;\nsyslet main(int EAGAIN, int p) {\n\tvar v;\n"
	       "\tif (p) { var p; }\n\tvar ENOENT = 1;\n}\n", -1,
	       "t.syslet:4:15: error: redefinition of 'p'\n"
	       "\tif (p) { var p; }\n"
	       "\t             ^\n"
	       "t.syslet:2:29: note: previous definition of 'p' was here\n"
	       "syslet main(int EAGAIN, int p) {\n"
	       "                            ^\n"
	       "t.syslet:5:6: error: 'ENOENT' is a predefined constant and "
	       "cannot be redefined\n"
	       "\tvar ENOENT = 1;\n"
	       "\t    ^~~~~~\n");

	/* Each syslet's locals are its own. */
	expect("syslet a() { var t; }\nsyslet b() { var t; }\n", 0, NULL);

	/* SLO_MAX_PARAMS parameters, and one more. */
	for (int extra = 0; extra < 2; extra++) {
		k = snprintf(src, sizeof(src), "syslet main(");
		for (int i = 0; i < SLO_MAX_PARAMS + extra; i++)
			k += snprintf(src + k, sizeof(src) - (size_t)k,
				      "%sint p%d", i ? ", " : "", i);
		snprintf(src + k, sizeof(src) - (size_t)k, ") { }\n");
		if (!extra) {
			expect(src, 0, NULL);
			continue;
		}
		snprintf(want, sizeof(want),
			 "t.syslet:1:8: error: syslet 'main' has %d parameters; "
			 "%d is the most a runner binds\n%s"
			 "       ^~~~\n", SLO_MAX_PARAMS + 1, SLO_MAX_PARAMS, src);
		expect(src, -1, want);
	}

	/* Element types: int never (no atom sign-extends), a constructor
	 * that is no element type never; a declaration left out as a
	 * redefinition is not looked at further. */
	expect("int a[2];\nu8 b[2];\nword c[2];\nvar d;\nint d[2];\n", -1,
	       "t.syslet:1:1: error: an array cannot have 'int' elements: an "
	       "int read into a word would need sign extension, which no atom "
	       "does; use u32 (pipe and socketpair write descriptors, which "
	       "are never negative)\n"
	       "int a[2];\n"
	       "^~~\n"
	       "t.syslet:5:5: error: redefinition of 'd'\n"
	       "int d[2];\n"
	       "    ^\n"
	       "t.syslet:4:5: note: previous definition of 'd' was here\n"
	       "var d;\n"
	       "    ^\n");
	expect_edit("data u8 d = 1;\n", data_type_sockaddr, -1,
		    "t.syslet:1:6: error: 'sockaddr_in' is not an element "
		    "type of data (u8, u16, u32, u64 or word)\n"
		    "data u8 d = 1;\n"
		    "     ^~\n");

	if (failures)
		return 1;
	printf("sysletc_resolve: all cases as expected\n");
	return 0;
}
