#!/bin/sh
# failmem.sh: syslet-run -i running a script with one allocation failing, each in turn (tests/run/failnth.c): the session goes on after an 'out of memory' error, or ends with 'syslet-run: out of memory: the shell ends' and status 2; never a crash. The shell called abort() where its buffers or tables could not grow (SIGABRT, a core and no word of the cause), and showed the diagnostics of a statement that open_memstream() could not finish from a NULL text (SIGSEGV).
. "$top_srcdir/tests/shell/lib.sh"
shell_require
shim=$top_builddir/tests/run/.libs/libfailnth.so
[ -f "$shim" ] || skip "no tests/run/libfailnth.so"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's runtime must come first in LD_PRELOAD"
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul
printf 'var x;\nx = 41;\nx++;\nprint x\nquit\n' >"$tmpdir/in"
env FAILNTH=0 FAILNTH_COUNT="$tmpdir/count" LD_PRELOAD="$shim" \
	$SYSLET_RUN -i <"$tmpdir/in" >"$tmpdir/want" 2>&1 ||
	fail "the script without a failure: exit status $?"
[ -s "$tmpdir/count" ] || skip "the shim did not load (LD_PRELOAD refused?)"
max=$(cat "$tmpdir/count")
n=1
while [ $n -le "$max" ]; do
	rm -f "$tmpdir/log"
	st=0
	timeout -s KILL 20 env FAILNTH=$n FAILNTH_LOG="$tmpdir/log" \
		LD_PRELOAD="$shim" $SYSLET_RUN -i <"$tmpdir/in" \
		>"$tmpdir/out" 2>&1 || st=$?
	what="call $n failing ($(cat "$tmpdir/log" 2>/dev/null))"
	[ $st -lt 128 ] || fail "$what: exit status $st"
	if [ $st = 2 ]; then
		grep -q 'out of memory\|Cannot allocate memory\|out of dynamic memory' "$tmpdir/out" || { cat "$tmpdir/out" >&2
			fail "$what: status 2 without a word of memory"; }
	elif ! cmp -s "$tmpdir/out" "$tmpdir/want"; then
		grep -q 'out of memory\|Cannot allocate memory\|out of dynamic memory' "$tmpdir/out" || { cat "$tmpdir/out" >&2
			fail "$what: status $st, another transcript, no word of memory"; }
	fi
	n=$((n + 1))
done
exit 0
