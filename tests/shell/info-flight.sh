#!/bin/sh
# info-flight.sh: the shell's info lists the runs still in flight (gone async, not waited for) with the atom each is blocked in, on every user-space backend, and none once their completion came.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
command -v timeout >/dev/null 2>&1 || skip "timeout(1) is not installed"
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"

# A read of a FIFO opened read-write: the open returns at once, the read
# waits for the test's write.
mkfifo ff || skip "mkfifo failed"
cat >rd.syslet <<'SRC'
buffer b[64];
syslet rd(str p) {
	var fd, n;
	fd = open(p, O_RDWR);
	if (fd < 0)
		stop;
	n = read(fd, b, 64);
	write(1, b, n);
}
SRC

for backend in emul uring; do
	SYSLET_BACKEND=$backend "$SYSLET_RUN" -i -- rd.syslet "$tmpdir/ff" \
		</dev/null >probe.out 2>&1 || {
		grep -q 'cannot\|unknown\|not' probe.out &&
			[ "$backend" != emul ] && continue
		cat probe.out >&2; fail "$backend: the shell does not start"; }
	rm -f in
	mkfifo in
	SYSLET_BACKEND=$backend timeout 60 "$SYSLET_RUN" -i rd.syslet \
		"$tmpdir/ff" <in >out 2>err &
	pid=$!
	exec 3>in
	printf 'info\nrun\ninfo\n' >&3
	i=0
	until [ "$(grep -c '^in flight:' out)" -ge 2 ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || { cat out err >&2; fail "$backend: no info"; }
		sleep 0.1
	done
	# Before the run: none; after it went async: the read it waits in.
	expect_eq "$backend: before the run" "in flight: none" \
		"$(grep '^in flight:' out | head -n 1)"
	grep -q '^rd went async' out || { cat out >&2; fail "$backend: not async"; }
	grep -q "^backend: $backend\$" out || { cat out >&2; fail "$backend: another backend ran"; }
	expect_eq "$backend: the run in flight" "in flight: 1 syslet (wait, ring)
  [1] read (rd.syslet:7: n = read(fd, b, 64);)" \
		"$(sed -n '/^rd went async/,$p' out | sed -n '/^in flight:/,/^declarations/p' |
		   sed '$d')"
	# Its completion comes: none in flight.
	printf 'hi\n' >ff &
	printf 'wait\ninfo\nquit\n' >&3
	exec 3>&-
	st=0
	wait $pid || st=$?
	wait
	expect_eq "$backend: status" 0 "$st"
	expect_eq "$backend: after its completion" "in flight: none" \
		"$(grep '^in flight:' out | tail -n 1)"
done
# A statement typed at the prompt, left in a worker by Ctrl-C: named by
# its text, not by the line and atom of the shell's wrapper.
rm -f in
mkfifo in
SYSLET_BACKEND=emul timeout 60 "$SYSLET_RUN" -i <in >out 2>err &
pid=$!
exec 3>in
printf 'buffer bb[16];\nfd = open("%s/ff", O_RDWR);\n' "$tmpdir" >&3
printf 'write(1, "ready\\n", 6); async read(fd, bb, 16);\n' >&3
i=0
until grep -q '^ready$' out; do
	i=$((i + 1))
	[ $i -lt 300 ] || { cat out err >&2; fail "typed: never ran"; }
	sleep 0.1
done
# One Ctrl-C: a second one at the prompt would end the script.  To the
# shell itself: timeout(1), given one, sends it on to its child and then
# to its whole process group, so the shell got two, the second at the
# prompt when it came late (the session ended under make distcheck).
sleep 0.2
kill -INT $(pgrep -P $pid syslet-run 2>/dev/null || echo $pid)
i=0
until grep -q 'goes on in a worker' out; do
	i=$((i + 1))
	[ $i -lt 300 ] || { cat out err >&2; fail "typed: never interrupted"; }
	sleep 0.1
done
printf 'info\n' >&3
i=0
until grep -q '^declarations' out; do
	i=$((i + 1))
	[ $i -lt 300 ] || { cat out err >&2; fail "typed: no info"; }
	sleep 0.1
done
expect_eq "typed: in flight" "in flight: 1 syslet (wait, ring)
  typed at the prompt: read(fd, bb, 16);" \
	"$(sed -n '/^in flight:/,/^declarations/p' out | sed '$d')"
printf 'hi\n' >ff &
printf 'wait\nquit\n' >&3
exec 3>&-
wait $pid || fail "typed: status $?"
wait
exit 0
