#!/bin/sh
# each-calls.sh: syslet-run --each hands the engine 64 syslets a syslet_exec_batch() (the lane's instances made as the syslets before them end), so that a lane of 512 open/read/close syslets makes at most 48 signal calls (the engine checks its fault handler and sets and restores its mask once a batch: 4 calls) and on uring at most 32 io_uring_enter (3 a batch): 32 a batch made 66-70 and 49.  Each a system call, about 1 us on a VM.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
. "$top_srcdir/tests/run/lib-backends.sh"
readfile_files 512

for b in $backends; do
	strace_each $b io_uring_enter,rt_sigaction,rt_sigprocmask
	# Lines that a thread's call interrupted say "<... NAME resumed>".
	e=$(grep -c "io_uring_enter(" "$tmpdir/strace")
	s=$(grep -c "rt_sig[a-z]*(" "$tmpdir/strace")
	echo "--backend=$b, 512 files: $e io_uring_enter, $s signal calls"
	[ "$s" -le 48 ] ||
		fail "--backend=$b: $s signal calls for 512 files (at most 48)"
	[ "$b" != uring ] || [ "$e" -le 32 ] ||
		fail "--backend=$b: $e io_uring_enter for 512 files (at most 32)"
done
exit 0
