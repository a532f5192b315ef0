# lib-backends.sh: the user-space backends that run here, for the tests of syslet-run's strace habits (source it after harness.sh).
# backends: emul, and uring where io_uring can be set up.
printf 'syslet s() { getppid(); }\n' >"$tmpdir/probe.syslet"
backends=
for b in emul uring; do
	"$SYSLET_RUN" --backend="$b" "$tmpdir/probe.syslet" 2>/dev/null &&
		backends="$backends $b"
done
[ -n "$backends" ] || skip "no user-space backend runs here"
# readfile_files N: $tmpdir/readfile.slo (tests/bench/readfile.syslet)
# and N small files $tmpdir/f/0..N-1, their names in $files, cached.
readfile_files() {
	$SYSLETC -o "$tmpdir/readfile.slo" \
		"$top_srcdir/tests/bench/readfile.syslet" ||
		fail "sysletc readfile.syslet"
	mkdir "$tmpdir/f" || exit 99
	rf_i=0
	while [ $rf_i -lt "$1" ]; do
		echo "file number $rf_i" >"$tmpdir/f/$rf_i"
		rf_i=$((rf_i + 1))
	done
	files=$(cd "$tmpdir/f" && ls)
	cat "$tmpdir"/f/* >/dev/null
}
# strace_each B SET: syslet-run --each --jobs=1 --backend=B over
# readfile.slo and $files (readfile_files), under strace -f: the calls of
# SET in $tmpdir/strace; skips where strace cannot trace, fails on a run
# that does not exit 0.
strace_each() {
	se_st=0
	# LeakSanitizer cannot run under ptrace (make check-sanitize).
	# shellcheck disable=SC2086 # one file a word
	(cd "$tmpdir/f" &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o "$tmpdir/strace" -e trace="$2" \
		$SYSLET_RUN --each --jobs=1 --backend="$1" \
		"$tmpdir/readfile.slo" $files) 2>"$tmpdir/err" || se_st=$?
	grep -q "Operation not permitted\|PTRACE" "$tmpdir/err" &&
		skip "strace cannot trace here: $(head -n 1 "$tmpdir/err")"
	[ "$se_st" = 0 ] || { cat "$tmpdir/err" >&2
		fail "--backend=$1: status $se_st"; }
}
# trace_on_port B ARGS...: syslet-run --backend=B --trace ARGS
# 127.0.0.1:PORT >out 2>err, on up to 8 ports until one runs; sets $port
# and $want, strace's sockaddr of it; skips when no port was free.
trace_on_port() {
	tp_b=$1
	shift
	for tp_try in 1 2 3 4 5 6 7 8; do
		port=$((20000 + ($$ * 11 + tp_try * 1013) % 40000))
		if $SYSLET_RUN --backend="$tp_b" --trace "$@" \
			"127.0.0.1:$port" >out 2>err; then
			want="{sa_family=AF_INET, sin_port=htons($port), sin_addr=inet_addr(\"127.0.0.1\")}"
			return 0
		fi
	done
	skip "no free port on 127.0.0.1: $(cat err)"
}
# want_lines FILE WHAT LINE...: FILE holds each LINE (a fixed string).
want_lines() {
	wl_file=$1 wl_what=$2
	shift 2
	for wl_line in "$@"; do
		grep -qF -- "$wl_line" "$wl_file" ||
			{ cat "$wl_file" >&2; fail "$wl_what: no '$wl_line'"; }
	done
}
# idle_wait PID: until every thread of PID sleeps (three looks in a row,
# 20 ms apart; 10 s at most): the calls it makes next are made, the one
# it waits in is entered, so that a signal now finds it there.
idle_wait() {
	iw_idle=0 iw_i=0
	while [ $iw_idle -lt 3 ] && [ $iw_i -lt 500 ]; do
		if grep -q '^State:[[:space:]]*[RD]' /proc/$1/task/*/status \
			2>/dev/null; then
			iw_idle=0
		else
			iw_idle=$((iw_idle + 1))
		fi
		iw_i=$((iw_i + 1))
		sleep 0.02
	done
}
