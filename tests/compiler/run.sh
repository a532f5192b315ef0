#!/bin/sh
# run.sh CASE: a program run on an IR interpreter with the kernel's rules gives the golden trace: CASE is tests/compiler/run/NAME.syslet (its "// args:" line scripts the kernel) or example-NAME.args (examples/NAME.syslet, the file holding the arguments), the golden NAME.trace or example-NAME.trace.
. "$top_srcdir/tests/lib/harness.sh"
run=$top_builddir/tests/compiler/ir-run
case=${1:?usage: run.sh tests/compiler/run/NAME.syslet|example-NAME.args}
dir=${case%/*}
base=${case##*/}
case $base in
*.syslet)
	name=${base%.syslet}
	from=$dir
	args=$(sed -n '1s|^// args: ||p' "$case") ;;
example-*.args)
	name=${base%.args}
	base=${name#example-}.syslet
	from=$top_srcdir/examples
	[ -f "$from/$base" ] || fail "$case: no examples/$base"
	# Comment lines start with #; the rest are ir-run's arguments.
	args=$(sed '/^#/d' "$case") ;;
*)	fail "$case: neither NAME.syslet nor example-NAME.args" ;;
esac
# Run from the source's folder, so the trace holds the bare file name.
(cd "$from" && $run $args "$base"; echo "exit $?") >"$tmpdir/$name.out" 2>&1
golden "$dir/$name.trace" "$tmpdir/$name.out"
