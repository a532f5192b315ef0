#!/bin/sh
# prefix.sh: images name their ELF symbols PREFIX_NAME, the tools and the image API still take the source's names, and format-1 images (no prefix) still read and run.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
: "${READELF:=readelf}"
v1=$top_srcdir/tests/sysletc/v1
entries=$top_srcdir/tests/sysletc/golden/entries.syslet

# Format 1 images, written by sysletc 0.1.0 before prefixes: the same
# listing as their sources compiled today, and a header without prefix.
# v1/cat.syslet is examples/cat.syslet as it was then, under the name
# the images record.
mkdir -p old/examples old/tests/sysletc/golden &&
cp "$v1/cat.syslet" old/examples/cat.syslet &&
cp "$entries" old/tests/sysletc/golden/entries.syslet || exit 99
for f in cat-x86_64:examples/cat.syslet cat-i386:examples/cat.syslet \
	 entries-x86_64:tests/sysletc/golden/entries.syslet; do
	img=${f%%:*} src=${f#*:} target=${img#*-}
	$SYSLETC -d "$v1/$img.slo" >"$img.d" 2>err.txt ||
		fail "format 1 image $img: $(cat err.txt)"
	(cd old && $SYSLETC -S --target="$target" "$src") >"$img.S" ||
		fail "sysletc -S $src"
	diff -u "$img.S" "$img.d" || fail "format 1 image $img lists differently from its source"
done
$SYSLETC -d "$v1/cat-x86_64.slo" -H old.h || fail "-d -H of a format 1 image"
grep -q '^#define OLD_H_PREFIX ""$' old.h || fail "format 1 image: prefix in the header"
grep -q '^extern struct syslet_uatom cat\[4\] __asm__("cat");$' old.h ||
	fail "format 1 image: the entry is not declared as cat"
if [ "$(uname -m)" = x86_64 ]; then
	printf 'old\n' >old.txt
	expect_eq "a format 1 image runs" old "$($SYSLET_RUN "$v1/cat-x86_64.slo" old.txt)"
	expect_eq "--entry of a format 1 image" z \
		"$($SYSLET_RUN --entry=second "$v1/entries-x86_64.slo" z)"
fi

# Today's images: ELF names carry the prefix, the runner takes the
# source's names and says so when given an ELF one.
$SYSLETC -o entries.slo "$entries" || fail "compile entries"
if command -v "$READELF" >/dev/null 2>&1; then
	"$READELF" -sW entries.slo >syms.txt || fail "readelf -s"
	for s in entries_first entries_second entries_count entries_first.n \
		 entries_second.a; do
		grep -q " $s\$" syms.txt || fail "no symbol $s: $(cat syms.txt)"
	done
	grep -Eq ' (first|second|count)$' syms.txt && fail "a symbol without the prefix"
fi
expect_eq "--entry=second" y "$($SYSLET_RUN --entry=second entries.slo y)"
$SYSLET_RUN --entry=entries_second entries.slo y >out.txt 2>err.txt
expect_eq "--entry= an ELF name" 2 $?
grep -q "no syslet named 'entries_second'; the image has: first second" err.txt ||
	fail "--entry=entries_second: $(cat err.txt)"
$SYSLETC -d entries.slo >d.txt || fail "-d entries.slo"
grep -q '^syslet first(int n, str path):$' d.txt || fail "-d shows the prefix: $(cat d.txt)"
if ! $SYSLET_RUN -i </dev/null 2>&1 | grep -q unavailable; then
	printf 'run first 5 w\nprint count\nprint first.n\n' |
		$SYSLET_RUN -i entries.slo >sh.txt 2>&1 || fail "shell: $(cat sh.txt)"
	grep -q '^count = 5$' sh.txt && grep -q '^first.n = 5$' sh.txt ||
		fail "the shell on a prefixed image: $(cat sh.txt)"
fi
exit 0
