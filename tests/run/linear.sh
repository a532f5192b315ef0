#!/bin/sh
# linear.sh: syslet-run's time grows linearly with the image it loads: many syslets with parameters (doubling the image may at most triple the CPU time).
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
exit 0
