#!/bin/sh
# signal.sh: ./syslet-run in the build tree is the program itself, so that a signal (timeout(1)) ends it and leaves nothing behind.
. "$top_srcdir/tests/lib/harness.sh"
prog=$top_builddir/syslet-run
command -v timeout >/dev/null 2>&1 || skip "timeout(1) is not installed"
command -v pgrep >/dev/null 2>&1 || skip "pgrep(1) is not installed"

# ELF magic: 0x7f 'E' 'L' 'F', not a libtool wrapper script.
magic=$(head -c 4 "$prog" | od -An -c | tr -d ' ')
expect_eq "the first bytes of $prog" '177ELF' "$magic"

# A syslet that never ends, under a name no other process has.
src=$tmpdir/spin-$$.syslet
printf 'syslet spin() { loop { getppid(); } }\n' >"$src"
async=$tmpdir/async-spin-$$.syslet
printf 'syslet spin() { async loop { getppid(); } }\n' >"$async"
# The async loop: its worker must not keep the process up.
for s in "$src" "$async"; do
	st=0
	timeout -k 10 -s TERM 1 "$prog" "$s" || st=$?
	expect_eq "timeout's status for $s" 124 "$st"
	# 137: SIGTERM did not end it and timeout -k had to kill it (the
	# test must fail, never hang).  The process is gone once timeout
	# returns; allow for a slow reaper.
	gone "$s" "timeout's SIGTERM"
done
exit 0
