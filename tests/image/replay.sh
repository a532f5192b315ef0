#!/bin/sh
# replay.sh: every image the fuzzer found (tests/image/corpus/) through the reader and the printers: no crash, no UB.
. "$top_srcdir/tests/lib/harness.sh"
prog=$top_builddir/tests/image/read-fuzz
[ -x "$prog" ] || exit 99
set -- "$top_srcdir"/tests/image/corpus/*.slo
[ -f "$1" ] || fail "empty corpus"
"$prog" "$@" >"$tmpdir/out" 2>&1 || { cat "$tmpdir/out" >&2; fail "replay failed"; }
# A sanitizer build reports and goes on only if told to; say it anyway.
grep -q 'runtime error\|Sanitizer' "$tmpdir/out" && { cat "$tmpdir/out" >&2; fail "sanitizer report"; }
cat "$tmpdir/out"
