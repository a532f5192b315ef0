#!/bin/sh
# uring-denied.sh: a seccomp filter that refuses one of io_uring's calls (setup, enter or register, as container profiles do) makes the uring backend unavailable with the kernel's reason, and the default backend runs on emul; refused enter made syslet-run spin for ever (SIGTERM not delivered), refused register said 'Cannot allocate memory'.
. "$top_srcdir/tests/lib/harness.sh"
deny=$top_builddir/tests/run/deny-call
[ -x "$deny" ] || exit 99
case $(uname -m) in
x86_64|i?86) ;;
*) skip "io_uring's call numbers are x86's here" ;;
esac
$SYSLET_RUN --backend=uring "$top_srcdir/tests/run/cat.syslet" \
	"$top_srcdir/tests/run/hello.txt" >/dev/null 2>&1 ||
	skip "the uring backend does not run here"
st=0
"$deny" 425 1 true || st=$?
[ $st = 77 ] && skip "no seccomp filter here"
[ $st = 0 ] || fail "deny-call true: exit status $st"
want=$(cat "$top_srcdir/tests/run/hello.txt")
# io_uring_setup, io_uring_enter, io_uring_register (x86_64 and i386).
for nr in 425 426 427; do
	st=0
	timeout -s KILL 20 "$deny" $nr 1 $SYSLET_RUN --backend=uring \
		"$top_srcdir/tests/run/cat.syslet" \
		"$top_srcdir/tests/run/hello.txt" >"$tmpdir/out" \
		2>"$tmpdir/err" </dev/null || st=$?
	[ $st = 137 ] && fail "call $nr refused: --backend=uring did not end in 20 s"
	expect_eq "call $nr refused: --backend=uring's status" 2 "$st"
	grep -q "^syslet-run: syslet backend 'uring' .*not available here: Operation not permitted$" \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "call $nr refused: no message with the kernel's reason"; }
	[ -s "$tmpdir/out" ] && fail "call $nr refused: the syslet ran on uring"
	# The default: the first backend that runs here, emul at worst.
	st=0
	timeout -s KILL 20 "$deny" $nr 1 env -u SYSLET_BACKEND $SYSLET_RUN \
		"$top_srcdir/tests/run/cat.syslet" \
		"$top_srcdir/tests/run/hello.txt" >"$tmpdir/out" \
		2>"$tmpdir/err" </dev/null || st=$?
	[ $st = 0 ] || { cat "$tmpdir/err" >&2
		fail "call $nr refused: the default backend: exit status $st"; }
	expect_eq "call $nr refused: output" "$want" "$(cat "$tmpdir/out")"
done
exit 0
