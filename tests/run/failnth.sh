#!/bin/sh
# failnth.sh: syslet-run out of memory, threads or descriptors at any point of a run (the Nth call of malloc, calloc, realloc, mmap, pthread_create or eventfd fails, and every later one: RLIMIT_AS or RLIMIT_DATA reached for good) ends with the cat's output whole and status 0, or a message and a non-zero status: never a crash or a hang. On uring an inline chain that would go async waited for memory for a syslet's record (usleep and retry, for ever). With --stats, one allocation failing where the run goes on leaves the counters whole: a thread without memory for its block of counters lost them (emul: 'went async 1' above 'cachemiss threads 0').
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

shim=$top_builddir/tests/run/.libs/libfailnth.so
[ -f "$shim" ] || skip "no tests/run/libfailnth.so"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's runtime must come first in LD_PRELOAD"
bin=$SYSLET_RUN
cd "$tmpdir" || exit 99
$SYSLETC -o cat.slo "$top_srcdir/tests/run/cat.syslet" || fail "sysletc cat.syslet"
for i in 1 2 3 4; do
	echo "file $i" >"f$i"
done
cat f1 >want1
cat f1 f2 f3 f4 >want4

# sweep WANT ARGS...: every N from the first call to one past the last.
sweep() {
	sw_want=$1
	shift
	rm -f count
	env FAILNTH=0 FAILNTH_COUNT="$tmpdir/count" LD_PRELOAD="$shim" \
		"$bin" "$@" >out 2>err || { cat err >&2
		fail "$*: without a failure: exit status $?"; }
	[ -s count ] || skip "the shim did not load (LD_PRELOAD refused?)"
	sw_max=$(($(cat count) + 1))
	sw_n=1
	while [ $sw_n -le $sw_max ]; do
		rm -f log
		st=0
		timeout -s KILL 20 env FAILNTH=$sw_n FAILNTH_FROM=1 \
			FAILNTH_LOG="$tmpdir/log" LD_PRELOAD="$shim" \
			"$bin" "$@" >out 2>err || st=$?
		what="$* with call $sw_n on failing ($(cat log 2>/dev/null))"
		[ $st = 137 ] && fail "$what: no end in 20 s"
		[ $st -lt 128 ] || fail "$what: exit status $st"
		if [ $st = 0 ]; then
			sort out | cmp -s - "$sw_want" || { cat err >&2
				fail "$what: status 0, output not the files'"; }
		else
			[ -s err ] || fail "$what: status $st without a message"
		fi
		sw_n=$((sw_n + 1))
	done
}

for b in $backends; do
	sweep want1 --backend=$b cat.slo f1
	sweep want4 --backend=$b --each --jobs=2 cat.slo f1 f2 f3 f4
done

# row NAME: the value of --stats' row NAME in err.
row() {
	sed -n "s/^  *$1  *\([0-9][0-9]*\)\$/\1/p" err
}
# Six atoms, the sleep going async (to a worker on emul, to io_uring's
# timeout on uring), the rest after it.
cat >slp.syslet <<'SRC'
buffer buf[4096];
data ts = u64(0), u64(10000000);
syslet slp(str path)
{
	var fd, n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		stop;
	nanosleep(ts, 0);
	while ((n = read(fd, buf, 4096)) > 0)
		write(1, buf, n);
	close(fd);
}
SRC
$SYSLETC -o slp.slo slp.syslet || fail "sysletc slp.syslet"
for b in $backends; do
	rm -f count
	env FAILNTH=0 FAILNTH_COUNT="$tmpdir/count" FAILNTH_FNS=malloc,calloc \
		LD_PRELOAD="$shim" "$bin" --backend=$b --stats slp.slo f1 \
		>out 2>err || fail "$b: --stats slp.slo: exit status $?"
	n=1
	while [ $n -le "$(cat count)" ]; do
		rm -f log
		st=0
		timeout -s KILL 20 env FAILNTH=$n FAILNTH_FNS=malloc,calloc \
			FAILNTH_LOG="$tmpdir/log" LD_PRELOAD="$shim" \
			"$bin" --backend=$b --stats slp.slo f1 >out 2>err || st=$?
		what="$b --stats with call $n failing ($(cat log 2>/dev/null))"
		[ $st -lt 128 ] || fail "$what: exit status $st"
		if [ $st = 0 ] && [ -s log ]; then
			cmp -s out want1 || fail "$what: status 0, output not f1's"
			got="syslets $(row syslets), atoms $(row atoms), syscalls $(row syscalls)"
			[ "$got" = "syslets 1, atoms 6, syscalls 6" ] || {
				cat err >&2; fail "$what: $got"; }
			[ $(($(row 'inline atoms') + $(row 'cachemiss atoms'))) = 6 ] ||
				{ cat err >&2; fail "$what: inline and cachemiss atoms do not make 6"; }
			[ "$(row 'went async')" = "$(row completions)" ] ||
				{ cat err >&2; fail "$what: went async $(row 'went async'), completions $(row completions)"; }
			if [ $b = emul ] && [ "$(row 'went async')" != 0 ] &&
			   [ "$(row 'cachemiss threads')" = 0 ]; then
				cat err >&2
				fail "$what: 'went async $(row 'went async')' above 'cachemiss threads 0'"
			fi
			if [ $b = uring ]; then
				[ $(($(row 'through io_uring') + $(row 'on worker threads') + $(row 'in the driver'))) = "$(row 'cachemiss atoms')" ] ||
					{ cat err >&2; fail "$what: who ran the cachemiss atoms does not add up"; }
			fi
		fi
		n=$((n + 1))
	done
done
# Only the heap failing (malloc, calloc, realloc: one call at a time) is
# said to be memory, never a mapping nor a bad image: a calloc() of the instance
# allocator's own records was reported as 'cannot map an instance of 8192
# bytes: Cannot allocate memory (too many instances for vm.max_map_count?)'.
for b in $backends; do
	rm -f count
	env FAILNTH=0 FAILNTH_COUNT="$tmpdir/count" FAILNTH_FNS=malloc,calloc,realloc \
		LD_PRELOAD="$shim" "$bin" --backend=$b cat.slo f1 >out 2>err ||
		fail "$b: cat.slo: exit status $?"
	n=1
	while [ $n -le "$(cat count)" ]; do
		rm -f log
		st=0
		timeout -s KILL 20 env FAILNTH=$n FAILNTH_FNS=malloc,calloc,realloc \
			FAILNTH_LOG="$tmpdir/log" LD_PRELOAD="$shim" \
			"$bin" --backend=$b cat.slo f1 >out 2>err || st=$?
		what="$b with heap call $n failing ($(cat log 2>/dev/null))"
		[ $st -lt 128 ] || fail "$what: exit status $st"
		if grep -E 'map|max_map_count|ulimit' err >&2; then
			fail "$what: a heap failure reported as a mapping's"
		fi
		# libelf without memory for its descriptor of the image said
		# 'cat.slo: not an ELF file: out of memory'.
		if grep 'not an ELF' err >&2; then
			fail "$what: a heap failure reported as a bad file"
		fi
		# Status 1 is a syslet's failed call, with its stop report:
		# no memory for the lanes, before any syslet ran, exited 1
		# ('syslet-run: out of memory' alone), where every other
		# allocation before the run exits 2.
		if [ $st = 1 ] && ! grep -q 'stopped at atom' err; then
			cat err >&2
			fail "$what: status 1 without a stop report"
		fi
		n=$((n + 1))
	done
done
exit 0
