#!/bin/sh
# names-quoted.sh: sysletc's messages show a name from its command line (a file, -o, -H, -d, --target=, -W, --prefix=, --dump=, an option) with no control byte of it: as given when plain, else quoted as strace quotes a string; a diagnostic's head so too.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
ex=$top_srcdir/examples

bad=$(printf 'a\033[2Jb\nTAIL')
quoted='a\\33\[2Jb\\nTAIL'

# check STATUS WHAT CMD...: as tests/run/names-quoted.sh (name_quoted,
# tests/lib/harness.sh).
check() {
	name_quoted "$@"
}

check 1 "an input that is not there" $SYSLETC "$bad.syslet"
check 1 "-d of a file that is not there" $SYSLETC -d "$bad.slo"
check 1 "-o in a missing directory" $SYSLETC -o "nodir/$bad.slo" "$ex/hello.syslet"
check 1 "-H in a missing directory" $SYSLETC -H "nodir/$bad.h" "$ex/hello.syslet"
check 2 "--target" $SYSLETC --target="$bad" "$ex/hello.syslet"
check 2 "-W" $SYSLETC -W"$bad" "$ex/hello.syslet"
check 2 "--prefix" $SYSLETC --prefix="$bad" "$ex/hello.syslet"
check 2 "--dump" $SYSLETC --dump="$bad" "$ex/hello.syslet"
check 2 "an unknown option" $SYSLETC "--$bad" "$ex/hello.syslet"
check 2 "a second input" $SYSLETC "$ex/hello.syslet" "$bad"
cp "$ex/hello.syslet" "$bad.syslet"
check 1 "an output that is the input" $SYSLETC -o "$bad.syslet" "$bad.syslet"
check 1 "a source given to -d" $SYSLETC -d "$bad.syslet"
printf 'syslet f() {\n\tfrobnicate(1);\n}\n' >"$bad.syslet"
check 1 "a source with errors" $SYSLETC "$bad.syslet"
grep -q -- "^\"$quoted\\.syslet\":2:2: error: " "$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "the diagnostic's head"; }
# A plain name stays as it was.
$SYSLETC --target=arm "$ex/hello.syslet" 2>err.txt
grep -q "unknown target 'arm'" err.txt || fail "plain --target: $(cat err.txt)"
exit 0
