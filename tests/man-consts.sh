#!/bin/sh
# man-consts.sh: syslet(5) lists every predefined constant of the language (the table of src/common/consts.c), and every name it lists compiles.
. "$top_srcdir/tests/lib/harness.sh"
page=$top_srcdir/man/syslet.5
table=$top_srcdir/src/common/consts.c
[ -f "$page" ] && [ -f "$table" ] || fail "missing $page or $table"
# The table's names: { "NAME", value, SC_SET }.
tr '{' '\n' <"$table" | sed -n 's/^ "\([A-Z][A-Z0-9_]*\)", [^}]*SC_[A-Z_]* }.*/\1/p' |
	sort -u >"$tmpdir/table"
[ "$(wc -l <"$tmpdir/table")" -gt 100 ] || fail "read too few names from $table"
# The page's list: the .Dv words between "predefined names" and .El.
sed -n '/^The predefined names/,/^\.El/p' "$page" |
	sed -n 's/^\.Dv \([A-Z][A-Z0-9_]*\).*/\1/p' | sort -u >"$tmpdir/page"
st=0
for n in $(comm -23 "$tmpdir/table" "$tmpdir/page"); do
	echo "$n: predefined, not listed in syslet(5)" >&2
	st=1
done
# Every name listed compiles, as a constant of its own.
awk '{ printf "const c%d = %s;\n", NR, $1 }' "$tmpdir/page" >"$tmpdir/all.syslet"
printf 'syslet s() { getpid(); }\n' >>"$tmpdir/all.syslet"
$SYSLETC -o "$tmpdir/all.slo" "$tmpdir/all.syslet" 2>"$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "a name syslet(5) lists does not compile"; }
exit $st
