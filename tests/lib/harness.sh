# harness.sh: helpers shared by the shell tests (source it; POSIX sh).
# Exit codes follow automake: 0 pass, 77 skip, 99 hard error, else fail.
: "${top_srcdir:?run me through make check}"
: "${top_builddir:?run me through make check}"
: "${SYSLETC:=$top_builddir/sysletc}"
: "${SYSLET_RUN:=$top_builddir/syslet-run}"
tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/syslet-test.XXXXXX") || exit 99
trap 'rm -rf "$tmpdir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}
# gone PATTERN WHAT: wait (~5 s) until no process matches PATTERN
# (pgrep -f), else fail naming it: "a process of PATTERN outlived WHAT".
gone() {
	gone_i=0
	while pgrep -f "$1" >/dev/null 2>&1; do
		gone_i=$((gone_i + 1))
		[ $gone_i -lt 50 ] || { pgrep -af "$1" >&2
			fail "a process of $1 outlived $2"; }
		sleep 0.1
	done
}
# name_quoted STATUS WHAT CMD...: CMD exits STATUS; its standard error has
# no control byte but the newlines that end its lines (and a source
# line's tab), no line that starts with TAIL (the tail of a name given
# after a newline), and $quoted (the name as strace quotes it): a name
# from the command line never drives the terminal nor splits a message.
name_quoted() {
	nq_want=$1 nq_what=$2
	shift 2
	"$@" >"$tmpdir/out" 2>"$tmpdir/err"
	nq_st=$?
	[ "$nq_st" = "$nq_want" ] || { cat "$tmpdir/err" >&2
		fail "$nq_what: exit status $nq_st, expected $nq_want"; }
	if LC_ALL=C tr -d '\n\t' <"$tmpdir/err" |
		LC_ALL=C grep -q '[[:cntrl:]]'; then
		od -c "$tmpdir/err" >&2
		fail "$nq_what: a control byte reached the standard error"
	fi
	! grep -q '^TAIL' "$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "$nq_what: the name's newline split the message"; }
	grep -q -- "$quoted" "$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "$nq_what: the name is not quoted strace style"; }
}
# refused OPTION VALUE MESSAGE-REGEX ARGS...: syslet-run --OPTION=VALUE
# ARGS exits 2 before anything runs (no output), with a message naming
# the option and matching MESSAGE-REGEX.
refused() {
	refused_opt=--$1=$2 refused_re=$3 refused_st=0
	shift 3
	$SYSLET_RUN "$refused_opt" "$@" >"$tmpdir/out" 2>"$tmpdir/err" ||
		refused_st=$?
	expect_eq "$refused_opt: status" 2 "$refused_st"
	grep -Eq "^syslet-run: ${refused_opt%%=*}=.*$refused_re" \
		"$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "$refused_opt: message"; }
	[ -s "$tmpdir/out" ] && fail "$refused_opt: the syslet ran"
	return 0
}
# golden FILE ACTUAL_FILE: compare, or rewrite FILE when SYSLET_REGEN=1.
# On a mismatch the actual output stays as FILE.actual at FILE's place in
# the build tree (beside FILE in an in-tree build; make clean removes it),
# for diff and for review before a regeneration; a match removes it.
golden() {
	golden_soft "$1" "$2" || exit 1
}
# golden_soft FILE ACTUAL_FILE: as golden, but a mismatch returns 1, its
# message given, so that the test can check more before it fails.
golden_soft() {
	golden_kept=$(golden_actual "$1")
	if [ "${SYSLET_REGEN:-}" = 1 ]; then
		rm -f "$golden_kept"
		cp "$2" "$1"
		return 0
	fi
	if diff -u "$1" "$2"; then
		rm -f "$golden_kept"
		return 0
	fi
	mkdir -p "${golden_kept%/*}" && cp "$2" "$golden_kept" ||
		golden_kept="(not kept: cannot write $golden_kept)"
	echo "FAIL: output differs from $1; actual output in $golden_kept (SYSLET_REGEN=1 make check regenerates)" >&2
	return 1
}
# golden_actual FILE: where golden keeps the actual output for FILE.  A
# golden outside the source tree keeps it beside itself.
golden_actual() {
	ga_dir=$(cd "$(dirname "$1")" && pwd -P) &&
	ga_top=$(cd "$top_srcdir" && pwd -P) || return 1
	case $ga_dir/ in
	"$ga_top"/*) echo "$top_builddir${ga_dir#"$ga_top"}/${1##*/}.actual" ;;
	*) echo "$ga_dir/${1##*/}.actual" ;;
	esac
}
# m32_runs: whether 32-bit programs run here (tests/lib/m32.sh).
. "$top_srcdir/tests/lib/m32.sh"
