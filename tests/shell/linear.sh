#!/bin/sh
# linear.sh: a shell session costs time in proportion to its length: doubling the lines of a scripted session (declarations, statements, an open block) must not triple its CPU time.
. "$top_srcdir/tests/shell/lib.sh"
. "$top_srcdir/tests/lib/linear.sh"
shell_require
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul

# The session in file $1, through a pipe as a script is.
session() { "$SYSLET_RUN" -i <"$1"; }

# One declaration per line: each was compiled with all before it.
vars() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "var v%d;\n", i }' >"$2"
}
# Declarations and statements that use them; assignments that declare.
mixed() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n / 4; i++)
		printf "var v%d;\nv%d += %d;\nw%d = v%d;\nprint w%d\n", i, i, i, i, i, i }' >"$2"
}
# A chain of constants, each defined by the one before.
consts() {
	awk -v n="$1" 'BEGIN { print "const c0 = 1;"
		for (i = 1; i < n; i++) printf "const c%d = c%d + 1;\n", i, i - 1 }' >"$2"
}
# One block left open, a line at a time: each line rescanned the block.
braces() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "{" }' >"$2"; }
# Typed arrays and statements that use them: the parser says what a
# declaration defines (the shell's own lexer missed `word a[2];`, and
# every statement was compiled again after all the declarations).
arrays() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n / 2; i++)
		printf "word a%d[2];\na%d[1] = %d;\n", i, i, i }' >"$2"
}
# A syslet typed line by line, braces opening and closing on each line:
# the parser is asked once its own braces close, not at every line.
body() {
	awk -v n="$1" 'BEGIN { print "var x;"; print "syslet f() {"
		for (i = 0; i < n; i++) print "\tif (x) { getpid(); }"
		print "}" }' >"$2"
}

linear_check "shell: var per line" vars session 500
linear_check "shell: declare, assign, print" mixed session 500
linear_check "shell: a chain of constants" consts session 500
# The input ends inside the block: the shell says so and exits 1.
LINEAR_STATUS=1
linear_check "shell: an open block" braces session 20000
LINEAR_STATUS=0
linear_check "shell: a syslet line by line" body session 1000
linear_check "shell: typed arrays" arrays session 500
exit 0
