#!/bin/sh
# same-file.sh: sysletc never writes an output over its input, nor its image and header into one file; it refuses as gcc does ("input file is the same as output file").
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
src=$top_srcdir/examples/hello.syslet
status() { "$@" >out.txt 2>err.txt; echo $?; }
# kept FILE WHAT: FILE still holds the source.
kept() { cmp -s "$src" "$1" || fail "$2: $1 was overwritten: $(head -c 60 "$1")"; }

cp "$src" h.syslet
expect_eq "-o the input" 1 "$(status $SYSLETC -o h.syslet h.syslet)"
grep -q "^sysletc: input file 'h.syslet' is the same as output file$" err.txt ||
	fail "-o the input: $(cat err.txt)"
kept h.syslet "-o the input"
expect_eq "-H the input" 1 "$(status $SYSLETC -H h.syslet -o h.slo h.syslet)"
kept h.syslet "-H the input"
ln -s h.syslet link.syslet
expect_eq "-o a symlink to the input" 1 "$(status $SYSLETC -o link.syslet h.syslet)"
kept h.syslet "-o a symlink to the input"
[ -h link.syslet ] || fail "the symlink was replaced"
expect_eq "the input through a symlink, -o it" 1 \
	"$(status $SYSLETC -o h.syslet link.syslet)"
kept h.syslet "the input through a symlink"
ln h.syslet hard.syslet
expect_eq "-o a hard link of the input" 1 "$(status $SYSLETC -o hard.syslet h.syslet)"
kept hard.syslet "-o a hard link of the input"
expect_eq "-o the input as /dev/stdin" 1 \
	"$(status $SYSLETC -o h.syslet /dev/stdin <h.syslet)"
kept h.syslet "-o the input as /dev/stdin"
expect_eq "-S -o the input" 1 "$(status $SYSLETC -S -o h.syslet h.syslet)"
kept h.syslet "-S -o the input"
[ ! -s out.txt ] || fail "-S -o the input printed a listing"

# -o and -H: one file cannot hold both.
expect_eq "-o and -H the same new file" 2 "$(status $SYSLETC -o both -H both h.syslet)"
grep -q "^sysletc: -o and -H name the same file 'both'$" err.txt ||
	fail "-o and -H: $(cat err.txt)"
[ ! -e both ] || fail "-o and -H the same file: it was written"
$SYSLETC -o h.slo h.syslet || fail "compile"
cp h.slo ref.slo
expect_eq "-o and -H the same existing file" 2 \
	"$(status $SYSLETC -o h.slo -H ./h.slo h.syslet)"
cmp -s h.slo ref.slo || fail "-o and -H the same existing file: changed"

# -d: the header never replaces the image it is read from.
expect_eq "-d IMAGE -H IMAGE" 1 "$(status $SYSLETC -d h.slo -H h.slo)"
grep -q "^sysletc: input file 'h.slo' is the same as output file$" err.txt ||
	fail "-d -H the image: $(cat err.txt)"
cmp -s h.slo ref.slo || fail "-d -H the image: the image was replaced"

# What stays allowed: devices, both at once, and a copy of the input.
expect_eq "-o and -H /dev/null" 0 "$(status $SYSLETC -o /dev/null -H /dev/null h.syslet)"
cp h.syslet copy.syslet
expect_eq "-o a copy of the input" 0 "$(status $SYSLETC -o copy.syslet h.syslet)"
$SYSLETC -d copy.syslet >/dev/null || fail "the copy does not hold the image"
expect_eq "stdin with -o" 0 "$(status $SYSLETC -o new.slo - <h.syslet)"
exit 0
