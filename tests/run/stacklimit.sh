#!/bin/sh
# stacklimit.sh: sysletc and syslet-run under a small stack limit (ulimit -s 64 or 256, soft and hard) compile and run what they do under the default one, the deepest nesting sysletc accepts included, instead of ending with SIGSEGV.
. "$top_srcdir/tests/lib/harness.sh"
[ -z "${SYSLET_SANITIZE:-}" ] ||
	skip "a sanitizer runtime ($SYSLET_SANITIZE) wants its own stack"
cd "$tmpdir" || exit 99
cp "$top_srcdir/examples/cat.syslet" . || exit 99
echo hello >hello.txt
# The deepest nesting sysletc takes: 1,000 levels of statements, the
# syslet's body and 999 do-loops (syslet(5)).
awk 'BEGIN { n = 999; printf "syslet main() { var x;\n";
	for (i = 0; i < n; i++) printf "do ";
	printf "getpid();";
	for (i = 0; i < n; i++) printf " while (x);";
	print "\n}" }' >deep.syslet
# As deep with ifs: 499 of them, each with its block, around a label.
awk 'BEGIN { n = 499; printf "syslet main(str p) { var x;\n";
	for (i = 0; i < n; i++) print "if (x == 0) {";
	print "cat: x = open(p, O_RDONLY); read(x, buf, 64); write(1, buf, 6);";
	for (i = 0; i < n; i++) print "}";
	print "}\nbuffer buf[64];" }' >nested.syslet
$SYSLETC -o a.slo cat.syslet && mv a.slo cat.slo || exit 99

# limited KIB WHAT CMD...: CMD under `ulimit -s KIB` (both limits, as a
# user types it) must exit 0; a signal is the failure this test is for.
# The environment goes on the same stack before the program starts
# (make check's is large): CMD gets an empty one.
limited() {
	limited_kib=$1 limited_what=$2
	shift 2
	st=0
	(ulimit -s "$limited_kib" 2>/dev/null || exit 98
	 exec env -i "$@") >out.txt 2>err.txt || st=$?
	[ "$st" = 98 ] && skip "cannot set ulimit -s $limited_kib here"
	[ "$st" = 0 ] || { cat err.txt >&2
		fail "$limited_what under ulimit -s $limited_kib: exit status $st"; }
}
# Not less than 64 KiB: under 32, the dynamic loader itself fails now
# and then before main (ASLR takes up to 8 KiB of the stack's top), as
# it does for /bin/true; sysletc needed 48 KiB for libelf's writer.
for kib in 64 256; do
	limited $kib "sysletc cat.syslet" $SYSLETC -o a.slo cat.syslet
	cmp -s a.slo cat.slo || fail "ulimit -s $kib: another image"
	limited $kib "sysletc deep.syslet" $SYSLETC -o deep.slo deep.syslet
	limited $kib "syslet-run cat.slo" $SYSLET_RUN cat.slo hello.txt
	expect_eq "ulimit -s $kib: cat.slo's output" hello "$(cat out.txt)"
	limited $kib "syslet-run nested.syslet" $SYSLET_RUN nested.syslet \
		hello.txt
	expect_eq "ulimit -s $kib: nested.syslet's output" hello \
		"$(cat out.txt)"
	limited $kib "syslet-run --trace --each" $SYSLET_RUN --trace --each \
		--jobs=2 cat.slo hello.txt hello.txt hello.txt
	expect_eq "ulimit -s $kib: --each's output" 3 \
		"$(grep -c hello out.txt)"
done

# Where the hard limit keeps the stack small, the program runs on a
# thread of its own: the process's signals must still reach it.  SIGTERM
# ends a --trace run that waits in read(), with strace's tail (exec.c).
printf 'buffer b[16];\nsyslet main() { read(0, b, 16); }\n' >wait.syslet
mkfifo in.fifo || skip "no FIFO here"
exec 3<>in.fifo		# a writer that never writes: read() waits
(ulimit -s 64 && exec env -i $SYSLET_RUN --trace wait.syslet) <in.fifo \
	>out.txt 2>err.txt &
pid=$!
i=0
until grep -q 'read(0, ' err.txt 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || { cat err.txt >&2; fail "no trace line in 30 s"; }
	sleep 0.1
done
kill -TERM $pid
st=0
wait $pid || st=$?
exec 3>&-
expect_eq "SIGTERM under ulimit -s 64: status" 143 "$st"
grep -q '^+++ killed by SIGTERM +++$' err.txt ||
	{ cat err.txt >&2; fail "SIGTERM under ulimit -s 64: no tail"; }
exit 0
