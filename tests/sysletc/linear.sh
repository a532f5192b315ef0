#!/bin/sh
# linear.sh: sysletc's time grows linearly with its input: declarations, strings, labels, entries, errors (also many on one long line), warnings, listings, headers, graphs and image reading (doubling the input may at most triple the CPU time).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/lib/linear.sh"

# gen_awk PROGRAM N FILE: the awk PROGRAM writes an input of size n.
gen_awk() { awk -v n="$2" "BEGIN { $1 }" >"$3"; }

gen_vars() {
	gen_awk 'for (i = 0; i < n; i++) print "var v" i ";"
		 print "syslet main() { v0++; }"' "$@"
}
gen_strings() {
	gen_awk 'print "syslet main() {"
		 for (i = 0; i < n; i++) print "\twrite(1, \"s" i "\", 2);"
		 print "}"' "$@"
}
gen_labels() {
	gen_awk 'print "var x;"; print "syslet main() {"
		 for (i = 0; i < n; i++)
			print "l" i ": if (x == " i ") goto l" (i * 7919) % n "; x++;"
		 print "}"' "$@"
}
# goto l0; l0: goto l1; l1: goto l2; ...: a chain of jumps to resolve.
gen_chain() {
	gen_awk 'print "var x;"; print "syslet main() {"; print "x++; goto l0;"
		 for (i = 0; i < n; i++) print "l" i ": goto l" i + 1 ";"
		 print "l" n ": getpid();"; print "}"' "$@"
}
gen_entries() {
	gen_awk 'for (i = 0; i < n; i++)
			print "syslet s" i "(int a, str b) { var t = a; t++; getppid(); }"' "$@"
}
gen_locals() {
	gen_awk 'print "syslet main() {"
		 for (i = 0; i < n; i++) print "\tvar v" i " = " i ";"
		 for (i = 0; i < n; i++) print "\tv" i " += v" n - 1 - i ";"
		 print "}"' "$@"
}
gen_undeclared() {
	gen_awk 'for (i = 0; i < 1000; i++) print "var d" i ";"
		 print "syslet main() {"
		 for (i = 0; i < n; i++) print "\tu" i "++;"
		 print "}"' "$@"
}
# The same on one line, each statement with a comment: every error quotes
# the one long line.
gen_oneline() {
	gen_awk 'printf "var x; syslet main() {"
		 for (i = 0; i < n; i++)
			printf " x = u; /* the same line, one error after another */"
		 print " }"' "$@"
}
gen_unused() {
	gen_awk 'print "syslet main() {"
		 for (i = 0; i < n; i++) print "\tvar w" i ";"
		 print "\tgetpid();"; print "}"' "$@"
}
# Buffers, data and branches for the printers.
gen_program() {
	gen_awk 'for (i = 0; i < n / 4; i++) {
			print "buffer b" i "[8]; data d" i " = \"d" i "\";"
			print "syslet s" i "(int a) {"
			print "\tif (read(a, b" i ", 8) > 0) write(1, d" i ", len(d" i "));"
			print "l: \tgetppid(); }"
		 }' "$@"
}

compile() { "$SYSLETC" -o /dev/null "$1"; }
compile_wall() { "$SYSLETC" -Wall -o /dev/null "$1"; }
listing() { "$SYSLETC" -S "$1"; }
# The image printers and the reader work on an image made from the source.
image() { "$SYSLETC" -o "$1.slo" "$1"; }
disassemble() { image "$1" && "$SYSLETC" -d "$1.slo"; }
header() { image "$1" && "$SYSLETC" -d "$1.slo" -H "$1.h"; }
graph() { image "$1" && "$SYSLETC" -d "$1.slo" --dot; }

linear_check "var declarations" gen_vars compile
linear_check "distinct strings" gen_strings compile
linear_check "labels and gotos" gen_labels compile
linear_check "a chain of gotos" gen_chain compile
linear_check "syslets with parameters" gen_entries compile
linear_check "local variables" gen_locals compile
LINEAR_STATUS=1
linear_check "undeclared names (errors)" gen_undeclared compile
linear_check "errors on one long line" gen_oneline compile
LINEAR_STATUS=0
linear_check "unused variables (warnings)" gen_unused compile_wall
linear_check "listing (-S)" gen_program listing
# Each run compiles too: the ratio holds for both together.
linear_check "disassembly (-d)" gen_program disassemble
linear_check "header (-d -H)" gen_entries header
linear_check "graph (-d --dot)" gen_program graph
exit 0
