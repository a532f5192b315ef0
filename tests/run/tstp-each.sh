#!/bin/sh
# tstp-each.sh: syslet-run --each stopped by SIGTSTP in a batch and continued runs every instance once: the rest of a batch that the stop signal cut short was made again, each instance made before lost in its slot, and the lane's spans (room for one a job) overran into the heap: 'stray completion ... in the ring', then a segfault (uring) or an abort (emul).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

cd "$tmpdir" || exit 99
cat >ts.syslet <<'SRC'
syslet ts(str tag)
{
	var pid;

	write(1, "x\n", 2);
	pid = getpid();
	kill(pid, SIGTSTP);
}
SRC
$SYSLETC -o ts.slo ts.syslet || fail "sysletc ts.syslet"
stopped_any=no
pgrp=
command -v perl >/dev/null 2>&1 &&
	pgrp="perl -e setpgrp(0,0);exec(@ARGV)or(exit(127))"
for b in $backends; do
	# In a process group of its own, whose parent (this script) is
	# in the session: not orphaned, so SIGTSTP stops it.
	$pgrp $SYSLET_RUN --each --jobs=1 --backend=$b ts.slo $(seq 40) \
		>out 2>err &
	pid=$!
	# Continued whenever it stopped, for 30 s at most.
	stops=0 n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 3000 ]; do
		state=$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -c1)
		[ "$state" = T ] && stops=$((stops + 1))
		kill -CONT $pid 2>/dev/null
		sleep 0.01
		n=$((n + 1))
	done
	kill -9 $pid 2>/dev/null && fail "$b: still running after 30 s"
	st=0
	wait $pid || st=$?
	[ $stops -gt 0 ] && stopped_any=yes
	[ $st = 0 ] || { head -5 err >&2; fail "$b: exit status $st"; }
	expect_eq "$b: stderr" "" "$(cat err)"
	expect_eq "$b: lines written" 40 "$(grep -c '^x$' out)"
done
# SIGTSTP is discarded in an orphaned process group: nothing was tested.
[ $stopped_any = yes ] || skip "SIGTSTP never stopped syslet-run here"
exit 0
