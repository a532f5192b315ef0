#!/bin/sh
# tty-run.sh: at a terminal, run keeps the terminal while its syslet runs, as gdb hands it to the inferior: a syslet that reads the terminal gets the line typed, readline none; Ctrl-C gives the prompt back.
. "$top_srcdir/tests/shell/lib.sh"
. "$top_srcdir/tests/shell/tmux.sh"

# A read of the terminal: no engine can finish it at once, so the
# syslet goes async and a worker waits in it.
cat >"$tmpdir/rd.syslet" <<'SRC'
buffer b[64];
syslet rd() {
	var n;
	n = read(0, b, 64);
	write(1, b, n);
}
SRC

t -f /dev/null new-session -d -s shell -x 100 -y 40 \
	"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
	 TERM=xterm '$SYSLET_RUN' -i '$tmpdir/rd.syslet'; \
	 echo \"exit status \$?\"; sleep 30" ||
	skip "tmux cannot start a server here"
wait_for '^syslet> ?$' "no prompt on the terminal"

type 'run'
key Enter
wait_for '^syslet> run$'
type 'typed-for-the-syslet'
key Enter
# The syslet read the line and wrote it back; the shell then reports
# its end.  Before, the shell prompted again at once ('rd went async'),
# and the line went to readline or to the syslet, whichever read first.
wait_for '^rd finished at \[1\]: 21$' "the run did not get the line typed"
[ "$(screen | grep -c '^typed-for-the-syslet$')" -eq 2 ] ||
	{ screen >&2; fail "the line was not echoed and written back once"; }
screen | grep -q 'went async' &&
	{ screen >&2; fail "the shell prompted while the run read the terminal"; }
wait_prompt "no prompt after the run"

# Ctrl-C gives the terminal back, the syslet left in flight.
type 'run'
key Enter
wait_for '^syslet> run$'
sleep 0.3
key C-c
wait_for 'rd went async' "Ctrl-C did not give the prompt back"
wait_prompt "no prompt after Ctrl-C"
exit 0
