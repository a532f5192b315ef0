# lib.sh: scripted sessions of syslet-run -i: feed NAME.session through a pipe, compare with NAME.out.
. "$top_srcdir/tests/lib/harness.sh"

# The shell exists only in builds with GNU readline.
shell_require() {
	out=$("$SYSLET_RUN" -i </dev/null 2>&1)
	case $out in
	*"-i is unavailable"*) skip "syslet-run was built without the shell (readline)" ;;
	esac
}

# wait_line FILE PATTERN WHAT: until FILE has a line matching PATTERN (30 s
# at most; then the files out and err of the current directory are shown
# and the test fails with WHAT).
wait_line() {
	i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 300 ] || { cat out err >&2; fail "$3"; }
		sleep 0.1
	done
}

# Addresses differ from run to run; everything else must not.
shell_filter() {
	sed -e 's/0x[0-9a-f]\{6,\}/0xADDR/g'
}

# session NAME [SYSLET-RUN OPTION...]: run tests/shell/NAME.session from the
# source tree (so that file names in the transcript are relative) with
# the history and every other file under $tmpdir.
session() {
	name=$1
	shift
	shell_require
	# The files sessions read come from the page cache, as the
	# transcripts expect (an uncached read goes to a worker: "went
	# async"); make bench's uncached rows drop it.
	cat "$top_srcdir"/tests/shell/*.txt "$top_srcdir"/examples/*.syslet \
		>/dev/null 2>&1
	(cd "$top_srcdir" &&
	 XDG_DATA_HOME=$tmpdir/data HOME=$tmpdir SYSLET_BACKEND=emul \
		"$SYSLET_RUN" -i "$@" <"tests/shell/$name.session" \
		>"$tmpdir/raw" 2>&1
	 echo "exit $?" >>"$tmpdir/raw")
	shell_filter <"$tmpdir/raw" >"$tmpdir/$name.out"
	golden "$top_srcdir/tests/shell/$name.out" "$tmpdir/$name.out"
	# A pipe is no terminal: no history may be written.
	[ ! -e "$tmpdir/data/syslet/history" ] ||
		fail "history written without a terminal"
}
