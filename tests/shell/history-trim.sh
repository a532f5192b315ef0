#!/bin/sh
# history-trim.sh: cutting the history file to its last 1000 lines at the end of a session writes the whole file or leaves the old one: readline's history_truncate_file() took a short write (a full file system; here a file size limit, SIGXFSZ ignored) for success and renamed the part over the history (1,200 lines became 20,480 bytes ending mid-line, status 0, no message).  A line appended as it is entered is the same: whole or not at all.  A trim that can be written still keeps the last 1000 lines, private.
. "$top_srcdir/tests/shell/lib.sh"
. "$top_srcdir/tests/shell/tmux.sh"
hist=$data/syslet/history
mkdir -p "$data/syslet" || exit 99
make_history() {
	awk 'BEGIN { for (i = 1; i <= 1200; i++)
		printf "getpid(); /* history line number %06d */\n", i }' >"$hist"
	chmod 600 "$hist"
}
# session LIMIT [LINE]: a session started with ulimit -f LIMIT (KiB) and
# SIGXFSZ ignored, LINE typed if given, left with Ctrl-D.
session() {
	if t has-session -t shell 2>/dev/null; then
		t kill-server
		sleep 1
	fi
	t -f /dev/null new-session -d -s shell -x 200 -y 40 \
		"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
		 TERM=xterm bash -c 'trap \"\" XFSZ; ulimit -f $1; \
		 \"\$0\" -i 2>\"\$1\"; echo \"exit status \$?\"; sleep 30' \
		 '$SYSLET_RUN' '$tmpdir/err.txt'" ||
		skip "tmux cannot start a server here"
	wait_for '^syslet> ?$' "no prompt on the terminal"
	if [ -n "$2" ]; then
		type "$2"
		key Enter
		wait_for '^getppid\(\) = [0-9]+' "the line did not run"
		wait_prompt "no prompt after the line"
	fi
	key C-d
	wait_for '^exit status [0-9]+$' "Ctrl-D did not leave the shell"
}

command -v bash >/dev/null 2>&1 || skip "bash is not installed"
make_history
cp "$hist" "$tmpdir/want"
session 20
expect_eq "a short write: the history's size" "$(wc -c <"$tmpdir/want")" \
	"$(wc -c <"$hist")"
cmp -s "$tmpdir/want" "$hist" || fail "a short write: the history changed"
grep -q '^syslet-run: history not trimmed (left as it was): .*history: File too large$' \
	"$tmpdir/err.txt" || fail "a short write: no message ($(cat "$tmpdir/err.txt"))"

# A line that does not fit whole is not appended in part (readline's
# append_history() left its first bytes, joined to the next line later).
awk 'BEGIN { for (i = 1; i <= 1000; i++)
	printf "getpid(); /* history line number %06d */\n", i }' >"$hist"
cp "$hist" "$tmpdir/want"
session 42 'getppid();'
cmp -s "$tmpdir/want" "$hist" ||
	fail "a line that did not fit: the history changed: $(tail -c 30 "$hist")"
grep -q '^syslet-run: history: line not kept: .*history: File too large$' \
	"$tmpdir/err.txt" || fail "a line that did not fit: no message ($(cat "$tmpdir/err.txt"))"
make_history

# Room enough: the last 1000 lines, mode 0600.
session unlimited
expect_eq "trimmed: lines" 1000 "$(wc -l <"$hist")"
expect_eq "trimmed: the first line" 'getpid(); /* history line number 000201 */' \
	"$(head -n 1 "$hist")"
expect_eq "trimmed: the last line" 'getpid(); /* history line number 001200 */' \
	"$(tail -n 1 "$hist")"
expect_eq "trimmed: the mode" 600 "$(stat -c %a "$hist")"
exit 0
