#!/bin/sh
# probe-eintr.sh: under a limit of 128 descriptors or fewer, where the uring backend closes the io_uring it probed, a syslet's call that blocks in place (no worker to be had: eventfd() failed with EMFILE) is not cut short by the kernel's teardown of that ring: its task work (TWA_SIGNAL) made a select() whose timeout is read-only data fail with EINTR, no signal sent, and the run said 'stopped by a signal' with status 1.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

case " $backends " in
*" uring "*) ;;
*) skip "the uring backend does not run here" ;;
esac
command -v prlimit >/dev/null 2>&1 || skip "no prlimit(1)"
cd "$tmpdir" || exit 99
cat >sel.syslet <<'SRC'
buffer buf[4096];
data tv = u64(0), u64(100000);
syslet sel(str path)
{
	var fd, n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		stop;
	select(0, 0, 0, 0, tv);
	while ((n = read(fd, buf, 4096)) > 0)
		write(1, buf, n);
	close(fd);
}
SRC
$SYSLETC -o sel.slo sel.syslet || fail "sysletc sel.syslet"
echo "the file" >f
# 5: 0, 1 and 2, the file (3) and the head's ring (4), no room for the
# workers' eventfd.
for rep in 1 2 3; do
	st=0
	prlimit --nofile=5:5 $SYSLET_RUN --backend=uring sel.slo f \
		>out 2>err || st=$?
	[ $st = 0 ] || { cat err >&2
		fail "nofile 5, run $rep: exit status $st"; }
	expect_eq "nofile 5, run $rep: output" "the file" "$(cat out)"
done
# 64, the workers' eventfd refused by a shim (tests/run/failnth.c).
shim=$top_builddir/tests/run/.libs/libfailnth.so
if [ -f "$shim" ] && [ -z "${SYSLET_SANITIZE:-}" ]; then
	for rep in 1 2 3; do
		st=0
		prlimit --nofile=64:64 env FAILNTH=1 FAILNTH_FROM=1 \
			FAILNTH_FNS=eventfd LD_PRELOAD="$shim" \
			$SYSLET_RUN --backend=uring sel.slo f >out 2>err || st=$?
		[ $st = 0 ] || { cat err >&2
			fail "nofile 64 without eventfd, run $rep: exit status $st"; }
		expect_eq "nofile 64, run $rep: output" "the file" "$(cat out)"
	done
fi
exit 0
