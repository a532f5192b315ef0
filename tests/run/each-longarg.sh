#!/bin/sh
# each-longarg.sh: --each's stop report quotes an argument of 120 KB as strace -s cuts a string, its first PATH_MAX (4096) bytes, "..." and its full length, where it quoted all 120 KB; one of 4,096 bytes is shown whole.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
$SYSLETC -o cat.slo "$top_srcdir/tests/run/cat.syslet" || exit 99
long=$(awk 'BEGIN { s = "a"; while (length(s) < 120000) s = s s
	printf "%s", substr(s, 1, 120000) }')
head4k=$(printf '%s' "$long" | head -c 4096)
[ ${#long} = 120000 ] && [ ${#head4k} = 4096 ] || exit 99

# report ARG...: run cat.slo on each ARG, the report in err.txt.
report() {
	st=0
	$SYSLET_RUN --each cat.slo "$@" >out.txt 2>err.txt || st=$?
	[ $st = 1 ] || { head -c 500 err.txt >&2; fail "exit status $st, expected 1"; }
}

report "$long" /nonexistent.h9
grep -q "^syslet-run: \"$head4k\"\\.\\.\\. (120000 bytes): cat stopped at atom " err.txt ||
	{ head -c 300 err.txt >&2; fail "the long argument is not cut to its first 4096 bytes and its length"; }
# The argument's 4096 bytes, and the failed call's path whole up to
# PATH_MAX, as strace prints a file name: no line near 120 KB.
big=$(awk 'length($0) > 9000' err.txt | wc -l)
[ "$big" = 0 ] || fail "$big lines of the report are over 9,000 bytes"
grep -q '^syslet-run: /nonexistent.h9: cat stopped at atom ' err.txt ||
	{ cat err.txt >&2; fail "a short argument is not shown as given"; }

# Cut where a control byte is: still quoted, still cut.
report "$(printf 'x\ny')$long"
grep -q '^syslet-run: "x\\ny'"$(printf '%s' "$head4k" | head -c 4093)"'"\.\.\. (120003 bytes): cat' err.txt ||
	{ head -c 300 err.txt >&2; fail "a long argument with a newline"; }

# PATH_MAX bytes exactly: whole, as given.
report "$head4k"
grep -q "^syslet-run: $head4k: cat stopped at atom " err.txt ||
	{ head -c 300 err.txt >&2; fail "a 4096-byte argument is not shown whole"; }
exit 0
