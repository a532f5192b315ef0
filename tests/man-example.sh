#!/bin/sh
# man-example.sh: the program in libsyslet(3) EXAMPLES builds against the library, copies a file, and fails (exit 1, a message) when open fails; async_head_init(3)'s Hello World builds with <syslet-compat.h> and says hello; sys_umem_add(3)'s atoms count down, their umem_add numbered by syslet_sysno(); syslet(5)'s local initialisers run at every pass; syslet(5)'s pollfd built in a word from a run-time descriptor polls it (poll([{fd=0, events=POLLIN}], 1, 5000) = 1) and copies what came.
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

# sys_umem_add(3): a chain of two atoms, a write and the umem_add() that
# counts it down, built by hand as a program that does not use sysletc
# builds it: the page says where an atom's number for umem_add comes from.
page=$top_srcdir/man/sys_umem_add.3
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$page" |
	sed -n '/^\.Bd -literal/,/^\.Ed/{/^\.Bd/d;/^\.Ed/q;p}' |
	sed 's/\\e/\\/g' >"$tmpdir/count.c"
grep -q 'int main' "$tmpdir/count.c" ||
	fail "no program in the EXAMPLES of sys_umem_add(3)"
grep -q 'syslet_sysno(SYSLET_CALL_UMEM_ADD)' "$tmpdir/count.c" ||
	fail "sys_umem_add(3)'s example does not number its atom with syslet_sysno()"
"$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -Wall -Werror \
	-I"$top_srcdir/src/include" -I"$top_builddir/src/include" \
	-o "$tmpdir/count" "$tmpdir/count.c" "$top_builddir/src/lib/libsyslet.la" \
	>"$tmpdir/cc.out" 2>&1 || { cat "$tmpdir/cc.out" >&2
		fail "sys_umem_add(3)'s example does not build"; }
for b in emul uring; do
	st=0
	SYSLET_BACKEND=$b "$tmpdir/count" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
	# uring where io_uring cannot be set up: the page's program says so.
	if [ "$b" = uring ] && [ "$st" = 1 ] &&
	   grep -q 'sys_async_register' "$tmpdir/err"; then
		continue
	fi
	expect_eq "sys_umem_add(3)'s example ($b): status" 0 "$st"
	expect_eq "sys_umem_add(3)'s example ($b): output" \
		"$(printf 'tick\ntick\ntick\ncount 0')" "$(cat "$tmpdir/out")"
done

# syslet(5), Variables: a local's initialiser after statements is an
# atom that runs where it stands, at every pass of a loop, and a test
# right after it is fused into it; a first constant one is no atom.
page=$top_srcdir/man/syslet.5
sed -n '/^\.Ss Variables/,/^\.Ss /p' "$page" |
	sed -n '/^syslet twice/,/^\.Ed/p' >"$tmpdir/body"
[ -s "$tmpdir/body" ] || fail "no syslet twice under Variables in syslet(5)"
{ echo 'buffer buf[64];'; sed '/^\.Ed/d' "$tmpdir/body"; } >"$tmpdir/twice.syslet"
printf 'hi\n' >"$tmpdir/hi"
$SYSLETC -S "$tmpdir/twice.syslet" >"$tmpdir/listing" 2>"$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "syslet(5)'s twice does not compile"; }
grep -q ' fd = open(path, O_RDONLY) *stop-on-negative ' "$tmpdir/listing" ||
	{ cat "$tmpdir/listing" >&2; fail "twice: the open is not one atom with its test"; }
grep -q '^ *[0-9]*  *left = ' "$tmpdir/listing" &&
	fail "twice: left's initial value became an atom"
st=0
$SYSLET_RUN "$tmpdir/twice.syslet" "$tmpdir/hi" >"$tmpdir/out" 2>"$tmpdir/err" || st=$?
expect_eq "syslet(5)'s twice: status" 0 "$st"
expect_eq "syslet(5)'s twice: output" "$(printf 'hi\nhi')" "$(cat "$tmpdir/out")"

# syslet(5), ELEMENTS: a struct pollfd whose descriptor is known at run
# time, built in a word (x86_64: the word is the whole record).
sed -n '/^\.Sh ELEMENTS/,/^\.Sh /p' "$page" |
	sed -n '/^word pfd\[1\];/,/^\.Ed/{/^\.Ed/d;p}' |
	sed 's/\\e/\\/g' >"$tmpdir/waitin.syslet"
[ -s "$tmpdir/waitin.syslet" ] ||
	fail "no pollfd built in a word under ELEMENTS in syslet(5)"
$SYSLETC --target=x86_64 -o "$tmpdir/waitin.slo" "$tmpdir/waitin.syslet" \
	2>"$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "syslet(5)'s waitin does not compile"; }
if [ "$(uname -m)" = x86_64 ]; then
	st=0
	echo hello | $SYSLET_RUN --trace "$tmpdir/waitin.slo" 0 \
		>"$tmpdir/out" 2>"$tmpdir/err" || st=$?
	expect_eq "syslet(5)'s waitin: status" 0 "$st"
	expect_eq "syslet(5)'s waitin: output" hello "$(cat "$tmpdir/out")"
	grep -qF 'poll([{fd=0, events=POLLIN}], 1, 5000) = 1 ([{fd=0, revents=POLLIN' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "syslet(5)'s waitin: the pollfd"; }
fi
exit 0
