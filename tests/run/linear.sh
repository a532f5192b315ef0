#!/bin/sh
# linear.sh: syslet-run's time grows linearly with the image it loads (many syslets with parameters) and with what --trace names (many cells, each incremented: umem_add(&aN, 1)); doubling the input may at most triple the CPU time.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/lib/linear.sh"

# An image of n syslets, each with two parameters; what is timed is
# loading it and running the first (the compile is not).
gen_entries() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		print "syslet s" i "(int a, str b) { var t = a; t++; getppid(); }" }' \
		>"$2.syslet" &&
	"$SYSLETC" -o "$2" "$2.syslet"
}
run_first() { "$SYSLET_RUN" --entry=s0 "$1" 1 x; }

linear_check "an image of syslets with parameters" gen_entries run_first

# n variables, each incremented once: --trace names the cell of every
# umem_add (it walked all the cells for each, looking each up by name:
# 2,000 took 5 s, 8,000 took 5 minutes).
gen_cells() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "var a" i ";"
		print "syslet main() {"
		for (i = 0; i < n; i++) print "\ta" i "++;"
		print "}" }' >"$2.syslet" &&
	"$SYSLETC" -o "$2" "$2.syslet"
}
run_trace() { "$SYSLET_RUN" --trace "$1"; }

linear_check "--trace of umem_add on many cells" gen_cells run_trace
exit 0
