#!/bin/sh
# uring-enters.sh: a syslet_exec_batch() of 1,000 syslets that open, read and close a cached file each enters io_uring about once per 128 of their calls, not once per 64 (each io_uring_enter is a system call, dear under virtualisation: issue 13); counted with strace, the bytes read checked.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
batchread=$top_builddir/tests/run/batchread

$SYSLETC -o "$tmpdir/readfile.slo" "$top_srcdir/tests/bench/readfile.syslet" ||
	fail "sysletc readfile.syslet"
mkdir "$tmpdir/f"
i=0
while [ $i -lt 1000 ]; do
	echo "file number $i" >"$tmpdir/f/$i"
	i=$((i + 1))
done
want=$(cat "$tmpdir"/f/* | wc -c)
files=$(cd "$tmpdir/f" && ls)
# The files are in the page cache: a read of each warms the dentries too.
cat "$tmpdir"/f/* >/dev/null

st=0
# LeakSanitizer cannot run under ptrace (make check-sanitize).
got=$(cd "$tmpdir/f" &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -c -o "$tmpdir/strace" \
	-e trace=io_uring_enter "$batchread" uring "$tmpdir/readfile.slo" \
	$files 2>"$tmpdir/err") || st=$?
[ "$st" = 77 ] && skip "$(cat "$tmpdir/err")"
grep -q "Operation not permitted\|PTRACE" "$tmpdir/err" &&
	skip "strace cannot trace here: $(head -n 1 "$tmpdir/err")"
[ "$st" = 0 ] || { cat "$tmpdir/err" >&2; fail "batchread: status $st"; }
expect_eq "bytes read" "$want" "$got"
enters=$(awk '$NF == "io_uring_enter" { print $4 }' "$tmpdir/strace")
[ -n "$enters" ] || { cat "$tmpdir/strace" >&2; fail "no io_uring_enter counted"; }
echo "3,000 calls of 1,000 cached files: $enters io_uring_enter"
# 3,000 SQEs by 128 is 24 enters; by 64 it was 48.
[ "$enters" -le 30 ] || fail "$enters io_uring_enter for 1,000 files (at most 30)"
exit 0
