#!/bin/sh
# novm.sh: where process_vm_readv() is missing (ENOSYS) or refused (EPERM, a seccomp policy), syslet-run still reads an atom's arguments (the stop report's failed call) and the shell's print still shows a str parameter's string, through libsyslet's syslet_read_mem(): both printed nothing of it there (srun_peek() asked process_vm_readv() alone).
. "$top_srcdir/tests/lib/harness.sh"
deny=$top_builddir/tests/run/deny-call
[ -x "$deny" ] || exit 99
st=0
"$deny" process_vm_readv 38 true || st=$?
[ $st = 77 ] && skip "no seccomp filter here"
[ $st = 0 ] || fail "deny-call true: exit status $st"
cat=$top_srcdir/examples/cat.syslet
missing=no-such-file
cp "$top_srcdir/tests/shell/hello.txt" "$tmpdir/hello.txt" || exit 99
for err in 38 1; do
	# The stop report: open's path read back from the atom's cell.
	st=0
	(cd "$tmpdir" && exec "$deny" process_vm_readv $err $SYSLET_RUN \
		"$cat" "$missing") >"$tmpdir/out" 2>"$tmpdir/err" </dev/null ||
		st=$?
	expect_eq "errno $err: status" 1 "$st"
	grep -q "): open(\"$missing\", O_RDONLY) = -2 ENOENT\$" "$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2
		  fail "errno $err: the stop report shows no call"; }
	# The shell's print of a str parameter.
	printf 'load %s hello.txt\nstep\nprint path\n' "$cat" >"$tmpdir/in"
	st=0
	(cd "$tmpdir" && exec timeout 60 "$deny" process_vm_readv $err \
		$SYSLET_RUN -i) <"$tmpdir/in" >"$tmpdir/out" 2>&1 || st=$?
	expect_eq "errno $err: shell status" 0 "$st"
	grep -q '^path = 0x[0-9a-f]* "hello.txt"$' \
		"$tmpdir/out" || { cat "$tmpdir/out" >&2
		fail "errno $err: print path shows no string"; }
done
