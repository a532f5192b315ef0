#!/bin/sh
# header-comment.sh: sysletc -H of an image whose entry name holds a comment's end or start (crafted: sysletc never writes one) still writes a header that compiles with -Wall -Werror: the name is left out of the comment on its parameter's cell.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
cd "$tmpdir" || exit 99
printf 'syslet main(int x) { write(x, "a", 1); }\n' >hc.syslet
$SYSLETC -o hc.slo hc.syslet || fail "sysletc hc.syslet"
for name in 'hc_*/in' 'hc_/*in'; do
	"$craft" rename hc.slo bad.slo hc_main "$name" || exit 99
	$SYSLETC -H bad.h -d bad.slo >/dev/null ||
		fail "sysletc -H of an entry named '$name'"
	$CC -std=gnu11 -Wall -Wextra -Werror -I"$top_srcdir/src/include" \
		-I"$top_builddir/src/include" -fsyntax-only -x c bad.h 2>err.txt ||
		fail "entry '$name': the header does not compile: $(head -3 err.txt)"
	grep -q 'parameter 0' bad.h ||
		fail "entry '$name': the parameter's cell lost its comment"
done
exit 0
