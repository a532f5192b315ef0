#!/bin/sh
# obj-replay.sh: every image the libsyslet fuzzer found (tests/image/obj-corpus/), and the examples, through open, the accessors, an instance and binding: no crash, no UB.
. "$top_srcdir/tests/lib/harness.sh"
prog=$top_builddir/tests/image/obj-fuzz
[ -x "$prog" ] || exit 99
for f in "$top_srcdir"/examples/*.syslet; do
	$SYSLETC -o "$tmpdir/$(basename "$f" .syslet).slo" "$f" ||
		fail "sysletc $f"
done
set -- "$top_srcdir"/tests/image/obj-corpus/*.slo
[ -f "$1" ] || fail "empty corpus"
"$prog" "$@" "$tmpdir"/*.slo >"$tmpdir/out" 2>&1 ||
	{ cat "$tmpdir/out" >&2; fail "replay failed"; }
# A sanitizer build reports and goes on only if told to; say it anyway.
grep -q 'runtime error\|Sanitizer' "$tmpdir/out" && { cat "$tmpdir/out" >&2; fail "sanitizer report"; }
cat "$tmpdir/out"
