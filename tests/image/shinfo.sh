#!/bin/sh
# shinfo.sh: an image whose .symtab sh_info is not one past its last local symbol (the ELF rule: all locals first, sh_info counts them) is refused by syslet-run, sysletc -d and both of libsyslet's openers with one reason, 'symbol 7 two_main is not local, but .symtab's sh_info says that its locals are symbols 0 to 7', where each accepted any value; sysletc writes the right one (7 here: the null, file and four section symbols and the label).
. "$top_srcdir/tests/image/refused.sh"
cat >two.syslet <<'SRC'
syslet main() { var l; l: l++; if (l < 3) goto l; }
syslet two() { getpid(); }
var c;
SRC
$SYSLETC --target=x86_64 -o two.slo two.syslet || exit 99
$SYSLET_RUN --entry=main two.slo || fail "the image as sysletc wrote it does not run"
"$craft" shinfo two.slo same.slo 7 || exit 99
cmp -s two.slo same.slo || fail "sysletc did not write sh_info 7"
locals="but .symtab's sh_info says that its locals are symbols 0 to"
for case in \
	"6|symbol 6 two_main.l is local, $locals 5" \
	"8|symbol 7 two_main is not local, $locals 7" \
	"11|symbol 7 two_main is not local, $locals 10" \
	"0|symbol 0 is local, but .symtab's sh_info says that it has no locals" \
	"12|.symtab's sh_info 12 is past its 11 symbols" \
	"4294967295|.symtab's sh_info 4294967295 is past its 11 symbols"
do
	n=${case%%|*} want=${case#*|}
	"$craft" shinfo two.slo bad.slo "$n" || exit 99
	refused_opts=--entry=main refused "sh_info $n" bad.slo "$want"
done
exit 0
