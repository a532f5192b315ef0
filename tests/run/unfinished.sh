#!/bin/sh
# unfinished.sh: a syslet that goes async shows as strace shows a call that blocks: "read(3, " where it went, ended by its result when no other line comes between, else "read(3,  <unfinished ...>" and later "<... read resumed>" and its result, each line naming its instance with --each, as strace names the pid.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
command -v mkfifo >/dev/null 2>&1 || skip "mkfifo(1) is not installed"
cd "$tmpdir" || exit 99
mkfifo f0 f1 || skip "no FIFOs here"
cat >r.syslet <<'EOS'
buffer b[16];
syslet r(int fd) {
	var n;
	n = read(fd, b, 16);
	write(1, b, n);
}
EOS

for b in $backends; do
	# Opened read-write, the FIFOs block the reads until the writer
	# comes, instance 1's first.
	( sleep 1; echo two >f1; sleep 1; echo one >f0 ) &
	writer=$!
	st=0
	$SYSLET_RUN --backend=$b --trace --each --jobs=1 r.syslet 3 4 \
		3<>f0 4<>f1 >out 2>trace || st=$?
	wait $writer
	expect_eq "$b: status" 0 "$st"
	expect_eq "$b: output" "two
one" "$(cat out)"
	# #0's read entered, its input arguments only, then #1's line
	# came: #0's is unfinished, as strace ends a line another
	# interrupts.
	grep -q '^#0 r.syslet:4 \[0\] read(3,  <unfinished \.\.\.>$' trace ||
		{ cat trace >&2; fail "$b: #0 read not unfinished"; }
	# #1's read went async too, but nothing came between: one line,
	# as strace shows a call that blocks when no other line cuts it.
	grep -q '^#1 r.syslet:4 \[0\] read(4, "two\\n", 16) = 4 <cachemiss, went async> -> \[1\]$' \
		trace || { cat trace >&2; fail "$b: #1 read not on one line"; }
	grep -q '^#1 r.syslet:5 \[1\] write(1, "two\\n", 4) = 4 <cachemiss> -> end$' \
		trace || { cat trace >&2; fail "$b: #1 did not go on"; }
	# #0 resumed, with what it read, after #1's lines.
	expect_eq "$b: the lines' order" "#0 read(3, #1 read(4, #1 write(1, #0 <... #0 write(1, " \
		"$(sed '/^+++ exited/d; s/^\(#[01]\) [^ ]* [^ ]* \([^ ]*\).*/\1 \2/' trace |
		tr '\n' ' ')"
	grep -q '^#0 r.syslet:4 \[0\] <\.\.\. read resumed>"one\\n", 16) = 4 <cachemiss> -> \[1\]$' \
		trace || { cat trace >&2; fail "$b: #0 not resumed"; }

	# One instance: nothing comes between, the read is one line.
	( sleep 1; echo one >f0 ) &
	writer=$!
	st=0
	$SYSLET_RUN --backend=$b --trace r.syslet 3 3<>f0 >out 2>trace ||
		st=$?
	wait $writer
	expect_eq "$b: one instance: status" 0 "$st"
	expect_eq "$b: one instance: lines" 'r.syslet:4 [0] read(3, "one\n", 16) = 4 <cachemiss, went async> -> [1]
r.syslet:5 [1] write(1, "one\n", 4) = 4 <cachemiss> -> end
+++ exited with 0 +++' "$(cat trace)"
done
exit 0
