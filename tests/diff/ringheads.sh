#!/bin/sh
# ringheads.sh: ringtest on several heads at once, one a thread (each with its own ring, pool and model of the 2007 head), on emul and uring.
. "$top_srcdir/tests/lib/harness.sh"

# seeds/006 keeps one head per task (t->ah): completions, the thread
# limit and async_wait() of one head never see another's syslets.  Four
# heads of 100 phases each here; make check-long runs 8 of 3000.
st=0
"$top_builddir/tests/diff/ringtest" --heads=4 --phases=100 \
	--seed=0x5e316000 >"$tmpdir/out" 2>&1 || st=$?
cat "$tmpdir/out"
case $st in
0|77) exit $st ;;
*) fail "ringtest --heads=4: exit $st" ;;
esac
