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
# The examples themselves, with scripted kernels.
while read -r ex args; do
	(cd "$top_srcdir/examples" && $run $args "$ex.syslet"; echo "exit $?") \
		> "$tmpdir/ex-$ex.out" 2>&1
	golden "$dir/example-$ex.trace" "$tmpdir/ex-$ex.out"
done <<LIST
hello
cat --ret=open:3 --ret=read:10,0
copy --ret=open:3,4 --ret=read:8,8,0 --ret=write:8,-28
countdown --set=count=2
server --set=connections=2 --ret=socket:3 --ret=accept4:5,6 --ret=read:4,0,7,0
LIST
