#!/bin/sh
# deep-braces.sh: a block nested past what the parser holds (6,000 braces opened on one line, closed on the next) is one unit of the session: the compiler's 'program nested too deeply' and the session goes on, where the shell, counting only the braces the aborted parse had read, waited for more lines to the end of the input ('the input ended inside an unfinished statement or declaration').
. "$top_srcdir/tests/shell/lib.sh"
shell_require
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul
for n in 6000 20000; do
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "{"; print ""
			     for (i = 0; i < n; i++) printf "}"; print ""
			     print "var ok = 1;"; print "print ok" }' >"$tmpdir/in"
	st=0
	$SYSLET_RUN -i <"$tmpdir/in" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
	expect_eq "$n braces: status" 0 "$st"
	grep -q '^<input>:1:[0-9]*: error: program nested too deeply' "$tmpdir/err" ||
		fail "$n braces: no 'nested too deeply': $(cut -c1-120 "$tmpdir/err")"
	grep -q 'unfinished' "$tmpdir/err" &&
		fail "$n braces: $(grep unfinished "$tmpdir/err" | cut -c1-120)"
	expect_eq "$n braces: the session went on" "ok = 1" "$(cat "$tmpdir/out")"
done
exit 0
