#!/bin/sh
# uring-enters.sh: a syslet_exec_batch() of 1,000 syslets that open, read and close a file each hands their calls to io_uring a whole SQ (256 SQEs) at a time, not 128 or 64 (each io_uring_enter is a system call, dear under virtualisation: issue 13), so that 1,000 cached files take at most 16 io_uring_enter (liburing's linked openat/read/close with 64 in flight take 16), whether the kernel completes the calls inside io_uring_enter (cached files) or later (procfs files it hands to its workers); and the batch checks the fault handler and holds signals back once for all its syslets (at most 2 rt_sigaction, 2 rt_sigprocmask; one rt_sigprocmask installing the engine's mask, also in a batch that starts the progress thread for a read of a FIFO still waiting) and allocates their records 64 at a time (at most 24 malloc calls), their signal masks apart, so that the batch takes at most 36 page faults (getrusage; 55 when each record held two); its statistics cost no thread-local look-up a syslet (at most 64 __tls_get_addr calls for 1,000 syslets in callgrind, a few each time the batch enters the ring), and the interpreter runs at most 1,625 instructions a syslet there; counted per call with strace, the bytes read checked.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "no strace"
batchread=$top_builddir/tests/run/batchread

# What the engine promises, whatever the kernel does with each call: from
# the start of syslet_exec_batch() until it returns (batchread calls
# getppid before and after), it submits a full SQ (UR_SQ_ENTRIES)
# or more at a time, then at most UR_SETTLE_ROUNDS
# smaller ones, taking what completed at once, and never waits.  How many
# calls complete inside those io_uring_enter calls, and so how many the
# batch prepares and how often async_wait() enters afterwards, is the
# kernel's: a cached open or read usually completes there, but one it
# hands to its workers, or whose page is not in memory any more,
# completes later.  Inside the batch the signal calls are the engine's
# once for all its syslets: the check that its fault handler is still
# installed (rt_sigaction of SIGSEGV and SIGBUS, emul_fault_own()), and
# signals blocked while atoms run in place and restored at the end.
# The engine's records of the syslets in flight come 64 to a malloc().
chunk=256 settle=8 sigcalls=2 mallocs=24 faults=36

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

# run LABEL MAX FILE...: batchread of the FILEs, the calling thread's
# io_uring_enter calls (the batch's, then async_wait()'s) and the batch's
# signal calls and allocations checked as said above, and at most MAX
# io_uring_enter in the batch (-: no bound, nor on its signal calls and
# allocations: a batch that leaves syslets in flight starts the progress
# thread, and pthread_create() makes signal calls of its own); $got: the
# bytes read in all.
run() {
	label=$1 max=$2
	shift 2
	nfiles=$#
	st=0
	# LeakSanitizer cannot run under ptrace (make check-sanitize).
	got=$(cd "$tmpdir/f" &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -qq -o "$tmpdir/strace" \
		-e trace=io_uring_enter,getppid,rt_sigaction,rt_sigprocmask \
		"$batchread" uring "$tmpdir/readfile.slo" \
		"$@" 2>"$tmpdir/err") || st=$?
	[ "$st" = 77 ] && skip "$(cat "$tmpdir/err")"
	grep -q "Operation not permitted\|PTRACE" "$tmpdir/err" &&
		skip "strace cannot trace here: $(head -n 1 "$tmpdir/err")"
	[ "$st" = 0 ] || { cat "$tmpdir/err" >&2; fail "$label: batchread: status $st"; }
	# io_uring_enter(fd, to_submit, min_complete, flags, sig, sz) = N;
	# the first one is the backend's probe (nothing to submit); the
	# getppid calls before it are the libtool wrapper's, the two after
	# it batchread's marks.
	counts=$(awk -v chunk=$chunk '
		/^getppid\(/ && seen { mark++; next }
		mark == 1 && /^rt_sigaction\(/ { sa++ }
		mark == 1 && /^rt_sigprocmask\(/ { sm++ }
		# The engine holding signals back: SIG_SETMASK of a set
		# that leaves only the synchronous signals open (one that
		# the kernel gives back lists KILL and STOP as open).
		mark == 1 && /^rt_sigprocmask\(SIG_SETMASK, ~\[[^]]*SEGV/ &&
		    !/^rt_sigprocmask\(SIG_SETMASK, ~\[[^]]*KILL/ { bm++ }
		/^io_uring_enter\(/ {
			if (!seen) { seen = 1; next }
			split($0, a, /[(,)]/)
			split($0, r, / = /)
			n = r[2] + 0
			if (n < 0) n = 0
			sqes += n
			if (mark >= 2) { later++; next }
			if (mark != 1) next
			if (a[4] + 0 > 0) waits++
			else if (n >= chunk) big++
			else small++
			bsqes += n
		}
		END {
			printf "%d %d %d %d %d %d %d %d %d %d\n", big, small, waits,
			       bsqes, later, sqes, mark, sa, sm, bm
		}' "$tmpdir/strace")
	set -- $counts
	blockmask=${10}
	[ "$7" = 2 ] || { cat "$tmpdir/strace" >&2; fail "$label: $7 getppid marks around the batch, not 2"; }
	echo "$label: the batch: $1 io_uring_enter of $chunk SQEs or more, $2 fewer, $3 waits ($4 SQEs), $8 rt_sigaction, $9 rt_sigprocmask ($blockmask setting the engine's mask); then $5 io_uring_enter; $6 SQEs in all"
	[ "$max" = - ] || [ $(($1 + $2 + $3)) -le "$max" ] ||
		fail "$(($1 + $2 + $3)) io_uring_enter for 1,000 $label files (at most $max)"
	# Every syslet's open, its first call, goes in before the batch
	# returns.
	[ "$4" -ge $nfiles ] || { cat "$tmpdir/strace" >&2; fail "$label: the batch submitted $4 SQEs for $nfiles syslets"; }
	# Signals are held back once for the batch, whatever it starts.
	[ "$blockmask" -le 1 ] || { cat "$tmpdir/strace" >&2
		fail "$label: the batch set the engine's signal mask $blockmask times (at most 1)"; }
	[ "$3" = 0 ] || fail "$label: the batch waited in io_uring_enter $3 times"
	[ "$2" -le $settle ] ||
		fail "$label: the batch made $2 submissions of fewer than $chunk SQEs (at most $settle, at its end)"
	[ "$max" = - ] || [ "$8" -le $sigcalls ] ||
		fail "$label: $8 rt_sigaction in the batch (at most $sigcalls)"
	[ "$max" = - ] || [ "$9" -le $sigcalls ] ||
		fail "$label: $9 rt_sigprocmask in the batch (at most $sigcalls)"
	# batchread counts them where it can interpose glibc's malloc.
	n=$(sed -n 's/^batchread: \([0-9]*\) malloc and calloc calls in the batch$/\1/p' "$tmpdir/err")
	[ -z "$n" ] || echo "$label: $n malloc and calloc calls in the batch"
	[ "$max" = - ] || [ -z "$n" ] || [ "$n" -le $mallocs ] ||
		fail "$label: $n malloc and calloc calls in the batch of 1,000 syslets (at most $mallocs)"
	# The records of the syslets in flight (up to a full SQ's) are
	# what the batch's page faults grow with: their signal masks apart,
	# allocated where a chain needs one, 64 records take 3 pages, not 7
	# (55 faults for this batch, 24 without them; a sanitizer's shadow
	# pages fault too).
	n=$(sed -n 's/^batchread: \([0-9]*\) page faults in the batch$/\1/p' "$tmpdir/err")
	echo "$label: $n page faults in the batch"
	[ "$max" = - ] || [ -n "${SYSLET_SANITIZE:-}" ] || [ "$n" -le $faults ] ||
		fail "$label: $n page faults in the batch of 1,000 syslets (at most $faults)"
	return 0
}

# The files in the page cache: a read of each warms the dentries too.
cat "$tmpdir"/f/* >/dev/null
# Their 3,000 calls complete inside io_uring_enter: a dozen full SQs.
run cached 16 $files
expect_eq "cached: bytes read" "$want" "$got"
# The interpreter counts a run's hand-offs and completions in the run's
# own statistics, added to the thread's totals once: counted each at
# once, they cost a look-up of the thread's totals (__tls_get_addr, in a
# shared library) each, two a syslet.  Counted by callgrind inside
# syslet_exec_batch(); the engine's fault fixups need exact registers.
st=-
if command -v valgrind >/dev/null 2>&1 && [ -z "${SYSLET_SANITIZE:-}" ]; then
	st=0
	(cd "$tmpdir/f" && "$top_builddir/libtool" --mode=execute \
		valgrind -q --tool=callgrind \
		--px-default=allregs-at-each-insn \
		--px-file-backed=allregs-at-each-insn \
		--toggle-collect=syslet_exec_batch \
		--callgrind-out-file="$tmpdir/cg" \
		"$batchread" uring "$tmpdir/readfile.slo" $files) \
		>/dev/null 2>"$tmpdir/err" || st=$?
fi
# A valgrind that lacks io_uring's calls: batchread's backend is missing.
if [ "$st" = 77 ]; then
	echo "cached, under callgrind: skipped: $(cat "$tmpdir/err")"
elif [ "$st" != - ]; then
	[ "$st" = 0 ] ||
		{ cat "$tmpdir/err" >&2; fail "cached: batchread under callgrind: status $st"; }
	# fn=(ID) NAME names a function once, then fn=(ID) or cfn=(ID);
	# calls=N follows the callee's cfn line.
	set -- $(awk '
		match($0, /^c?fn=\([0-9]+\)/) {
			id = substr($0, RSTART, RLENGTH); sub(/^c?fn=/, "", id)
			if (length($0) > RLENGTH) name[id] = substr($0, RLENGTH + 2)
			if ($0 ~ /^cfn=/) callee = name[id]
			next
		}
		/^calls=/ && callee == "__tls_get_addr" {
			n += substr($1, 7) + 0
		}
		/^summary:/ { ir = $2 }
		END { printf "%d %d\n", n, ir / 1000 }' "$tmpdir/cg")
	echo "cached, under callgrind: $1 __tls_get_addr calls in the batch, $2 instructions a syslet"
	[ "$1" -le 64 ] ||
		fail "cached: $1 __tls_get_addr calls in the batch of 1,000 syslets (at most 64)"
	# The interpreter's own cost, a syslet of three atoms through the
	# ring: an async syslet's atom is read into its record rather than
	# copied there, an SQE taken without asking the ring's flags, and
	# an open's completion not measured as a transfer that io_uring may
	# have ended early (gcc 12 -O2: 1,605 instructions; 1,680, 1,621
	# before; issue 13); then 1,614 with the terminal's job control
	# (a worker's call made for the syslet's mask) and an EINTR of
	# io_uring's made again on a worker, both tested only where they
	# apply (1,666 when every completion asked redo_of()); then 1,633
	# with room() asking whether a record can be had before a chain
	# goes async (a chain with none blocks in place) and whether the
	# caller hands off at all (a vfork() child, file-system IDs of its
	# own: asked once a batch, the test of the answer each atom).
	[ "$2" -le 1640 ] ||
		fail "cached: $2 instructions a syslet in the batch (at most 1640)"
fi
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
	run procfs - "$@"
	# A stat line has 52 fields.
	[ "$got" -ge 100000 ] || fail "procfs: $got bytes read by 1,000 reads"
fi
# A FIFO whose writer writes once the batch has returned: the syslet's
# read is still in flight then, and the batch starts the progress
# thread (pthread_create() blocks and restores signals itself: the
# engine's mask is set once all the same).
if mkfifo "$tmpdir/fifo" 2>/dev/null; then
	(
		# The batch is over at batchread's second mark (at most
		# 20 s: then the read goes on all the same).
		i=0
		while [ $i -lt 200 ] && [ "$(awk '
			/^io_uring_enter\(/ { seen = 1 }
			/^getppid\(/ && seen { n++ }
			END { print n + 0 }' "$tmpdir/strace" 2>/dev/null)" -lt 2 ]
		do
			sleep 0.1
			i=$((i + 1))
		done
		echo "fifo data" >"$tmpdir/fifo"
	) &
	writer=$!
	: >"$tmpdir/strace"
	run fifo - "$tmpdir/fifo"
	wait $writer
	expect_eq "fifo: bytes read" 10 "$got"
fi
exit 0
