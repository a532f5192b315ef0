# lib.sh: scripted sessions of syslet-run -i: feed NAME.session through a pipe, compare with NAME.out.
. "$top_srcdir/tests/lib/harness.sh"

# The shell exists only in builds with GNU readline.
shell_require() {
	out=$("$SYSLET_RUN" -i </dev/null 2>&1)
	case $out in
	*"-i is unavailable"*) skip "syslet-run was built without the shell (readline)" ;;
	esac
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
