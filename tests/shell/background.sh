#!/bin/sh
# background.sh: the shell started in the background (syslet-run -i &) or sent there at its prompt (Ctrl-Z, bg) under a job-control shell stops, "Stopped (tty output)", until fg brings it back to a working prompt; it spun at 100% CPU instead, its SIGTTOU hook turning each of readline's tcsetattr() calls into an EINTR that readline retried for ever.
. "$top_srcdir/tests/shell/lib.sh"

command -v bash >/dev/null 2>&1 || skip "bash is not installed"

. "$top_srcdir/tests/shell/tmux.sh"

cd "$top_srcdir" || exit 99
t -f /dev/null new-session -d -s shell -x 100 -y 40 \
	"env XDG_DATA_HOME='$data' HOME='$tmpdir' SYSLET_BACKEND=emul \
	 TERM=xterm HISTFILE=/dev/null PS1='job\$ ' bash --norc --noprofile -i" ||
	skip "tmux cannot start a server here"
wait_for '^job\$ ?$' "bash gave no prompt"

# The shell's process: the job-control shell's child (bash runs the
# job's one command directly; a libtool wrapper would exec it).
job_pid() {
	bash_pid=$(t display -p -t shell '#{pane_pid}')
	pid=
	i=0
	while [ -z "$pid" ]; do
		for st in /proc/[0-9]*/stat; do
			# pid (comm) state ppid: comm has no blank here.
			set -- $(cat "$st" 2>/dev/null)
			[ "${4:-}" = "$bash_pid" ] && pid=$1 && break
		done
		i=$((i + 1))
		[ $i -gt 300 ] && fail "no job under bash: $(screen | grep -v '^$' | tail -n 5)"
		[ -n "$pid" ] || sleep 0.1
	done
}
# Its state (R or S while it spins, T stopped) and its CPU ticks.
state() { cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null || echo gone; }
cpu() {
	set -- $(cut -d' ' -f14,15 "/proc/$pid/stat" 2>/dev/null || echo 0 0)
	echo $(($1 + $2))
}

check_stopped() {
	job_pid
	# Give a spinning process time to show.
	sleep 2
	st=$(state)
	used=$(cpu)
	[ "$st" = T ] ||
		fail "$1: the shell is not stopped (state $st, $used ticks of CPU): $(screen | grep -v '^$' | tail -n 3)"
	sleep 1
	[ "$(cpu)" = "$used" ] ||
		fail "$1: the stopped shell still used CPU"
}

type "'$SYSLET_RUN' -i &"
key Enter
wait_for '^\[1\] [0-9]+' "bash did not start the job"
check_stopped "syslet-run -i &"
type 'fg'
key Enter
wait_prompt "after fg, no prompt"
type 'getpid();'
key Enter
wait_for '^getpid\(\) = [0-9]+' "the statement did not run after fg"
wait_prompt "no prompt after getpid"

# At the prompt: Ctrl-Z, then bg.
key C-z
wait_for 'Stopped' "Ctrl-Z did not stop the shell"
type 'bg'
key Enter
check_stopped "Ctrl-Z, bg"
type 'fg'
key Enter
wait_prompt "after the second fg, no prompt"
type 'getppid();'
key Enter
wait_for '^getppid\(\) = [0-9]+' "the statement did not run after the second fg"
wait_prompt "no prompt after getppid"
key C-d
wait_for '^job\$ ?$' "Ctrl-D did not leave the shell"
exit 0
