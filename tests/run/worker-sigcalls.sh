#!/bin/sh
# worker-sigcalls.sh: a chain that goes on in an emul worker makes no signal calls of its own per call: the worker opens a terminal's stop signals (SIGTTIN, SIGTTOU: two rt_sigaction to see that they have their default action, two rt_sigprocmask) only for a read that failed with EIO, or a write, of a character device; made around every call of a worker, they cost an uncached read of 100 files 1,490 more system calls (933 before: 569 rt_sigaction and 655 rt_sigprocmask where there had been 41 and 75).  cat.slo reads a pipe that a slow writer fills a line at a time, so that its reads wait, in a worker, and the run's signal calls that name SIGTTIN or SIGTTOU (strace -f) are counted for 10 lines and 50: the 40 more lines (80 more calls of the worker) may add at most 8.  (The worker's check that the fault handler is still there, rt_sigaction of SIGSEGV and SIGBUS, comes 2 a line; not counted here.)
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
$SYSLETC -o "$tmpdir/cat.slo" "$top_srcdir/examples/cat.syslet" || fail "sysletc cat.syslet"

# sigcalls N: the signal calls of a run of cat.slo on N slow lines.
sigcalls() {
	n=$1
	(i=0
	 while [ $i -lt "$n" ]; do
		echo "line $i"
		sleep 0.01
		i=$((i + 1))
	 done) |
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -o "$tmpdir/strace" -e trace=rt_sigaction,rt_sigprocmask \
		$SYSLET_RUN --backend=emul --stats "$tmpdir/cat.slo" /dev/stdin \
		>"$tmpdir/out" 2>"$tmpdir/stats" ||
		{ cat "$tmpdir/stats" >&2; fail "$n lines: syslet-run failed"; }
	[ "$(wc -l <"$tmpdir/out")" = "$n" ] || fail "$n lines: $(wc -l <"$tmpdir/out") came out"
	grep -q 'cachemiss' "$tmpdir/stats" || { cat "$tmpdir/stats" >&2; fail "$n lines: the chain never went to a worker"; }
	grep -c 'TTIN\|TTOU' "$tmpdir/strace" || :
}
few=$(sigcalls 10) || exit 1
many=$(sigcalls 50) || exit 1
[ $((many - few)) -le 8 ] ||
	fail "40 more lines of a chain in a worker made $((many - few)) more signal calls naming SIGTTIN or SIGTTOU ($few for 10 lines, $many for 50; at most 8 more)"
exit 0
