#!/bin/sh
# valgrind.sh: a correct program (runtime/hello: register, an async write, wait, reap, unregister) runs clean under valgrind's memcheck with the emul and uring backends: no error, the engine's start-up included, and nothing definitely lost (skipped without valgrind).
. "$top_srcdir/tests/lib/harness.sh"
command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed"
[ -z "${SYSLET_SANITIZE:-}" ] || skip "valgrind cannot run a sanitizer build ($SYSLET_SANITIZE)"
prog=$top_builddir/tests/runtime/hello
[ -x "$prog" ] || fail "$prog not built"
for b in emul uring; do
	st=0
	SYSLET_BACKEND=$b "$top_builddir/libtool" --mode=execute valgrind -q \
		--error-exitcode=9 --leak-check=full \
		--errors-for-leak-kinds=definite "$prog" \
		>"$tmpdir/out" 2>"$tmpdir/err" || st=$?
	# uring where io_uring cannot be set up: hello says so and skips.
	[ "$b" = uring ] && [ "$st" = 77 ] && continue
	if [ "$st" != 0 ]; then
		cat "$tmpdir/err" >&2
		fail "$b: status $st under valgrind: $(grep -m1 '== [A-Z]' "$tmpdir/err")"
	fi
done
exit 0
