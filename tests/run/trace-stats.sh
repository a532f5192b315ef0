#!/bin/sh
# trace-stats.sh: syslet-run --trace shows atoms that ran inline and a stop with its errno name; --stats its counters (the traces' goldens: tests/run/trace/, trace.sh).
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run

[ "$($SYSLET_RUN --help >/dev/null && echo ok)" = ok ] || fail "no syslet-run"
cd "$src" || exit 99
cat hello.txt >/dev/null	# warm the page cache: the reads run inline
# The open runs inline when openat2's RESOLVE_CACHED finds the name
# cached, which a rename or mount anywhere on the machine at that instant
# can still prevent (the whole run then goes to a worker): a busy machine
# (the suite, make check-sanitize) gets a few tries.
i=0
until
	$SYSLET_RUN --backend=emul --trace cat.syslet hello.txt \
		>"$tmpdir/out" 2>"$tmpdir/trace" || fail "--trace run failed"
	expect_eq "output" "$(cat hello.txt)" "$(cat "$tmpdir/out")"
	grep -q '<inline>' "$tmpdir/trace"
do
	i=$((i + 1))
	[ $i -lt 5 ] || { cat "$tmpdir/trace" >&2; fail "no atom ran inline"; }
done

# The stop shows in the trace too, with its errno name.
status=0
$SYSLET_RUN --backend=emul --trace cat.syslet "$tmpdir/nothere" \
	2>"$tmpdir/trace" || status=$?
expect_eq "status" 1 "$status"
grep -q '\[0\] open(".*nothere", O_RDONLY) = -2 ENOENT <[a-z, ]*> -> stop$' \
	"$tmpdir/trace" || { cat "$tmpdir/trace" >&2; fail "stop not traced"; }

# --stats: the counters and the wall time, after the run.
$SYSLET_RUN --backend=emul --stats cat.syslet hello.txt \
	>/dev/null 2>"$tmpdir/stats" || fail "--stats run failed"
for what in syslets atoms syscalls umem_add trampolines 'inline atoms' \
	    'cachemiss atoms' 'went async' 'wall time'; do
	grep -q "^  $what  *[0-9]" "$tmpdir/stats" ||
		{ cat "$tmpdir/stats" >&2; fail "--stats lacks '$what'"; }
done
atoms=$(sed -n 's/^  atoms  *//p' "$tmpdir/stats")
[ "$atoms" -ge 4 ] || fail "--stats counts $atoms atoms for cat"
exit 0
