#!/bin/sh
# uring-enters.sh: a syslet_exec_batch() of 1,000 syslets that open, read and close a file each hands their calls to io_uring 128 SQEs at a time, not 64 (each io_uring_enter is a system call, dear under virtualisation: issue 13), whether the kernel completes the calls inside io_uring_enter (cached files) or later (procfs files it hands to its workers); counted per call with strace, the bytes read checked.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
batchread=$top_builddir/tests/run/batchread

# What the engine promises, whatever the kernel does with each call: until
# syslet_exec_batch() returns (batchread then calls getppid), it submits
# UR_BATCH_CHUNK SQEs or more at a time, then at most UR_SETTLE_ROUNDS
# smaller ones, taking what completed at once, and never waits.  How many
# calls complete inside those io_uring_enter calls, and so how many the
# batch prepares and how often async_wait() enters afterwards, is the
# kernel's: a cached open or read usually completes there, but one it
# hands to its workers, or whose page is not in memory any more,
# completes later.
chunk=128 settle=8

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

# run LABEL FILE...: batchread of the FILEs, the calling thread's
# io_uring_enter calls (the batch's, then async_wait()'s) checked as said
# above; $got: the bytes read in all.
run() {
	label=$1
	shift
	st=0
	# LeakSanitizer cannot run under ptrace (make check-sanitize).
	got=$(cd "$tmpdir/f" &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -qq -o "$tmpdir/strace" \
		-e trace=io_uring_enter,getppid \
		"$batchread" uring "$tmpdir/readfile.slo" \
		"$@" 2>"$tmpdir/err") || st=$?
	[ "$st" = 77 ] && skip "$(cat "$tmpdir/err")"
	grep -q "Operation not permitted\|PTRACE" "$tmpdir/err" &&
		skip "strace cannot trace here: $(head -n 1 "$tmpdir/err")"
	[ "$st" = 0 ] || { cat "$tmpdir/err" >&2; fail "$label: batchread: status $st"; }
	# io_uring_enter(fd, to_submit, min_complete, flags, sig, sz) = N;
	# the first one with nothing to submit is the backend's probe; the
	# getppid calls before any are the libtool wrapper's.
	counts=$(awk -v chunk=$chunk '
		/^getppid\(/ && seen { after = 1 }
		/^io_uring_enter\(/ {
			seen = 1
			split($0, a, /[(,)]/)
			split($0, r, / = /)
			n = r[2] + 0
			if (n < 0) n = 0
			sqes += n
			if (after) { later++; next }
			if (a[3] + 0 == 0 && a[4] + 0 == 0) next
			if (a[4] + 0 > 0) waits++
			else if (n >= chunk) big++
			else small++
			bsqes += n
		}
		END {
			printf "%d %d %d %d %d %d %d\n", big, small, waits,
			       bsqes, later, sqes, after
		}' "$tmpdir/strace")
	set -- $counts
	[ "$7" = 1 ] || { cat "$tmpdir/strace" >&2; fail "$label: no getppid after the batch"; }
	echo "$label: the batch: $1 io_uring_enter of $chunk SQEs or more, $2 fewer, $3 waits ($4 SQEs); then $5 io_uring_enter; $6 SQEs in all"
	# Every syslet's open, its first call, goes in before the batch
	# returns.
	[ "$4" -ge 1000 ] || { cat "$tmpdir/strace" >&2; fail "$label: the batch submitted $4 SQEs for 1,000 syslets"; }
	[ "$3" = 0 ] || fail "$label: the batch waited in io_uring_enter $3 times"
	[ "$2" -le $settle ] ||
		fail "$label: the batch made $2 submissions of fewer than $chunk SQEs (at most $settle, at its end)"
	return 0
}

# The files in the page cache: a read of each warms the dentries too.
cat "$tmpdir"/f/* >/dev/null
run cached $files
expect_eq "cached: bytes read" "$want" "$got"
# Files whose opens and reads the kernel hands to its workers (procfs's
# per-process files take no non-blocking attempt): their completions come
# after they were submitted.
if [ -r /proc/self/stat ]; then
	set --
	i=0
	while [ $i -lt 1000 ]; do
		set -- "$@" /proc/self/stat
		i=$((i + 1))
	done
	run procfs "$@"
	# A stat line has 52 fields.
	[ "$got" -ge 100000 ] || fail "procfs: $got bytes read by 1,000 reads"
fi
exit 0
