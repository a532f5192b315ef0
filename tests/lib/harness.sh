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
# golden FILE ACTUAL_FILE: compare, or rewrite FILE when SYSLET_REGEN=1.
golden() {
	if [ "${SYSLET_REGEN:-}" = 1 ]; then
		cp "$2" "$1"
		return 0
	fi
	diff -u "$1" "$2" || fail "output differs from $1 (SYSLET_REGEN=1 make check regenerates)"
}
# m32_runs: whether 32-bit programs run here (tests/lib/m32.sh).
. "$top_srcdir/tests/lib/m32.sh"
