#!/bin/sh
# async-copy.sh: an async statement interrupted with Ctrl-C goes on in a worker on its own copy of the session's variables and buffers: the shell says so, and the session's keep their values when it completes (a newcomer expected 'wait' to bring n and b).
. "$top_srcdir/tests/shell/lib.sh"
shell_require
trap 'kill -KILL $pid 2>/dev/null; rm -rf "$tmpdir"' EXIT
pid=
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul

mkfifo in data
exec 4<>data
"$SYSLET_RUN" -i <in >out 2>err &
pid=$!
exec 3>in
printf '%s\n' 'var fd;' "fd = open(\"$tmpdir/data\", O_RDONLY);" \
	'buffer b[16];' 'n = 7;' \
	'write(1, "ready\n", 6); async n = read(fd, b, 16);' >&3
wait_line out '^ready$' "the statement never ran"
# Ctrl-C until the shell says the statement goes on (as inflight.sh).
i=0
until grep -q 'goes on in a worker' out; do
	i=$((i + 1))
	[ $i -lt 600 ] || { cat out err >&2; fail "Ctrl-C never interrupted"; }
	[ $((i % 50)) = 1 ] && kill -INT "$pid" 2>/dev/null
	sleep 0.1
done
grep -qx "interrupted; the statement goes on in a worker, on its own copy of fd, b and n: its result comes into the ring (ring, wait), not into them" out ||
	{ cat out >&2; fail "the interruption does not say whose the cells are"; }
printf 'abc' >&4
printf '%s\n' 'wait' 'print n' 'x b 4' >&3
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || { kill -KILL "$pid"; cat out err >&2; fail "hung"; }
	sleep 0.1
done
wait "$pid"
# The completion is in the ring; the session's n and b are as they were.
grep -q '^  slot 0: \[.*\] read = 3$' out || { cat out err >&2; fail "no completion"; }
grep -qx 'n = 7' out || { cat out >&2; fail "n changed"; }
grep -q '^00000000  00 00 00 00 ' out || { cat out >&2; fail "b changed"; }
exit 0
