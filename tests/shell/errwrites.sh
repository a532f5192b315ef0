#!/bin/sh
# errwrites.sh: syslet-run -i writes each message in one go, not a byte at a time: 'print' of an unknown name of 200,000 bytes made 200,000 writes to the standard error (a megabyte took 0.7 s of system time); the message and its quoting of control bytes stay as they were.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
command -v strace >/dev/null 2>&1 || skip "no strace(1) to count the writes"
strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul
name=$(awk 'BEGIN { s = "x"; while (length(s) < 200000) s = s s; print substr(s, 1, 200000) }')
printf 'print %s\nprint a\033b\n' "$name" >"$tmpdir/in"
# LeakSanitizer cannot run under ptrace (make check-sanitize): no leak
# check in the traced run.
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
st=0
strace -f -e trace=write -o "$tmpdir/strace" $SYSLET_RUN -i \
	<"$tmpdir/in" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
# Its last line failed: status 1, as gdb -batch.
expect_eq "the session's status" 1 "$st"
expect_eq "the message" "syslet-run: print: no cell '$name'" \
	"$(sed -n 1p "$tmpdir/err")"
expect_eq "the escape quoted" "syslet-run: print: no cell 'a?b'" \
	"$(sed -n 2p "$tmpdir/err")"
writes=$(grep -c '^[0-9]* *write(2,' "$tmpdir/strace")
[ "$writes" -le 100 ] ||
	fail "two messages took $writes writes to the standard error"
exit 0
