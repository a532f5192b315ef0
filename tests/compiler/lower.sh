#!/bin/sh
# lower.sh CASE: the IR of the program CASE (tests/compiler/lower/NAME.syslet, one file per construct) matches its golden NAME.ir.
. "$top_srcdir/tests/lib/harness.sh"
dump=$top_builddir/tests/compiler/front-dump
src=${1:?usage: lower.sh tests/compiler/lower/NAME.syslet}
dir=${src%/*}
base=${src##*/}
name=${base%.syslet}
flags=$(sed -n '1s|^// flags: ||p' "$src")
(cd "$dir" && $dump --ir $flags "$base"; echo "exit $?") \
	>"$tmpdir/$name.out" 2>&1
grep -q '^exit 0$' "$tmpdir/$name.out" ||
	{ cat "$tmpdir/$name.out" >&2; fail "$base does not lower"; }
golden "$dir/$name.ir" "$tmpdir/$name.out"
