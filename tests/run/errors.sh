#!/bin/sh
# errors.sh: syslet-run's usage and load errors: each a clear message and its exit status.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run

# expect STATUS PATTERN CMD...: run CMD, check its status and that its
# standard error matches PATTERN (a grep -E expression).
expect() {
	want=$1 pat=$2
	shift 2
	"$@" >"$tmpdir/out" 2>"$tmpdir/err"
	got=$?
	[ "$got" = "$want" ] || { cat "$tmpdir/err" >&2
		fail "$*: exit status $got, expected $want"; }
	grep -Eq -- "$pat" "$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "$*: no '$pat' in the message"; }
}

$SYSLET_RUN --help >"$tmpdir/help" || fail "--help failed"
grep -q '^Usage: ' "$tmpdir/help" || fail "--help prints no usage"
grep -q -- '--each' "$tmpdir/help" || fail "--help does not list --each"
# The shell's form of the command, as the SYNOPSIS has it.
grep -q '^  or:  syslet-run -i \[OPTION\]\.\.\. \[IMAGE|SOURCE \[ARG\]\.\.\.\]$' \
	"$tmpdir/help" || fail "--help shows no usage of -i"
$SYSLET_RUN --version | grep -q '^syslet-run ' || fail "--version"

expect 2 'no image or source given' $SYSLET_RUN
expect 2 'unrecognized option|unknown option' $SYSLET_RUN --bogus x
# An unknown letter inside a cluster is named, not the long option before
# it.
expect 2 "^syslet-run: invalid option -- 'x'$" $SYSLET_RUN --trace -xyz x
expect 2 "^syslet-run: invalid option -- 'x'$" $SYSLET_RUN --backend=emul -Txyz x
expect 2 "^syslet-run: option '--stats' doesn't allow an argument$" $SYSLET_RUN --stats=3 x
# --jobs without --each would do nothing: refused.
expect 2 "^syslet-run: --jobs applies to --each only" $SYSLET_RUN --jobs=4 x
# Every usage error starts with the program's name, never with the
# libtool wrapper's (.libs/syslet-run, lt-syslet-run) or a path.
for opt in --bogus -x --threads --stats=1 --e; do
	expect 2 '^syslet-run: .*option' $SYSLET_RUN $opt
	[ "$(grep -c '^syslet-run: ' "$tmpdir/err")" = 1 ] ||
		fail "$opt: the message does not start with 'syslet-run: '"
done
# strace's options, typed from habit: the message names this one's.
expect 2 "^syslet-run: invalid option -- 'e' \\(strace's -e trace=SET and -e inject=RULE are --trace=SET and --inject=RULE here\\)$" \
	$SYSLET_RUN -e trace=read x
expect 2 "^syslet-run: invalid option -- 'C' \\(strace's -C is --trace -c here\\)$" \
	$SYSLET_RUN -C x
expect 2 "^syslet-run: invalid option -- 'o' \\(the trace goes to the standard error: 2>FILE\\)$" \
	$SYSLET_RUN -o f --trace x
expect 2 "^syslet-run: invalid option -- 's' \\(the trace shows a string's first 32 bytes, as strace's default -s 32 does; the shell's x BUFFER LEN shows more\\)$" \
	$SYSLET_RUN -s 256 --trace x
expect 2 "^syslet-run: invalid option -- 'f' \\(a syslet makes no process or thread: fork and clone are denied in atoms; --trace shows every atom, a worker's too\\)$" \
	$SYSLET_RUN -f --trace x
# A mistake on the command line ends, as in sysletc (and in getopt's own
# complaints here), with the way to the options: the value of an option
# as much as its name.
try_help() { # CMD...
	"$@" >/dev/null 2>"$tmpdir/err"
	st=$?
	expect_eq "$*: status" 2 "$st"
	last=$(tail -n 1 "$tmpdir/err")
	prog=${1##*/}
	expect_eq "$*: last line" "Try '$prog --help' for more information." "$last"
	[ "$(grep -c "^$prog: " "$tmpdir/err")" = 1 ] ||
		{ cat "$tmpdir/err" >&2; fail "$*: not one message"; }
}
try_help $SYSLETC --target=foo "$src/cat.syslet"
try_help $SYSLET_RUN --bogus x
try_help $SYSLET_RUN --threads=0 x
try_help $SYSLET_RUN --ring=99999999999999999999999 x
try_help $SYSLET_RUN --jobs=x --each x
try_help $SYSLET_RUN --jobs=4 x
try_help $SYSLET_RUN --backend=nonesuch x
try_help $SYSLET_RUN --trace=nonesuch x
try_help $SYSLET_RUN --inject=write x
try_help $SYSLET_RUN -i --stats x
expect 2 'wants a positive number' $SYSLET_RUN --threads=0 x
expect 2 'wants a positive number' $SYSLET_RUN --ring=lots x
expect 2 'backend' $SYSLET_RUN --backend=nonesuch "$src/cat.syslet" x
expect 2 'nothere.slo: No such file or directory' $SYSLET_RUN "$tmpdir/nothere.slo"
mkdir "$tmpdir/adir"
expect 2 'adir: Is a directory$' $SYSLET_RUN "$tmpdir/adir"
# Over the bounds (sparse files): an image may be 1 GiB, a source 64 MiB;
# the first byte tells which (0x7f: ELF).
printf '\177ELF' >"$tmpdir/big.slo"
truncate -s $((1024 * 1024 * 1024 + 1)) "$tmpdir/big.slo" || exit 99
expect 2 'big\.slo: larger than the limit of 1 GiB$' $SYSLET_RUN "$tmpdir/big.slo"
rm -f "$tmpdir/big.slo"
truncate -s $((64 * 1024 * 1024 + 1)) "$tmpdir/big.syslet" || exit 99
expect 2 'big\.syslet: larger than the limit of 64 MiB for a syslet source$' \
	$SYSLET_RUN "$tmpdir/big.syslet"
rm -f "$tmpdir/big.syslet"

# Devices are refused before a byte is read; a stream that is no text
# and no ELF at its first bytes.
expect 2 '/dev/zero: not a regular file or a pipe \(a character device\)$' \
	$SYSLET_RUN /dev/zero
# Foreign files: binary junk, an ELF file that is no syslet image.
printf 'junk\000junk' >"$tmpdir/junk.slo"
expect 2 'neither a syslet image nor a syslet source' $SYSLET_RUN "$tmpdir/junk.slo"
$CC -c -o "$tmpdir/foreign.o" -x c - <<'C' 2>/dev/null && \
	expect 2 'foreign\.o: ' $SYSLET_RUN "$tmpdir/foreign.o"
int foreign(void) { return 0; }
C

# A truncated image, at several lengths.
$SYSLETC -o "$tmpdir/cat.slo" "$src/cat.syslet" || fail "sysletc cat.syslet"
size=$(wc -c <"$tmpdir/cat.slo")
for len in 0 3 64 200 $((size / 2)) $((size - 1)); do
	head -c "$len" "$tmpdir/cat.slo" >"$tmpdir/short.slo"
	expect 2 'short\.slo: ' $SYSLET_RUN "$tmpdir/short.slo" /dev/null
done

# An image for another ABI profile.
if $SYSLETC --target=i386-2007 -o "$tmpdir/old.slo" "$src/cat.syslet" 2>/dev/null &&
   [ "$(uname -m)" = x86_64 ]; then
	expect 2 'i386-2007 ABI profile' $SYSLET_RUN "$tmpdir/old.slo" /dev/null
fi

# Entries and parameters.
expect 2 'has 2 syslets; choose one with --entry: (hello add|add hello)' \
	$SYSLET_RUN "$src/two.syslet"
expect 2 "no syslet named 'nope'" $SYSLET_RUN --entry=nope "$src/two.syslet"
expect 2 "parameter n of add: expected int, got 'abc'" \
	$SYSLET_RUN --entry=add "$src/two.syslet" abc
expect 2 'add takes 1 parameter \(int n\), got 0' \
	$SYSLET_RUN --entry=add "$src/two.syslet"
expect 2 'cat takes 1 parameter \(str path\), got 2' \
	$SYSLET_RUN "$src/cat.syslet" a b
expect 2 '--each binds one parameter per instance' \
	$SYSLET_RUN --each --entry=hello "$src/two.syslet" a
$SYSLET_RUN --entry=add "$src/two.syslet" 0x10 >"$tmpdir/out" ||
	fail "add 0x10 failed"
expect_eq "add output" added "$(cat "$tmpdir/out")"

# Hostile input: an empty file, a source through a pipe, a huge list of
# arguments, int parameters that are no int of the word.
: >"$tmpdir/empty.syslet"
expect 2 'empty\.syslet: error: no syslet in this file' $SYSLET_RUN "$tmpdir/empty.syslet"
mkfifo "$tmpdir/fifo" || exit 99
cat "$src/two.syslet" >"$tmpdir/fifo" &
$SYSLET_RUN --entry=add "$tmpdir/fifo" 1 >"$tmpdir/out" 2>"$tmpdir/err" ||
	fail "a source read from a FIFO: $(cat "$tmpdir/err")"
wait
expect_eq "source from a FIFO" added "$(cat "$tmpdir/out")"
# With no writer, the open waits as cat's does (syslet-run(1)), until a
# signal ends it; a writer that comes later is read.
mkfifo "$tmpdir/nowriter" || exit 99
$SYSLET_RUN --entry=add "$tmpdir/nowriter" 2 >"$tmpdir/out" 2>&1 &
pid=$!
sleep 0.3
kill -0 $pid 2>/dev/null || fail "a FIFO with no writer: did not wait for one"
cat "$src/two.syslet" >"$tmpdir/nowriter"
wait $pid || fail "a FIFO whose writer came late: $(cat "$tmpdir/out")"
expect_eq "source from a FIFO whose writer came late" added "$(cat "$tmpdir/out")"
$SYSLET_RUN "$tmpdir/nowriter" >/dev/null 2>&1 &
pid=$!
sleep 0.2
kill -TERM $pid
wait $pid
[ $? -eq 143 ] || fail "a FIFO with no writer: SIGTERM did not end the wait"
set -- $(seq 100000)
expect 2 'cat takes 1 parameter \(str path\), got 100000$' \
	$SYSLET_RUN "$src/cat.syslet" "$@"
set --
for bad in '' 1x 0x '1 2'; do
	expect 2 "parameter n of add: expected int, got '$bad'\$" \
		$SYSLET_RUN --entry=add "$src/two.syslet" "$bad"
done
for bad in 99999999999999999999 -99999999999999999999; do
	expect 2 "parameter n of add: $bad is out of range: an int holds " \
		$SYSLET_RUN --entry=add "$src/two.syslet" "$bad"
done

# A ring whose size in bytes no unsigned long holds (the ABI's
# ring_size_bytes) is out of range, with the bound; one within it that
# memory cannot hold is no memory: one message, even with a lane per
# job, nothing about unregistering.
if [ "$(getconf LONG_BIT 2>/dev/null)" = 64 ]; then
	for n in 2305843009213693952 4611686018427387904 \
		99999999999999999999; do
		expect 2 "^syslet-run: --ring=$n is out of range: a ring holds at most 2305843009213693951 entries\$" \
			$SYSLET_RUN --ring=$n "$src/cat.syslet" /dev/null
		[ "$(grep -c '^syslet-run: ' "$tmpdir/err")" = 1 ] || {
			cat "$tmpdir/err" >&2
			fail "--ring=$n: more than one message"; }
	done
	for jobs in 1 3; do
		expect 2 '^syslet-run: no memory for a ring of 2305843009213693951 entries$' \
			$SYSLET_RUN --each --jobs=$jobs --ring=2305843009213693951 \
			"$src/cat.syslet" /dev/null /dev/null /dev/null
		# A sanitizer's allocator warns of the failed malloc() on a
		# line of its own ('==PID==WARNING: ...'): not ours.
		[ "$(grep -cv '^==[0-9]*==' "$tmpdir/err")" = 1 ] || {
			cat "$tmpdir/err" >&2
			fail "--each --jobs=$jobs, a huge --ring: more than one message"; }
	done
fi
expect 2 '^syslet-run: --threads=99999999999999999999 is out of range: at most [0-9]+$' \
	$SYSLET_RUN --threads=99999999999999999999 "$src/cat.syslet" /dev/null

# "-" is a file name (the standard input stays the syslet's): the message
# says so, and how to read a program from the standard input.
expect 2 "^syslet-run: -: No such file or directory \\(the standard input stays the syslet's; /dev/stdin reads the program from it\\)\$" \
	$SYSLET_RUN - </dev/null
$SYSLETC -o - "$src/cat.syslet" | $SYSLET_RUN /dev/stdin "$src/hello.txt" \
	>"$tmpdir/out" || fail "an image read from /dev/stdin"
cmp -s "$src/hello.txt" "$tmpdir/out" || fail "the image from /dev/stdin"

# A backend named by the environment: the message says so, since the
# user may not know the variable is set.
expect 2 "^syslet-run: unknown syslet backend 'foo' from SYSLET_BACKEND \\(expected auto" \
	env SYSLET_BACKEND=foo $SYSLET_RUN "$src/cat.syslet" /dev/null
expect 2 "^syslet-run: unknown syslet backend 'foo' \\(expected auto" \
	$SYSLET_RUN --backend=foo "$src/cat.syslet" /dev/null
# An empty name on the command line is no name, as --target= is for
# sysletc and --entry= here: it was taken as auto in silence (the
# environment's empty SYSLET_BACKEND still means unset, as usual).
expect 2 "^syslet-run: unknown syslet backend '' \\(expected auto, kernel, uring or emul\\)\$" \
	$SYSLET_RUN --backend= "$src/cat.syslet" /dev/null
# Followed by the usage hint, as every other bad option value is
# (--backend=foo had it; the empty name did not).
grep -q "^Try 'syslet-run --help' for more information\.\$" "$tmpdir/err" ||
	fail "--backend=: no 'Try ... --help' line"
expect 2 "^syslet-run: unknown syslet backend ''" \
	$SYSLET_RUN -i --backend= "$src/cat.syslet" </dev/null
env SYSLET_BACKEND= $SYSLET_RUN "$src/cat.syslet" /dev/null ||
	fail "an empty SYSLET_BACKEND is not taken as unset"

# An image with many syslets: the message names the first 20 and says how
# many more, in one line written once; it named all of them, a write(2)
# each (100,000 writes and 690 KB for an image of 100,000).
i=0
while [ $i -lt 100 ]; do
	printf 'syslet s%d() { getppid(); }\n' $i
	i=$((i + 1))
done >"$tmpdir/many.syslet"
$SYSLETC -o "$tmpdir/many.slo" "$tmpdir/many.syslet" || fail "compile many.syslet"
names="s0 s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 s12 s13 s14 s15 s16 s17 s18 s19"
expect 2 "^syslet-run: the image has 100 syslets; choose one with --entry: $names and 80 more \\(sysletc -d lists them\\)\$" \
	$SYSLET_RUN "$tmpdir/many.slo"
expect_eq "many syslets: lines" 1 "$(wc -l <"$tmpdir/err" | tr -d ' ')"
expect 2 "^syslet-run: no syslet named 'nope'; the image has: $names and 80 more \\(sysletc -d lists them\\)\$" \
	$SYSLET_RUN --entry=nope "$tmpdir/many.slo"

# The options of a run alone mean nothing to the shell: refused, with
# what it takes, before anything is read (they were dropped in silence).
for opt in --stats:--stats --each:--each --jobs=2:--jobs -T:-T -tt:-t -r:-r \
	--trace=read:--trace=SET; do
	expect 2 "^syslet-run: ${opt#*:} does not apply to the shell \(-i\); it takes --backend" \
		$SYSLET_RUN -i "${opt%%:*}" "$src/cat.syslet" </dev/null
	[ -s "$tmpdir/out" ] && fail "-i ${opt%%:*}: the shell started"
done
# Where the shell has its own way, the message names it.
expect 2 "^syslet-run: --stats does not apply .*--trace; its stats command shows the counters\$" \
	$SYSLET_RUN -i --stats "$src/cat.syslet" </dev/null
expect 2 "^syslet-run: --trace=SET does not apply .*--trace; its trace command takes SET\$" \
	$SYSLET_RUN -i --trace=read "$src/cat.syslet" </dev/null

# The shell's script whose program cannot be read or compiled ends with
# the status of a run that cannot (2), not 1, which says a call failed.
if ! $SYSLET_RUN -i </dev/null 2>&1 | grep -q 'unavailable'; then
	expect 2 "^syslet-run: $tmpdir/nothere: No such file or directory\$" \
		$SYSLET_RUN -i "$tmpdir/nothere" </dev/null
	printf 'syslet f() {\n' >"$tmpdir/open.syslet"
	expect 2 "open\\.syslet:1:13: error: syntax error" \
		$SYSLET_RUN -i "$tmpdir/open.syslet" </dev/null
fi

# A source with errors: the compiler's diagnostics, then status 2.
printf 'syslet broken() {\n\tfrobnicate(1);\n}\n' >"$tmpdir/broken.syslet"
expect 2 'broken\.syslet:2:[0-9]+: error: ' $SYSLET_RUN "$tmpdir/broken.syslet"

# A syslet that stops on an error: status 1 and the stop report.
expect 1 "cat stopped at atom 0 \\(.*cat\\.syslet:[0-9]+: .*open.*\\): open\\(\".*/nothere\", O_RDONLY\\) = -2 ENOENT\$" \
	$SYSLET_RUN "$src/cat.syslet" "$tmpdir/nothere"
expect 1 "cat stopped at atom 0 .*: open\\(.*\\) = -2 ENOENT\$" \
	$SYSLET_RUN "$tmpdir/cat.slo" "$tmpdir/nothere"
exit 0
