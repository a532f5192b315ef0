#!/bin/sh
# diag.sh: each bad program in tests/compiler/diag/ gives exactly the diagnostics in its .err golden.
. "$top_srcdir/tests/lib/harness.sh"
dump=$top_builddir/tests/compiler/front-dump
dir=$top_srcdir/tests/compiler/diag
n=0
for src in "$dir"/*.syslet; do
	base=${src##*/}
	name=${base%.syslet}
	# A first line "// flags: ..." passes options (-Wall, --target=...).
	flags=$(sed -n '1s|^// flags: ||p' "$src")
	# Run from the directory, so the goldens hold the bare file name.
	(cd "$dir" && $dump $flags "$base"; echo "exit $?") \
		> "$tmpdir/$name.out" 2>&1
	case $(tail -n 1 "$tmpdir/$name.out") in
	"exit 0"|"exit 1") ;;
	*) fail "$base: front-dump crashed: $(tail -n 1 "$tmpdir/$name.out")" ;;
	esac
	golden "$dir/$name.err" "$tmpdir/$name.out"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no diagnostics tests found in $dir"
echo "$n diagnostics goldens match"
