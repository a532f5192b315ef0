#!/bin/sh
# rel-link.sh: an image whose relocation section's sh_link is not .symtab (the string table, nothing, itself, past the sections) is refused by syslet-run, sysletc -d and both of libsyslet's openers saying that, where each said 'relocations for a section that has no pointers', about the section they do relocate; sysletc writes 5 (.symtab) for .rela.syslet.atoms.
. "$top_srcdir/tests/image/refused.sh"
$SYSLETC --target=x86_64 -o cat.slo "$top_srcdir/examples/cat.syslet" || exit 99
"$craft" shlink cat.slo same.slo .rela.syslet.atoms 5 || exit 99
cmp -s cat.slo same.slo || fail "sysletc did not write sh_link 5"
for n in 12 0 6 99 4294967295; do
	"$craft" shlink cat.slo bad.slo .rela.syslet.atoms $n || exit 99
	refused "sh_link $n" bad.slo "section 6: relocations whose sh_link $n is not the symbol table (section 5)" f1
	"$craft" shlink cat.slo bad.slo .rela.syslet.cells $n || exit 99
	refused "cells sh_link $n" bad.slo "section 7: relocations whose sh_link $n is not the symbol table (section 5)" f1
done
exit 0
