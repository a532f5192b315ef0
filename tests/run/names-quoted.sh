#!/bin/sh
# names-quoted.sh: syslet-run's messages show a name from its command line (a path, --entry=, --backend=, --ring=, --trace=, --inject=, an option) with no control byte of it: as given when plain, else quoted as strace quotes a string, as --each's report does.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
src=$top_srcdir/tests/run

# An escape that clears the screen and a newline, then a tail that would
# start a line of its own.
bad=$(printf 'a\033[2Jb\nTAIL')
quoted='a\\33\[2Jb\\nTAIL'

# check WHAT CMD...: CMD fails with status 2 and shows the name quoted
# (name_quoted, tests/lib/harness.sh).
check() {
	what=$1
	shift
	name_quoted 2 "$what" "$@"
}

$SYSLETC -o cat.slo "$src/cat.syslet" || fail "sysletc cat.syslet"
check "an image that is not there" $SYSLET_RUN "$bad.slo"
check "a source that is not there" $SYSLET_RUN "$bad.syslet"
check "--entry" $SYSLET_RUN --entry="$bad" cat.slo x
check "--ring" $SYSLET_RUN --ring="$bad" cat.slo x
check "--threads" $SYSLET_RUN --threads="$bad" cat.slo x
check "--jobs" $SYSLET_RUN --jobs="$bad" --each cat.slo x
check "--trace" $SYSLET_RUN --trace="$bad" cat.slo x
check "--trace=/" $SYSLET_RUN --trace="/$bad(" cat.slo x
check "--inject" $SYSLET_RUN --inject="$bad" cat.slo x
check "--inject error=" $SYSLET_RUN --inject="read:error=$bad" cat.slo x
check "--inject key" $SYSLET_RUN --inject="read:$bad" cat.slo x
check "an unknown option" $SYSLET_RUN "--$bad" cat.slo x
# A source with errors: the compiler's diagnostics name the file so too.
printf 'syslet f() {\n\tfrobnicate(1);\n}\n' >"$bad.syslet"
check "a source with errors" $SYSLET_RUN "$bad.syslet"
grep -q -- "^\"$quoted\\.syslet\":2:2: error: " "$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "the diagnostic's head"; }

# 8-bit controls: CSI as UTF-8 (U+009B, which xterm obeys) and as one
# byte (0x9b, to a terminal that is not UTF-8), and bytes that are no
# UTF-8, are control bytes too: they went out as they came.  A name in
# UTF-8 stays plain.
for c1 in 'a\302\23331mb' 'x\233y' '\377\376z'; do
	what=$(echo "$c1" | cut -c1-2)	# fail's echo would read the escapes
	name=$(printf "$c1")
	$SYSLET_RUN "$name" >out.txt 2>err.txt
	grep -qF "syslet-run: \"$c1\": No such file or directory" err.txt ||
		{ cat -v err.txt >&2; fail "8-bit controls in the name $what...: not quoted strace style"; }
	$SYSLETC "$name" >out.txt 2>err.txt
	grep -qF "sysletc: \"$c1\": No such file or directory" err.txt ||
		{ cat -v err.txt >&2; fail "sysletc: 8-bit controls in the name $what...: not quoted strace style"; }
done
name=$(printf 'caf\303\251')
$SYSLET_RUN "$name" >out.txt 2>err.txt
grep -qF "syslet-run: $name: No such file or directory" err.txt ||
	{ cat -v err.txt >&2; fail "a UTF-8 name: not shown as given"; }

# The library's own message (libsyslet(3): control bytes as '?').
$SYSLET_RUN --backend="$bad" cat.slo x >out.txt 2>err.txt
[ $? = 2 ] || fail "--backend: not status 2"
grep -q "unknown syslet backend 'a?\[2Jb?TAIL'" err.txt ||
	{ cat err.txt >&2; fail "--backend: the name not shown with '?'"; }
SYSLET_BACKEND=$bad $SYSLET_RUN cat.slo x >out.txt 2>err.txt
grep -q "unknown syslet backend 'a?\[2Jb?TAIL' from SYSLET_BACKEND" err.txt ||
	{ cat err.txt >&2; fail "SYSLET_BACKEND: the name not shown with '?'"; }

# So are 8-bit controls and bytes that are no UTF-8 (they went out as
# they came); a name in UTF-8 stays as given.
$SYSLET_RUN --backend="$(printf 'a\302\233b\377')" cat.slo x >out.txt 2>err.txt
grep -q "unknown syslet backend 'a??b?'" err.txt ||
	{ cat -v err.txt >&2; fail "--backend: 8-bit controls not shown with '?'"; }
printf 'syslet n(int v) { getpid(); }\n' >int.syslet
$SYSLET_RUN int.syslet "$(printf 'x\302\2331m')" >out.txt 2>err.txt
grep -q "parameter v of n: expected int, got 'x??1m'" err.txt ||
	{ cat -v err.txt >&2; fail "an int parameter: 8-bit controls not shown with '?'"; }
$SYSLET_RUN --backend="$(printf 'caf\303\251')" cat.slo x >out.txt 2>err.txt
grep -q "unknown syslet backend 'caf$(printf '\303\251')'" err.txt ||
	{ cat -v err.txt >&2; fail "--backend: a UTF-8 name not shown as given"; }

# Plain names keep their plain messages.
$SYSLET_RUN --entry=nosuch cat.slo x 2>err.txt
grep -q "no syslet named 'nosuch'; the image has: cat" err.txt ||
	{ cat err.txt >&2; fail "--entry=nosuch"; }
$SYSLET_RUN --bogus x 2>err.txt
grep -q "^syslet-run: unrecognized option '--bogus'\$" err.txt ||
	{ cat err.txt >&2; fail "--bogus"; }
$SYSLET_RUN --help=3 2>err.txt
grep -q "^syslet-run: option '--help' doesn't allow an argument\$" err.txt ||
	{ cat err.txt >&2; fail "--help=3"; }
$SYSLET_RUN --ring 2>err.txt
grep -q "^syslet-run: option '--ring' requires an argument\$" err.txt ||
	{ cat err.txt >&2; fail "--ring"; }
$SYSLET_RUN -x 2>err.txt
grep -q "^syslet-run: invalid option -- 'x'\$" err.txt ||
	{ cat err.txt >&2; fail "-x"; }
exit 0
