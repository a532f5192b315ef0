#!/bin/sh
# tty-eintr.sh: --each on uring writing to a terminal: now and then io_uring answered a write EINTR (io-wq threads of two lanes' rings writing to the tty at once), and the syslet stopped at that write with status 1, where write(2) is restarted; the engine now makes such a call again on a worker.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

case " $backends " in
*" uring "*) ;;
*) skip "the uring backend does not run here" ;;
esac
command -v script >/dev/null 2>&1 || skip "script(1) is not installed"
script -qec true /dev/null </dev/null >/dev/null 2>&1 ||
	skip "script(1) cannot open a terminal here"
cd "$tmpdir" || exit 99
# Each instance writes a few lines; the last write's failure ends it.
cat >tick.syslet <<'SRC'
syslet tick(int n) {
	while (n-- > 0)
		write(1, "tick\n", 5);
	if (write(1, "done\n", 5) < 0)
		stop;
}
SRC
args=$(seq 1 24 | tr '\n' ' ')
# 19 of 150 runs failed before on a two-CPU machine: 100 runs.
cat >loop.sh <<SRC
for i in \$(seq 100); do
	"\$SYSLET_RUN" --backend=uring --jobs=2 --each tick.syslet $args \
		2>>err >/dev/tty || echo "run \$i: exit \$?" >>failed
done
SRC
: >err
: >failed
SYSLET_RUN=$SYSLET_RUN timeout 600 script -qec 'sh loop.sh' /dev/null \
	</dev/null >/dev/null 2>&1 || fail "the loop under script(1) failed"
[ ! -s failed ] || { head -5 err >&2; fail "$(wc -l <failed) of 100 runs failed: $(head -1 err)"; }
[ ! -s err ] || fail "messages: $(head -1 err)"
exit 0
