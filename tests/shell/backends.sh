#!/bin/sh
# backends.sh: the shell on every backend this machine has, the default one first, not only on emul where the transcripts run: a syslet that goes async is traced with its file and line when its atoms complete after its run (the default uring backend crashed there), and the session ends cleanly.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
command -v timeout >/dev/null 2>&1 || skip "timeout(1) is not installed"
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"
echo "the file's text" >data
printf '%s\n' 'buffer b[64];' 'syslet r(str path) {' '	var fd, n;' \
	'	fd = open(path, O_RDONLY);' '	n = read(fd, b, 64);' \
	'	close(fd);' '}' >r.syslet
# "async" on every atom: each goes to a worker or the ring on every
# backend, and completes after the run has returned to the prompt.
printf '%s\n' 'buffer b[64];' 'syslet a(str path) {' '	var fd, n;' \
	'	async fd = open(path, O_RDONLY);' '	async n = read(fd, b, 64);' \
	'	async close(fd);' '}' >a.syslet

# check BACKEND PROGRAM: trace on, run, wait, ring, quit.
check() {
	printf 'trace on\nrun %s/data\nwait\nring\nquit\n' "$tmpdir" >in
	st=0
	env ${1:+SYSLET_BACKEND=$1} timeout 60 "$SYSLET_RUN" -i "$2.syslet" \
		<in >out 2>err || st=$?
	what="${1:-default} backend, $2"
	[ "$st" = 0 ] || { cat out err >&2; fail "$what: exit status $st"; }
	# Each atom's line names its place in the source, as --trace does.
	for l in "$2.syslet:4 \\[0\\] open(\"$tmpdir/data\", O_RDONLY) = 3" \
		"$2.syslet:5 \\[1\\] read(3, \"the file's text\\\\n\", 64) = 16" \
		"$2.syslet:6 \\[2\\] close(3) = 0"; do
		grep -q "^$l" out || { cat out err >&2
			fail "$what: no trace line '$l'"; }
	done
	! grep -q '0x[0-9a-f]* \[\|^0x' out || { cat out err >&2
		fail "$what: an atom traced without its instance"; }
}

check "" r
check "" a
for b in emul uring; do
	out=$(env SYSLET_BACKEND=$b "$SYSLET_RUN" -i </dev/null 2>&1) || {
		echo "$b: not on this machine: $out"; continue; }
	check $b r
	check $b a
done
exit 0
