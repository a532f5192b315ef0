#!/bin/sh
# man-example.sh: the program in libsyslet(3) EXAMPLES builds against the library, copies a file, and fails (exit 1, a message) when open fails; async_head_init(3)'s Hello World builds with <syslet-compat.h> and says hello.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
page=$top_srcdir/man/libsyslet.3
# The first literal display after .Sh EXAMPLES, with roff's \e as \.
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" |
	sed -n '/^\.Bd -literal/,/^\.Ed/{/^\.Bd/d;/^\.Ed/q;p}' |
	sed 's/\\e/\\/g' >"$tmpdir/ex.c"
grep -q 'int main' "$tmpdir/ex.c" || fail "no program in the EXAMPLES of libsyslet(3)"
"$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -Wall -Werror \
	-I"$top_srcdir/src/include" -I"$top_builddir/src/include" \
	-o "$tmpdir/ex" "$tmpdir/ex.c" "$top_builddir/src/lib/libsyslet.la" \
	>"$tmpdir/cc.out" 2>&1 || { cat "$tmpdir/cc.out" >&2; fail "the example does not build"; }
st=0
"$tmpdir/ex" "$page" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
expect_eq "exit status copying a file" 0 "$st"
cmp -s "$page" "$tmpdir/out" || fail "the example's copy differs from the file"
st=0
"$tmpdir/ex" "$tmpdir/missing" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
expect_eq "exit status when open fails" 1 "$st"
grep -q 'No such file or directory' "$tmpdir/err" ||
	fail "no message when open fails: $(cat "$tmpdir/err")"
[ -s "$tmpdir/out" ] && fail "output when open fails"

# async_head_init(3): the first program of its EXAMPLES.
page=$top_srcdir/man/async_head_init.3
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" |
	sed -n '/^\.Bd -literal/,/^\.Ed/{/^\.Bd/d;/^\.Ed/q;p}' |
	sed 's/\\e/\\/g' >"$tmpdir/hello.c"
grep -q 'int main' "$tmpdir/hello.c" ||
	fail "no program in the EXAMPLES of async_head_init(3)"
"$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -Wall -Werror \
	-I"$top_srcdir/src/include" -I"$top_builddir/src/include" \
	-o "$tmpdir/hello" "$tmpdir/hello.c" "$top_builddir/src/lib/libsyslet.la" \
	>"$tmpdir/cc.out" 2>&1 || { cat "$tmpdir/cc.out" >&2
		fail "async_head_init(3)'s example does not build"; }
st=0
"$tmpdir/hello" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
expect_eq "async_head_init(3)'s example: status" 0 "$st"
expect_eq "async_head_init(3)'s example: output" "Hello Syslet World!" \
	"$(cat "$tmpdir/out")"
exit 0
