#!/bin/sh
# lower.sh: the IR of each program in tests/compiler/lower/ matches its .ir golden (one file per construct).
. "$top_srcdir/tests/lib/harness.sh"
dump=$top_builddir/tests/compiler/front-dump
dir=$top_srcdir/tests/compiler/lower
n=0
for src in "$dir"/*.syslet; do
	base=${src##*/}
	name=${base%.syslet}
	flags=$(sed -n '1s|^// flags: ||p' "$src")
	(cd "$dir" && $dump --ir $flags "$base"; echo "exit $?") \
		> "$tmpdir/$name.out" 2>&1
	grep -q '^exit 0$' "$tmpdir/$name.out" ||
		{ cat "$tmpdir/$name.out" >&2; fail "$base does not lower"; }
	golden "$dir/$name.ir" "$tmpdir/$name.out"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no lowering tests found in $dir"
echo "$n IR goldens match"
