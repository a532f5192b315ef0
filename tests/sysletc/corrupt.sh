#!/bin/sh
# corrupt.sh: sysletc -d on truncated and corrupted images says what is wrong in one line and exits 1; it never crashes.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
for t in x86_64 i386; do
	$SYSLETC --target=$t -o good.slo "$top_srcdir/examples/cat.syslet" || fail "compile ($t)"
	size=$(wc -c <good.slo)
	off=0
	while [ $off -lt $size ]; do
		head -c $off good.slo >cut.slo
		$SYSLETC -d cut.slo >/dev/null 2>err.txt
		rc=$?
		[ $rc = 1 ] || fail "$t: truncated at $off: exit $rc"
		[ "$(wc -l <err.txt)" = 1 ] || fail "$t: truncated at $off: $(cat err.txt)"
		grep -q '^sysletc: cut.slo: ' err.txt || fail "$t: truncated at $off: $(cat err.txt)"
		off=$((off + 7))
	done
	off=0
	while [ $off -lt $size ]; do
		cp good.slo bad.slo
		printf '\377' | dd of=bad.slo bs=1 seek=$off conv=notrunc 2>/dev/null
		$SYSLETC -d bad.slo >/dev/null 2>err.txt
		rc=$?
		case $rc in
		0) ;;	# some bytes do not matter (padding, names)
		1) [ "$(wc -l <err.txt)" = 1 ] || fail "$t: byte $off: $(cat err.txt)" ;;
		*) fail "$t: byte $off set to 0xff: exit $rc" ;;
		esac
		off=$((off + 5))
	done
done
exit 0
