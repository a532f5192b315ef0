#!/bin/sh
# backends.sh: every runtime conformance program on each user-space backend by name (auto alone would test only the one it picks).
. "$top_srcdir/tests/lib/harness.sh"

# The programs of runtime_tests in tests/runtime.mk.
progs=$(sed -n '/^runtime_tests =/,/[^\\]$/p' "$top_srcdir/tests/runtime.mk" |
	tr -d '\\' | sed 's/^runtime_tests =//')
[ -n "$progs" ] || fail "no runtime_tests in tests/runtime.mk"
ran=0
for b in emul uring; do
	for p in $progs; do
		st=0
		SYSLET_BACKEND=$b "$top_builddir/$p" >"$tmpdir/out" 2>&1 || st=$?
		case $st in
		0) ran=$((ran + 1)) ;;
		77) ;;
		*) cat "$tmpdir/out" >&2
		   fail "$p on backend $b: exit $st" ;;
		esac
	done
	echo "backend $b: done"
done
[ $ran -gt 0 ] || skip "no backend ran the programs"
exit 0
