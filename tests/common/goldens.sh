#!/bin/sh
# goldens.sh: every golden case in the source tree is a test of make check, every golden has its case, and no family of cases is empty.
. "$top_srcdir/tests/lib/harness.sh"
list=$top_builddir/tests/lib/cases.list
[ -f "$list" ] || exit 99
cd "$top_srcdir" || exit 99
# family DIR CASE-EXTS GOLDEN-EXT MIN: the cases DIR/*.CASE-EXT are all
# listed, each golden DIR/NAME.GOLDEN-EXT has a case NAME.CASE-EXT, and
# there are MIN cases or more.
family() {
	n=0
	for x in $2; do
		for c in "$1"/*."$x"; do
			[ -f "$c" ] || continue
			grep -qxF "$c" "$list" || fail "$c is not a test of make check"
			n=$((n + 1))
		done
	done
	[ "$n" -ge "$4" ] || fail "$1: $n cases, expected at least $4"
	for g in "$1"/*."$3"; do
		[ -f "$g" ] || continue
		found=
		for x in $2; do
			[ -f "${g%.*}.$x" ] && found=yes
		done
		[ -n "$found" ] || fail "$g: a golden without its case"
	done
	echo "$1: $n cases"
}
family tests/compiler/diag syslet err 1
family tests/compiler/lower syslet ir 1
family tests/compiler/run 'syslet args' trace 1
family tests/sysletc/golden syslet S 10
family tests/shell session out 9
family tests/run/trace args trace 1
family tests/run/trace args out 1
# The examples' traces on the interpreter, with scripted kernels.
for ex in hello cat copy countdown server; do
	grep -qxF "tests/compiler/run/example-$ex.args" "$list" ||
		fail "examples/$ex.syslet has no trace case (example-$ex.args)"
done
# And nothing else is listed.
while read -r c; do
	[ -f "$c" ] || fail "$c is listed as a case but is not in the source tree"
done <"$list"
total=$(wc -l <"$list")
echo "$total golden cases"
