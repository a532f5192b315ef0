#!/bin/sh
# pipeline.sh: the examples and the lowering tests' programs go through layout, emit and verify on every target.
. "$top_srcdir/tests/lib/harness.sh"
"$top_builddir/tests/compiler/pipeline" "$top_srcdir"/examples/*.syslet \
	"$top_srcdir"/tests/compiler/lower/*.syslet "$top_srcdir"/tests/fuzz/corpus/*.syslet ||
	fail "a program that passes the front end failed later"
