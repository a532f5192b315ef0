#!/bin/sh
# semantics.sh: programs in tests/compiler/run/ run on an IR interpreter with the kernel's rules; traces match goldens.
. "$top_srcdir/tests/lib/harness.sh"
run=$top_builddir/tests/compiler/ir-run
dir=$top_srcdir/tests/compiler/run
n=0
for src in "$dir"/*.syslet; do
	base=${src##*/}
	name=${base%.syslet}
	args=$(sed -n '1s|^// args: ||p' "$src")
	(cd "$dir" && $run $args "$base"; echo "exit $?") > "$tmpdir/$name.out" 2>&1
	golden "$dir/$name.trace" "$tmpdir/$name.out"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no programs in $dir"
echo "$n traces match"
