#!/bin/sh
# stdfds.sh: sysletc started with standard input, output or error closed puts nothing of its own into the files it opens: it did not reopen them, so with 2>&- the image's temporary file became descriptor 2 and -H's warning about 'main' went into it (through a FIFO, the image arrived behind the warning's 147 bytes); with >&- a listing failed only by luck of the order of writes.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
printf 'syslet main() { getpid(); }\n' >m.syslet
$SYSLETC --prefix= -o want.slo m.syslet 2>/dev/null || fail "sysletc could not compile m.syslet"
# The image through a FIFO, standard error closed.
mkfifo fifo || skip "no mkfifo here"
cat fifo >got.slo &
reader=$!
st=0
$SYSLETC --prefix= -o fifo -H m.h m.syslet 2>&- || st=$?
wait $reader
expect_eq "2>&-, -o FIFO: status" 0 "$st"
expect_eq "2>&-, -o FIFO: the first bytes" "$(head -c 4 want.slo | od -An -c)" \
	"$(head -c 4 got.slo | od -An -c)"
cmp -s want.slo got.slo || fail "2>&-, -o FIFO: the image differs from one written with standard error open ($(wc -c <got.slo) bytes, $(wc -c <want.slo) expected)"
# The same into a file, standard error closed: nothing of the warning.
$SYSLETC --prefix= -o file.slo -H m.h m.syslet 2>&- || fail "2>&-: sysletc failed"
cmp -s want.slo file.slo || fail "2>&-: the image differs"
grep -q warning m.h && fail "2>&-: the warning went into the header"
# Standard output closed: the listing fails with a message, the image
# is not the listing's place.
st=0
$SYSLETC -S -o s.slo m.syslet >&- 2>err.txt || st=$?
expect_eq ">&-, -S -o: status" 1 "$st"
expect_eq ">&-, -S -o: the message" "sysletc: standard output: Bad file descriptor" "$(cat err.txt)"
grep -q profile s.slo && fail ">&-: the listing went into the image"
# Standard input closed: '-' is no source, and nothing else is read as one.
st=0
$SYSLETC -o in.slo - <&- 2>err.txt || st=$?
expect_eq "<&-, -: status" 1 "$st"
expect_eq "<&-, -: the message" "sysletc: <stdin>: Bad file descriptor (the standard input is closed)" "$(cat err.txt)"
st=0
$SYSLETC -d - <&- >out.txt 2>err.txt || st=$?
expect_eq "<&-, -d -: status" 1 "$st"
expect_eq "<&-, -d -: the message" "sysletc: <stdin>: Bad file descriptor (the standard input is closed)" "$(cat err.txt)"
[ -e in.slo ] && fail "<&-: sysletc wrote an image from a closed standard input"
exit 0
