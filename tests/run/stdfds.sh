#!/bin/sh
# stdfds.sh: started with standard error or output closed, syslet-run never writes its trace, its messages or the shell's output into a file the syslet opened.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99

# The syslet's first open gets the lowest free descriptor: 2 (or 1)
# when that one was closed.  Its last atom fails, for the stop message.
cat >wr.syslet <<'EOS'
data msg = "payload\n";
syslet wr(str path) {
	var fd;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	write(fd, msg, len(msg));
	fsync(-1);
}
EOS
printf 'payload\n' >want.txt

# only WHAT: out.txt holds the syslet's bytes and nothing else.
only() {
	cmp -s want.txt out.txt || { cat -A out.txt >&2
		fail "$1: the file holds more than the syslet wrote"; }
}

for b in $backends; do
	for opts in "" --trace --stats "--trace --each"; do
		rm -f out.txt
		st=0
		$SYSLET_RUN --backend=$b $opts wr.syslet out.txt 2>&- || st=$?
		expect_eq "$b $opts 2>&-: status" 1 "$st"
		only "$b $opts 2>&-"
	done
	# With standard output closed, the syslet's own write to it still
	# fails as on a closed descriptor (EBADF), and so exit status 1.
	rm -f out.txt
	st=0
	$SYSLET_RUN --backend=$b wr.syslet out.txt >&- 2>err.txt || st=$?
	expect_eq "$b >&-: status" 1 "$st"
	only "$b >&-"
	printf 'syslet hi() { write(1, "hi\\n", 3); }\n' >hi.syslet
	st=0
	$SYSLET_RUN --backend=$b hi.syslet >&- 2>err.txt || st=$?
	expect_eq "$b: write(1) with standard output closed" 1 "$st"
	grep -q 'EBADF$' err.txt || fail "$b >&-: $(cat err.txt)"
	printf 'syslet rd() { var n; n = read(0, &n, 1); }\n' >rd.syslet
	st=0
	$SYSLET_RUN --backend=$b rd.syslet <&- 2>err.txt || st=$?
	expect_eq "$b: read(0) with standard input closed" 1 "$st"
	grep -q 'EBADF$' err.txt || fail "$b <&-: $(cat err.txt)"
done

# The shell prints to standard output: closed, not into the file.
if $SYSLET_RUN -i </dev/null >/dev/null 2>&1; then
	rm -f out.txt
	printf 'run out.txt\ncells\n' | $SYSLET_RUN -i wr.syslet >&- 2>&-
	only "the shell with standard output closed"
fi
exit 0
