#!/bin/sh
# diag.sh CASE: the bad program CASE (tests/compiler/diag/NAME.syslet) gives exactly the diagnostics in its golden NAME.err.
. "$top_srcdir/tests/lib/harness.sh"
dump=$top_builddir/tests/compiler/front-dump
src=${1:?usage: diag.sh tests/compiler/diag/NAME.syslet}
dir=${src%/*}
base=${src##*/}
name=${base%.syslet}
# A first line "// flags: ..." passes options (-Wall, --target=...).
flags=$(sed -n '1s|^// flags: ||p' "$src")
# Run from the directory, so the goldens hold the bare file name.
(cd "$dir" && $dump $flags "$base"; echo "exit $?") >"$tmpdir/$name.out" 2>&1
case $(tail -n 1 "$tmpdir/$name.out") in
"exit 0"|"exit 1") ;;
*) cat "$tmpdir/$name.out" >&2
   fail "$base: front-dump crashed: $(tail -n 1 "$tmpdir/$name.out")" ;;
esac
golden "$dir/$name.err" "$tmpdir/$name.out"
