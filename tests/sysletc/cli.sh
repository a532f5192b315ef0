#!/bin/sh
# cli.sh: sysletc's options, exit statuses (0, 1 errors, 2 usage), default output names, and that no partial output is ever left.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
ex=$top_srcdir/examples
status() { "$@" >out.txt 2>err.txt; echo $?; }

expect_eq "--help" 0 "$(status $SYSLETC --help)"
grep -q -- '--target' out.txt || fail "--help does not list --target"
# The warnings on by default, as the page's -W list marks them ("on by
# default:"), are those --help names so.
page_on=$(sed -n '/^\.It Cm /{s/^\.It Cm //;h;};/^on by default/{x;p;}' \
	"$top_srcdir/man/sysletc.1" | sort | tr '\n' ' ')
help_on=$(tr '\n' ' ' <out.txt | tr -s ' ' |
	sed -n 's/.*(\([a-z, -]*\) on by default).*/\1/p' |
	sed 's/ and /,/g; s/,/ /g' | tr -s ' ' '\n' | sed '/^$/d' | sort |
	tr '\n' ' ')
[ -n "$page_on" ] || fail "no warning on by default in sysletc(1)"
expect_eq "--help's warnings on by default" "$page_on" "$help_on"
expect_eq "-h" 0 "$(status $SYSLETC -h)"
expect_eq "--version" 0 "$(status $SYSLETC --version)"
grep -q '^sysletc (syslet) [0-9]' out.txt || fail "--version: $(cat out.txt)"
expect_eq "no input" 2 "$(status $SYSLETC)"
expect_eq "unknown option" 2 "$(status $SYSLETC --frobnicate x.syslet)"
grep -qx "sysletc: unrecognized option '--frobnicate'" err.txt || fail "unknown option message: $(cat err.txt)"
# getopt's words, as syslet-run (and every GNU tool) says them.
for args in '--frobnicate' '-x' '--help=3' '--version=1'; do
	$SYSLETC $args x.syslet 2>&1 | head -1 | sed 's/^sysletc: //' >c.txt
	$SYSLET_RUN $args x.slo 2>&1 | head -1 | sed 's/^syslet-run: //' >r.txt
	cmp -s c.txt r.txt || fail "sysletc $args: '$(cat c.txt)', syslet-run: '$(cat r.txt)'"
done
expect_eq "-o at the end" 2 "$(status $SYSLETC "$ex/cat.syslet" -o)"
grep -qx "sysletc: option requires an argument -- 'o'" err.txt || fail "-o at the end: $(cat err.txt)"
expect_eq "--output at the end" 2 "$(status $SYSLETC "$ex/cat.syslet" --output)"
grep -qx "sysletc: option '--output' requires an argument" err.txt || fail "--output at the end: $(cat err.txt)"
# An unknown letter inside a cluster is named, not the word before it
# (the program's own path, -o's value, another option).
for pre in "" "-o x.slo" "-S" "--target=x86_64"; do
	expect_eq "unknown letter after '$pre'" 2 "$(status $SYSLETC $pre -xyz "$ex/cat.syslet")"
	grep -qx "sysletc: invalid option -- 'x'" err.txt ||
		fail "unknown letter after '$pre': $(cat err.txt)"
done
expect_eq "--dot=3" 2 "$(status $SYSLETC --dot=3 "$ex/cat.syslet")"
grep -qx "sysletc: option '--dot' doesn't allow an argument" err.txt || fail "--dot=3: $(cat err.txt)"
expect_eq "bad target" 2 "$(status $SYSLETC --target=arm "$ex/cat.syslet")"
# A value that is none is answered with the values there are, worded as
# syslet-run words its own ('unknown syslet backend 'x' (expected auto,
# kernel, uring or emul)'): "(expected ...)", the warnings too.
grep -qx "sysletc: unknown target 'arm' (expected i386, i386-2007 or x86_64)" \
	err.txt || fail "bad target message: $(cat err.txt)"
expect_eq "bad warning" 2 "$(status $SYSLETC -Wbogus "$ex/cat.syslet")"
grep -qx "sysletc: unknown warning '-Wbogus' (expected unused, unreachable, call-output, call-input, sizeof-str, all or error, each also as no-NAME)" \
	err.txt || fail "bad warning message: $(cat err.txt)"
expect_eq "missing -o argument" 2 "$(status $SYSLETC "$ex/cat.syslet" -o)"
expect_eq "two inputs" 2 "$(status $SYSLETC "$ex/cat.syslet" "$ex/hello.syslet")"
# -o names the image, never the listing or the graph: 'sysletc --dot -o
# g.dot', as 'gcc -S -o f.s' is typed, is refused rather than an ELF file
# named g.dot.
expect_eq "--dot -o g.dot" 2 "$(status $SYSLETC --dot -o g.dot "$ex/cat.syslet")"
grep -qx "sysletc: -o 'g.dot' names the image's file; --dot prints the graph on the standard output (sysletc --dot '$ex/cat.syslet' > 'g.dot')" err.txt ||
	fail "--dot -o g.dot: $(cat err.txt)"
expect_eq "-S -o l.s" 2 "$(status $SYSLETC -S -o l.s "$ex/cat.syslet")"
grep -q "^sysletc: -o 'l.s' names the image's file; -S prints the listing" err.txt ||
	fail "-S -o l.s: $(cat err.txt)"
[ ! -e g.dot ] && [ ! -e l.s ] && [ ! -e cat.slo ] || fail "a refused -o wrote a file"
expect_eq "-S -o l.slo" 0 "$(status $SYSLETC -S -o l.slo "$ex/cat.syslet")"
# The output named without -o, as a newcomer does: the message says how to
# name it, and nothing is written there.
expect_eq "output without -o" 2 "$(status $SYSLETC "$ex/cat.syslet" mine.slo)"
grep -qx "sysletc: one input file at a time ('mine.slo' is extra; to write the image there: -o 'mine.slo')" err.txt ||
	fail "output without -o: $(cat err.txt)"
[ ! -e mine.slo ] && [ ! -e cat.slo ] || fail "output without -o wrote an image"
expect_eq "output with -o" 2 "$(status $SYSLETC -o a.slo "$ex/cat.syslet" mine.slo)"
grep -qx "sysletc: one input file at a time ('mine.slo' is extra)" err.txt ||
	fail "extra input with -o: $(cat err.txt)"
# A second image to list is refused as a second file is, not dropped:
# '-d a.slo -d b.slo' listed b.slo alone, status 0.
$SYSLETC -o a.slo "$ex/cat.syslet" && $SYSLETC -o b.slo "$ex/hello.syslet" ||
	fail "compile the two images"
expect_eq "-d twice" 2 "$(status $SYSLETC -d a.slo -d b.slo)"
grep -qx "sysletc: -d reads one image at a time ('b.slo' is extra)" err.txt ||
	fail "-d twice: $(cat err.txt)"
[ -s out.txt ] && fail "-d twice: a listing was printed"
expect_eq "-d twice, one image" 0 "$(status $SYSLETC -d a.slo --disassemble=a.slo)"
expect_eq "-S with --dot" 2 "$(status $SYSLETC -S --dot "$ex/cat.syslet")"
# --dump=ir prints the front end's IR, as the front end's goldens see it.
expect_eq "--dump=ir" 0 "$(status $SYSLETC --dump=ir "$ex/cat.syslet")"
"$top_builddir/tests/compiler/front-dump" --ir "$ex/cat.syslet" >want.txt ||
	fail "front-dump --ir failed"
cmp -s out.txt want.txt || fail "--dump=ir differs from the front end's IR"
[ ! -e cat.slo ] || fail "--dump=ir wrote an image"
expect_eq "--dump=layout" 0 "$(status $SYSLETC --dump=layout "$ex/cat.syslet")"
grep -q '^entry cat a0$' out.txt || fail "--dump=layout: $(cat out.txt)"
expect_eq "--dump=bogus" 2 "$(status $SYSLETC --dump=bogus "$ex/cat.syslet")"
grep -qx "sysletc: unknown stage '--dump=bogus' (expected ir or layout)" \
	err.txt || fail "--dump=bogus message: $(cat err.txt)"
expect_eq "--dump with -S" 2 "$(status $SYSLETC --dump=ir -S "$ex/cat.syslet")"
printf 'syslet s() { opne(); }\n' >bad.syslet
expect_eq "--dump=ir of a bad program" 1 "$(status $SYSLETC --dump=ir bad.syslet)"
[ ! -s out.txt ] || fail "--dump=ir printed IR of a bad program"
expect_eq "missing file" 1 "$(status $SYSLETC nonexistent.syslet)"
grep -q 'nonexistent.syslet: No such file' err.txt || fail "missing file message"
# sysletc(1), -o: a name without .syslet gets .slo added.
printf 'syslet s() { getpid(); }\n' >prog.txt
expect_eq "prog.txt" 0 "$(status $SYSLETC prog.txt)"
[ -f prog.txt.slo ] || fail "prog.txt did not give prog.txt.slo"
# sysletc(1), EXIT STATUS: an output that cannot be written is 1 too.
expect_eq "unwritable output" 1 "$(status $SYSLETC -o nodir/x.slo "$ex/cat.syslet")"
grep -q '^sysletc: nodir/x.slo: No such file or directory$' err.txt ||
	fail "unwritable output message: $(cat err.txt)"
mkdir adir
expect_eq "a directory" 1 "$(status $SYSLETC adir)"
grep -q '^sysletc: adir: Is a directory$' err.txt || fail "directory message: $(cat err.txt)"
expect_eq "-d a directory" 1 "$(status $SYSLETC -d adir)"
grep -q '^sysletc: adir: Is a directory$' err.txt || fail "-d directory message: $(cat err.txt)"
# One byte over the bounds (sparse files: nothing is written or read).
truncate -s $((64 * 1024 * 1024 + 1)) big.syslet || exit 99
expect_eq "a source over 64 MiB" 1 "$(status $SYSLETC big.syslet)"
grep -q '^sysletc: big.syslet: larger than the limit of 64 MiB$' err.txt ||
	fail "large source message: $(cat err.txt)"
truncate -s $((1024 * 1024 * 1024 + 1)) big.slo || exit 99
expect_eq "an image over 1 GiB" 1 "$(status $SYSLETC -d big.slo)"
grep -q '^sysletc: big.slo: larger than the limit of 1 GiB$' err.txt ||
	fail "large image message: $(cat err.txt)"
rm -f big.syslet big.slo
# Devices are refused before a byte is read; a stream is refused at its
# first bytes that cannot be a source (a NUL byte) or an image.
expect_eq "/dev/zero as source" 1 "$(status $SYSLETC /dev/zero)"
grep -q '^sysletc: /dev/zero: not a regular file or a pipe (a character device)$' err.txt ||
	fail "/dev/zero message: $(cat err.txt)"
expect_eq "-d /dev/zero" 1 "$(status $SYSLETC -d /dev/zero)"
grep -q '^sysletc: /dev/zero: not a regular file or a pipe (a character device)$' err.txt ||
	fail "-d /dev/zero message: $(cat err.txt)"
expect_eq "zeros on stdin" 1 "$(head -c 8000000 /dev/zero | status $SYSLETC -)"
grep -q '^sysletc: <stdin>: a NUL byte at line 1, column 1: binary data, not text$' err.txt ||
	fail "zeros on stdin: $(cat err.txt)"
expect_eq "-d zeros on stdin" 1 "$(head -c 8000000 /dev/zero | status $SYSLETC -d -)"
grep -q '^sysletc: <stdin>: not an ELF file$' err.txt || fail "-d zeros: $(cat err.txt)"
# The format's limits (slo-format.h) hold for the whole image.
printf 'buffer a[40 << 20];\nbuffer b[40 << 20];\nsyslet main() { read(0, a, 1); read(0, b, 1); }\n' >bss.syslet
expect_eq "buffers over 64 MiB together" 1 "$(status $SYSLETC -o bss.slo bss.syslet)"
grep -q "^bss.syslet:2:8: error: this buffer brings the image's buffers to 83886080 bytes, more than the 64 MiB it may hold$" err.txt ||
	fail "buffers over 64 MiB: $(cat err.txt)"

# Default output: the input's base name with .slo, in the current directory.
expect_eq "compile" 0 "$(status $SYSLETC "$ex/cat.syslet")"
[ -s cat.slo ] || fail "cat.slo not written"
[ ! -s out.txt ] && [ ! -s err.txt ] || fail "a clean compile printed something"
$SYSLETC -d cat.slo >/dev/null || fail "-d cat.slo"
cp "$ex/hello.syslet" noext
expect_eq "no .syslet suffix" 0 "$(status $SYSLETC noext)"
[ -s noext.slo ] || fail "noext.slo not written"
expect_eq "stdin" 0 "$(status $SYSLETC - <"$ex/hello.syslet")"
[ -s a.slo ] || fail "a.slo not written for stdin"
expect_eq "--output= into a missing directory" 1 \
	"$(status $SYSLETC --output=nodir/x.slo "$ex/cat.syslet")"
mkdir out
expect_eq "-o" 0 "$(status $SYSLETC -o out/x.slo --target=i386 "$ex/cat.syslet")"
$SYSLETC -d out/x.slo | head -n 1 | grep -q 'profile i386,' || fail "--target=i386 not used"
expect_eq "-o -" 0 "$(status $SYSLETC -o - "$ex/cat.syslet")"
cmp -s out.txt cat.slo || fail "-o - does not write the image to stdout"

# -S and --dot print instead of writing, unless -o asks for the image too.
rm -f cat.slo
expect_eq "-S" 0 "$(status $SYSLETC -S "$ex/cat.syslet")"
[ ! -e cat.slo ] || fail "-S wrote an image"
grep -q 'read(fd, buf, 4096)' out.txt || fail "-S listing: $(cat out.txt)"
expect_eq "-S -o" 0 "$(status $SYSLETC -S -o both.slo "$ex/cat.syslet")"
[ -s both.slo ] || fail "-S -o did not write the image"
expect_eq "-S -o -" 2 "$(status $SYSLETC -S -o - "$ex/cat.syslet")"
grep -q "name a file" err.txt || fail "-S -o - message: $(cat err.txt)"
[ ! -s out.txt ] || fail "-S -o - printed something"
expect_eq "--dot -o -" 2 "$(status $SYSLETC --dot -o - "$ex/cat.syslet")"
expect_eq "--dot" 0 "$(status $SYSLETC --dot "$ex/cat.syslet")"
head -n 1 out.txt | grep -q '^digraph' || fail "--dot output"
expect_eq "-d --dot" 0 "$(status $SYSLETC -d both.slo --dot)"
head -n 1 out.txt | grep -q '^digraph' || fail "-d --dot output"
expect_eq "-H" 0 "$(status $SYSLETC -H cat.h -o cat.slo "$ex/cat.syslet")"
grep -q '^#ifndef CAT_H$' cat.h || fail "-H guard"
grep -q '__asm__("cat_cat.fd")' cat.h || fail "-H does not declare cat_cat.fd"
expect_eq "-d -H" 0 "$(status $SYSLETC -d cat.slo --header=out/cat.h)"
cmp -s cat.h out/cat.h || fail "-H of the source and -d -H of its image differ"
[ ! -s out.txt ] || fail "-d -H also printed the listing"
printf 'syslet one() { getpid(); }\n' >one.syslet
expect_eq "-H of a one-atom syslet" 0 "$(status $SYSLETC -H one.h -o one.slo one.syslet)"
grep -q '^/\* syslet one: 1 atom \*/$' one.h || fail "-H: $(grep 'syslet one' one.h)"
grep -q ': [0-9]* atoms \*/$' cat.h || fail "-H: no plural for several atoms"
$SYSLETC -d cat.slo >listing.txt || fail "-d cat.slo"
expect_eq "-d -" 0 "$(status $SYSLETC -d - <cat.slo)"
cmp -s out.txt listing.txt || fail "-d - differs from -d FILE"
expect_eq "-d with -o" 2 "$(status $SYSLETC -d cat.slo -o x.slo)"
expect_eq "-d with --prefix" 2 "$(status $SYSLETC -d cat.slo --prefix=x)"
grep -q 'takes the prefix the image records' err.txt || fail "-d --prefix message: $(cat err.txt)"
expect_eq "-d not an image" 1 "$(status $SYSLETC -d "$ex/cat.syslet")"
# A source given to -d: what to type instead, as for an image compiled.
grep -q "^sysletc: $ex/cat.syslet: this is a syslet source, not an image (to list a source: sysletc -S $ex/cat.syslet)\$" err.txt ||
	fail "-d of a source: $(cat err.txt)"

# The symbol prefix: --prefix, else the output's name up to its first
# dot made an identifier (the input's for -o - and -S), "a" for stdin.
prefix_of() { sed -n 's/^#define [A-Z0-9_]*_H_PREFIX "\(.*\)"$/\1/p' "$1"; }
expect_eq "--prefix" 0 "$(status $SYSLETC --prefix=app -H p.h -o p.slo "$ex/cat.syslet")"
expect_eq "--prefix in the header" app "$(prefix_of p.h)"
grep -q '^extern struct syslet_uatom app_cat\[5\] __asm__("app_cat");$' p.h ||
	fail "--prefix=app: entry not declared as app_cat: $(cat p.h)"
grep -q '^extern unsigned char app_buf\[4096\] __asm__("app_buf");$' p.h ||
	fail "--prefix=app: buffer not declared as app_buf"
expect_eq "-o out/my-cat.v2.slo" 0 "$(status $SYSLETC -H p.h -o out/my-cat.v2.slo "$ex/cat.syslet")"
expect_eq "prefix of my-cat.v2.slo" my_cat "$(prefix_of p.h)"
expect_eq "-o 2cat.slo" 0 "$(status $SYSLETC -H p.h -o 2cat.slo "$ex/cat.syslet")"
expect_eq "prefix of 2cat.slo" _2cat "$(prefix_of p.h)"
expect_eq "-o - -H" 0 "$(status $SYSLETC -H p.h -o - "$ex/cat.syslet")"
expect_eq "prefix of -o -" cat "$(prefix_of p.h)"
expect_eq "-S -H" 0 "$(status $SYSLETC -S -H p.h "$ex/cat.syslet")"
expect_eq "prefix of -S" cat "$(prefix_of p.h)"
expect_eq "stdin -H" 0 "$(status $SYSLETC -H p.h - <"$ex/cat.syslet")"
expect_eq "prefix of stdin" a "$(prefix_of p.h)"
expect_eq "--prefix=" 0 "$(status $SYSLETC --prefix= -H p.h -o p.slo "$ex/cat.syslet")"
expect_eq "no prefix" "" "$(prefix_of p.h)"
grep -q '^extern struct syslet_uatom cat\[5\] __asm__("cat");$' p.h ||
	fail "--prefix=: entry not declared as cat"
long=$(printf '%065d' 0 | tr 0 x)
for bad in 9x a-b 'a b' "$long" 'caf\303\251'; do
	bad=$(printf "$bad")
	rm -f p.slo
	expect_eq "--prefix='$bad'" 2 "$(status $SYSLETC --prefix="$bad" -o p.slo "$ex/cat.syslet")"
	grep -q "not a C identifier of at most 64 characters" err.txt ||
		fail "--prefix='$bad' message: $(cat err.txt)"
	[ ! -e p.slo ] || fail "--prefix='$bad' wrote an image"
done
expect_eq "--prefix of 64 characters" 0 \
	"$(status $SYSLETC --prefix="${long%x}" -o p.slo "$ex/cat.syslet")"
$SYSLET_RUN p.slo "$ex/hello.syslet" >/dev/null || fail "a 64-character prefix does not run"

# Errors: every one reported, exit 1, and an old output is left alone.
cat >bad.syslet <<'EOS'
syslet main() {
	frobnicate(1);
	x = 1;
	fork();
}
EOS
echo old >bad.slo
expect_eq "errors" 1 "$(status $SYSLETC bad.syslet)"
[ "$(grep -c ': error: ' err.txt)" -ge 3 ] || fail "not every error reported: $(cat err.txt)"
grep -q '^bad.syslet:2:2: error: ' err.txt || fail "file:line:col format: $(cat err.txt)"
expect_eq "old output kept" old "$(cat bad.slo)"
ls bad.slo.* >/dev/null 2>&1 && fail "a temporary file was left behind"
printf 'syslet main() {\n\tvar unused;\n\tgetpid();\n}\n' >warn.syslet
expect_eq "warning only" 0 "$(status $SYSLETC -Wall warn.syslet)"
grep -q 'warning' err.txt || fail "-Wall gives no warning: $(cat err.txt)"
rm -f warn.slo
expect_eq "-Werror" 1 "$(status $SYSLETC -Wall -Werror warn.syslet)"
[ ! -e warn.slo ] || fail "-Werror still wrote an image"
expect_eq "-Wno-unused" 0 "$(status $SYSLETC -Wall -Wno-unused -Werror warn.syslet)"

expect_eq "an image given as source" 1 "$(status $SYSLETC -o junk.slo cat.slo)"
grep -q 'ELF file, not a syslet source' err.txt || fail "image as source: $(cat err.txt)"
# From the standard input, the hint names '-', which -d reads, not the
# '<stdin>' messages call it.
expect_eq "an image given as source on stdin" 1 "$(status sh -c '"$1" -o junk.slo - <cat.slo' sh "$SYSLETC")"
grep -qx "sysletc: <stdin>: this is an ELF file, not a syslet source (to list an image: sysletc -d -)" err.txt ||
	fail "image as source on stdin: $(cat err.txt)"
# The hint keeps what was asked: --dot and -H of an image take -d too.
expect_eq "--dot of an image" 1 "$(status $SYSLETC --dot cat.slo)"
grep -qx "sysletc: cat.slo: this is an ELF file, not a syslet source (to draw an image's graph: sysletc --dot -d cat.slo)" err.txt ||
	fail "--dot of an image: $(cat err.txt)"
expect_eq "-H of an image" 1 "$(status $SYSLETC -H c.h cat.slo)"
grep -qx "sysletc: cat.slo: this is an ELF file, not a syslet source (to write an image's header: sysletc -H c.h -d cat.slo)" err.txt ||
	fail "-H of an image: $(cat err.txt)"
[ ! -e c.h ] || fail "-H of an image wrote c.h"
expect_eq "-H of a syslet named main" 0 "$(status $SYSLETC -H hello.h -o hello.slo "$ex/hello.syslet")"
[ ! -s err.txt ] || fail "main warned about with a prefix: $(cat err.txt)"
grep -q '^extern struct syslet_uatom hello_main\[' hello.h || fail "-H did not declare hello_main"
expect_eq "-H of main without a prefix" 0 \
	"$(status $SYSLETC --prefix= -H hello.h -o hello.slo "$ex/hello.syslet")"
if $SYSLETC -d hello.slo | grep -q '^syslet main('; then
	grep -q "defines the symbol 'main'" err.txt || fail "no warning about main"
	grep -q 'main: C name taken; entry not declared' hello.h || fail "-H declared main"
fi
# C keywords and clashes are left out, so the header always compiles.
cat >clash.syslet <<'EOS'
var long;
syslet f() {
	var nr_atoms;
	long++;
	nr_atoms++;
}
EOS
expect_eq "-H with clashing names" 0 "$(status $SYSLETC --prefix= -H clash.h -o clash.slo clash.syslet)"
grep -q 'long: C name taken' clash.h || fail "keyword declared: $(cat clash.h)"
grep -q 'f.nr_atoms: C name taken' clash.h || fail "clash declared: $(cat clash.h)"
printf '#include "clash.h"\nint main(void) { return f__nr_atoms != 2; }\n' >clash.c
$CC -std=gnu11 -Wall -Werror -I"$top_srcdir/src/include" -o clash clash.c clash.slo ||
	fail "the header of clash.syslet does not compile"
./clash || fail "clash: wrong atom count"

# Any bytes at all: an error, never a crash.
for f in /bin/sh cat.slo /dev/null; do
	rc=$(status $SYSLETC -o junk.slo "$f")
	[ "$rc" -le 1 ] || fail "sysletc on $f exited $rc"
done
head -c 3000 /dev/urandom >random.syslet
rc=$(status $SYSLETC -o junk.slo random.syslet)
[ "$rc" -le 1 ] || fail "sysletc on random bytes exited $rc"

# --help and --version to a full device: an error, as coreutils says it.
if [ -w /dev/full ]; then
	for opt in --help --version; do
		expect_eq "$opt >/dev/full" 1 "$(status sh -c "$SYSLETC $opt >/dev/full")"
		grep -q '^sysletc: standard output: No space left on device$' err.txt ||
			fail "$opt >/dev/full: $(cat err.txt)"
	done
fi
exit 0
