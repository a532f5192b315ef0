#!/bin/sh
# status.sh: syslet-run's exit status and stop report: 1 only when a call failed (also where the test of its variable is not fused into it), errno names only for calls, the call that really ran; values like -4 and ignored signals end nothing; nocomplete after going async ends the wait.
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

# A value of -4 is not a signal: the 2007 kernel ended a chain on a
# pending signal only.  (i - 10 goes through -4.)
run stars 'syslet f() { var i; for (i = 0; i < 10; i++) write(STDOUT, "*", 1); }'
expect_eq "stars: status" 0 "$status"
expect_eq "stars" "**********" "$(cat "$tmpdir/out")"
$SYSLET_RUN --stats "$tmpdir/stars.syslet" >/dev/null 2>"$tmpdir/err" ||
	fail "--stats run failed"
! grep -q 'signal stops' "$tmpdir/err" || fail "--stats counts a signal stop"

# A test's value is no errno: x = -2 ends the syslet normally.
pos='syslet pos(int x) { if (x > 0) write(STDOUT, "positive\n", 9); }'
run pos "$pos" -2
expect_eq "pos -2: status" 0 "$status"
[ ! -s "$tmpdir/err" ] || { cat "$tmpdir/err" >&2; fail "pos -2 reported something"; }
# What --help says of the status is what the page says and what a run
# does: an arithmetic atom's -5 ends the syslet with 0, as a test's
# value does; 1 is for a system call that failed.
run neg 'syslet neg() { var x; x -= 5; }'
expect_eq "neg: status" 0 "$status"
$SYSLET_RUN --help | tr '\n' ' ' | tr -s ' ' >"$tmpdir/help"
grep -q '1 when a system call failed and ended the syslet' "$tmpdir/help" ||
	{ cat "$tmpdir/help" >&2; fail "--help's exit status is not the page's"; }
! grep -q 'non-negative value' "$tmpdir/help" ||
	fail "--help still ties the status to the sign of any last value"
run pos "$pos" 3
expect_eq "pos 3" "0 positive" "$status $(cat "$tmpdir/out")"
# ... nor an arithmetic atom's, in the trace.
printf 'syslet m() { var v; v -= 1; }\n' >"$tmpdir/m.syslet"
$SYSLET_RUN --trace "$tmpdir/m.syslet" 2>"$tmpdir/err" || fail "m: status $?"
grep -q 'umem_add(.*) = -1 <' "$tmpdir/err" || { cat "$tmpdir/err" >&2;
	fail "m: no 'umem_add(...) = -1' trace line"; }
! grep -q 'EPERM' "$tmpdir/err" || fail "m: -1 named as EPERM"

# syslet(5), stop: a stop after a message ends at the write, which
# succeeded (status 0); right after the failed call's test, at the call.
run msg 'syslet m(str p) { var fd; fd = open(p, O_RDONLY); if (fd < 0) { write(2, "no file\n", 8); stop; } close(fd); }' \
	"$tmpdir/nothere"
expect_eq "a stop after a message: status" "0 no file" "$status $(cat "$tmpdir/err")"

# A call that fails and ends the chain: status 1, the errno, the line.
run open 'syslet o(str p) { var fd; fd = open(p, O_RDONLY); if (fd < 0) stop; close(fd); }' \
	"$tmpdir/nothere"
expect_eq "open: status" 1 "$status"
# The report shows the call with the values it ran with, as strace does:
# which path failed, where the statement only names p.
grep -q "o stopped at atom 0 (.*open.syslet:1: .*open(p, O_RDONLY)): open(\"$tmpdir/nothere\", O_RDONLY) = -2 ENOENT\$" \
	"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "open: report"; }
# The same test not fused into the call (braces, or a statement between
# the two): the status does not depend on where the compiler put the
# test.  The errno in fd is the failed call's: 1 and the report.
for form in '{ fd = open(p, O_RDONLY); }' 'fd = open(p, O_RDONLY); n = 1;' \
	    'fd = open(p, O_RDONLY); if (n) n = 2;'; do
	run unfused "syslet o(str p) { var fd, n; $form if (fd < 0) stop; close(fd); }" \
		"$tmpdir/nothere"
	expect_eq "unfused '$form': status" 1 "$status"
	grep -q 'o stopped at atom [0-9]* (.*unfused.syslet:1: if (fd < 0)): o.fd = -2 ENOENT$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "unfused '$form': report"; }
	run unfused "syslet o(str p) { var fd, n; $form if (fd < 0) stop; close(fd); }" \
		"$tmpdir/unfused.syslet"
	expect_eq "unfused '$form', the file there: status" "0 " "$status $(cat "$tmpdir/err")"
done
# The test as the program's last statement: both of its ways end there, so
# the compiler gives its atom no stop flag, and the syslet still ended at
# it, on the failed call's errno: 1 and the report, as fused.
for form in 'n = 1;' 'n = getpid();'; do
	run atend "syslet o(str p) { var fd, n; fd = open(p, O_RDONLY); $form if (fd < 0) stop; }" \
		"$tmpdir/nothere"
	expect_eq "the test last, after '$form': status" 1 "$status"
	grep -q 'o stopped at atom [0-9]* (.*atend.syslet:1: if (fd < 0)): o.fd = -2 ENOENT$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "the test last: report"; }
	run atend "syslet o(str p) { var fd, n; fd = open(p, O_RDONLY); $form if (fd < 0) stop; }" \
		"$tmpdir/atend.syslet"
	expect_eq "the test last, the file there: status" "0 " "$status $(cat "$tmpdir/err")"
done
# With --each, every instance that stops there is reported, whichever
# instance's stop was judged first (the judgement is made once per
# image), and an instance that found its file is not.
printf '%s\n' 'syslet o(str p) { var fd, n; { fd = open(p, O_RDONLY); } if (fd < 0) stop; close(fd); }' \
	>"$tmpdir/each.syslet"
status=0
timeout 60 $SYSLET_RUN --each "$tmpdir/each.syslet" "$tmpdir/no1" \
	"$tmpdir/each.syslet" "$tmpdir/no2" "$tmpdir/no3" \
	>"$tmpdir/out" 2>"$tmpdir/err" || status=$?
expect_eq "--each unfused: status" 1 "$status"
expect_eq "--each unfused: reports" 3 \
	"$(grep -c 'o stopped at atom [0-9]* (.*each.syslet:1: if (fd < 0)): o.fd = -2 ENOENT$' "$tmpdir/err")"
grep -q "each.syslet: o stopped" "$tmpdir/err" &&
	fail "--each unfused: the instance that found its file was reported"
# Not a call's errno: fd set by arithmetic, or never set (its initial
# value), or a parameter: a test's value, status 0 as before.
for text in 'syslet o(str p) { var fd; fd = -2; if (fd < 0) stop; }' \
	'syslet o(str p) { var fd = -1, z; z = getpid(); if (!z) fd = open(p, O_RDONLY); if (fd < 0) stop; }' \
	'syslet o(str p) { var fd; fd = open(p, O_RDONLY); fd -= 0x100; if (fd < 0) stop; }' \
	'buffer b[8]; syslet o(str p) { var fd; fd = open(p, O_RDONLY); read(fd, &fd, 8); if (fd < 0) stop; }'; do
	run notcall "$text" "$tmpdir/nothere"
	expect_eq "'$text': status" "0 " "$status $(cat "$tmpdir/err")"
done
run notcall 'syslet o(int fd) { if (fd < 0) stop; fd = getpid(); }' -2
expect_eq "a parameter: status" "0 " "$status $(cat "$tmpdir/err")"

# A call whose result went into a cell it also read shows no values: the
# argument it ran with is gone (n was 99, not -9).
run over 'buffer b[4]; syslet o() { var n = 99; n = read(n, b, 4); if (n < 0) stop; }'
expect_eq "over: status" 1 "$status"
grep -q 'o stopped at atom 0 (.*over.syslet:1: n = read(n, b, 4)): -9 EBADF$' \
	"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "over: report"; }

# The call that ran, not the one compiled: an image whose close atom now
# holds fsync's number, then one whose number is past the table.
printf 'syslet f() {\n\tvar fd = 99;\n\tclose(fd);\n}\n' >"$tmpdir/c.syslet"
$SYSLETC -o "$tmpdir/c.slo" "$tmpdir/c.syslet" || fail "sysletc c.syslet"
off=$($READELF -S -W "$tmpdir/c.slo" |
	sed -n 's/.* \.syslet\.atoms *PROGBITS *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
[ -n "$off" ] || fail "no .syslet.atoms in c.slo"
word=$($SYSLETC -d "$tmpdir/c.slo" | sed -n 's/.* \([48]\)-byte words.*/\1/p')
# patch FILE NR: the first atom's nr (the word after flags), 2 bytes LE.
patch() {
	cp "$tmpdir/c.slo" "$1"
	printf "\\$(printf %o $(($2 % 256)))\\$(printf %o $(($2 / 256)))" |
		dd of="$1" bs=1 seek=$((0x$off + word)) conv=notrunc 2>/dev/null
}
fsync=$(sed -n 's/^#define __NR_fsync[ 	]*\([0-9]*\)$/\1/p' \
	"$top_builddir/src/include/syslet-nr.h" /usr/include/asm/unistd_64.h \
	/usr/include/x86_64-linux-gnu/asm/unistd_64.h 2>/dev/null | head -n 1)
[ "$word" = 8 ] && [ -n "$fsync" ] || fsync=74
patch "$tmpdir/f.slo" "$fsync"
status=0
$SYSLET_RUN --trace "$tmpdir/f.slo" 2>"$tmpdir/err" || status=$?
expect_eq "rewritten: status" 1 "$status"
grep -q '\[0\] fsync(99) = -9 EBADF' "$tmpdir/err" || { cat "$tmpdir/err" >&2;
	fail "rewritten: the trace does not name fsync"; }
grep -q 'stopped at atom 0 (.*close(fd); it ran fsync): fsync(99) = -9 EBADF$' "$tmpdir/err" ||
	fail "rewritten: the report does not name fsync"
patch "$tmpdir/p.slo" 5000
status=0
$SYSLET_RUN "$tmpdir/p.slo" 2>"$tmpdir/err" || status=$?
expect_eq "past the table: status" 1 "$status"
grep -q 'syscall 5000, past the table): syscall(5000, 99) = -38 ENOSYS$' "$tmpdir/err" || {
	cat "$tmpdir/err" >&2; fail "past the table: report"; }

# Signals the process ignores end nothing: the loop still runs after
# SIGWINCH, SIGCHLD and SIGURG; SIGTERM ends it (and the process).
printf 'syslet l() { loop { getppid(); } }\n' >"$tmpdir/l.syslet"
$SYSLET_RUN "$tmpdir/l.syslet" 2>"$tmpdir/err" &
pid=$!
sleep 1
for sig in WINCH CHLD URG; do
	kill -$sig $pid 2>/dev/null
	sleep 0.3
	kill -0 $pid 2>/dev/null || { wait $pid; cat "$tmpdir/err" >&2;
		fail "SIG$sig ended the syslet"; }
done
kill -TERM $pid
status=0
wait $pid || status=$?
expect_eq "SIGTERM: status" 143 "$status"

# With SIGPIPE ignored, a write to a pipe nobody reads fails with EPIPE
# and the syslet takes its branch.
printf '%s\n' 'syslet w() { if (write(STDOUT, "x", 1) < 0) write(2, "branch\n", 7); }' \
	>"$tmpdir/w.syslet"
(trap '' PIPE; { sleep 1; $SYSLET_RUN "$tmpdir/w.syslet"; } | true) \
	2>"$tmpdir/err"
expect_eq "ignored SIGPIPE" branch "$(cat "$tmpdir/err")"

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
1) grep -q 'close(fd)): close(-2) = -9 EBADF$' "$tmpdir/err" ||
	fail "--each nocomplete: $(cat "$tmpdir/err")" ;;
*) fail "--each nocomplete: status $status (124: it hung)" ;;
esac
exit 0
