#!/bin/sh
# described.sh: an image of a few hundred bytes whose ELF header puts its section table at 1 GiB is refused as 'its ELF headers describe a file larger than the limit of 1 GiB' by syslet-run (from the file and through a pipe), sysletc -d and syslet_obj__open_file(), where each said the file was 'larger than the limit of 1 GiB'.
. "$top_srcdir/tests/lib/harness.sh"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
cd "$tmpdir" || exit 99
printf 'syslet main() { getppid(); }\n' >t.syslet
$SYSLETC --target=x86_64 -o t.slo t.syslet || exit 99
# e_shoff (8 bytes at 40, little-endian) becomes 0x40000000.
printf '\000\000\000\100\000\000\000\000' |
	dd of=t.slo bs=1 seek=40 conv=notrunc 2>/dev/null || exit 99
[ "$(wc -c <t.slo)" -lt 4096 ] || exit 99
want='its ELF headers describe a file larger than the limit of 1 GiB'
st=0; $SYSLET_RUN t.slo >out.txt 2>err.txt || st=$?
expect_eq "syslet-run: exit status" 2 "$st"
grep -q "^syslet-run: t.slo: $want\$" err.txt ||
	{ cat err.txt >&2; fail "syslet-run: no '$want'"; }
st=0; $SYSLET_RUN /dev/stdin <t.slo >out.txt 2>err.txt || st=$?
expect_eq "syslet-run from a pipe: exit status" 2 "$st"
grep -q "^syslet-run: /dev/stdin: $want\$" err.txt ||
	{ cat err.txt >&2; fail "syslet-run from a pipe: no '$want'"; }
st=0; $SYSLETC -d t.slo >out.txt 2>err.txt || st=$?
expect_eq "sysletc -d: exit status" 1 "$st"
grep -q "^sysletc: t.slo: $want\$" err.txt ||
	{ cat err.txt >&2; fail "sysletc -d: no '$want'"; }
"$craft" open t.slo >open.txt || exit 99
grep -q "^file: t.slo: $want\$" open.txt ||
	{ cat open.txt >&2; fail "syslet_obj__open_file(): no '$want'"; }
exit 0
