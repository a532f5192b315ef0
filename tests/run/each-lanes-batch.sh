#!/bin/sh
# each-lanes-batch.sh: syslet-run --each --jobs=N makes 64/N instances at a time in each lane (16 at least), so that about 64 are live at once whatever N, not 64 a lane: each new slot's pages are brought in and zeroed by the kernel (1.6 us a page on a VM), a slot taken again is zeroed by hand (0.1 us), and with --jobs=2 over 1,000 cached files 64 a lane brought in 256 pages where 32 bring in 128.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
. "$top_srcdir/tests/run/lib-backends.sh"
case " $backends " in
*" uring "*) ;;
*) skip "no io_uring here: the batches are seen in its io_uring_enter" ;;
esac
# 1,024 files: a lane's ring (its share, 512 or more) allows chunks of a
# quarter of it, more than 64.
readfile_files 1024

# The first io_uring_enter that submits anything, in each thread: the
# opens of the lane's first batch, all of its instances (nothing of an
# earlier batch is in flight yet, and the SQ holds 256).
for j in 1 2 4; do
	want=$((64 / j))
	[ $want -ge 16 ] || want=16
	# shellcheck disable=SC2086 # one file a word
	(cd "$tmpdir/f" &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o "$tmpdir/strace" -e trace=io_uring_enter \
		$SYSLET_RUN --each --jobs=$j --backend=uring \
		"$tmpdir/readfile.slo" $files) 2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "--jobs=$j: status $?"; }
	grep -q "Operation not permitted\|PTRACE" "$tmpdir/err" &&
		skip "strace cannot trace here: $(head -n 1 "$tmpdir/err")"
	firsts=$(sed -n 's/^\([0-9]*\) *io_uring_enter([0-9]*, \([1-9][0-9]*\),.*/\1 \2/p' \
		"$tmpdir/strace" | awk '!seen[$1]++ { print $2 }')
	[ -n "$firsts" ] || { cat "$tmpdir/strace" >&2
		fail "--jobs=$j: no io_uring_enter submitted anything"; }
	echo "--jobs=$j: first batches of" $firsts "syslets (at most $want)"
	for n in $firsts; do
		[ "$n" -le $want ] ||
			fail "--jobs=$j: a lane made $n instances at once (at most $want: about 64 live in all)"
	done
done
exit 0
