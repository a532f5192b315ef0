#!/bin/sh
# bom.sh: a UTF-8 byte order mark at the start of a source (some editors write one) is skipped, as gcc skips it, by sysletc and by syslet-run; one anywhere else is a stray character, U+FEFF, told once.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
bom=$(printf '\357\273\277')
printf '%ssyslet main() { write(1, "ok\\n", 3); }\n' "$bom" >bom.syslet
$SYSLETC -o bom.slo bom.syslet 2>err.txt || { cat err.txt >&2
	fail "sysletc: a source that starts with a BOM"; }
expect_eq "the image's output" ok "$($SYSLET_RUN bom.slo)"
expect_eq "syslet-run of the source" ok "$($SYSLET_RUN bom.syslet)"
expect_eq "syslet-run of the source on its input" ok \
	"$($SYSLET_RUN /dev/stdin <bom.syslet)"
# Columns count from after the mark, as the line is shown without it.
printf '%ssyslet main() { foo(); }\n' "$bom" >col.syslet
st=0
$SYSLETC -o col.slo col.syslet 2>err.txt || st=$?
expect_eq "an error after a BOM: status" 1 "$st"
grep -q '^col\.syslet:1:17: error: unknown system call .foo.' err.txt ||
	{ cat err.txt >&2; fail "an error after a BOM: its column"; }
printf 'syslet main() {\n%s getpid(); }\n' "$bom" >mid.syslet
st=0
$SYSLETC -o mid.slo mid.syslet 2>err.txt || st=$?
expect_eq "a BOM inside the file: status" 1 "$st"
grep -q '^mid\.syslet:2:1: error: stray character U+FEFF in program ' err.txt &&
	[ "$(grep -c error: err.txt)" = 1 ] ||
	{ cat err.txt >&2; fail "a BOM inside the file: message"; }
exit 0
