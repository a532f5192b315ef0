#!/bin/sh
# each.sh: syslet-run --each: one instance per argument, all in flight, every completion gathered.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run
n=300

$SYSLETC -o "$tmpdir/cat.slo" "$src/cat.syslet" || fail "sysletc cat.syslet"
mkdir "$tmpdir/f"
i=0
while [ $i -lt $n ]; do
	echo "file number $i" >"$tmpdir/f/$i"
	echo "file number $i" >>"$tmpdir/want"
	i=$((i + 1))
done
# Instances finish in any order; each wrote its one line whole.
for ring in "" --ring=7 --threads=2 --jobs=1 --jobs=3 --jobs=1000 \
	"--jobs=4 --ring=5"; do
	(cd "$tmpdir/f" && $SYSLET_RUN --each $ring "$tmpdir/cat.slo" \
		$(ls)) >"$tmpdir/got" || fail "--each $ring failed"
	sort "$tmpdir/got" >"$tmpdir/got.sorted"
	sort "$tmpdir/want" >"$tmpdir/want.sorted"
	cmp -s "$tmpdir/want.sorted" "$tmpdir/got.sorted" ||
		fail "--each $ring: output is not every file once"
done

# A thousand, on each user-space backend here: syslet-run leaves its
# instances to the exit, and every line must be out whole before it ends.
while [ $i -lt 1000 ]; do
	echo "file number $i" >"$tmpdir/f/$i"
	echo "file number $i" >>"$tmpdir/want"
	i=$((i + 1))
done
sort "$tmpdir/want" >"$tmpdir/want.sorted"
. "$top_srcdir/tests/run/lib-backends.sh"
for b in $backends; do
	(cd "$tmpdir/f" && $SYSLET_RUN --each --backend=$b "$tmpdir/cat.slo" \
		$(ls)) >"$tmpdir/got" || fail "--each --backend=$b, 1000 files"
	sort "$tmpdir/got" >"$tmpdir/got.sorted"
	cmp -s "$tmpdir/want.sorted" "$tmpdir/got.sorted" ||
		fail "--each --backend=$b: output is not every one of 1000 files once"
done

# One missing file: the others still run; status 1 and one report
# naming the argument.
status=0
$SYSLET_RUN --each "$tmpdir/cat.slo" "$tmpdir/f/1" "$tmpdir/missing" \
	"$tmpdir/f/2" >"$tmpdir/got" 2>"$tmpdir/err" || status=$?
expect_eq "status with a missing file" 1 "$status"
expect_eq "reports" 1 "$(grep -c 'stopped at atom' "$tmpdir/err")"
grep -q "missing: .*cat stopped at atom 0 .*-2 ENOENT" "$tmpdir/err" ||
	fail "the report does not name the missing file"
expect_eq "lines of the good files" 2 "$(wc -l <"$tmpdir/got")"

# An argument that is empty or holds a control byte (a file name from a
# list may hold a newline or an escape) is quoted in its report as the
# failed call quotes it: one line per instance, no byte a terminal runs
# (the newline split the report in two, the escape reached the terminal).
esc=$(printf 'a\033[2Jb\nc')
status=0
$SYSLET_RUN --each "$tmpdir/cat.slo" "$esc" "" "$tmpdir/f/1" \
	>"$tmpdir/got" 2>"$tmpdir/err" || status=$?
expect_eq "status with hostile names" 1 "$status"
expect_eq "report lines for hostile names" 2 "$(wc -l <"$tmpdir/err")"
grep -q '^syslet-run: "a\\33\[2Jb\\nc": cat stopped at atom 0 ' "$tmpdir/err" ||
	fail "a name with an escape and a newline: $(cat -A "$tmpdir/err")"
grep -q '^syslet-run: "": cat stopped at atom 0 ' "$tmpdir/err" ||
	fail "an empty name: $(cat -A "$tmpdir/err")"
tr -d '\n' <"$tmpdir/err" | LC_ALL=C grep -q '[[:cntrl:]]' &&
	fail "a control byte in the reports: $(cat -A "$tmpdir/err")"
# A bad int parameter's value the same way (syslet_inst__bind's message).
status=0
$SYSLET_RUN --entry=add "$src/two.syslet" "$esc" 2>"$tmpdir/err" || status=$?
expect_eq "status with a hostile int" 2 "$status"
expect_eq "message lines for a hostile int" 1 "$(wc -l <"$tmpdir/err")"
grep -q "^syslet-run: parameter n of add: expected int, got 'a?\[2Jb?c'\$" \
	"$tmpdir/err" || fail "a hostile int: $(cat -A "$tmpdir/err")"

# Several submitting threads: every missing file reported once, in the
# order of the arguments, whichever thread ran it.
for jobs in 1 2 5; do
	status=0
	$SYSLET_RUN --each --jobs=$jobs "$tmpdir/cat.slo" "$tmpdir/m1" \
		"$tmpdir/f/1" "$tmpdir/m2" "$tmpdir/f/2" "$tmpdir/m3" \
		>"$tmpdir/got" 2>"$tmpdir/err" || status=$?
	expect_eq "--jobs=$jobs: status" 1 "$status"
	expect_eq "--jobs=$jobs: reports" "m1 m2 m3" \
		"$(sed -n 's|.*/\(m[0-9]\): cat stopped.*|\1|p' "$tmpdir/err" |
		   tr '\n' ' ' | sed 's/ $//')"
	expect_eq "--jobs=$jobs: lines" 2 "$(wc -l <"$tmpdir/got")"
done
status=0
$SYSLET_RUN --each --jobs=0 "$tmpdir/cat.slo" "$tmpdir/f/1" 2>/dev/null ||
	status=$?
expect_eq "--jobs=0" 2 "$status"

# --each with the source compiled in memory, and no arguments.
$SYSLET_RUN --each "$src/cat.syslet" "$tmpdir/f/5" >"$tmpdir/got" ||
	fail "--each from source"
expect_eq "source --each" "file number 5" "$(cat "$tmpdir/got")"
status=0
$SYSLET_RUN --each "$src/cat.syslet" 2>/dev/null || status=$?
expect_eq "--each without arguments" 2 "$status"
exit 0
