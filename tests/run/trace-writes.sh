#!/bin/sh
# trace-writes.sh: syslet-run --trace writes each line whole, as strace does (a line that a call left open goes out at once, the rest when it ends): a write for each line, or two, not one for each of its pieces, so that a long trace is not mostly write(2) calls; counted with strace, where it can run.
. "$top_srcdir/tests/lib/harness.sh"
command -v strace >/dev/null 2>&1 || skip "strace(1) is not installed"
cd "$tmpdir" || exit 99
strace -o probe.log true 2>/dev/null || skip "strace cannot trace here"
i=0
while [ $i -lt 20 ]; do
	echo "file $i" >"f$i"
	i=$((i + 1))
done
printf '%s\n' 'buffer b[64];' 'syslet r(str path) {' \
	'	var fd, n;' '	fd = open(path, O_RDONLY);' \
	'	n = read(fd, b, 64);' '	close(fd);' '}' >r.syslet
st=0
# A sanitizer build's leak check cannot run under ptrace.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
strace -f -qq -e trace=write -o writes.log \
	$SYSLET_RUN --trace --each r.syslet f* >out 2>trace || st=$?
expect_eq "status" 0 "$st"
lines=$(wc -l <trace)
[ "$lines" -ge 60 ] || { cat trace >&2; fail "$lines trace lines for 20 files"; }
# The writes to the standard error (strace -f: "PID write(2, ...").
writes=$(grep -c 'write(2, ' writes.log)
echo "$lines trace lines, $writes writes"
[ "$writes" -le $((2 * lines)) ] ||
	fail "$writes writes for $lines trace lines"
exit 0
