#!/bin/sh
# man-results.sh: syslet(5)'s GETTING RESULTS OUT runs as printed: its syslet and its C program, taken from the page, and every command of its session, each printing the page's lines (od's reading of write(1, &n, 8), a sum over --each, od's folding without -v -w8, --trace, the shell's break, run and print, syslet_inst__cell() from C), and the C program's status and message for a file it cannot open.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
: "${CC:=cc}"
[ "$(uname -m)" = x86_64 ] || skip "the session is of x86_64 (8-byte cells)"
page=$top_srcdir/man/syslet.5
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"

# display N: the Nth literal display of the section, roff's \e as \.
display() {
	sed -n '/^\.Sh GETTING RESULTS OUT/,/^\.Sh /p' "$page" |
		awk -v n="$1" '/^\.Bd -literal/ { i++; next }
			/^\.Ed/ { if (i == n) exit; next }
			i == n' |
		sed 's/\\e/\\/g'
}
cd "$tmpdir" || exit 99
display 1 >size.syslet
display 2 >size.c
display 3 >page
grep -q '^syslet size' size.syslet || fail "no syslet in GETTING RESULTS OUT of $page"
grep -q 'syslet_inst__cell' size.c || fail "no C program in GETTING RESULTS OUT of $page"

# The commands, a file each (a '> ' line continues the one before), and
# what each printed.
awk '/^\$ / { n++; f = sprintf("cmd%02d", n); sub(/^\$ /, "");
		print > f; printf "" > (f ".want"); next }
	/^> / && n { sub(/^> /, ""); print >> f; next }
	n { print >> (f ".want") }' page
[ "$(ls cmd?? | wc -l)" -ge 6 ] || fail "no session read from $page"

# Each runs with the tools of this build: sysletc and syslet-run by their
# variables, cc through libtool against the library built here.
cat >cc.sh <<SH
#!/bin/sh
# cc -o OUT SRC -lsyslet, as the page writes it.
exec "$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -Wall \\
	-Werror -I"$top_srcdir/src/include" -I"$top_builddir/src/include" \\
	-o "\$2" "\$3" "$top_builddir/src/lib/libsyslet.la"
SH
chmod +x cc.sh
for f in cmd??; do
	sed -e "s|^syslet-run |\"\$SYSLET_RUN\" |; s/| syslet-run /| \"\$SYSLET_RUN\" /" \
		-e "s|^sysletc |\"\$SYSLETC\" |; s|&& cc |\\&\\& ./cc.sh |" \
		"$f" >"$f.sh"
	st=0
	SYSLET_RUN=$SYSLET_RUN SYSLETC=$SYSLETC sh "$f.sh" >"$f.got" 2>&1 ||
		st=$?
	[ "$st" = 0 ] || { cat "$f.got" >&2
		fail "'$(head -n 1 "$f")' exits $st"; }
	diff "$f.want" "$f.got" >&2 ||
		fail "'$(head -n 1 "$f")': the page (<) and the tools (>) differ"
done
# The C program fails as a C programmer's would when the file cannot be
# opened: status 1 and the error, not "0 bytes".
[ -x size ] || fail "the session built no ./size"
st=0
./size no-such-file >/dev/null 2>err.txt || st=$?
expect_eq "./size no-such-file: status" 1 $st
grep -q '^size: no-such-file: No such file or directory$' err.txt ||
	fail "./size no-such-file: expected the error, got '$(cat err.txt)'"
exit 0
