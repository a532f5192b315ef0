#!/bin/sh
# inject-report.sh: the stop report of a syslet that --inject failed ends '(INJECTED)', as the trace's line does, so that a run without --trace does not read as a real I/O error; a real failure beside a rule that never fired has no such mark; the shell's run says it too.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
cp "$top_srcdir/examples/cat.syslet" . || exit 99
printf 'one\n' >a; printf 'two\n' >b; printf 'three\n' >c
for be in emul uring; do
	rc=0
	$SYSLET_RUN --backend=$be --inject=read:error=EIO:when=2 cat.syslet a \
		>out 2>err || rc=$?
	if [ $rc -eq 2 ] && [ $be = uring ]; then
		echo "uring skipped: $(cat err)"
		continue
	fi
	expect_eq "$be: status" 1 "$rc"
	grep -q '^syslet-run: cat stopped at atom 1 .*: read(3, 0x[0-9a-f]*, 4096) = -5 EIO (INJECTED)$' err ||
		fail "$be: the report does not say the read was injected: $(cat err)"
	# With the trace, the report says it too.
	rc=0
	$SYSLET_RUN --backend=$be --trace --inject=read:error=EIO:when=2 \
		cat.syslet a >out 2>err || rc=$?
	expect_eq "$be --trace: status" 1 "$rc"
	[ "$(grep -c '= -5 EIO (INJECTED)' err)" = 2 ] ||
		fail "$be --trace: the trace's line and the report's: $(cat err)"
	# --each: the second open fails by injection, the report names it.
	rc=0
	$SYSLET_RUN --backend=$be --each --jobs=1 \
		--inject=open:error=ENOENT:when=2 cat.syslet a b c \
		>out 2>err || rc=$?
	expect_eq "$be --each: status" 1 "$rc"
	grep -q '^syslet-run: b: cat stopped at atom 0 .*: open("b", O_RDONLY) = -2 ENOENT (INJECTED)$' err ||
		fail "$be --each: no injected report for b: $(cat err)"
	[ "$(wc -l <err)" = 1 ] || fail "$be --each: other reports: $(cat err)"
	# A real failure: a rule that did not fire marks nothing.
	rc=0
	$SYSLET_RUN --backend=$be --inject=write:error=EIO:when=9 cat.syslet \
		missing >out 2>err || rc=$?
	expect_eq "$be, a missing file: status" 1 "$rc"
	grep -q '= -2 ENOENT$' err ||
		fail "$be: a real ENOENT reported as: $(cat err)"
done
# The shell's run reports the stop as syslet-run does.
out=$(printf 'inject read:error=EIO:when=2\nrun\n' |
	$SYSLET_RUN -i --backend=emul cat.syslet a 2>&1)
case $out in
*'read(3, 0x'*', 4096) = -5 EIO (INJECTED)'*) ;;
*) fail "shell: the report does not say the read was injected: $out" ;;
esac
exit 0
