#!/bin/sh
# golden.sh CASE: sysletc -S of the construct CASE (tests/sysletc/golden/NAME.syslet) matches its golden listing NAME.S; the image's -d listing is the same, for both word sizes.
. "$top_srcdir/tests/lib/harness.sh"
: "${READELF:=readelf}"
case=${1:?usage: golden.sh tests/sysletc/golden/NAME.syslet}
dir=${case%/*}
src=${case##*/}
name=${src%.syslet}
cd "$dir" || exit 99
flags=$(sed -n 's,^// flags: ,,p' "$src")
# An explicit target keeps the goldens the same on every host.
$SYSLETC --target=x86_64 $flags -S "$src" >"$tmpdir/$name.S" ||
	fail "$src does not compile"
golden "$name.S" "$tmpdir/$name.S"
for t in x86_64 i386; do
	case " $flags " in *" --target="*) t=${flags#*--target=}; t=${t%% *} ;; esac
	img=$tmpdir/$name-$t.slo
	$SYSLETC --target=$t $flags -o "$img" "$src" || fail "$src ($t)"
	$SYSLETC --target=$t $flags -S "$src" >"$tmpdir/s.txt" || fail "$src -S ($t)"
	$SYSLETC -d "$img" >"$tmpdir/d.txt" || fail "-d $name-$t.slo"
	cmp -s "$tmpdir/s.txt" "$tmpdir/d.txt" ||
		{ diff -u "$tmpdir/s.txt" "$tmpdir/d.txt"; fail "$src ($t): -S and -d differ"; }
	"$READELF" -a -W "$img" >/dev/null 2>"$tmpdir/err" || fail "readelf $name-$t"
	[ -s "$tmpdir/err" ] && fail "readelf on $name-$t.slo: $(cat "$tmpdir/err")"
done
exit 0
