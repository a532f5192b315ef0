#!/bin/sh
# list-big.sh: sysletc -d of an image holding a 20 MB string shows it whole, its escapes right, in no more CPU time than compiling it took: the listing appended each byte of a data object through a formatted print (vsnprintf twice a byte: a 60 MB object took 8.9 s to list, against 0.8 s now and 1.3 s for xxd of the image).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/lib/linear.sh"
cd "$tmpdir" || exit 99
awk 'BEGIN { printf "data big = \"q\\\"\\\\\\t\\n"
	s = "ab"; while (length(s) < 10000000) s = s s
	printf "%s123\";\n", s
	print "syslet main() { write(1, big, 4); }" }' >big.syslet
$SYSLETC -o big.slo big.syslet || fail "sysletc could not compile a 20 MB string"
$SYSLETC -d big.slo >list.txt || fail "sysletc -d failed"
line=$(grep '^ *big  *data, ' list.txt)
expect_eq "the listing's start" 'big                      data, 16777225 bytes: "q\"\\\t\nabab' \
	"$(printf '%s' "$line" | sed 's/^ *//' | cut -c1-61)"
expect_eq "the listing's end" 'abab123"' "$(printf '%s' "$line" | tail -c 8)"
# 16777216 letters, 4 two-byte escapes, q, 123 and the quotes
expect_eq "the listing's length" 16777230 \
	"$(printf '%s' "$line" | sed 's/^[^"]*//' | wc -c)"
best_c= best_d=
for i in 1 2 3; do
	set -- $(linear_cpu "$SYSLETC" -o /dev/null big.syslet)
	best_c=$(linear_min "$1" "$best_c")
	set -- $(linear_cpu "$SYSLETC" -d big.slo)
	best_d=$(linear_min "$1" "$best_d")
done
echo "compile ${best_c} s, listing ${best_d} s (CPU)"
awk -v c="$best_c" -v d="$best_d" 'BEGIN { exit !(d > 2 * c + 0.05) }' &&
	fail "sysletc -d took ${best_d} s of CPU for what sysletc compiled in ${best_c} s (at most twice that)"
exit 0
