#!/bin/sh
# interrupt.sh: with --stats or --trace, SIGTERM, SIGINT and SIGHUP end a run as strace -c ends: the calls still unfinished, the counters and "+++ killed by SIGTERM +++", last, are printed, then syslet-run dies of that signal; promptly on every backend, the chain looping inline or in a worker, or blocked.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
command -v timeout >/dev/null 2>&1 || skip "timeout(1) is not installed"
command -v mkfifo >/dev/null 2>&1 || skip "mkfifo(1) is not installed"
timeout --preserve-status 1 true 2>/dev/null ||
	skip "timeout(1) has no --preserve-status"
cd "$tmpdir" || exit 99
mkfifo fifo || skip "no FIFOs here"
# Names no other process has: pgrep finds what is left of each run.
tag=intr-$$
printf 'syslet spin() { loop { getppid(); } }\n' >inline-$tag.syslet
printf 'syslet spin() { async loop { getppid(); } }\n' >async-$tag.syslet
printf 'buffer b[1];\nsyslet r() { read(0, b, 1); }\n' >read-$tag.syslet
printf 'syslet spin(int x) { loop { getppid(); } }\n' >each-$tag.syslet
printf 'buffer b[1];\nsyslet r(int x) { read(0, b, 1); }\n' >reads-$tag.syslet
printf 'buffer b[1];\nsyslet r() {\n\tasync getppid();\n\tread(0, b, 1);\n}\n' \
	>later-$tag.syslet

# The signals this shell started with ignored stay ignored in what it
# runs (a background job's SIGINT): those cannot be tested here.
ign=$(sed -n 's/^SigIgn:[	 ]*//p' /proc/$$/status 2>/dev/null)
ignored() { # SIGNAL-NUMBER
	[ -n "$ign" ] || return 1
	[ $(( 0x$ign >> ($1 - 1) & 1 )) = 1 ]
}

# run SIGNAL NUMBER BACKEND FILE OPTIONS...: end the run with SIGNAL after
# 1 s; it must die of it (128 + N through timeout --preserve-status),
# not of timeout's SIGKILL 10 s later.  $args follow the file.
args=
run() {
	sig=$1 num=$2 b=$3 f=$4
	shift 4
	st=0
	timeout --preserve-status -k 10 -s $sig 1 $SYSLET_RUN --backend=$b \
		"$@" $f $args <>fifo >out 2>err || st=$?
	[ $st = 137 ] && fail "$b $f: SIG$sig did not end the run"
	expect_eq "$b $f $*: status after SIG$sig" $((128 + num)) "$st"
	gone "$f" "its signal"
}
atoms() { sed -n 's/^  atoms  *//p' err; }

for b in $backends; do
	for f in inline-$tag.syslet async-$tag.syslet; do
		run TERM 15 $b $f --stats
		# Counted up to the signal, wherever the loop ran.
		n=$(atoms)
		[ -n "$n" ] && [ "$n" -gt 0 ] ||
			{ cat err >&2; fail "$b $f: --stats: atoms '$n'"; }
		grep -q '^  wall time ' err || fail "$b $f: no wall time"
		run TERM 15 $b $f --trace='!getppid' --stats
		# The last line of all, after the counters, as a run that
		# exits ends with '+++ exited with N +++' after them.
		expect_eq "$b $f: the last line" \
			'+++ killed by SIGTERM +++' "$(tail -1 err)"
		grep -q '^  wall time ' err || fail "$b $f: --trace --stats: no wall time"
		if ! ignored 2; then
			run INT 2 $b $f --stats
			grep -q '^  atoms ' err || fail "$b $f: no stats on SIGINT"
		fi
		run HUP 1 $b $f --trace=none
		expect_eq "$b $f: SIGHUP's last line" '+++ killed by SIGHUP +++' \
			"$(tail -1 err)"
		# Neither option: the signal's own default, nothing printed.
		run TERM 15 $b $f
		[ -s err ] && { cat err >&2; fail "$b $f: printed without options"; }
	done
	# Blocked in a read that never returns: its line ends unfinished,
	# as strace ends a process killed in a call.
	run TERM 15 $b read-$tag.syslet --trace --stats
	grep -q '^read-.*\[0\] read(0,  <unfinished \.\.\.>) = ?$' err &&
		grep -q '^+++ killed by SIGTERM +++$' err ||
		{ cat err >&2; fail "$b: the blocked read's tail"; }
	# Blocked at a later atom than the one where it went async: no event
	# has entered that call, and its line is still in the tail.
	run TERM 15 $b later-$tag.syslet --trace
	expect_eq "$b: the tail of a read blocked after going async" \
		"later-$tag.syslet:4 [1] read(0,  <unfinished ...>) = ?
+++ killed by SIGTERM +++" "$(tail -2 err)"
	# Two: the first's line was cut by the second's, so it ends on a
	# line of its own, as strace's -f ends a process it saw enter.
	args="1 2"
	run TERM 15 $b reads-$tag.syslet --trace --each --jobs=1
	args=
	expect_eq "$b: two blocked reads' tail" "#0 reads-$tag.syslet:2 [0] read(0,  <unfinished ...>
#1 reads-$tag.syslet:2 [0] read(0,  <unfinished ...>) = ?
#0 reads-$tag.syslet:2 [0] <... read resumed> <unfinished ...>) = ?
+++ killed by SIGTERM +++" "$(cat err)"
	# Two submitting threads, each looping in its first instance: both
	# stop (the signal reaches one thread; the handler passes it on).
	args="1 2 3 4"
	run TERM 15 $b each-$tag.syslet --stats --each --jobs=2
	args=
	grep -q '^  syslets  *2$' err && grep -q '^  signal stops  *2$' err ||
		{ cat err >&2; fail "$b: --each --jobs=2 stats"; }
done
exit 0
