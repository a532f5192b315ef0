#!/bin/sh
# failmem.sh: sysletc -o with the Nth allocation failing, for every N of a compile (tests/run/failnth.c): the image it writes is the whole one, or it says so ('out of memory', status 1, the message led by the program's or the file's name, flex's scanner's too) and writes nothing; never a crash; and sysletc -d prints the whole listing or says so with status 1, never a hang. It died of SIGSEGV in the lowering (a system call's name not copied: check_arity(NULL)) and inside libelf (elf_newscn() returns a section whose header it had no memory for); -d padded a line for ever once its buffer could not grow, and printed '; out of memory' in place of a line with status 0.
. "$top_srcdir/tests/lib/harness.sh"

shim=$top_builddir/tests/run/.libs/libfailnth.so
[ -f "$shim" ] || skip "no tests/run/libfailnth.so"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's runtime must come first in LD_PRELOAD"
cd "$tmpdir" || exit 99
src=$top_srcdir/examples/cat.syslet
# The image names its output file: the same name each time.
env FAILNTH=0 FAILNTH_COUNT="$tmpdir/count" LD_PRELOAD="$shim" \
	$SYSLETC -o got.slo "$src" || fail "sysletc without a failure: exit status $?"
mv got.slo want.slo || exit 99
[ -s count ] || skip "the shim did not load (LD_PRELOAD refused?)"
max=$(cat count)
n=1
while [ $n -le "$max" ]; do
	rm -f got.slo log
	st=0
	timeout -s KILL 20 env FAILNTH=$n FAILNTH_LOG="$tmpdir/log" \
		LD_PRELOAD="$shim" $SYSLETC -o got.slo "$src" 2>err || st=$?
	what="call $n failing ($(cat log 2>/dev/null))"
	[ $st -lt 128 ] || fail "$what: exit status $st"
	if [ $st = 0 ]; then
		cmp -s got.slo want.slo || fail "$what: status 0, another image"
	else
		expect_eq "$what: status" 1 "$st"
		grep -q 'out of memory\|Cannot allocate memory' err ||
			{ cat err >&2; fail "$what: no message about memory"; }
		# Said by sysletc or about the file: flex's own fatal
		# error printed a bare 'out of dynamic memory in
		# yy_scan_bytes()' and exit()ed with status 2.
		grep -q "^sysletc: \|^$src:" err ||
			{ cat err >&2; fail "$what: a message without the program's or the file's name"; }
		# No memory is no bug of the compiler's: 'internal error in
		# emit: out of memory', 'internal error in layout: ...',
		# '... emitted image fails its check: out of memory'.
		! grep 'internal error' err >&2 ||
			fail "$what: out of memory said to be an internal error"
		[ -e got.slo ] && fail "$what: status $st, and got.slo written"
	fi
	n=$((n + 1))
done

# The listing of that image, every allocation of sysletc -d failing in
# turn.
rm -f count
env FAILNTH=0 FAILNTH_COUNT="$tmpdir/count" LD_PRELOAD="$shim" \
	$SYSLETC -d want.slo >want.d || fail "sysletc -d without a failure: exit status $?"
max=$(cat count)
n=1
while [ $n -le "$max" ]; do
	rm -f log
	st=0
	timeout -s KILL 20 env FAILNTH=$n FAILNTH_LOG="$tmpdir/log" \
		LD_PRELOAD="$shim" $SYSLETC -d want.slo >got.d 2>err || st=$?
	what="-d with call $n failing ($(cat log 2>/dev/null))"
	[ $st = 137 ] && fail "$what: no end in 20 s"
	[ $st -lt 128 ] || fail "$what: exit status $st"
	if [ $st = 0 ]; then
		cmp -s got.d want.d || fail "$what: status 0, another listing"
	else
		expect_eq "$what: status" 1 "$st"
		grep -q 'out of memory\|Cannot allocate memory' err ||
			{ cat err >&2; fail "$what: no message about memory"; }
	fi
	n=$((n + 1))
done
exit 0
