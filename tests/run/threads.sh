#!/bin/sh
# threads.sh: libsyslet from several threads at once, on every user-space backend: a shared image, an instance and a ring per thread, the counters and the trace callback from another (tests/run/threads.c; libsyslet(3), THREAD SAFETY).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
$SYSLETC -o "$tmpdir/mt.slo" "$top_srcdir/tests/run/mt.syslet" ||
	fail "sysletc mt.syslet"
mkdir "$tmpdir/f" || exit 99
for t in 0 1 2 3; do
	echo "thread $t" >"$tmpdir/f/$t"
done
for b in $backends; do
	st=0
	SYSLET_BACKEND=$b "$top_builddir/tests/run/threads" "$tmpdir/mt.slo" \
		"$tmpdir/f" || st=$?
	[ $st = 77 ] && continue
	expect_eq "threads on $b: exit status" 0 "$st"
done
exit 0
