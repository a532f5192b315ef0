#!/bin/sh
# apps.sh: programs a newcomer writes from the man pages (tests/run/apps/: tee, wc -l, a directory lister, an HTTP/1.0 server, a TCP echo server, a pipe poller) run on each user-space backend, and a C program that lets a syslet reap its child, checked against real clients (curl, nc or socat) where installed.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
. "$top_srcdir/tests/run/lib-server.sh"
apps=$top_srcdir/tests/run/apps

# Inputs shared by every backend.
seq 20000 >"$tmpdir/seq"
mkdir "$tmpdir/many" "$tmpdir/dir"
# 10,000 files of 3 lines each, for one wcl instance per file (--each).
(cd "$tmpdir/many" && seq 30000 | split -l 3 -a 4 - f) ||
	fail "cannot make the files of --each"
[ "$(ls "$tmpdir/many" | wc -l)" = 10000 ] || fail "split made the wrong files"
printf 'no newline' >"$tmpdir/none"
# Enough entries with long names that getdents64 needs several calls.
i=0
while [ $i -lt 1500 ]; do
	echo "entry-$i-with-a-name-long-enough-to-fill-the-buffer"
	i=$((i + 1))
done >"$tmpdir/names"
(cd "$tmpdir/dir" && xargs touch <"$tmpdir/names") || fail "touch"
sort "$tmpdir/names" >"$tmpdir/names.sorted"
head -c 300000 /dev/urandom >"$tmpdir/page" || fail "no random bytes"

# words FILE: the 8- or 4-byte words of FILE (wcl's counts), one a line.
words() {
	od -An -v -tu$wordsz -w$wordsz "$1" | tr -d ' '
}
wordsz=8
[ "$(uname -m)" = x86_64 ] || wordsz=4

n=0
for b in $backends; do
	n=$((n + 1))
	run="$SYSLET_RUN --backend=$b"

	# tee: the input whole on the standard output and in the file.
	$run "$apps/tee.syslet" "$tmpdir/tee.out" <"$tmpdir/seq" \
		>"$tmpdir/out" 2>"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "$b: tee"; }
	cmp -s "$tmpdir/seq" "$tmpdir/out" || fail "$b: tee: standard output"
	cmp -s "$tmpdir/seq" "$tmpdir/tee.out" || fail "$b: tee: the file"
	st=0
	$run "$apps/tee.syslet" "$tmpdir/no/such" <"$tmpdir/seq" \
		>"$tmpdir/out" 2>"$tmpdir/err" || st=$?
	expect_eq "$b: tee into a missing directory: status" 1 $st
	grep -q '^syslet-run: tee stopped at atom 0 (.*tee\.syslet:8: .*= -2 ENOENT$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "$b: tee: report"; }
	[ -s "$tmpdir/out" ] && fail "$b: tee wrote without its file"

	# wc -l: one file, a file without a newline, then 10,000 at once.
	$run "$apps/wcl.syslet" "$tmpdir/seq" >"$tmpdir/out" ||
		fail "$b: wcl seq"
	expect_eq "$b: wcl seq" 20000 "$(words "$tmpdir/out")"
	$run "$apps/wcl.syslet" "$tmpdir/none" >"$tmpdir/out" ||
		fail "$b: wcl none"
	expect_eq "$b: wcl of a file without a newline" 0 "$(words "$tmpdir/out")"
	$run --each "$apps/wcl.syslet" "$tmpdir"/many/f* >"$tmpdir/out" \
		2>"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "$b: wcl --each"; }
	expect_eq "$b: wcl --each: counts and their sum" "10000 30000" \
		"$(words "$tmpdir/out" | awk '{ n++; s += $1 } END { print n, s }')"
	expect_eq "$b: wcl --each: every count" 3 \
		"$(words "$tmpdir/out" | sort -u)"

	# lsdir: the names in its records are the directory's.
	$run "$apps/lsdir.syslet" "$tmpdir/dir" >"$tmpdir/out" \
		2>"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "$b: lsdir"; }
	tr '\000-\037' '\n' <"$tmpdir/out" | grep -ax 'entry-[0-9]*-with-.*' |
		sort >"$tmpdir/listed"
	cmp -s "$tmpdir/names.sorted" "$tmpdir/listed" ||
		fail "$b: lsdir: names differ ($(wc -l <"$tmpdir/listed") listed)"
	st=0
	$run "$apps/lsdir.syslet" "$tmpdir/seq" >/dev/null 2>"$tmpdir/err" ||
		st=$?
	expect_eq "$b: lsdir of a file: status" 1 $st
	grep -q 'lsdir stopped at atom 0 .*O_RDONLY|O_DIRECTORY) = -20 ENOTDIR$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "$b: lsdir: report"; }

	# httpd: curl fetches the page twice; then a server for a file that
	# is not there answers 404.
	if command -v curl >/dev/null 2>&1; then
		free_port $n
		$run "$apps/httpd.syslet" 127.0.0.1:$port "$tmpdir/page" 2 \
			>/dev/null 2>"$tmpdir/serr" &
		pid=$!
		for k in 1 2; do
			curl -s --retry 20 --retry-connrefused --retry-delay 1 \
				-o "$tmpdir/got$k" -w '%{http_code}' \
				"http://127.0.0.1:$port/index.html" >"$tmpdir/code$k" ||
				echo "curl failed" >>"$tmpdir/code$k"
		done
		server_done $pid "$b: httpd"
		for k in 1 2; do
			expect_eq "$b: httpd: status of request $k" 200 \
				"$(cat "$tmpdir/code$k")"
			cmp -s "$tmpdir/page" "$tmpdir/got$k" ||
				fail "$b: httpd: request $k: the page differs"
		done
		$run "$apps/httpd.syslet" 127.0.0.1:$port "$tmpdir/gone" 1 \
			>/dev/null 2>"$tmpdir/serr" &
		pid=$!
		curl -s --retry 20 --retry-connrefused --retry-delay 1 \
			-o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/" \
			>"$tmpdir/code" || echo "curl failed" >>"$tmpdir/code"
		server_done $pid "$b: httpd 404"
		expect_eq "$b: httpd: a file that is not there" 404 \
			"$(cat "$tmpdir/code")"
	else
		echo "httpd: not run (no curl)"
	fi

	# echo: two clients, each half-closes after its input.
	client=
	if command -v socat >/dev/null 2>&1; then
		client='socat -t5 - TCP:127.0.0.1:$port'
	elif nc -h 2>&1 | grep -q -- ' -N '; then
		client='nc -N 127.0.0.1 $port'
	fi
	if [ -n "$client" ]; then
		free_port $((n + 2))
		$run "$apps/echo.syslet" 127.0.0.1:$port 2 \
			>/dev/null 2>"$tmpdir/serr" &
		pid=$!
		for k in 1 2; do
			tries=0
			until eval "$client" <"$tmpdir/seq" >"$tmpdir/echo$k" \
				2>/dev/null; do
				tries=$((tries + 1))
				[ $tries -lt 50 ] || break
				sleep 0.2
			done
		done
		server_done $pid "$b: echo"
		for k in 1 2; do
			cmp -s "$tmpdir/seq" "$tmpdir/echo$k" ||
				fail "$b: echo: client $k got $(wc -c <"$tmpdir/echo$k") bytes back"
		done
	else
		echo "echo: not run (neither socat nor nc -N)"
	fi

	# pollpipe: the byte comes through, and the trace shows the polls
	# as strace does: the records, then Timeout or the ready ones.
	$run --trace "$apps/pollpipe.syslet" >"$tmpdir/out" \
		2>"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "$b: pollpipe"; }
	[ "$(cat "$tmpdir/out")" = x ] || fail "$b: pollpipe: no byte"
	sed 's/^[^]]*\] //; s/ <[^>]*> -> .*//' "$tmpdir/err" >"$tmpdir/calls"
	for re in \
		'poll(\[{fd=[0-9]*, events=POLLIN}\], 1, 0) = 0 (Timeout)' \
		'poll(\[{fd=[0-9]*, events=POLLIN}\], 1, 1000) = 1 (\[{fd=[0-9]*, revents=POLLIN}\])'
	do
		grep -qx "$re" "$tmpdir/calls" || { cat "$tmpdir/err" >&2
			fail "$b: pollpipe: no line matches '$re'"; }
	done
	echo "$b: tee, wcl (10,000 files), lsdir, httpd, echo, pollpipe"
done

# reap: a C program forks a child, and a syslet waits for it with
# wait4() (it blocks: async_exec returns NULL) on each backend, the pid
# patched into the instance's cell through the image API.
$SYSLETC -o "$tmpdir/reap.slo" "$apps/reap.syslet" || fail "sysletc reap"
"$top_builddir/tests/run/apps/reap" "$tmpdir/reap.slo" >"$tmpdir/out" \
	2>"$tmpdir/err" || { cat "$tmpdir/out" "$tmpdir/err" >&2; fail "reap"; }
for b in $backends; do
	grep -qx "$b: wait4 = the child, status 0x700, exit 7" "$tmpdir/out" ||
		{ cat "$tmpdir/out" >&2; fail "reap: $b"; }
done
exit 0
