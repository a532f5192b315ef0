#!/bin/sh
# examples.sh: every examples/*.syslet passes the front end for each target that has its calls, without a diagnostic.
. "$top_srcdir/tests/lib/harness.sh"
dump=$top_builddir/tests/compiler/front-dump
n=0
for src in "$top_srcdir"/examples/*.syslet; do
	for t in x86_64 i386; do
		out=$($dump -Wall --target=$t "$src" 2>&1) ||
			{ echo "$out" >&2; fail "${src##*/} ($t) does not compile"; }
		[ -z "$out" ] || { echo "$out" >&2; fail "${src##*/} ($t) gives diagnostics"; }
	done
	n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "expected at least 5 examples, found $n"
echo "$n examples compile cleanly"
