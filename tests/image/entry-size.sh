#!/bin/sh
# entry-size.sh: an image whose entry symbol's size is not one or more whole atoms is refused by syslet-run, sysletc -d and both of libsyslet's openers, 'entry cat spans 7 bytes, not one or more whole atoms of 88', where each accepted it: the listing then named cells as another syslet's, and sysletc -H declared 'cat_cat__nr_atoms = 0' for a syslet of 5 atoms.  Found by setting each symbol field of a compiled examples/cat.syslet to boundary values.
. "$top_srcdir/tests/image/refused.sh"
$SYSLETC --target=x86_64 -o cat.slo "$top_srcdir/examples/cat.syslet" || exit 99
"$craft" symsize cat.slo same.slo cat_cat 440 || exit 99
cmp -s cat.slo same.slo || fail "sysletc did not write cat's size as 5 atoms of 88"
for n in 7 0 128 528; do
	"$craft" symsize cat.slo bad.slo cat_cat $n || exit 99
	[ $n = 528 ] && want='symbol cat_cat lies outside its section' ||
		want="entry cat spans $n bytes, not one or more whole atoms of 88"
	refused "size $n" bad.slo "$want" /dev/null
done
exit 0
