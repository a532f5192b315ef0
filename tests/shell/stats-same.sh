#!/bin/sh
# stats-same.sh: the shell's stats prints the rows --stats prints (trampolines and injected included), with the same counts for the same run, on each user-space backend.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"

# n is 0: the test's copy stops and skips to the trampoline, which runs.
cat >tr.syslet <<'SRC'
syslet t() {
	var n = 0;
	if (n > 3)
		close(-1);
	getppid();
}
SRC
"$SYSLETC" -S tr.syslet >tr.lst || fail "sysletc -S failed"
grep -q '\[trampoline\]' tr.lst || fail "the program has no trampoline"

for be in emul uring; do
	"$SYSLET_RUN" --backend=$be --stats --inject=getppid:retval=7 \
		tr.syslet >/dev/null 2>run.err
	rc=$?
	# io_uring may be refused here (seccomp): that engine is skipped.
	if [ $rc -eq 2 ] && [ $be = uring ]; then
		echo "uring skipped: $(cat run.err)"
		continue
	fi
	[ $rc -eq 0 ] || fail "$be: --stats run exited $rc: $(cat run.err)"
	sed -n '/stats (backend/,$p' run.err | sed -e '1d' -e '/wall time/d' \
		>run.rows
	printf 'run\nstats\n' | "$SYSLET_RUN" -i --backend=$be \
		--inject=getppid:retval=7 tr.syslet >shell.out 2>&1
	sed -n '/^stats (backend/,$p' shell.out | sed '1d' >shell.rows
	grep -q '^  trampolines  *1$' run.rows ||
		fail "$be: --stats counted no trampoline: $(cat run.err)"
	diff -u run.rows shell.rows >rows.diff ||
		fail "$be: the shell's stats differs from --stats: $(cat rows.diff)"
done
exit 0
