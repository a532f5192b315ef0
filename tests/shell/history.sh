#!/bin/sh
# history.sh: the shell's history file is only ever a regular file: a relative symlink is followed from its own directory, a FIFO does not hang the shell, a device keeps no history, a file past 64 MiB is neither read nor grown.
. "$top_srcdir/tests/shell/lib.sh"

shell_require
command -v script >/dev/null 2>&1 || skip "script(1) is not installed"
command -v timeout >/dev/null 2>&1 || skip "timeout(1) is not installed"
script -qec true /dev/null </dev/null >/dev/null 2>&1 ||
	skip "script(1) cannot open a terminal here"

# term DIR: one session on a terminal (history is kept only there),
# started in DIR, that runs help and ends at end of input; 20 s at most.
term() {
	(cd "$1" && { printf 'help\n'; sleep 1; printf '\004'; } |
	 XDG_DATA_HOME=$tmpdir/data HOME=$tmpdir SYSLET_BACKEND=emul \
		timeout 20 script -qec "'$SYSLET_RUN' -i" /dev/null) \
		>"$tmpdir/raw" 2>&1
	echo $?
}
hist=$tmpdir/data/syslet/history
mkdir -p "$tmpdir/data/syslet" "$tmpdir/data/real" "$tmpdir/cwd/sub" \
	"$tmpdir/cwd/real" || exit 99

# A relative symlink: its target is read from the link's directory, and
# the rewrite that trims the file to 1000 lines lands there.  The same
# relative path from the current directory names a decoy, left alone.
seq 1 1200 | sed 's/^/old /' >"$tmpdir/data/real/h"
ln -s ../real/h "$hist"
echo decoy >"$tmpdir/cwd/real/h"
expect_eq "session with a symlinked history" 0 "$(term "$tmpdir/cwd/sub")"
[ -h "$hist" ] || fail "the history symlink was replaced"
expect_eq "the decoy" decoy "$(cat "$tmpdir/cwd/real/h")"
ls "$tmpdir/cwd/real" | grep -q '\.tmp$' && fail "a temporary file was left in the current directory"
expect_eq "lines kept" 1000 "$(wc -l <"$tmpdir/data/real/h" | tr -d ' ')"
expect_eq "last line" help "$(tail -n 1 "$tmpdir/data/real/h")"

# A FIFO: no history, and a session that ends.
rm -f "$hist"
mkfifo "$hist"
expect_eq "session with a FIFO as history" 0 "$(term "$tmpdir")"
grep -q 'history not kept: .*history: not a regular file' "$tmpdir/raw" ||
	fail "no message for a FIFO: $(cat "$tmpdir/raw")"
[ -p "$hist" ] || fail "the FIFO was replaced"

# A history file past what the shell trims (64 MiB, a source's limit)
# is not read (readline took it whole into memory: a 1 GiB sparse file
# made a 1 GiB session, 9 s to start) nor grown: no history, a message.
rm -f "$hist"
truncate -s 1G "$hist" 2>/dev/null || skip "truncate(1) cannot make a sparse file"
expect_eq "session with a 1 GiB history" 0 "$(term "$tmpdir")"
grep -q 'history not kept: .*history: larger than the limit of 64 MiB' "$tmpdir/raw" ||
	fail "no message for a 1 GiB history: $(tr -d '\033' <"$tmpdir/raw" | tail -n 3)"
expect_eq "the 1 GiB history's size" 1073741824 "$(wc -c <"$hist" | tr -d ' ')"

# A link to a character device keeps no history, silently.
rm -f "$hist"
if mknod "$tmpdir/null" c 1 3 2>/dev/null; then
	ln -s "$tmpdir/null" "$hist"
else
	ln -s /dev/null "$hist"
fi
expect_eq "session with history linked to a device" 0 "$(term "$tmpdir")"
grep -q 'history not kept' "$tmpdir/raw" && fail "a message for a device: $(cat "$tmpdir/raw")"
[ -c "$(readlink "$hist")" ] || fail "the device was replaced"

# A $HOME that does not exist is the user's to make, not the shell's:
# no history then, and a message (as root, /nonexistent was made).
st=$( (cd "$tmpdir" && { printf 'help\n'; sleep 1; printf '\004'; } |
	env -u XDG_DATA_HOME HOME="$tmpdir/nohome" SYSLET_BACKEND=emul \
		timeout 20 script -qec "'$SYSLET_RUN' -i" /dev/null) \
	>"$tmpdir/raw" 2>&1; echo $?)
expect_eq "session with a missing HOME" 0 "$st"
[ -e "$tmpdir/nohome" ] && fail "the shell made the missing HOME"
grep -q "history not kept: $tmpdir/nohome/.local/share/syslet/history: No such file or directory" \
	"$tmpdir/raw" || fail "no message for a missing HOME: $(cat "$tmpdir/raw")"
exit 0
