#!/bin/sh
# link.sh: a hand-built image passes readelf, links into C programs (-m64, -m32) with its -H header, and lists as its golden.
. "$top_srcdir/tests/lib/harness.sh"
hand=$top_builddir/tests/sysletc/handmade
[ -x "$hand" ] || exit 99
: "${READELF:=readelf}"
: "${CC:=cc}"
dir=$top_srcdir/tests/sysletc
notrun=
# A golden that differs fails the test at the end, after the others.
missed=
for prof in x86_64 i386 i386-2007; do
	case $prof in
	x86_64) m=-m64 ;;
	*) m=-m32 ;;
	esac
	out=$tmpdir/$prof
	mkdir -p "$out"
	"$hand" $prof "$out/cat.slo" "$out/cat.h" "$out/cat.dot" >"$out/cat.S" ||
		fail "handmade $prof"
	golden_soft "$dir/handmade-$prof.S" "$out/cat.S" ||
		missed="$missed handmade-$prof.S"
	if [ $prof = x86_64 ]; then
		golden_soft "$dir/handmade-x86_64.dot" "$out/cat.dot" ||
			missed="$missed handmade-x86_64.dot"
		golden_soft "$dir/handmade-x86_64.h" "$out/cat.h" ||
			missed="$missed handmade-x86_64.h"
	fi
	"$READELF" -a -W "$out/cat.slo" >"$out/readelf.out" 2>"$out/readelf.err" ||
		fail "readelf $prof"
	[ -s "$out/readelf.err" ] && fail "readelf complains: $(cat "$out/readelf.err")"
	grep -q 'syslet' "$out/readelf.out" || fail "readelf does not show the note"
	if command -v dot >/dev/null 2>&1; then
		dot -Tsvg "$out/cat.dot" >/dev/null || fail "dot rejects the graph"
	fi
	if [ $m = -m32 ] && [ "$HAVE_M32" != yes ]; then
		notrun="$notrun $prof"
		continue
	fi
	$CC $m -std=gnu11 -Wall -Wextra -Werror -I"$top_srcdir/src/include" -I"$out" \
		-o "$out/prog" "$dir/link-main.c" "$out/cat.slo" || fail "link $prof"
	if [ $m = -m32 ] && ! m32_runs; then
		notrun="$notrun $prof"
		continue
	fi
	"$out/prog" || fail "pointers after linking ($prof)"
done
[ -z "$missed" ] || fail "output differs from the goldens:$missed"
# All else passed; a part not run makes the whole a skip, not a pass.
[ -z "$notrun" ] || { m32_runs; skip "linked programs not run for$notrun: $m32_why"; }
exit 0
