#!/bin/sh
# observed.sh: difftest with a trace callback installed (the engines' observed loop, every event checked against the reference's atoms) and by syslet_step() one atom at a time, and ringtest with the callback installed, on emul and uring, 64 and 32 bits.
. "$top_srcdir/tests/lib/harness.sh"

# The plain difftest runs the engines' fast loop (interp_fast(), nobody
# observing); syslet-run --trace, --stats and the shell's step run the
# other one, which must store, stop and complete the same, and report
# one event per atom run (and one for a fetch that faults), each
# leading to the next, the last ending as the reference's chain ended.
st=0
# run PROG WHAT ARGS...: PROG and PROG32 (where built) with ARGS, their
# output shown; a status but 0 and 77 (skip) is a mismatch, named
# "PROG WHAT".
run() {
	run_p=$1 run_what=$2
	shift 2
	for t in "$run_p" "${run_p}32"; do
		prog="$top_builddir/tests/diff/$t"
		[ -x "$prog" ] || continue
		r=0
		"$prog" "$@" >"$tmpdir/out" 2>&1 || r=$?
		cat "$tmpdir/out"
		case $r in
		0|77) ;;
		*) echo "FAIL: $t $run_what: exit $r"; st=1 ;;
		esac
	done
}
diffargs="--seed=0x5e19ab5e --count=4000 --backend=emul,uring"
run difftest --observe $diffargs --observe
run difftest "--step --backend=emul" $diffargs --step --backend=emul
# Many syslets in flight on one head, and on four heads at once, with
# the callback installed: the ring model as always, and the events'
# counts against syslet_get_stats().
for heads in 1 4; do
	run ringtest "--observe --heads=$heads" --observe --heads=$heads \
		--phases=60 --seed=0x5e19ab5e
done
[ $st = 0 ] || fail "difftest, observed or stepped: a mismatch"
exit 0
