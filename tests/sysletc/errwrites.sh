#!/bin/sh
# errwrites.sh: sysletc writes each diagnostic (its line, the quoted source line, the caret, its notes) in one go to the unbuffered standard error, not a byte at a time: 100 errors took 2,900 writes (250,000 errors, 31 MB of messages, took 7.6 s, most of it in write(2)); the messages stay as they were.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace(1) to count the writes"
strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
cd "$tmpdir" || exit 99
awk 'BEGIN { for (i = 0; i < 100; i++) printf "data d%d = 1;\n", i
	     print "syslet m() { }" }' >many.syslet
# The messages as sysletc prints them to a file (buffered by the kernel's
# page cache, not by stdio: the same bytes).
st=0; $SYSLETC -o x.slo many.syslet 2>want.txt || st=$?
expect_eq "sysletc's status" 1 "$st"
expect_eq "the errors" 100 "$(grep -c ': error: a number in data needs a size' want.txt)"
# LeakSanitizer cannot run under ptrace (make check-sanitize).
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
strace -o trace.txt -e trace=write $SYSLETC -o x.slo many.syslet 2>got.txt
cmp -s want.txt got.txt || fail "the messages differ under strace"
writes=$(grep -c '^write(2,' trace.txt)
[ "$writes" -le 110 ] || fail "100 errors took $writes writes to the standard error"
exit 0
