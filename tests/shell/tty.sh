#!/bin/sh
# tty.sh: syslet-run -i on a real terminal (tmux): prompt, completion, history, Ctrl-C, Ctrl-D.
. "$top_srcdir/tests/shell/lib.sh"
. "$top_srcdir/tests/shell/tmux.sh"

cd "$top_srcdir" || exit 99
t -f /dev/null new-session -d -s shell -x 100 -y 40 \
	"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
	 TERM=xterm '$SYSLET_RUN' -i; echo \"exit status \$?\"; sleep 30" ||
	skip "tmux cannot start a server here"

wait_for '^syslet> ?$' "no prompt on the terminal"

# Completion of a command, then of a syscall name.
type 'hel'
key Tab
wait_for '^syslet> help ?$' "Tab did not complete 'hel' to 'help'"
key Enter
wait_for 'Commands \(help COMMAND for more\)' "help did not run"
wait_prompt "no prompt after help"
type 'getpp'
key Tab
wait_for '^syslet> getppid ?$' "Tab did not complete the syscall getppid"
key BSpace
type '();'
key Enter
wait_for '^getppid\(\) = [0-9]+' "the statement did not run at once"

# A block over several lines, with the continuation prompt.
type 'var k = 0;'
key Enter
wait_prompt "no prompt after a declaration"
type 'while (k < 3) {'
key Enter
wait_for '^   \.\.\.> ?$' "no continuation prompt inside a block"
type 'k++;'
key Enter
type '}'
key Enter
wait_for '^k = 3$' "the block did not run"

# Ctrl-D at the continuation prompt drops the unfinished statement, as
# bash and python do, and the shell stays: only at 'syslet>' it leaves.
type 'if (k == 3) {'
key Enter
wait_for '^   \.\.\.> ?$' "no continuation prompt after 'if (k == 3) {'"
type 'k = 7;'
key Enter
key C-d
wait_for "the unfinished statement is dropped \(Ctrl-D at the 'syslet>' prompt leaves\)" \
	"Ctrl-D at the continuation prompt did not drop the statement"
wait_prompt "no prompt after Ctrl-D at the continuation prompt"
type 'k += 10;'
key Enter
wait_for '^k = 13$' "the dropped statement ran, or the shell left"
wait_prompt

# Ctrl-C drops the line being typed and gives a fresh prompt.
type 'this is never run'
wait_for 'this is never run'
key C-c
wait_for '^syslet> this is never run\^C$' "Ctrl-C did not drop the line"
wait_prompt "no prompt after Ctrl-C"

# Ctrl-C interrupts a syslet blocked in a system call.
type 'buffer b[16];'
key Enter
wait_prompt
type 'n = read(0, b, 16);'
key Enter
sleep 0.5
key C-c
wait_for 'n = -4 EINTR' "Ctrl-C did not interrupt the blocked read"
wait_prompt "no prompt after interrupting a syslet"

# A resize of the terminal (SIGWINCH, which readline handles) does not end
# a syslet that runs: here the syslet sends it to itself.
printf '%s\n' 'syslet w() { var pid; pid = getpid(); kill(pid, 28);' \
	'write(1, "after the resize\n", 17); }' >"$tmpdir/w.syslet"
type "load $tmpdir/w.syslet"
key Enter
wait_prompt "no prompt after load"
type 'run'
key Enter
wait_for '^after the resize$' "SIGWINCH ended the syslet"
wait_prompt "no prompt after run"

# History: Up brings back the last line.
key Up
wait_for '^syslet> run$' "Up did not recall the last line"
key C-u
type 'quit 3'
key Enter
wait_for '^exit status 3$' "quit 3 did not exit with status 3"

hist=$data/syslet/history
[ -f "$hist" ] || fail "no history file at $hist"
grep -qx 'help' "$hist" || fail "help is not in the history"
grep -qx 'while (k < 3) { k++; }' "$hist" ||
	fail "the block is not one history line"
grep -q 'this is never run' "$hist" && fail "an interrupted line is in the history"

# Ctrl-D leaves; the history of the first session is there to recall.
# A second session holds the server up: killing the last one ends the
# server, and a new-session racing its exit fails ("server exited
# unexpectedly", seen on a loaded machine).
t new-session -d -s hold "sleep 300" || fail "tmux: no second session"
t kill-session -t shell
t -f /dev/null new-session -d -s shell -x 100 -y 40 \
	"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
	 TERM=xterm '$SYSLET_RUN' -i; echo \"exit status \$?\"; sleep 30"
wait_for '^syslet> ?$' "no prompt in the second session"
key Up
wait_for '^syslet> quit 3$' "history was not kept across sessions"
key C-u
key C-d
wait_for '^exit status 0$' "Ctrl-D did not leave with status 0"
exit 0
