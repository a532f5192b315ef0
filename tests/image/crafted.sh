#!/bin/sh
# crafted.sh: an image whose symbols or debug records all name one long string is refused at once with a message, not copied once per name (gigabytes from a few megabytes).
. "$top_srcdir/tests/lib/harness.sh"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
[ -z "${SYSLET_SANITIZE:-}" ] ||
	skip "a sanitizer runtime ($SYSLET_SANITIZE) needs more address space than the limit"
cd "$tmpdir" || exit 99
# 4,000 cells and atoms and one 64 KiB name: 2.4 MB of image.  Crafted,
# the names would copy 4,000 times 64 KiB (256 MB), the debug records 9
# strings of the whole 90 KB table each (3.2 GB).
awk 'BEGIN { n = 4000; long = "v"; while (length(long) < 65536) long = long long
	print "var " long ";"
	for (i = 0; i < n; i++) print "var a" i ";"
	print "syslet main() {"; print "\t" long "++;"
	for (i = 0; i < n; i++) print "\ta" i "++;"
	print "}" }' >long.syslet
$SYSLETC --target=x86_64 -o plain.slo long.syslet || exit 99
"$craft" symbols plain.slo symbols.slo || exit 99
"$craft" debug plain.slo debug.slo || exit 99

# refused IMAGE MESSAGE: syslet-run and sysletc -d both refuse IMAGE with
# MESSAGE, under 1 GiB of address space (the copies would not fit).
refused() {
	for how in run list; do
		st=0
		if [ $how = run ]; then
			(ulimit -v 1048576 && exec $SYSLET_RUN "$1") \
				>out.txt 2>err.txt || st=$?
			want=2
		else
			(ulimit -v 1048576 && exec $SYSLETC -d "$1") \
				>out.txt 2>err.txt || st=$?
			want=1
		fi
		[ "$st" = "$want" ] || { head -c 300 err.txt >&2
			fail "$1 ($how): exit status $st, expected $want"; }
		grep -q "$2" err.txt || { head -c 300 err.txt >&2
			fail "$1 ($how): no message '$2'"; }
	done
}
$SYSLET_RUN plain.slo || fail "the image as sysletc wrote it does not run"
refused symbols.slo ": \.strtab: the symbols' names would take more than 4 times the table's [0-9]* bytes (sysletc stores each once)$"
refused debug.slo ": \.syslet\.debug: the records' strings would take more than 4 times the table's [0-9]* bytes (sysletc stores each once)$"
exit 0
