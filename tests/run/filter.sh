#!/bin/sh
# filter.sh: --trace=SET prints only the calls of SET, in strace's -e trace= syntax (names, !, classes, /regex, all, none); unknown names are errors with a suggestion.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$top_srcdir/tests/run" || exit 99
cat hello.txt >/dev/null

# calls SET: the calls of the lines --trace=SET prints for cat, in order,
# once each.
calls() {
	$SYSLET_RUN --backend=emul --trace="$1" cat.syslet hello.txt \
		2>"$tmpdir/trace" >/dev/null || fail "--trace=$1: the run failed"
	sed -n 's/^[^ ]* \[[0-9]*\] \(<\.\.\. \)\{0,1\}\([a-z_0-9]*\)[( ].*/\2/p' \
		"$tmpdir/trace" | awk '!seen[$0]++' | tr '\n' ' '
}
expect_eq "--trace=read" "read " "$(calls read)"
expect_eq "--trace=read,close" "read close " "$(calls read,close)"
expect_eq "--trace=!read,write" "open close " "$(calls '!read,write')"
expect_eq "--trace=%file" "open " "$(calls %file)"
expect_eq "--trace=%desc" "open read write close " "$(calls %desc)"
expect_eq "--trace=/^(read|close)\$" "read close " "$(calls '/^(read|close)$')"
expect_eq "--trace=all" "open read write close " "$(calls all)"
expect_eq "--trace=none" "" "$(calls none)"
expect_eq "--trace=?nonesuch,write" "write " "$(calls '?nonesuch,write')"
# As strace: the last --trace counts.
$SYSLET_RUN --backend=emul --trace=read --trace=close cat.syslet hello.txt \
	2>"$tmpdir/trace" >/dev/null || fail "two --trace: the run failed"
grep -q ' read(' "$tmpdir/trace" && fail "the first --trace=read still counts"
grep -q ' close(' "$tmpdir/trace" || fail "the last --trace=close is ignored"
# Every backend filters alike: the line of the read that ends the loop.
for b in $backends; do
	$SYSLET_RUN --backend=$b --trace=read cat.syslet hello.txt \
		2>"$tmpdir/trace" >/dev/null || fail "$b: the run failed"
	grep -q 'read(3, "", 4096) = 0 <' "$tmpdir/trace" ||
		{ cat "$tmpdir/trace" >&2; fail "$b: --trace=read lost a read"; }
	grep -Ev '(read\(|<\.\.\. read resumed>|^\+\+\+ exited with 0 \+\+\+$)' \
		"$tmpdir/trace" &&
		fail "$b: --trace=read printed other calls"
done

# Bad sets: exit 2 before anything runs, with the reason.
bad() { # MESSAGE-REGEX SET
	refused trace "$2" "$1" cat.syslet hello.txt
}
bad "unknown system call 'reed'; did you mean 'read'\\?" reed
bad "unknown system call 'opne'; did you mean 'open'\\?" 'read,opne'
bad "unknown class '%fil'" %fil
bad "no system call matches '/\\^nothing'" '/^nothing'
bad "bad regular expression" '/read('
bad "an empty name" 'read,,write'
bad "an empty set" ''
exit 0
