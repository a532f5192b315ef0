#!/bin/sh
# each-threads.sh: syslet-run --each --jobs=4 when some of its submitting threads cannot be started (pthread_create fails): every instance still runs, on the threads that could, and the run says so.
. "$top_srcdir/tests/lib/harness.sh"

shim=$top_builddir/tests/run/.libs/libfailthread.so
[ -f "$shim" ] || skip "no tests/run/libfailthread.so"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's runtime must come first in LD_PRELOAD"
command -v nm >/dev/null 2>&1 || skip "no nm(1)"
# The program itself (tests/run/signal.sh checks it is no wrapper).
bin=$SYSLET_RUN
off=$(nm "$bin" 2>/dev/null | sed -n 's/^\([0-9a-f]*\) t lane_main$/\1/p')
[ -n "$off" ] || skip "no symbol lane_main in $bin (stripped?)"

$SYSLETC -o "$tmpdir/cat.slo" "$top_srcdir/tests/run/cat.syslet" ||
	fail "sysletc cat.syslet"
mkdir "$tmpdir/f"
i=0
while [ $i -lt 40 ]; do
	echo "file $i" >"$tmpdir/f/$i"
	i=$((i + 1))
done
cd "$tmpdir/f" || fail "cd"
ls | sort >"$tmpdir/want"

# The first, second or third lane thread fails to start, and every one
# after it: each time all 40 files come out once, with status 0.
for at in 1 2 3; do
	status=0
	FAILTHREAD_OFF=$off FAILTHREAD_AT=$at LD_PRELOAD=$shim \
		"$bin" --each --jobs=4 "$tmpdir/cat.slo" * \
		>"$tmpdir/out" 2>"$tmpdir/err" || status=$?
	[ "$status" = 0 ] || { cat "$tmpdir/err" >&2
		fail "thread $at not started: exit status $status"; }
	sed 's/^file //' "$tmpdir/out" | sort >"$tmpdir/got"
	cmp -s "$tmpdir/want" "$tmpdir/got" || { cat "$tmpdir/err" >&2
		fail "thread $at not started: $(wc -l <"$tmpdir/got") of 40 files printed once"; }
	grep -q 'submitting threads could not set up a head (Resource temporarily unavailable): running on [1-3]$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "thread $at not started: not said"; }
done
exit 0
