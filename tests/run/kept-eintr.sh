#!/bin/sh
# kept-eintr.sh: a thread's first head that needs a larger completion queue than the ring the uring backend probed on leaves that ring open rather than close it: its teardown's task work (TWA_SIGNAL) made an epoll_wait() that a syslet ran in place (every worker taken, --threads) fail with EINTR, no signal sent, and the run said 'stopped' with status 1.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

case " $backends " in
*" uring "*) ;;
*) skip "the uring backend does not run here" ;;
esac
cd "$tmpdir" || exit 99
cat >ew.syslet <<'SRC'
buffer ev[12];
syslet ew(str tag)
{
	var ep, n;

	ep = epoll_create1(EPOLL_CLOEXEC);
	n = epoll_wait(ep, ev, 1, 30);
	if (n != 0)
		stop;
	close(ep);
}
SRC
$SYSLETC -o ew.slo ew.syslet || fail "sysletc ew.syslet"
# --threads=100 asks for a completion queue of 512 (room for 2 x 100 + 64)
# where the probe's has 256; the 101st syslet finds every worker taken
# and waits in place, its 30 ms within the teardown's 12-28 ms.
for rep in 1 2 3; do
	st=0
	$SYSLET_RUN --each --jobs=1 --threads=100 --backend=uring ew.slo \
		$(seq 110) >out 2>err || st=$?
	[ $st = 0 ] || { cat err >&2
		fail "run $rep: exit status $st"; }
	expect_eq "run $rep: what it said" "" "$(cat out err)"
done
exit 0
