#!/bin/sh
# cell-size.sh: an image whose cell symbol (a var or a parameter, in .syslet.cells) is not one machine word is refused by syslet-run, sysletc -d and both of libsyslet's openers, 'cell cat.fd spans 7 bytes, not one cell of 8', where each accepted sizes 0, 1, 7, 9 and 16 (a cell is a machine word: sysletc writes each var and parameter as one, syslet_inst__cell() hands out an unsigned long *, the shell reads and sets a word).  Found by setting cat.fd's st_size from outside.
. "$top_srcdir/tests/image/refused.sh"
$SYSLETC --target=x86_64 -o cat.slo "$top_srcdir/examples/cat.syslet" || exit 99
for c in cat_cat.fd cat_cat.path; do
	"$craft" symsize cat.slo same.slo $c 8 || exit 99
	cmp -s cat.slo same.slo || fail "sysletc did not write $c's size as one cell of 8"
done
for c in cat_cat.fd cat_cat.path; do
	for n in 0 1 7 9 16; do
		"$craft" symsize cat.slo bad.slo $c $n || exit 99
		refused "$c size $n" bad.slo \
			"cell ${c#cat_} spans $n bytes, not one cell of 8" /dev/null
	done
done
exit 0
