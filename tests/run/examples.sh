#!/bin/sh
# examples.sh: every example in examples/ run end to end through syslet-run: output and exit status.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-server.sh"
ex=$top_srcdir/examples

# run WANT_STATUS CMD...: output in $tmpdir/out, messages in $tmpdir/err.
run() {
	want=$1
	shift
	status=0
	"$@" >"$tmpdir/out" 2>"$tmpdir/err" || status=$?
	[ "$status" = "$want" ] || { cat "$tmpdir/err" >&2
		fail "$*: exit status $status, expected $want"; }
}

# hello: from the source and from its image.
run 0 $SYSLET_RUN "$ex/hello.syslet"
expect_eq "hello" "Hello Syslet World!" "$(cat "$tmpdir/out")"
$SYSLETC -o "$tmpdir/hello.slo" "$ex/hello.syslet" || fail "sysletc hello"
run 0 $SYSLET_RUN "$tmpdir/hello.slo"
expect_eq "hello.slo" "Hello Syslet World!" "$(cat "$tmpdir/out")"

# cat: a file larger than its buffer comes out whole.
i=0
while [ $i -lt 400 ]; do
	echo "line $i of a file longer than one 4096-byte buffer"
	i=$((i + 1))
done >"$tmpdir/big"
run 0 $SYSLET_RUN "$ex/cat.syslet" "$tmpdir/big"
cmp -s "$tmpdir/big" "$tmpdir/out" || fail "cat: output differs"
run 0 $SYSLET_RUN "$ex/cat.syslet" /dev/null
[ -s "$tmpdir/out" ] && fail "cat /dev/null printed something"
run 1 $SYSLET_RUN "$ex/cat.syslet" "$tmpdir/none"
grep -q "cat stopped at atom 0 (.*cat\\.syslet:[0-9]*: fd = open(path, O_RDONLY)): open(\"$tmpdir/none\", O_RDONLY) = -2 ENOENT\$" \
	"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "cat: stop report"; }
# A read that fails is not an end of file: cat(1) of a directory says
# EISDIR and exits 1.
run 1 $SYSLET_RUN "$ex/cat.syslet" "$tmpdir"
grep -q "cat stopped at atom [0-9]* (.*: n = read(fd, buf, BUFSZ)): read(.*) = -21 EISDIR\$" \
	"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "cat of a directory"; }

# copy: a copy, then the errors of either side.
run 0 $SYSLET_RUN "$ex/copy.syslet" "$tmpdir/big" "$tmpdir/copied"
cmp -s "$tmpdir/big" "$tmpdir/copied" || fail "copy: the copy differs"
run 1 $SYSLET_RUN "$ex/copy.syslet" "$tmpdir/none" "$tmpdir/c2"
grep -q -- '-2 ENOENT$' "$tmpdir/err" || fail "copy: missing source"
[ -e "$tmpdir/c2" ] && fail "copy created its target without a source"
# A target that cannot be opened ends the syslet at that open: status 1.
run 1 $SYSLET_RUN "$ex/copy.syslet" "$tmpdir/big" "$tmpdir/no/such/dir"
grep -q 'copy stopped at atom 1 .*-2 ENOENT$' "$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "copy: bad target not reported"; }
[ -e "$tmpdir/no" ] && fail "copy: created a bad target"
run 2 $SYSLET_RUN "$ex/copy.syslet" "$tmpdir/big"
# A source that cannot be read (a directory) fails the copy, which is
# not a complete one, rather than leaving an empty target with status 0.
run 1 $SYSLET_RUN "$ex/copy.syslet" "$tmpdir" "$tmpdir/c3"
grep -q 'copy stopped at atom [0-9]* (.*: n = read(in, buf, BUFSZ)): .* = -21 EISDIR$' \
	"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "copy of a directory"; }

# countdown: an int parameter, counted down with umem_add.
run 0 $SYSLET_RUN "$ex/countdown.syslet" 3
expect_eq "countdown 3" "tick
tick
tick
liftoff!" "$(cat "$tmpdir/out")"
run 0 $SYSLET_RUN "$ex/countdown.syslet" 0
expect_eq "countdown 0" "liftoff!" "$(cat "$tmpdir/out")"
run 2 $SYSLET_RUN "$ex/countdown.syslet" three
grep -q "parameter count of countdown: expected int, got 'three'" \
	"$tmpdir/err" || fail "countdown: type error"

# full WANT_STATUS CMD...: as run, the standard output /dev/full.
full() {
	want=$1
	shift
	status=0
	"$@" >/dev/full 2>"$tmpdir/err" || status=$?
	[ "$status" = "$want" ] || { cat "$tmpdir/err" >&2
		fail "$* >/dev/full: exit status $status, expected $want"; }
}

# A write that fails (a full disk: /dev/full) ends every example that
# writes at that write, with status 1 and the report, as cat(1) and
# cp(1) fail; the examples ignored it and exited 0.
if [ -w /dev/full ]; then
	full 1 $SYSLET_RUN "$ex/cat.syslet" "$tmpdir/big"
	grep -q 'cat stopped at atom [0-9]* (.*: .*write(STDOUT, buf, n).*ENOSPC$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "cat >/dev/full: report"; }
	run 1 $SYSLET_RUN "$ex/copy.syslet" "$tmpdir/big" /dev/full
	grep -q 'copy stopped at atom [0-9]* (.*: .*write(out, buf, n).*ENOSPC$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "copy to /dev/full: report"; }
	full 1 $SYSLET_RUN "$ex/countdown.syslet" 3
	grep -q 'countdown stopped at atom [0-9]* (.*: .*write(STDOUT, tick, len(tick)).*ENOSPC$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "countdown >/dev/full: the first tick"; }
	full 1 $SYSLET_RUN "$ex/hello.syslet"
fi

# server: three connections from a client, then it ends by itself.  Its
# address is a parameter: a port nobody listens on (other test runs on
# this machine may hold 8080, which the README uses).
client=$top_builddir/tests/run/tcp-client
[ -x "$client" ] || fail "no $client"
free_port 0
$SYSLET_RUN "$ex/server.syslet" 127.0.0.1:$port 3 >"$tmpdir/sout" \
	2>"$tmpdir/serr" &
pid=$!
"$client" $port 3 2>"$tmpdir/cerr"
cstatus=$?
# The server sees the last connection close and ends.
server_done $pid server
[ "$cstatus" = 0 ] || { cat "$tmpdir/cerr" >&2; fail "client failed"; }

# http: two requests, answered with its page; curl(1) where the machine
# has it, as the example's comment says, else the C client, which closes
# before the answer (the server's sendto() must not die of SIGPIPE).
free_port 1
$SYSLET_RUN "$ex/http.syslet" 127.0.0.1:$port 2 >"$tmpdir/sout" \
	2>"$tmpdir/serr" &
pid=$!
if command -v curl >/dev/null 2>&1; then
	curl -s --retry 20 --retry-connrefused --retry-delay 1 --max-time 30 \
		"http://127.0.0.1:$port/" >"$tmpdir/page" 2>"$tmpdir/cerr"
	cstatus=$?
	[ "$cstatus" = 0 ] && expect_eq "http: the page curl got" \
		"Hello from a syslet!" "$(cat "$tmpdir/page")"
else
	"$client" $port 1 2>"$tmpdir/cerr"
	cstatus=$?
fi
[ "$cstatus" = 0 ] && { "$client" $port 1 2>>"$tmpdir/cerr"; cstatus=$?; }
server_done $pid http
[ "$cstatus" = 0 ] || { cat "$tmpdir/cerr" >&2; fail "http: client failed"; }
exit 0
