#!/bin/sh
# semantics.sh: every example and golden source runs the same atoms after layout as before it, reading and writing the same values, on every profile.
. "$top_srcdir/tests/lib/harness.sh"
"$top_builddir/tests/sysletc/semantics" "$top_srcdir"/examples/*.syslet \
	"$top_srcdir"/tests/sysletc/golden/*.syslet \
	"$top_srcdir"/tests/compiler/lower/*.syslet \
	"$top_srcdir"/tests/compiler/run/*.syslet "$top_srcdir"/tests/run/*.syslet
