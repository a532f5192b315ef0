#!/bin/sh
# each-heap.sh: syslet-run --each makes, binds and frees an instance a file with at most one heap allocation (the instance and its table of bound strings together; a parameter bound from the stack), counted by a shim (LD_PRELOAD) over 100 and 1,100 arguments: six a file before (the instance, its table, four scratch arrays of the binding), about 0.1 us of CPU a file in a warm loop.
. "$top_srcdir/tests/lib/harness.sh"
shim=$top_builddir/tests/run/.libs/libheapcalls.so
[ -f "$shim" ] || skip "no tests/run/libheapcalls.so"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's runtime must come first in LD_PRELOAD"
# glibc's __libc_malloc and its kin: elsewhere the shim does not load.
HEAPCALLS_OUT=$tmpdir/probe LD_PRELOAD=$shim /bin/true 2>/dev/null
[ -s "$tmpdir/probe" ] || skip "the heap shim does not load here (not glibc?)"
printf 'syslet p(str s) { getppid(); }\n' >"$tmpdir/p.syslet"
$SYSLETC -o "$tmpdir/p.slo" "$tmpdir/p.syslet" || fail "sysletc p.syslet"
a100=$(yes x | head -n 100 | tr '\n' ' ')
a1100=$(yes x | head -n 1100 | tr '\n' ' ')

# calls BACKEND ARGS: the heap allocations of one run.
calls() {
	rm -f "$tmpdir/calls"
	# shellcheck disable=SC2086 # one argument a word
	HEAPCALLS_OUT=$tmpdir/calls LD_PRELOAD=$shim \
		$SYSLET_RUN --each --jobs=1 --backend="$1" "$tmpdir/p.slo" \
		$2 >"$tmpdir/out" 2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; return 1; }
	[ -s "$tmpdir/calls" ] || { echo "the shim wrote no count" >&2
		return 1; }
	cat "$tmpdir/calls"
}

. "$top_srcdir/tests/run/lib-backends.sh"
for b in $backends; do
	c100=$(calls $b "$a100") || fail "--backend=$b, 100 arguments"
	c1100=$(calls $b "$a1100") || fail "--backend=$b, 1,100 arguments"
	per=$(awk -v a="$c100" -v b="$c1100" \
		'BEGIN { printf "%.2f", (b - a) / 1000 }')
	echo "--backend=$b: $c100 heap allocations for 100 arguments," \
		"$c1100 for 1,100: $per a file"
	awk -v p="$per" 'BEGIN { exit !(p <= 1.05) }' ||
		fail "--backend=$b: $per heap allocations a file (at most 1)"
done
