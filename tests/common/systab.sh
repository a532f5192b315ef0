#!/bin/sh
# systab.sh: the generated syscall tables agree with the kernel ABI of each profile.
. "$top_srcdir/tests/lib/harness.sh"
d=$top_builddir/tests/common/systab-dump
expect_eq "2007 i386 320" "320 async_register denied" "$($d i386-2007 320)"
expect_eq "2007 i386 324" "324 umem_add" "$($d i386-2007 324)"
expect_eq "2007 i386 325" "325 ?" "$($d i386-2007 325)"
expect_eq "today i386 320" "320 utimensat" "$($d i386 320)"
expect_eq "today i386 umem" "umem_add 1004" "$($d i386 umem_add)"
expect_eq "x86_64 read" "read 0" "$($d x86_64 read)"
expect_eq "x86_64 open" "open 2" "$($d x86_64 open)"
expect_eq "i386 open" "open 5" "$($d i386 open)"
expect_eq "x86_64 fork" "57 fork denied" "$($d x86_64 57)"
expect_eq "i386 exit_group" "252 exit_group denied" "$($d i386 252)"
expect_eq "suggest" "opne -1 suggest=open" "$($d x86_64 opne)"
expect_eq "2007 has no openat2" "openat2 -1 suggest=openat" "$($d i386-2007 openat2)"
# Every call of each profile is found by its name (systab_lookup probes a
# hash index that gen-tables.sh writes beside the tables); a name
# between two of them, or before or after all, is not.
for p in x86_64 i386 i386-2007; do
	want=$($d "$p" $(seq 0 1100) | awk '$2 != "?" { print $2, $1 }')
	got=$($d "$p" $(echo "$want" | cut -d' ' -f1) | cut -d' ' -f1,2)
	expect_eq "$p: every name round-trips" "$want" "$got"
	expect_eq "$p: names that are not calls" "aaaa -1
_ -1
reae -1
readz -1
zzzz -1" "$($d "$p" aaaa _ reae readz zzzz | cut -d' ' -f1,2)"
done
# A lookup visits a few slots of that index, not the ~9 entries of a
# binary search (the runtime's start looks up 300 names, each entry cold
# in a new process): every name within 8 slots of its hash's, which
# gen-tables.sh (awk) and systab.c compute alike.
for p in x86_64 i386 i386-2007; do
	n=$($d --probes "$p")
	echo "$p: at most $n slots visited to find a name"
	[ "$n" -ge 1 ] && [ "$n" -le 8 ] ||
		fail "$p: names found within 8 slots of their hash's: $n (-1: no index, or one a lookup cannot follow)"
done
# A found entry is compared a word at a time, the last word ending at the
# name's NUL: names that differ from a call's in one byte, first, last or
# in between, or are one byte longer or shorter, are not that call.
for n in getppiX Xetppid getpXid getppi getppidd rt_sigactioX Xt_sigaction \
	rt_sigXction rt_sigactio rt_sigactionn clock_gettime6X \
	Xlock_gettime64 sched_rr_get_interval_time6X; do
	expect_eq "x86_64: $n is no call" "$n -1" "$($d x86_64 "$n" | cut -d' ' -f1,2)"
done
