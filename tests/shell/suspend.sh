#!/bin/sh
# suspend.sh: Ctrl-Z at the shell's prompt under a job-control shell (bash in tmux), then fg: the prompt and the line typed so far come back and readline has the terminal again (Tab completes, one echo); before, nobody released the terminal before the stop or retook it after, so after fg the keys were echoed twice, Tab inserted a tab, and no prompt came until Enter.
. "$top_srcdir/tests/shell/lib.sh"

command -v bash >/dev/null 2>&1 || skip "bash is not installed"

. "$top_srcdir/tests/shell/tmux.sh"

cd "$top_srcdir" || exit 99
t -f /dev/null new-session -d -s shell -x 100 -y 40 \
	"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
	 TERM=xterm PS1='job\$ ' bash --norc --noprofile -i" ||
	skip "tmux cannot start a server here"
wait_for '^job\$ ?$' "bash gave no prompt"
type "'$SYSLET_RUN' -i"
key Enter
wait_prompt "no prompt on the terminal"

# Stopped in the middle of a word, then back with fg.
type 'getpp'
# Typed ahead of a stop, keys still unread are the job-control shell's.
wait_for '^syslet> getpp$' "the shell did not echo 'getpp'"
key C-z
wait_for 'Stopped' "Ctrl-Z did not stop the shell"
type 'fg'
key Enter
wait_for '^syslet> getpp$' "after fg, no prompt with the line typed so far"
key Tab
wait_for '^syslet> getppid ?$' "after fg, Tab did not complete 'getpp' (readline lost the terminal)"
key BSpace
type '();'
key Enter
wait_for '^getppid\(\) = [0-9]+' "the statement did not run after fg"
wait_prompt "no prompt after the statement"

# Again at an empty prompt, and the shell still leaves on Ctrl-D.
key C-z
i=0
while [ "$(screen | grep -c 'Stopped')" -lt 2 ]; do
	i=$((i + 1))
	[ $i -gt 300 ] && fail "the second Ctrl-Z did not stop the shell"
	sleep 0.1
done
wait_for '^job\$ ?$' "no job-control prompt after the second Ctrl-Z"
type 'fg'
key Enter
wait_prompt "after the second fg, no prompt"
type 'getpid();'
key Enter
wait_for '^getpid\(\) = [0-9]+' "the statement did not run after the second fg"
wait_prompt "no prompt after getpid"
key C-d
wait_for '^job\$ ?$' "Ctrl-D did not leave the shell"
exit 0
