#!/bin/sh
# trace-exited.sh: --trace ends as strace ends a process that exited, '+++ exited with N +++' on its last line, N syslet-run's status (0, or 1 after a stop report), also with a --trace=SET that shows no call, and after --stats's counters and the stop reports; --stats alone prints no such line, as strace -c does not.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >ok.syslet <<'SRC'
syslet ok() { getppid(); }
SRC
cat >bad.syslet <<'SRC'
syslet bad() {
	var fd;
	getppid();
	fd = open("/nonexistent/x", O_RDONLY);
}
SRC
for b in $backends; do
	st=0
	$SYSLET_RUN --backend="$b" --trace ok.syslet 2>err || st=$?
	expect_eq "$b ok: status" 0 "$st"
	expect_eq "$b ok: last line" '+++ exited with 0 +++' "$(tail -1 err)"
	st=0
	$SYSLET_RUN --backend="$b" --trace bad.syslet 2>err || st=$?
	expect_eq "$b bad: status" 1 "$st"
	expect_eq "$b bad: last line" '+++ exited with 1 +++' "$(tail -1 err)"
	sed -n '$!{$!p}' err | tail -1 | grep -q 'bad stopped at atom 1' ||
		fail "$b bad: the stop report before the last line: $(cat err)"
	$SYSLET_RUN --backend="$b" --trace=write ok.syslet 2>err
	expect_eq "$b --trace=write" '+++ exited with 0 +++' "$(cat err)"
	$SYSLET_RUN --backend="$b" --trace --stats bad.syslet 2>err
	expect_eq "$b --trace --stats: last line" '+++ exited with 1 +++' \
		"$(tail -1 err)"
	$SYSLET_RUN --backend="$b" --stats ok.syslet 2>err
	grep -q '+++' err && fail "$b --stats alone: $(cat err)"
done
exit 0
