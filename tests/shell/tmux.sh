# tmux.sh: a terminal for the shell's tests (sourced after lib.sh; skips
# without tmux or a shell in this build): our own tmux server on a socket
# in $tmpdir, so nothing of the user's tmux is touched, its window named
# shell, what the tests type and wait for in it, and $data for the
# shell's XDG_DATA_HOME.
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
shell_require
data=$tmpdir/data
sock=$tmpdir/tmux.sock
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$tmpdir"' EXIT

screen() { t capture-pane -p -t shell; }
# type TEXT: literal keys.  tmux takes a word ending in ';' for its own
# command separator unless escaped.
type() {
	case $1 in
	*\;) t send-keys -t shell -l "${1%;}\\;" ;;
	*) t send-keys -t shell -l "$1" ;;
	esac
}
key() { t send-keys -t shell "$@"; }
# wait_for PATTERN [WHAT]: until the screen shows PATTERN (grep -E), 30 s.
wait_for() {
	i=0
	while ! screen | grep -Eq -- "$1"; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then
			screen >&2
			fail "${2:-screen never showed '$1'}"
		fi
		sleep 0.1
	done
}
# The prompt as the last non-empty line: the shell waits for input.
wait_prompt() {
	i=0
	while [ "$(screen | grep -v '^$' | tail -n 1)" != "syslet>" ]; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then
			screen >&2
			fail "${1:-no fresh prompt}"
		fi
		sleep 0.1
	done
}
