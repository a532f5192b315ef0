#!/bin/sh
# trailing.sh: an image file with bytes past the sections and section table its ELF header describes is refused as from a pipe, 'more bytes than its ELF headers describe', by syslet-run, its shell's load, sysletc -d, syslet_obj__open_file() and, for the same bytes in memory, syslet_obj__open_mem() (which took them), before reading the rest: a sysletc image padded to 900 MB (sparse) was read whole, 25-36 s and 2 GB, and ran, where the same bytes through a pipe were refused at once; and one whose ELF header cannot be followed is read no further than that header, whose fault the reader names.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
printf 'syslet main() { getppid(); }\n' >t.syslet
want="more bytes than its ELF headers describe"

craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99

# check IMAGE WHAT: every reader refuses IMAGE with the message.
check() {
	"$craft" open "$1" >open.txt || fail "$2: craft open"
	grep -q "^file: $1: $want\$" open.txt || { cat open.txt >&2; fail "$2: syslet_obj__open_file(): no '$want'"; }
	grep -q "^mem: $want\$" open.txt || { cat open.txt >&2; fail "$2: syslet_obj__open_mem(): no '$want'"; }
	st=0; $SYSLET_RUN "$1" >out.txt 2>err.txt || st=$?
	[ $st = 2 ] || { head -c 300 err.txt >&2; fail "$2: syslet-run: exit status $st, expected 2"; }
	grep -q "^syslet-run: $1: $want\$" err.txt || { head -c 300 err.txt >&2; fail "$2: syslet-run: no '$want'"; }
	st=0; $SYSLETC -d "$1" >out.txt 2>err.txt || st=$?
	[ $st = 1 ] || { head -c 300 err.txt >&2; fail "$2: sysletc -d: exit status $st, expected 1"; }
	grep -q "$want\$" err.txt || { head -c 300 err.txt >&2; fail "$2: sysletc -d: no '$want'"; }
	st=0; $SYSLETC -d - <"$1" >out.txt 2>err.txt || st=$?
	[ $st = 1 ] || fail "$2: sysletc -d - <IMAGE: exit status $st, expected 1"
	printf 'load %s\n' "$1" | $SYSLET_RUN -i >out.txt 2>err.txt
	grep -q "$want\$" err.txt || { head -c 300 err.txt >&2; fail "$2: the shell's load: no '$want'"; }
}

for t in x86_64 i386; do
	$SYSLETC --target=$t -o $t.slo t.syslet || fail "sysletc --target=$t"
	$SYSLETC -d $t.slo >/dev/null || fail "$t: the image as sysletc wrote it"
	# Both say the same of it: ok, or (i386 here) why it cannot run.
	"$craft" open $t.slo >open.txt || fail "$t: craft open"
	expect_eq "$t: both openers, the image as sysletc wrote it" \
		"$(sed -n 's/^file: \(i386.slo: \)\{0,1\}//p' open.txt)" \
		"$(sed -n 's/^mem: //p' open.txt)"
	cp $t.slo one.slo
	printf 'x' >>one.slo
	check one.slo "$t, one byte more"
	cp $t.slo page.slo
	head -c 4096 /dev/zero >>page.slo
	check page.slo "$t, a page of zeros more"
done
$SYSLET_RUN x86_64.slo || fail "the image as sysletc wrote it does not run"

# 900 MB more, a hole that takes no disk: refused before it is read, so
# also in an address space that could not hold it.
cp x86_64.slo big.slo
truncate -s 900M big.slo 2>/dev/null || skip "truncate -s cannot make a sparse file here"
st=0
(ulimit -v 400000 && $SYSLET_RUN big.slo) >out.txt 2>err.txt || st=$?
if grep -q "^syslet-run: big.slo: $want\$" err.txt; then
	[ $st = 2 ] || fail "900 MB more: exit status $st, expected 2"
elif grep -q "out of memory\|Cannot allocate" err.txt || [ $st = 0 ]; then
	fail "900 MB more: read, not refused (status $st: $(head -c 200 err.txt))"
else
	skip "syslet-run does not run under ulimit -v 400000 (a sanitizer build?): $(head -c 200 err.txt)"
fi

# A header the reading code cannot follow to an end (no sections, a
# section header of another size, big-endian, an unknown class) stops
# the read after the header, and the reader says what is wrong with it,
# as for the 3 KB image: such a file was read whole first, 900 MB in
# 3.4 s and 1.8 GB, only to be refused for its header.
# poke FILE OFFSET OCTAL: one byte of FILE changed in place.
poke() {
	printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
for case in "60:000:bad number of sections 0" \
	"58:050:bad section header size 40" \
	"5:002:not a little-endian ELF file" \
	"4:003:unknown ELF class 3"; do
	off=${case%%:*} rest=${case#*:}
	byte=${rest%%:*} msg=${rest#*:}
	cp x86_64.slo hdr.slo
	poke hdr.slo "$off" "$byte"
	[ "$off" = 60 ] && poke hdr.slo 61 000
	truncate -s 900M hdr.slo
	st=0
	(ulimit -v 400000 && $SYSLET_RUN hdr.slo) >out.txt 2>err.txt || st=$?
	grep -q "out of memory\|Cannot allocate" err.txt &&
		fail "$msg, 900 MB: read, not refused ($(head -c 200 err.txt))"
	grep -q "^syslet-run: hdr.slo: $msg\$" err.txt ||
		fail "$msg, 900 MB: syslet-run: no '$msg' ($(head -c 200 err.txt))"
	[ $st = 2 ] || fail "$msg, 900 MB: exit status $st, expected 2"
	st=0
	(ulimit -v 400000 && $SYSLETC -d - <hdr.slo) >out.txt 2>err.txt || st=$?
	grep -q "$msg\$" err.txt ||
		fail "$msg, 900 MB: sysletc -d - <IMAGE: no '$msg' ($(head -c 200 err.txt))"
done
exit 0
