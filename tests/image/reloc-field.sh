#!/bin/sh
# reloc-field.sh: a relocation moved onto an atom's flags or nr word (plain words the kernel's copy_uatom() reads as they are; only ret_ptr, next, arg_ptr[] and private are pointers) is refused by syslet-run (from the file and through a pipe), sysletc -d and both of libsyslet's openers, 'relocation 0 in .syslet.atoms: atom 0's flags holds no pointer', a relocation on any other byte of an atom is 'not at a word' (it was 'offset out of range'); where the reader zeroed the word in its model: the listing and every check saw 0 while the instance ran with an address there (open lost its stop and cat ran read(0, ...); on nr the listing said 'read(path, NULL)').
. "$top_srcdir/tests/image/refused.sh"
$SYSLETC --target=x86_64 -o cat.slo "$top_srcdir/examples/cat.syslet" || exit 99
# Relocation 0 is open's ret_ptr (&fd), relocation 1 its next.
for case in "0 flags" "1 flags" "0 nr" "1 nr"; do
	set -- $case
	"$craft" reloc cat.slo bad.slo "$1" "$2" || exit 99
	want="relocation $1 in .syslet.atoms: atom 0's $2 holds no pointer"
	refused "$case" bad.slo "$want" /dev/null
done
# Every other byte of an atom is inside one of its words: a relocation
# there is not at a word (relocation 0 is atom 0's, at byte 16).
for at in 1 4 20 87; do
	"$craft" reloc cat.slo bad.slo 0 $at || exit 99
	want="relocation 0 in .syslet.atoms: offset $(printf '%#x' $at) is not at a word"
	"$craft" open bad.slo >open.txt || exit 99
	expect_eq "byte $at: the openers" "file: bad.slo: $want|mem: $want" \
		"$(tr '\n' '|' <open.txt | sed 's/|$//')"
	st=0; $SYSLET_RUN bad.slo /dev/null >out.txt 2>err.txt || st=$?
	expect_eq "byte $at: syslet-run" "2 syslet-run: bad.slo: $want" "$st $(cat err.txt)"
done
# private is a pointer the kernel never touches: a relocation may go there.
"$craft" reloc cat.slo priv.slo 0 private || exit 99
"$craft" open priv.slo >open.txt || exit 99
expect_eq "a relocation on private: the openers" "file: ok|mem: ok" \
	"$(tr '\n' '|' <open.txt | sed 's/|$//')"
exit 0
