#!/bin/sh
# overlap.sh: an image whose .syslet.cells lie on its .syslet.atoms' bytes (no sysletc writes it; the loader's copies would run it) is refused by syslet-run and sysletc -d, naming both sections.
. "$top_srcdir/tests/lib/harness.sh"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
cd "$tmpdir" || exit 99
cat >t.syslet <<'SRC'
var a = 5, b = 7;
syslet main() { a++; b++; }
SRC
$SYSLETC --target=x86_64 -o plain.slo t.syslet || exit 99
"$craft" overlap plain.slo overlap.slo || exit 99
$SYSLET_RUN plain.slo || fail "the image as sysletc wrote it does not run"
want="overlap.slo: sections .syslet.atoms and .syslet.cells overlap in the file"
st=0; $SYSLET_RUN overlap.slo >out.txt 2>err.txt || st=$?
[ $st = 2 ] || { cat err.txt >&2; fail "syslet-run: exit status $st, expected 2"; }
grep -q "$want\$" err.txt || { cat err.txt >&2; fail "syslet-run: no '$want'"; }
[ -s out.txt ] && fail "syslet-run wrote output for a refused image"
st=0; $SYSLETC -d overlap.slo >out.txt 2>err.txt || st=$?
[ $st = 1 ] || { cat err.txt >&2; fail "sysletc -d: exit status $st, expected 1"; }
grep -q "$want\$" err.txt || { cat err.txt >&2; fail "sysletc -d: no '$want'"; }
exit 0
