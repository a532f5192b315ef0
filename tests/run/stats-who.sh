#!/bin/sh
# stats-who.sh: syslet-run --backend=uring --stats says who ran the cachemiss atoms, io_uring (nanosleep, its IORING_OP_TIMEOUT), a worker thread (select, which io_uring has no operation for) or the ring's driver, the three adding up to the cachemiss atoms, and counts the threads as worker threads: it printed "cachemiss atoms 2" above "cachemiss threads 0".  emul keeps its rows.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
printf 'syslet s() { getppid(); }\n' >probe.syslet
"$SYSLET_RUN" --backend=uring probe.syslet 2>/dev/null ||
	skip "io_uring cannot be set up here"
cat >sleep.syslet <<'SRC'
data ts = u64(0), u64(20000000);
syslet s() {
	var x;
	nanosleep(ts, 0);
	x++;
}
SRC
cat >select.syslet <<'SRC'
data tv = u64(0), u64(20000);
syslet s() {
	var x;
	select(0, 0, 0, 0, tv);
	x++;
}
SRC

# row NAME: the value of the row NAME in err.txt.
row() {
	sed -n "s/^  $1  *\([0-9][0-9]*\)\$/\1/p" err.txt
}

# who FILE IO_URING WORKERS THREADS: the rows of its run on uring.
who() {
	"$SYSLET_RUN" --backend=uring --stats "$1" >out.txt 2>err.txt ||
		{ cat err.txt >&2; fail "$1: the run failed"; }
	cm=$(row 'cachemiss atoms')
	ur=$(row '  through io_uring')
	[ -n "$ur" ] || { cat err.txt >&2
		fail "$1: 'cachemiss atoms $cm' and no row says who ran them"; }
	expect_eq "$1: through io_uring" "$2" "$ur"
	expect_eq "$1: on worker threads" "$3" "$(row '  on worker threads')"
	expect_eq "$1: they add up" "$cm" \
		$(($ur + $(row '  on worker threads') + $(row '  in the driver')))
	expect_eq "$1: worker threads" "$4" "$(row 'worker threads')"
	! grep -q '^  cachemiss threads' err.txt ||
		{ cat err.txt >&2; fail "$1: cachemiss threads on uring"; }
}
# Both went async: the increment after the call ran in the driver.
who sleep.syslet 1 0 0
expect_eq "sleep.syslet: in the driver" 1 "$(row '  in the driver')"
who select.syslet 0 1 1

# emul: its workers run every cachemiss atom; no split.
"$SYSLET_RUN" --backend=emul --stats select.syslet >out.txt 2>err.txt ||
	{ cat err.txt >&2; fail "emul: the run failed"; }
expect_eq "emul: cachemiss threads" 1 "$(row 'cachemiss threads')"
! grep -q 'through io_uring\|worker threads' err.txt ||
	{ cat err.txt >&2; fail "emul: uring's rows"; }
exit 0
