#!/bin/sh
# valgrind.sh: the ELF reader's truncation and corruption tests again under valgrind (skipped without it).
. "$top_srcdir/tests/lib/harness.sh"
command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "valgrind cannot run a sanitizer build ($SYSLET_SANITIZE), which checks the same"
prog=$top_builddir/tests/image/elf
[ -x "$prog" ] || skip "tests/image/elf not built (no cmocka)"
SLO_TEST_QUICK=1 valgrind -q --error-exitcode=9 --leak-check=full \
	--errors-for-leak-kinds=definite "$prog" >"$tmpdir/out" 2>&1 ||
	{ cat "$tmpdir/out" >&2; fail "valgrind found errors"; }
exit 0
