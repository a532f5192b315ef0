#!/bin/sh
# elements.sh: element access (u32 fds[2] for pipe and socketpair) runs end to end through syslet-run on this machine's word size, with the right descriptors in the trace.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run/elements.syslet
want='ok
hello
tick
tick'
out=$($SYSLET_RUN "$src" 2>"$tmpdir/err") ||
	{ cat "$tmpdir/err" >&2; fail "elements.syslet: exit status $?"; }
expect_eq "elements.syslet" "$want" "$out"
# The same through an image, and traced: the write end gets the text,
# the read end reads it (a wrong element would be EBADF, or block).
$SYSLETC -o "$tmpdir/e.slo" "$src" || fail "sysletc elements.syslet"
$SYSLET_RUN --trace "$tmpdir/e.slo" >/dev/null 2>"$tmpdir/trace" ||
	{ cat "$tmpdir/trace" >&2; fail "traced run failed"; }
r=$(sed -n 's/.*\] pipe(.*) = 0 .*/ok/p' "$tmpdir/trace")
[ "$r" = ok ] || { cat "$tmpdir/trace" >&2; fail "no pipe() = 0 in the trace"; }
grep -Eq '\] write\([0-9]+, "ok\\n", 3\) = 3 ' "$tmpdir/trace" ||
	{ cat "$tmpdir/trace" >&2; fail "write(fds[1], ...) did not write 3 bytes"; }
grep -Eq '\] read\([0-9]+, "ok\\n", 16\) = 3 ' "$tmpdir/trace" ||
	{ cat "$tmpdir/trace" >&2; fail "read(fds[0], ...) did not read 3 bytes"; }
exit 0
