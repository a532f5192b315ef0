#!/bin/sh
# noclock.sh: a run without --trace or --stats reads no clock: the first read in a process maps the vDSO's data pages, two page faults (10-12 us of CPU each on a VM that shadows page tables) for a time nobody shows; with --stats the time is read and shown (the shim's own check).
. "$top_srcdir/tests/lib/harness.sh"
shim=$top_builddir/tests/run/.libs/libclockcalls.so
[ -f "$shim" ] || skip "no tests/run/libclockcalls.so"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's runtime must come first in LD_PRELOAD"
. "$top_srcdir/tests/run/lib-backends.sh"
printf 'syslet p(str s) { getppid(); }\n' >"$tmpdir/p.syslet"

# calls BACKEND OPTION...: the clock reads of one run, one a line.
calls() {
	b=$1
	shift
	rm -f "$tmpdir/calls"
	: >"$tmpdir/calls"
	CLOCKCALLS_OUT=$tmpdir/calls LD_PRELOAD=$shim \
		$SYSLET_RUN --backend="$b" "$@" >"$tmpdir/out" 2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "--backend=$b $*: status"; }
	wc -l <"$tmpdir/calls" | tr -d ' '
}

for b in $backends; do
	n=$(calls $b "$tmpdir/probe.syslet")
	echo "--backend=$b, a getppid syslet: $n clock reads"
	expect_eq "--backend=$b: clock reads" 0 "$n"
	n=$(calls $b --each --jobs=2 "$tmpdir/p.syslet" x y)
	echo "--backend=$b --each --jobs=2: $n clock reads"
	[ "$n" = 0 ] || fail "--backend=$b --each: $n clock reads"
	n=$(calls $b --stats "$tmpdir/probe.syslet")
	echo "--backend=$b --stats: $n clock reads"
	[ "$n" -ge 1 ] || fail "--backend=$b --stats: the shim saw no clock read"
done
