#!/bin/sh
# hostile.sh: syslet-run -i on bad input: end of input at every point of a session, NUL bytes, overlong lines, endless binary input, bad files to load.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
cd "$top_srcdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul
to=
command -v timeout >/dev/null && to="timeout 60"

# sh_run NAME: feed $tmpdir/in to the shell; output in $tmpdir/NAME.out.
# A crash (a signal) or a hang (timeout's 124) is a failure.
sh_run() {
	st=0
	$to "$SYSLET_RUN" -i <"$tmpdir/in" >"$tmpdir/$1.out" 2>&1 || st=$?
	[ "$st" -lt 124 ] || { cat "$tmpdir/$1.out" >&2
		fail "$1: exit status $st (a crash or a hang)"; }
	# The compiler must never be shown the shell's own wrapper.
	! grep -q '__shell' "$tmpdir/$1.out" || { cat "$tmpdir/$1.out" >&2
		fail "$1: a message shows the shell's wrapper"; }
}

# The input ends inside each kind of unfinished unit: one clear message.
for unit in 'syslet f() {' 'if (getpid() > 0) {' 'var x' 'const N = 1' \
	'do getpid();' 'while (getpid() < 0)' 'buffer b[4'; do
	printf '%s\n' "$unit" >"$tmpdir/in"
	sh_run unit
	grep -q "^syslet-run: <input>:1: the input ended inside an unfinished statement or declaration: '" \
		"$tmpdir/unit.out" || { cat "$tmpdir/unit.out" >&2
		fail "'$unit' then end of input: no clear message"; }
	# A script cut short is bad input: not status 0, as a shell
	# says of an unexpected end of file.
	expect_eq "'$unit' then end of input: status" 1 "$st"
done
printf 'getpid();\n\nif (getpid() > 0) {\n\tgetpid();\n' >"$tmpdir/in"
sh_run line3
grep -q "<input>:3: the input ended .*: 'if (getpid() > 0) { \.\.\.'$" \
	"$tmpdir/line3.out" || fail "the unit's first line is not named"

# A do-loop waits for its while, on the next line too.
printf 'do getpid();\nwhile (getpid() < 0);\ngetppid();\n' >"$tmpdir/in"
sh_run do
grep -q 'error' "$tmpdir/do.out" && { cat "$tmpdir/do.out" >&2
	fail "a do-loop over two lines"; }
[ "$(grep -c '^get' "$tmpdir/do.out")" = 2 ] || fail "a do-loop over two lines: output"

# End of input after every byte of sessions that use most commands.
for session in step-cat breakpoints cells; do
	size=$(wc -c <"tests/shell/$session.session")
	len=0
	while [ "$len" -le "$size" ]; do
		head -c "$len" "tests/shell/$session.session" >"$tmpdir/in"
		sh_run "$session-$len"
		len=$((len + 7))
	done
done

# A NUL byte: the line is refused, the next one runs.
printf 'get\000pid();\ngetppid();\n' >"$tmpdir/in"
sh_run nul
grep -q '^syslet-run: <input>:1: a NUL byte in the line; the line is ignored$' \
	"$tmpdir/nul.out" || fail "NUL byte: no message"
grep -q '^getppid() = ' "$tmpdir/nul.out" || fail "NUL byte: next line lost"

# Overlong lines: a 4 MiB word, 20000 statements on one line.
awk 'BEGIN { s = "x"; while (length(s) < 4194304) s = s s; print s }' \
	>"$tmpdir/in"
sh_run long
grep -q 'error: ' "$tmpdir/long.out" || fail "4 MiB line: no diagnostic"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "getppid();"; print "" }' \
	>"$tmpdir/in"
sh_run many
grep -q '^getppid() = ' "$tmpdir/many.out" || fail "20000 statements: no result"

# A line past what a source may hold (64 MiB) is refused as a NUL line
# is, without being kept, and the next one runs: an endless line took
# memory without bound, and where that ran out the session ended as at
# the end of the input, status 0, the rest unread (and a 70 MB line took
# 29 s to reach the compiler's diagnostic, quoted whole).
{ printf 'getpid();\n'
  head -c $((64 * 1024 * 1024 + 1)) /dev/zero | tr '\000' x
  printf '\ngetppid();\n'; } >"$tmpdir/in"
sh_run over
grep -q '^syslet-run: <input>:2: a line longer than 64 MiB; the line is ignored$' \
	"$tmpdir/over.out" || { head -c 300 "$tmpdir/over.out" >&2
	fail "a line over 64 MiB: no message"; }
grep -q '^getppid() = ' "$tmpdir/over.out" || fail "a line over 64 MiB: next line lost"
expect_eq "a line over 64 MiB: status" 0 "$st"
rm -f "$tmpdir/in" "$tmpdir/over.out"
# A line that holds NUL bytes and runs past 64 MiB is binary data, not
# a script: the session ends, status 2, as for an input that cannot be
# read on.  /dev/zero (or /dev/full) as the script was one line with no
# end, read and dropped for ever without a word.
for dev in /dev/zero /dev/full; do
	[ -c "$dev" ] && [ -n "$to" ] || continue
	st=0
	timeout 20 "$SYSLET_RUN" -i <"$dev" >"$tmpdir/zero.out" 2>&1 || st=$?
	expect_eq "$dev as the script: status" 2 "$st"
	grep -q '^syslet-run: <input>:1: a line of more than 64 MiB holding NUL bytes: binary data, not a script; the session ends$' \
		"$tmpdir/zero.out" || { head -c 300 "$tmpdir/zero.out" >&2
		fail "$dev as the script: no message"; }
done
# An input that cannot be read is no end of input: a message and status
# 2, as for a file that cannot be read (it ended silently with 0).
st=0
$to "$SYSLET_RUN" -i <"$tmpdir" >"$tmpdir/dirin.out" 2>&1 || st=$?
expect_eq "a directory as the script: status" 2 "$st"
grep -q '^syslet-run: standard input: Is a directory; the session ends$' \
	"$tmpdir/dirin.out" || { cat "$tmpdir/dirin.out" >&2
	fail "a directory as the script: no message"; }

# Files that are no program.
mkdir "$tmpdir/dir"
printf 'junk\000junk' >"$tmpdir/junk.slo"
$SYSLETC -o "$tmpdir/cat.slo" examples/cat.syslet || exit 99
head -c 100 "$tmpdir/cat.slo" >"$tmpdir/short.slo"
printf 'load %s\n' "$tmpdir/dir" /dev/null "$tmpdir/junk.slo" \
	"$tmpdir/short.slo" "$tmpdir/none" >"$tmpdir/in"
printf 'run\nstep\n' >>"$tmpdir/in"
sh_run load
for want in 'dir: Is a directory$' \
	'/dev/null: not a regular file or a pipe (a character device)$' \
	'junk\.slo: neither a syslet image nor a syslet source$' \
	'short\.slo: ' 'none: No such file or directory$' \
	'run: no program loaded' 'step: no program loaded'; do
	grep -q -- "$want" "$tmpdir/load.out" || { cat "$tmpdir/load.out" >&2
		fail "load: no '$want'"; }
done
# Before the first run a program has no buffers yet: say why.
printf 'load examples/cat.syslet tests/shell/hello.txt\nx buf\n' >"$tmpdir/in"
sh_run xbuf
grep -q "^syslet-run: x: 'buf' is a buffer of examples/cat.syslet, which has no memory until run or step starts the program$" \
	"$tmpdir/xbuf.out" || { cat "$tmpdir/xbuf.out" >&2
	fail "x before run: no reason given"; }

# Escape sequences typed or read from a script: messages quote them as
# the compiler quotes a source line, '?' for each control byte.
printf 'load x\033[2Jy\nprint \033]0;t\007\nset "\033[31m\nsyslet f() { \033[5m\n' \
	>"$tmpdir/in"
sh_run esc
for want in ": x?\[2Jy: No such file or directory$" \
	"print: no cell '?]0;t?'$" "unterminated quote in 'set \"?\[31m'$" \
	"the input ended inside an unfinished .*: 'syslet f() { ?\[5m'$"; do
	grep -q -- "$want" "$tmpdir/esc.out" || { cat -v "$tmpdir/esc.out" >&2
		fail "escape bytes: no '$want'"; }
done
! grep -q "$(printf '\033')" "$tmpdir/esc.out" || { cat -v "$tmpdir/esc.out" >&2
	fail "an escape byte of the input reached the terminal"; }
# The 8-bit forms: CSI as one byte (0x9b, a command to a terminal that is
# not UTF-8) and as UTF-8 (U+009B, which xterm obeys), and bytes that
# are no UTF-8 at all, were passed on as they came; characters that are
# UTF-8 stay as they are.
printf 'print a\2331mb\nprint c\302\23331md\nprint \377\376e\nprint caf\303\251\n' \
	>"$tmpdir/in"
sh_run c1
for want in "print: no cell 'a?1mb'$" "print: no cell 'c??31md'$" \
	"print: no cell '??e'$" "print: no cell 'caf$(printf '\303\251')'$"; do
	grep -q -- "$want" "$tmpdir/c1.out" || { cat -v "$tmpdir/c1.out" >&2
		fail "8-bit control bytes: no '$want'"; }
done

# Ctrl-C while a script waits for its next line ends the session as it
# ends a killed script: syslet-run dies of SIGINT (status 130 here), as
# a run does, so that what runs the script sees it; it exited 0 as at
# the end of the input.
rm -f "$tmpdir/fifo"
mkfifo "$tmpdir/fifo" || skip "mkfifo failed"
$to "$SYSLET_RUN" -i <"$tmpdir/fifo" >"$tmpdir/int.out" 2>&1 &
ipid=$!
exec 4>"$tmpdir/fifo"
printf 'write(1, "ready\\n", 6);\n' >&4
i=0
until grep -q '^ready$' "$tmpdir/int.out"; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "SIGINT: the script never ran"
	sleep 0.1
done
sleep 0.2
# timeout(1) runs the shell as its child: signal that one.
kill -INT $(pgrep -P $ipid syslet-run 2>/dev/null || echo $ipid)
sleep 0.5
trap '' PIPE
printf 'write(1, "after\\n", 6);\n' >&4 2>/dev/null
exec 4>&-
ist=0
wait $ipid || ist=$?
[ "$ist" = 130 ] || { cat "$tmpdir/int.out" >&2
	fail "SIGINT at a script's prompt: status $ist, not 130"; }
! grep -q '^after$' "$tmpdir/int.out" || fail "SIGINT: the script went on"
exit 0
