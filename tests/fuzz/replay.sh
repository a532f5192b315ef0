#!/bin/sh
# replay.sh: the fuzz corpus, examples and goldens' sources through the front end: no crash, hang or leak.
. "$top_srcdir/tests/lib/harness.sh"
fuzz=$top_builddir/tests/fuzz/front-fuzz
inputs="$top_srcdir/tests/fuzz/corpus $top_srcdir/examples
	$top_srcdir/tests/compiler/lower $top_srcdir/tests/compiler/diag"
# Under valgrind when it is there (a leak is a failure), plain otherwise;
# a sanitizer build checks the same itself, and valgrind cannot run it.
vg=
if command -v valgrind >/dev/null 2>&1 && [ -z "${SYSLET_NO_VALGRIND:-}" ] &&
   [ -z "${SYSLET_SANITIZE:-}" ]; then
	vg="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
fi
timeout 300 $vg "$fuzz" $inputs > "$tmpdir/replay.out" 2>&1 ||
	{ cat "$tmpdir/replay.out" >&2; fail "replay of the corpus failed"; }
cat "$tmpdir/replay.out"
# Then a few thousand cheap mutations of the corpus, without valgrind.
timeout 300 "$fuzz" --mutate=40 $inputs > "$tmpdir/mutate.out" 2>&1 ||
	{ cat "$tmpdir/mutate.out" >&2; fail "mutated inputs crashed the front end"; }
cat "$tmpdir/mutate.out"
