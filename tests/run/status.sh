#!/bin/sh
# status.sh: syslet-run's exit status and stop report; a syslet that went async and ended on a nocomplete atom ends the wait.
. "$top_srcdir/tests/lib/harness.sh"

# run NAME SOURCE [ARG...]: compile SOURCE (a string) and run it; its
# exit status in $status, its output in $tmpdir/out and $tmpdir/err.
run() {
	name=$1 text=$2
	shift 2
	printf '%s\n' "$text" >"$tmpdir/$name.syslet"
	status=0
	timeout 60 $SYSLET_RUN "$tmpdir/$name.syslet" "$@" >"$tmpdir/out" \
		2>"$tmpdir/err" || status=$?
}

# Gone async, ended on a nocomplete atom: no completion will come, and
# syslet-run must not wait for one (it spun at 100% CPU).
run nc 'syslet c() { async nocomplete write(STDOUT, "x\n", 2); }'
expect_eq "nocomplete: status" 0 "$status"
expect_eq "nocomplete" x "$(cat "$tmpdir/out")"
printf '%s\n' 'syslet e(str p) { var fd; fd = open(p, O_RDONLY); nocomplete close(fd); }' \
	>"$tmpdir/e.syslet"
status=0
timeout 60 $SYSLET_RUN --each "$tmpdir/e.syslet" "$tmpdir/nothere" \
	"$tmpdir/e.syslet" "$tmpdir/nothere2" >/dev/null 2>"$tmpdir/err" ||
	status=$?
# A missing file's chain that stayed inline reports its failed close.
case $status in
0) ;;
1) grep -q 'close(fd)): -9 EBADF$' "$tmpdir/err" ||
	fail "--each nocomplete: $(cat "$tmpdir/err")" ;;
*) fail "--each nocomplete: status $status (124: it hung)" ;;
esac
exit 0
