#!/bin/sh
# stats-killed.sh: --stats of a run killed while a worker waits in a call counts every atom that ran before that call, on every backend: emul added a worker's counts only every 256 atoms or at the chain's end, and printed 511 of 602.  The waiting read counts in syscalls (as strace -c counts a call a fatal signal cut short, as an error) and not in atoms (it never ended): 3 syscalls, getpid, write and read.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
# 1 getpid, 301 tests of n, 300 increments: 602 atoms, then a write
# that tells the test the chain got there, then a read that waits.
cat >cnt.syslet <<'SRC'
buffer b[1];
syslet s(int n) {
	var i = 0;
	async getpid();
	while (n-- > 0)
		i++;
	write(1, "x", 1);
	read(0, b, 1);
}
SRC
$SYSLETC -o cnt.slo cnt.syslet || fail "sysletc cnt.syslet"
mkfifo in out || skip "mkfifo"
for b in $backends; do
	# Held open for reading and writing: the read waits, no EOF.
	exec 3<>in
	$SYSLET_RUN --backend="$b" --stats cnt.slo 300 <in >out 2>err.txt &
	pid=$!
	head -c 1 out >/dev/null
	# The write is out; the read comes next: kill once every thread
	# sleeps, not while the read is still being made (it counted 2
	# syscalls then, once in CI).
	idle_wait $pid
	kill -TERM $pid
	st=0
	wait $pid || st=$?
	exec 3>&-
	expect_eq "$b: status" 143 "$st"
	atoms=$(sed -n 's/^ *atoms  *\([0-9]*\)$/\1/p' err.txt)
	[ -n "$atoms" ] || fail "$b: no atoms line: $(cat err.txt)"
	[ "$atoms" -ge 602 ] ||
		fail "$b: --stats counted $atoms atoms, 602 ran before the read: $(cat err.txt)"
	sys=$(sed -n 's/^ *syscalls  *\([0-9]*\)$/\1/p' err.txt)
	expect_eq "$b: syscalls (getpid, write, the read cut short)" 3 "$sys"
done
exit 0
