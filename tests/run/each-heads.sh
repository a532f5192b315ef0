#!/bin/sh
# each-heads.sh: syslet-run --each --jobs=N under a descriptor limit that leaves room for only some of the lanes' io_uring heads runs every instance on the lanes that have one (the others give theirs away), or none at all with a message; it ran the instances of the lanes with a head, exited 2 and left the rest unrun.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

case " $backends " in
*" uring "*) ;;
*) skip "the uring backend does not run here" ;;
esac
command -v prlimit >/dev/null 2>&1 || skip "no prlimit(1)"
cd "$tmpdir" || exit 99
# Each instance writes a line and opens nothing: only the heads and the
# program itself need descriptors.
cat >line.syslet <<'END'
data msg = "a line\n";
syslet line(int n) {
	write(STDOUT, msg, len(msg));
}
END
$SYSLETC -o line.slo line.syslet || exit 99
want=$(for i in 1 2 3 4 5 6 7 8 9 10; do echo "a line"; done)
# From too few descriptors for the program itself to enough for all the
# heads: each limit runs all ten instances or none.  Three runs of each:
# which lanes found a descriptor depended on which had already ended.
all=0 none=0 n=4 k=0
while [ $n -le 24 ]; do
	st=0
	prlimit --nofile=$n $SYSLET_RUN --backend=uring --each --jobs=8 \
		line.slo 1 2 3 4 5 6 7 8 9 10 \
		>out 2>err </dev/null || st=$?
	case $st in
	0)	expect_eq "output under a limit of $n descriptors" \
			"$want" "$(cat out)"
		all=$((all + 1)) ;;
	*)	[ -s out ] && { cat err >&2
			fail "$n descriptors: exit status $st after $(grep -c . out) of 10 instances ran"; }
		[ -s err ] || fail "$n descriptors: exit status $st, no message"
		none=$((none + 1)) ;;
	esac
	k=$((k + 1))
	[ $k -lt 3 ] || { k=0; n=$((n + 1)); }
done
[ $all -gt 0 ] || fail "no limit up to 24 descriptors let the ten instances run"
exit 0
