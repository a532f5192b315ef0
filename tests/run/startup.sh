#!/bin/sh
# startup.sh: what syslet-run does before its syslet runs, each a cost at every start (a page fault is 10-12 us of CPU on a VM that shadows page tables, a system call about 1 us): its text and read-only data are mapped whole (one system call populating a page per fault-around window, not a fault per 64 KB window touched, nor every page walked), and a run without --each reads no count of CPUs (a sysfs file opened, read and parsed), nor formats an error text that nobody sees (libc's printf code); the uring backend sets up one io_uring, probed and then its head's, and reads no count of CPUs; a one-file --each run makes no futex call (one-time initialisations without pthread_once(), whose every first run wakes a futex), and its bound string goes to shared anonymous memory mapped twice, not to a memfd; a small image is read without a pread() of its first byte; the heads of the run's lanes are left to the exit, the threads of lanes 1.. waiting for it rather than ending.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
[ -r /proc/self/smaps ] || skip "no /proc/self/smaps"
printf 'buffer b[1];\nsyslet w() { write(1, "x", 1); read(0, b, 1); }\n' \
	>"$tmpdir/w.syslet"
mkfifo "$tmpdir/in" "$tmpdir/out" || skip "no mkfifo here"

# Whole as the program's file is in the page cache once it ran: read
# through first, so that no page of it still carries the mark of a
# readahead under way (which the kernel's fault-around maps no page
# over) after another program dropped the caches.  Where one drops them
# between that read and the run, the next of three tries counts.
for b in $backends; do
    for try in 1 2 3; do
	for f in $SYSLET_RUN; do
		[ -f "$f" ] && cat "$f" >/dev/null
	done
	# The syslet says x, then waits for a byte: the start is over.
	$SYSLET_RUN --backend=$b "$tmpdir/w.syslet" <"$tmpdir/in" \
		>"$tmpdir/out" 2>"$tmpdir/err" &
	pid=$!
	exec 3>"$tmpdir/in"
	x=$(head -c 1 "$tmpdir/out")
	exe=$(readlink "/proc/$pid/exe")
	awk -v exe="$exe" '
		$1 ~ /^[0-9a-f]+-[0-9a-f]+$/ {
			m = ($NF == exe && $2 !~ /w/) ? $1 " " $2 : ""
		}
		m && $1 == "Size:" { size = $2 }
		m && $1 == "Rss:" { print m, size, $2 }
		' "/proc/$pid/smaps" >"$tmpdir/maps"
	echo >&3
	exec 3>&-
	st=0
	wait $pid || st=$?
	[ "$st" = 0 ] || { cat "$tmpdir/err" >&2; fail "--backend=$b: status $st"; }
	expect_eq "--backend=$b: the syslet's write" x "$x"
	case $exe in
	*syslet-run) ;;
	*) skip "syslet-run runs as $exe (a wrapper): its own maps are not seen" ;;
	esac
	[ -s "$tmpdir/maps" ] || fail "--backend=$b: no mapping of $exe"
	# address perms size-kB rss-kB
	part=
	while read -r range perms size rss; do
		echo "--backend=$b (try $try): $perms $range: $rss of $size kB mapped"
		[ "$rss" = "$size" ] ||
			part="$perms $range of $exe: $rss of $size kB mapped"
	done <"$tmpdir/maps"
	[ -z "$part" ] && break
	[ $try = 3 ] && fail "--backend=$b: $part"
    done
done

# The image's error text is set before it is known to be needed ("out of
# memory" until the image checked out): copied, not formatted, so that a
# run that never fails runs none of libc's printf code (its pages).
shim=$top_builddir/tests/run/.libs/libclockcalls.so
if [ -f "$shim" ] && [ -z "${SYSLET_SANITIZE:-}" ]; then
	for b in $backends; do
		: >"$tmpdir/calls"
		PRINTFCALLS_OUT=$tmpdir/calls LD_PRELOAD=$shim \
			$SYSLET_RUN --backend=$b "$tmpdir/probe.syslet" ||
			fail "--backend=$b: a getppid syslet failed"
		n=$(wc -l <"$tmpdir/calls" | tr -d ' ')
		echo "--backend=$b, a getppid syslet: $n vsnprintf calls"
		expect_eq "--backend=$b: vsnprintf calls" 0 "$n"
	done
	# The shim's own check: an image's error is formatted.
	printf '\177ELF\002\001\001\000garbage' >"$tmpdir/bad.slo"
	: >"$tmpdir/calls"
	PRINTFCALLS_OUT=$tmpdir/calls LD_PRELOAD=$shim \
		$SYSLET_RUN "$tmpdir/bad.slo" 2>/dev/null &&
		fail "a broken image ran"
	[ -s "$tmpdir/calls" ] || fail "the shim saw no vsnprintf call for a broken image"
	# The engine's policy tables look up about 300 syscall names: by
	# comparisons in place, not a strcmp() through libc at each step
	# of each search (3,045 calls on emul before).  An image:
	# a source's compiler looks names up too.
	$SYSLETC -o "$tmpdir/probe.slo" "$tmpdir/probe.syslet" ||
		fail "sysletc probe.syslet"
	for b in $backends; do
		: >"$tmpdir/calls"
		STRCMPCALLS_OUT=$tmpdir/calls LD_PRELOAD=$shim \
			$SYSLET_RUN --backend=$b "$tmpdir/probe.slo" ||
			fail "--backend=$b: a getppid syslet failed"
		n=$(cat "$tmpdir/calls")
		echo "--backend=$b, a getppid syslet: $n strcmp calls"
		[ -n "$n" ] || fail "--backend=$b: the shim counted no strcmp()"
		[ "$n" -le 300 ] ||
			fail "--backend=$b, a getppid syslet: $n strcmp calls (at most 300)"
	done
fi

command -v strace >/dev/null 2>&1 || exit 0
# LeakSanitizer cannot run under ptrace: off for this run.
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
strace -f -qq -o "$tmpdir/strace" -e trace=open,openat \
	$SYSLET_RUN --backend=emul "$tmpdir/probe.syslet" 2>"$tmpdir/err" ||
	{ grep -q "Operation not permitted\|PTRACE" "$tmpdir/err" && exit 0
	  cat "$tmpdir/err" >&2; fail "strace of a run"; }
n=$(grep -c "/sys/devices/system/cpu" "$tmpdir/strace")
echo "--backend=emul, no --each: $n opens of /sys/devices/system/cpu"
expect_eq "opens of /sys/devices/system/cpu" 0 "$n"

# One-time initialisations cost no system call (glibc's pthread_once()
# wakes a futex after each: 6 of the 86 calls of a one-file run on
# uring), nor does the end of the lane that runs on the caller's
# thread, which nobody joins: a one-file --each run makes no futex call.
printf 'syslet o(str s) { getppid(); }\n' >"$tmpdir/one.syslet"
for b in $backends; do
	ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
	strace -f -qq -o "$tmpdir/strace" -e trace=futex \
		$SYSLET_RUN --each --backend=$b "$tmpdir/one.syslet" x \
		2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "strace of a --backend=$b run"; }
	n=$(grep -c "futex(" "$tmpdir/strace")
	echo "--backend=$b, --each of one: $n futex calls"
	expect_eq "--backend=$b, --each of one: futex calls" 0 "$n"
done

# The bound string's chunk is shared anonymous memory seen twice (mmap,
# mremap, mprotect), not a memfd (memfd_create, ftruncate, two mmap,
# close): two system calls fewer, and no descriptor.  An image, not a
# source (compiled in memory, into a memfd of its own).
$SYSLETC -o "$tmpdir/one.slo" "$tmpdir/one.syslet" || fail "sysletc one.syslet"
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
strace -f -qq -o "$tmpdir/strace" \
	-e trace=memfd_create,ftruncate,mremap,pread64,rt_sigaction \
	$SYSLET_RUN --each --backend=emul "$tmpdir/one.slo" x \
	2>"$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "strace of a --backend=emul run"; }
m=$(grep -c "memfd_create(\|ftruncate(" "$tmpdir/strace")
r=$(grep -c "mremap(.*MREMAP_MAYMOVE) = 0x" "$tmpdir/strace")
echo "--each of one: $m memfd_create and ftruncate, $r mremap"
expect_eq "--each of one: memfd_create and ftruncate calls" 0 "$m"
expect_eq "--each of one: mremap calls" 1 "$r"
# The image, a regular file under 64 KiB, is told from a source by its
# first read: no pread() of its first byte (the loader's reads of libc
# come before syslet-run's first signal call, the handler's install).
p=$(awk '/rt_sigaction\(/ { s = 1 } s && /pread64\(/ { n++ } END { print n + 0 }' "$tmpdir/strace")
echo "--each of one: $p pread64 reading the image"
expect_eq "--each of one: pread64 reading the image" 0 "$p"

# The head of the lane on the caller's thread goes with the exit once
# the run is over, as the kernel's exit unregisters it: the engine makes
# no signal call after the run's last (uring: no munmap or close of its
# ring either); 7 calls on uring, 3 on emul went to unregister it.
for b in $backends; do
	ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
	strace -f -qq -o "$tmpdir/strace" \
		-e trace=rt_sigaction,rt_sigprocmask,munmap,close,io_uring_enter,getppid \
		$SYSLET_RUN --each --backend=$b "$tmpdir/one.slo" x \
		2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "strace of a --backend=$b run"; }
	# After the syslet's getppid: its engine restoring the mask, then
	# nothing of the engine's.
	n=$(awk '/getppid\(/ { s = 1; next } s && !/resumed>/ { n++ } END { print n + 0 }' "$tmpdir/strace")
	echo "--backend=$b, --each of one: $n calls after the syslet's"
	[ "$n" -le 1 ] || { cat "$tmpdir/strace" >&2
		fail "--backend=$b: $n calls after the syslet's (at most 1: its mask restored)"; }
done

# So are the heads of the other lanes, whose threads then wait for the
# exit rather than end: no thread unregisters its head (its ring's
# munmap and close on uring, the engine's signal calls) or ends (glibc's
# madvise() of its stack, exit) after its syslet ran, each a call in a
# process of several threads (a TLB flush on each CPU for the unmaps).
for b in $backends; do
	ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
	strace -f -qq -o "$tmpdir/strace" \
		-e trace=rt_sigaction,munmap,close,madvise,exit,getppid \
		$SYSLET_RUN --each --jobs=2 --backend=$b "$tmpdir/one.slo" x y \
		2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "strace of a --jobs=2 --backend=$b run"; }
	[ "$(grep -c 'getppid(' "$tmpdir/strace")" = 2 ] ||
		{ cat "$tmpdir/strace" >&2; fail "--backend=$b: not 2 getppid"; }
	# Each thread's calls after its own last syslet's getppid: a lane
	# may take both (the other found none left and ended before its
	# first), and the calls before its second syslet are that one's.
	n=$(awk '/getppid\(/ { g[$1] = 1; c[$1] = 0; next } g[$1] && !/resumed>/ && !/exited with/ { c[$1]++ } END { for (t in c) n += c[t]; print n + 0 }' "$tmpdir/strace")
	echo "--backend=$b, --each --jobs=2 of two: $n calls after a lane's syslet"
	[ "$n" = 0 ] || { cat "$tmpdir/strace" >&2
		fail "--backend=$b, --jobs=2: $n calls unregistering a head or ending a thread after a lane's syslet"; }
done

# The text and read-only data are populated one page per fault-around
# window (the kernel maps the rest of each window with it), not every
# page walked by a madvise() of the whole range: 35-55 us against 88-163
# us here.  Where the kernel takes process_madvise(PIDFD_SELF) -- the
# engine's slabs show it does -- that is the one call before the first
# signal call, with no madvise(MADV_POPULATE_READ) of the whole range.
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
strace -f -qq -o "$tmpdir/strace" -e trace=madvise,process_madvise,rt_sigaction \
	$SYSLET_RUN --each --backend=emul "$tmpdir/one.slo" x \
	2>"$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "strace of a --backend=emul run"; }
if grep -q 'process_madvise(-10000, .*) = [0-9]' "$tmpdir/strace"; then
	awk '/rt_sigaction\(/ { exit } { print }' "$tmpdir/strace" >"$tmpdir/pre"
	w=$(grep -c 'madvise(0x[0-9a-f]*, [0-9]*, MADV_POPULATE_READ)' "$tmpdir/pre")
	p=$(grep 'process_madvise(-10000, .*MADV_POPULATE_READ, 0) = [0-9]' \
		"$tmpdir/pre" | grep -o 'iov_len=[0-9]*' | cut -d= -f2)
	echo "text populated: $w madvise of a range, process_madvise ranges:" $p
	expect_eq "madvise(MADV_POPULATE_READ) of the whole text" 0 "$w"
	# A page a window, but each read-only segment's last window
	# whole (at most 64 KB): three segments, three such at most.
	[ -n "$p" ] || fail "process_madvise(MADV_POPULATE_READ): no ranges"
	expect_eq "process_madvise(MADV_POPULATE_READ): ranges past a window" 0 \
		"$(echo "$p" | awk '$1 > 65536' | wc -l | tr -d ' ')"
	[ "$(echo "$p" | awk '$1 != 4096' | wc -l)" -le 3 ] ||
		fail "process_madvise(MADV_POPULATE_READ): more than a segment's last window populated whole:" $p
else
	echo "no process_madvise(PIDFD_SELF) here: the whole range's madvise stands"
fi

# The uring backend's probe is made on the ring its first head then
# uses: one ring set up in all, and no count of CPUs read to size a
# ring of the probe's own.
case " $backends " in
*" uring "*)
	ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
	strace -f -qq -o "$tmpdir/strace" \
		-e trace=open,openat,io_uring_setup \
		$SYSLET_RUN --backend=uring "$tmpdir/probe.syslet" \
		2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "strace of a uring run"; }
	n=$(grep -c "/sys/devices/system/cpu" "$tmpdir/strace")
	s=$(grep -c "io_uring_setup(" "$tmpdir/strace")
	echo "--backend=uring: $s io_uring_setup, $n opens of /sys/devices/system/cpu"
	expect_eq "--backend=uring: io_uring_setup calls" 1 "$s"
	expect_eq "--backend=uring: opens of /sys/devices/system/cpu" 0 "$n"
	;;
esac
exit 0
