#!/bin/sh
# killed-prompt.sh: SIGTERM, SIGHUP or SIGQUIT sent to the shell waiting at its prompt ends it with status 128+N and the terminal given back (canonical mode and echo on), under a parent that restores nothing (sh -c): it died with readline's raw modes in place, and the terminal stayed -icanon -echo.
. "$top_srcdir/tests/shell/lib.sh"

command -v stty >/dev/null 2>&1 || skip "stty is not installed"
command -v pgrep >/dev/null 2>&1 || skip "pgrep is not installed"

. "$top_srcdir/tests/shell/tmux.sh"

cd "$tmpdir" || exit 99
n=0
for sig in TERM HUP QUIT; do
	n=$((n + 1))
	case $sig in TERM) want=143 ;; HUP) want=129 ;; QUIT) want=131 ;; esac
	if t has-session -t shell 2>/dev/null; then
		t kill-server
		sleep 1
	fi
	t -f /dev/null new-session -d -s shell -x 100 -y 40 \
		"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
		 TERM=xterm sh -c 'ulimit -c 0; echo \$\$ >shpid; \"\$0\" -i; \
		 echo \"exit status \$?\"; stty -a >stty.txt; echo done; sleep 30' \
		 '$SYSLET_RUN'" || skip "tmux cannot start a server here"
	wait_for '^syslet> ?$' "$sig: no prompt on the terminal"
	pid=$(pgrep -P "$(cat shpid)") || skip "pgrep -P found no shell"
	kill -$sig "$pid"
	wait_for '^done$' "$sig: the shell did not end"
	screen | grep -q "^exit status $want\$" ||
		fail "$sig: not 'exit status $want': $(screen | grep 'exit status')"
	for mode in icanon echo; do
		grep -Eq "(^| )$mode( |\$)" stty.txt ||
			fail "$sig: the terminal was left -$mode"
	done
done
exit 0
