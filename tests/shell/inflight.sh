#!/bin/sh
# inflight.sh: syslet-run -i ends with syslets still running in workers (a loop, a read that never returns): it says so, stops what a signal stops, never hangs, frees nothing still in use.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
command -v timeout >/dev/null 2>&1 || skip "timeout(1) is not installed"
trap 'kill -KILL $pid 2>/dev/null; rm -rf "$tmpdir"' EXIT
pid=
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul

# start STATEMENT...: a shell reading the FIFO "in" (written through
# fd 3), the statements typed one by one; the last writes "ready" and
# then waits, and gets SIGINT until the shell says it goes on in a
# worker (or, for a chain a signal can stop, that the signal stopped
# it).  Not before "ready": a Ctrl-C at the prompt drops the line.
start() {
	rm -f in out err
	mkfifo in
	# Not under timeout(1): it would take the SIGINT for itself.
	"$SYSLET_RUN" -i <in >out 2>err &
	pid=$!
	exec 3>in
	for line in "$@"; do
		printf '%s\n' "$line" >&3
	done
	wait_line out '^ready$' "$*: the statement never ran"
	# The engine holds signals while the statement runs inline: repeat,
	# but seldom: a Ctrl-C that finds the script's prompt ends it, dead
	# of SIGINT.
	i=0
	until grep -q 'goes on in a worker\|stopped by a signal' out; do
		i=$((i + 1))
		[ $i -lt 600 ] || { cat out err >&2
			fail "$*: Ctrl-C never interrupted the wait"; }
		[ $((i % 50)) = 1 ] && kill -INT "$pid" 2>/dev/null
		sleep 0.1
	done
	sleep 0.2
}

# finish NAME ENDING: "quit" or "eof"; the shell must end by itself,
# status 0.
finish() {
	[ "$2" = quit ] && printf 'quit\n' >&3
	exec 3>&-
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 600 ] || { kill -KILL "$pid"; cat out err >&2
			fail "$1: the shell hung at $2"; }
		sleep 0.1
	done
	st=0
	wait "$pid" || st=$?
	[ "$st" = 0 ] || { cat out err >&2; fail "$1: exit status $st"; }
}

# A read of a FIFO that never gets data: no signal interrupts it in a
# worker, so it ends with the process.  The writer end stays open.
mkfifo never
exec 4<>never
for ending in quit eof; do
	start 'var fd;' "fd = open(\"$tmpdir/never\", O_RDONLY);" \
		'buffer b[16];' \
		'write(1, "ready\n", 6); async read(fd, b, 16);'
	finish "read, $ending" $ending
	grep -q '1 syslet still running in a worker; stopping it$' err &&
	grep -q 'syslet blocked in a system call; it ends with the process$' \
		err || { cat err >&2; fail "read, $ending: not said"; }
done

# A loop in a worker, behind a read that holds it until the Ctrl-C is
# in: the shell must stop it (a signal to its worker) and free all.
# "went" says the read returned and the loop runs.  Not a fixed pause: a
# worker that wakes from its read later than the pause plus the shell's
# second (a loaded machine, the sanitizer build) is, for the shell, still
# blocked in that read.
for ending in quit eof; do
	start 'var fd;' "fd = open(\"$tmpdir/never\", O_RDONLY);" \
		'buffer b[16];' \
		'write(1, "ready\n", 6); async read(fd, b, 16); write(1, "went\n", 5); loop getppid();'
	printf 'go' >&4
	wait_line out '^went$' "loop, $ending: the read never returned"
	finish "loop, $ending" $ending
	grep -q '1 syslet still running in a worker; stopping it$' err ||
		{ cat err >&2; fail "loop, $ending: not said"; }
	! grep -q 'blocked in a system call' err ||
		{ cat err >&2; fail "loop, $ending: the loop was not stopped"; }
done
exec 4>&-

# The issue's own session: Ctrl-C may stop the loop itself (the engine
# sees the signal) or leave it in the worker; either way the end is clean.
start 'write(1, "ready\n", 6); async loop { getppid(); }'
finish "async loop" quit

# The debugger's runs: an async loop run twice, then another program
# loaded while both still run (their program must stay), then quit.
printf 'syslet spin() { async loop { getppid(); } }\n' >spin.syslet
printf 'syslet hi() { write(1, "hi\\n", 3); }\n' >hi.syslet
printf 'load spin.syslet\nrun\nrun\nring\nload hi.syslet\nrun\nquit\n' >in2
st=0
timeout 60 "$SYSLET_RUN" -i <in2 >out 2>err || st=$?
[ "$st" = 0 ] || { cat out err >&2; fail "runs: exit status $st"; }
grep -q '^hi finished at \[0\]: 3$' out || { cat out err >&2
	fail "runs: the second program did not run"; }
grep -q '2 syslets still running in a worker; stopping them$' err ||
	{ cat out err >&2; fail "runs: no word of the running syslets"; }
! grep -q 'blocked in a system call' err ||
	{ cat err >&2; fail "runs: the loops were not stopped"; }
exit 0
