#!/bin/sh
# not-syslet.sh: a file that is no syslet program (a C header from sysletc -H, given by mistake; a text file) gives at most 10 errors, how many more there were, and what syslet-run expects, with exit status 2; a syslet program's errors get no such hint. An empty file, or one of comments or declarations only, is told "no syslet" once.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

"$SYSLETC" -H wc.h -o wc.slo "$top_srcdir/examples/cat.syslet" ||
	fail "sysletc -H failed"
"$SYSLET_RUN" wc.h >out 2>err
rc=$?
[ $rc -eq 2 ] || fail "syslet-run wc.h exited $rc, not 2"
n=$(grep -c ': error: ' err)
[ "$n" -le 10 ] || fail "syslet-run wc.h printed $n errors: $(head -5 err)"
grep -Eq '^wc\.h: [0-9]+ more errors not shown$' err ||
	fail "no count of the errors not shown: $(tail -3 err)"
grep -q "^syslet-run: wc.h declares no syslet .*sysletc(1) or a program in the language of syslet(5)" err ||
	fail "no word of what syslet-run expects: $(tail -3 err)"
# sysletc itself still prints every error.
m=$("$SYSLETC" -o x.slo wc.h 2>&1 | grep -c ': error: ')
[ "$m" -gt 10 ] || fail "sysletc wc.h printed $m errors, not all"

echo 'hello' >notes.txt
"$SYSLET_RUN" notes.txt >out 2>err
[ $? -eq 2 ] || fail "syslet-run notes.txt did not exit 2"
grep -q "notes.txt declares no syslet" err || fail "no hint for notes.txt: $(cat err)"
grep -q "more error" err && fail "one error said more: $(cat err)"

# An empty file, one of comments, one of declarations alone: each is a
# syslet program that the compiler says has no syslet; said once.
: >empty.syslet
printf '/* nothing */\n\n// here\n' >comments.syslet
printf 'const A = 1;\nvar x = A;\n' >decls.syslet
for f in empty.syslet comments.syslet decls.syslet; do
	"$SYSLET_RUN" $f >out 2>err
	rc=$?
	[ $rc -eq 2 ] || fail "syslet-run $f exited $rc, not 2"
	n=$(grep -ci 'no syslet' err)
	[ "$n" -eq 1 ] || fail "syslet-run $f said 'no syslet' $n times: $(cat err)"
done

# A syslet program with an error is one: no hint.
printf 'syslet x() {\n\tfoo\n}\n' >bad.syslet
"$SYSLET_RUN" bad.syslet >out 2>err
[ $? -eq 2 ] || fail "syslet-run bad.syslet did not exit 2"
grep -q "declares no syslet" err && fail "hint for a syslet program: $(cat err)"
exit 0
