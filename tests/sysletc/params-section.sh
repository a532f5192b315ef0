#!/bin/sh
# params-section.sh: .syslet.params holds, per parameter, its cell's symbol, its entry's symbol, its position and its type, 1 int, 2 str, 3 sockaddr_in, as syslet(5) says.
. "$top_srcdir/tests/lib/harness.sh"
: "${READELF:=readelf}"
command -v "$READELF" >/dev/null 2>&1 || skip "no $READELF"
cd "$tmpdir" || exit 99
printf 'syslet s(int n, str p, sockaddr_in a) { getpid(); }\n' >p.syslet
$SYSLETC p.syslet || fail "sysletc p.syslet"
# One record a line of readelf's dump: four little-endian words.
$READELF -x .syslet.params p.slo | sed -n 's/^ *0x[0-9a-f]* //p' |
	awk '{ print $3, $4 }' >words.txt
expect_eq "positions and types" "00000000 01000000
01000000 02000000
02000000 03000000" "$(cat words.txt)"
exit 0
