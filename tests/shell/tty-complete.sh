#!/bin/sh
# tty-complete.sh: on a terminal (tmux), Tab completes what each command's argument takes: trace's %CLASS and calls, inject's calls and its rule's keys, break's calls of the program, and nothing for an argument a command does not take (break's second).
. "$top_srcdir/tests/shell/lib.sh"
. "$top_srcdir/tests/shell/tmux.sh"

cd "$top_srcdir" || exit 99
t -f /dev/null new-session -d -s shell -x 100 -y 40 \
	"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
	 TERM=xterm '$SYSLET_RUN' -i examples/cat.syslet; \
	 echo \"exit status \$?\"; sleep 30" ||
	skip "tmux cannot start a server here"
wait_for '^syslet> ?$' "no prompt on the terminal"

# trace SET: a class after its '%', a call after a ','.
type 'trace %fi'
key Tab
wait_for '^syslet> trace %file ?$' "Tab did not complete trace %fi to %file"
key BSpace
type ',%des'
key Tab
wait_for '^syslet> trace %file,%desc ?$' "Tab did not complete %des to %desc"
key BSpace
type ',getpp'
key Tab
wait_for '^syslet> trace %file,%desc,getppid ?$' \
	"Tab did not complete the call getpp in trace's SET"
key C-u
# trace's words (all is ambiguous with alarm).
type 'trace of'
key Tab
wait_for '^syslet> trace off ?$' "Tab did not complete trace of to off"
key C-u

# readline leaves a space after a completed word; BSpace takes it back.
# inject RULE: the call, then the rule's keys.
type 'inject rea'
key Tab
wait_for '^syslet> inject read' "Tab did not complete inject rea to read"
key C-u
type 'inject write:err'
key Tab
wait_for '^syslet> inject write:error=$' \
	"Tab did not complete the key error= of inject's rule"
key C-u

# break takes one argument: the second completes nothing, where it
# offered the entry again.
type 'break ca'
key Tab
wait_for '^syslet> break cat ?$' "Tab did not complete break ca to cat"
type 'ca'
key Tab
sleep 0.5
screen | grep -Eq '^syslet> break cat cat' &&
	fail "Tab completed a second argument to break"
key C-u
# break's NAME: the calls the program makes, not every system call
# (wr is write alone, where writev would make it ambiguous).
type 'break wr'
key Tab
wait_for '^syslet> break write ?$' "Tab did not complete break wr to write"
key C-u
type 'quit 4'
key Enter
wait_for '^exit status 4$' "quit 4 did not exit with status 4"
exit 0
