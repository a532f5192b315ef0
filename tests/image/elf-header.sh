#!/bin/sh
# elf-header.sh: an image whose ELF header or section header 0 holds what no relocatable x86 object of ours can (a header or program header size not its class's, program headers, an entry point, machine flags, an ELF version, OS ABI or ABI version nobody wrote, a section header 0 that is not all zeros) is refused by syslet-run, sysletc -d and both of libsyslet's openers with one reason, where each accepted every such field whatever it held.  Found by setting each field of a compiled examples/cat.syslet, 64-bit and 32-bit, to boundary values.
. "$top_srcdir/tests/image/refused.sh"
for t in x86_64 i386; do
	$SYSLETC --target=$t -o cat-$t.slo "$top_srcdir/examples/cat.syslet" || exit 99
	[ $t = x86_64 ] && eh=64 ph=56 sh=64 || eh=52 ph=32 sh=40
	# What sysletc writes, and what a linker may (the GNU OS ABI, a
	# program header size of its class with no program headers), read.
	for ok in "ehsize $eh" "phentsize 0" "osabi 0" "version 1" \
		"phentsize $ph" "osabi 3"; do
		"$craft" header cat-$t.slo ok.slo $ok || exit 99
		$SYSLETC -d ok.slo >/dev/null || fail "$t $ok: refused"
	done
	for case in \
		"ehsize 0|ELF header size 0, not the $eh of its class" \
		"ehsize 1|ELF header size 1, not the $eh of its class" \
		"ehsize 65535|ELF header size 65535, not the $eh of its class" \
		"phentsize 1|program header size 1, not 0 or the $ph of its class" \
		"phentsize 65535|program header size 65535, not 0 or the $ph of its class" \
		"phnum 1|program headers in a relocatable object (1 at offset 0)" \
		"phoff 64|program headers in a relocatable object (0 at offset 64)" \
		"entry 1|entry point 0x1 in a relocatable object" \
		"flags 1|ELF flags 0x1, where this machine defines none" \
		"version 0|ELF version 0 in the header, not 1" \
		"version 2|ELF version 2 in the header, not 1" \
		"osabi 255|ELF OS ABI 255, not System V (0) or GNU (3)" \
		"abiversion 1|ELF ABI version 1, not 0" \
		"shentsize 1|bad section header size 1" \
		"sh0.name 1|section header 0 is not all zeros" \
		"sh0.type 1|section header 0 is not all zeros" \
		"sh0.flags 1|section header 0 is not all zeros" \
		"sh0.addr 1|section header 0 is not all zeros" \
		"sh0.offset 1|section header 0 is not all zeros" \
		"sh0.size 1|section header 0 is not all zeros" \
		"sh0.size 65280|section header 0 is not all zeros" \
		"sh0.link 1|section header 0 is not all zeros" \
		"sh0.link 13|section header 0 is not all zeros" \
		"sh0.info 1|section header 0 is not all zeros" \
		"sh0.addralign 1|section header 0 is not all zeros" \
		"sh0.entsize 1|section header 0 is not all zeros"
	do
		field=${case%%|*} want=${case#*|}
		"$craft" header cat-$t.slo bad.slo $field || exit 99
		refused "$t $field" bad.slo "$want" /dev/null
	done
done
exit 0
