#!/bin/sh
# each-populate.sh: syslet-run --each brings in the pages of its instances' new slots a few slots a call (MADV_POPULATE_WRITE by one process_madvise for 1, 2, 4, then 8 fresh slots of a slab, as readahead grows its window), not by a madvise() each: 256 files with 64 syslets in flight made 64 such calls, at most 20 now; each a system call (about 1 us on a VM, a tenth of what the page faults they spare cost there).
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
. "$top_srcdir/tests/run/lib-backends.sh"
readfile_files 256

for b in $backends; do
	strace_each $b madvise,process_madvise
	# A kernel without the advice (before 5.14) is asked once.
	grep -q "MADV_POPULATE_WRITE) = -1 EINVAL" "$tmpdir/strace" &&
		skip "no MADV_POPULATE_WRITE here"
	# Before Linux 6.14 (or under a seccomp filter) process_madvise()
	# takes no PIDFD_SELF: the library makes a madvise() each, as it
	# did before it batched.
	grep -q "^[0-9]* *process_madvise(.*MADV_POPULATE_WRITE.*) = -1 E" "$tmpdir/strace" &&
		skip "process_madvise(PIDFD_SELF, MADV_POPULATE_WRITE) is refused here: $(grep -m1 'process_madvise(' "$tmpdir/strace")"
	n=$(grep -c "MADV_POPULATE_WRITE" "$tmpdir/strace")
	echo "--backend=$b, 256 files: $n calls populating instances"
	[ "$n" -ge 1 ] || fail "--backend=$b: no call populated an instance"
	[ "$n" -le 20 ] ||
		fail "--backend=$b: $n calls populating 64 instances (at most 20)"
done
exit 0
