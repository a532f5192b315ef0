#!/bin/sh
# man-link.sh: sysletc(1)'s EXAMPLES program, which links cat.slo with its -H header, builds as printed, copies a file, and fails as cat(1) does (exit 1, a message naming the file and the error) when the file cannot be opened or read.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
page=$top_srcdir/man/sysletc.1
cd "$tmpdir" || exit 99

# The display that holds the C program, roff's \e as \.
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" |
	awk '/^\.Bd -literal/ { inb = 1; buf = ""; next }
		/^\.Ed/ { if (buf ~ /int main/) { printf "%s", buf; exit }
			inb = 0; next }
		inb { buf = buf $0 "\n" }' |
	sed 's/\\e/\\/g' >main.c
grep -q 'cat_cat__path' main.c || fail "no C program in EXAMPLES of $page"
cp "$top_srcdir/examples/cat.syslet" cat.syslet
$SYSLETC -H cat.h -o cat.slo cat.syslet || fail "sysletc -H cat.h"
"$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -Wall -Werror \
	-I"$top_srcdir/src/include" -I"$top_builddir/src/include" \
	-o mycat main.c cat.slo "$top_builddir/src/lib/libsyslet.la" ||
	fail "the program of $page does not build"

printf 'hello, linked image\n' >in.txt
./mycat in.txt >out.txt 2>err.txt || { cat err.txt >&2; fail "mycat in.txt failed"; }
cmp -s in.txt out.txt || fail "mycat in.txt: the output differs"
for f in "$tmpdir/no-such-file:No such file or directory" \
	"$tmpdir:Is a directory"; do
	st=0
	./mycat "${f%%:*}" >out.txt 2>err.txt || st=$?
	expect_eq "mycat ${f%%:*}: status" 1 $st
	grep -q "${f%%:*}: ${f#*:}" err.txt ||
		fail "mycat ${f%%:*}: no message '${f#*:}', got '$(cat err.txt)'"
done
exit 0
