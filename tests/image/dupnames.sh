#!/bin/sh
# dupnames.sh: an image that gives one name to two symbols (two entries, an entry and a cell, two cells; sysletc refuses such a redefinition) is refused by syslet-run, sysletc -d and both of libsyslet's openers, 'symbol NAME is defined twice', where syslet-run listed 'choose one with --entry: main main' and ran the first; a label may share a variable's name, as sysletc writes it; a parameter with no C name is counted in the header's __nr_params.
. "$top_srcdir/tests/lib/harness.sh"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
cd "$tmpdir" || exit 99
cat >two.syslet <<'SRC'
var mcel, mce2;
syslet main() { mcel++; }
syslet mbin() { mce2++; }
SRC
$SYSLETC --target=x86_64 -o two.slo two.syslet || exit 99
$SYSLET_RUN --entry=main two.slo || fail "the image as sysletc wrote it does not run"
# OLD NEW: the symbol OLD takes NEW, a name the image has already.
for pair in "two_mbin two_main" "two_mcel two_main" "two_mce2 two_mcel"; do
	set -- $pair
	new=${2#two_}
	"$craft" rename two.slo dup.slo "$1" "$2" || exit 99
	want="dup.slo: symbol $new is defined twice"
	st=0; $SYSLET_RUN --entry=main dup.slo >out.txt 2>err.txt || st=$?
	[ $st = 2 ] || { cat err.txt >&2; fail "$1 as $2: syslet-run: exit status $st, expected 2"; }
	grep -q "$want\$" err.txt || { cat err.txt >&2; fail "$1 as $2: syslet-run: no '$want'"; }
	st=0; $SYSLETC -d dup.slo >out.txt 2>err.txt || st=$?
	[ $st = 1 ] || { cat err.txt >&2; fail "$1 as $2: sysletc -d: exit status $st, expected 1"; }
	grep -q "$want\$" err.txt || { cat err.txt >&2; fail "$1 as $2: sysletc -d: no '$want'"; }
	"$craft" open dup.slo >open.txt || exit 99
	expect_eq "$1 as $2: the openers" \
		"file: dup.slo: symbol $new is defined twice|mem: symbol $new is defined twice" \
		"$(tr '\n' '|' <open.txt | sed 's/|$//')"
done
# A parameter whose cell's name is no C identifier (the image is crafted;
# sysletc names them ENTRY.PARAM) is left out of the header -d -H writes,
# but still counted: __nr_params said 0 for an entry that takes 1.
printf 'syslet s(int n) { getppid(); }\n' >par.syslet
$SYSLETC --prefix=two -o par.slo par.syslet || exit 99
"$craft" rename par.slo parx.slo two_s.n two_s-n || exit 99
$SYSLETC -d parx.slo -H parx.h || fail "-d -H of a parameter named two_s-n"
grep -q '^	two_s__nr_params = 1,$' parx.h ||
	fail "a parameter not declared: $(grep nr_params parx.h)"
grep -q 'two_s__param_' parx.h && fail "a parameter named two_s-n declared"

# A label and a variable of one name: sysletc writes them so.
printf 'syslet s() { var l; l: l++; if (l < 3) goto l; }\n' >lv.syslet
$SYSLETC -o lv.slo lv.syslet || exit 99
$SYSLET_RUN lv.slo || fail "a label named as a variable is refused"
exit 0
