#!/bin/sh
# atom-flood.sh: a source of 10 million statements (60 MB, under the 64 MiB a source may have) is refused as soon as the parser has seen more statements that make atoms than an image may hold (1048576), in little memory, by sysletc and by syslet-run's in-memory compile: it took ~1 KB a statement to parse and lower them all and only then say 'the program needs 10000000 atoms' (~10 GB; under ulimit -v 1 GB, 'out of memory' at the millionth statement).  So are 3 million variables (each takes a cell, and an image holds 1048576), where 530 bytes each were spent first.  So are 1.2 million data objects (4.4 million in a 62 MB source took 3.25 GB and 25.6 s only to be refused for the image's 4194304 symbols; the parser now stops past 1048576 objects).  So are 1.2 million empty syslets (each ends in a stop atom: 1.5 million took 1.9 GB and 11.7 s before 'the program needs 1500000 atoms'), and parameters past 1048576 cells (100,000 syslets of 16: 805 MB before 'needs ... cells').
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
lim=1000000
printf 'syslet main() { var x; x++; }\n' >small.syslet
(ulimit -v $lim && $SYSLETC -o small.slo small.syslet) 2>err.txt ||
	skip "sysletc does not compile under ulimit -v $lim (a sanitizer build?): $(head -n 2 err.txt)"
{
	echo 'syslet main() {'
	echo '	var x;'
	yes '	x++;' | head -n 10000000
	echo '}'
} >flood.syslet
want='flood.syslet:1048579:2: error: more than 1048576 statements that call the kernel or assign a variable: an image holds at most 1048576 atoms'
st=0
(ulimit -v $lim && $SYSLETC -o flood.slo flood.syslet) >out.txt 2>err.txt || st=$?
expect_eq "sysletc: status" 1 "$st"
expect_eq "sysletc: the message" "$want" "$(head -n 1 err.txt)"
[ -e flood.slo ] && fail "sysletc wrote an image"
st=0
(ulimit -v $lim && $SYSLET_RUN flood.syslet) >out.txt 2>err.txt || st=$?
expect_eq "syslet-run: status" 2 "$st"
expect_eq "syslet-run: the message" "$want" "$(head -n 1 err.txt)"
awk 'BEGIN { printf "var "; for (i = 0; i < 3000000; i++) printf "v%d, ", i;
	print "w;"; print "syslet main() { getpid(); }" }' >vars.syslet
want='error: more than 1048576 variables: an image holds at most 1048576 cells'
st=0
(ulimit -v $lim && $SYSLETC -Wno-unused -o vars.slo vars.syslet) >out.txt 2>err.txt || st=$?
expect_eq "sysletc, variables: status" 1 "$st"
expect_eq "sysletc, variables: the message" "vars.syslet:1:9374655: $want" \
	"$(head -n 1 err.txt)"
awk 'BEGIN { for (i = 0; i < 1200000; i++) printf "data d%d = \"\";\n", i;
	print "syslet main() { getpid(); }" }' >objs.syslet
want='objs.syslet:1048577:1: error: more than 1048576 buffers and data objects: an image holds at most 1048576'
st=0
(ulimit -v $lim && $SYSLETC -o objs.slo objs.syslet) >out.txt 2>err.txt || st=$?
expect_eq "sysletc, data objects: status" 1 "$st"
expect_eq "sysletc, data objects: the message" "$want" "$(head -n 1 err.txt)"
[ -e objs.slo ] && fail "sysletc wrote an image of 1.2 million objects"
awk 'BEGIN { for (i = 0; i < 1200000; i++) printf "syslet s%d() {}\n", i }' >bare.syslet
want='bare.syslet:1048577:1: error: more than 1048576 atoms: an image holds at most 1048576 (a statement that calls the kernel or assigns a variable makes one or more, a syslet without one a stop)'
st=0
(ulimit -v $lim && $SYSLETC -o bare.slo bare.syslet) >out.txt 2>err.txt || st=$?
expect_eq "sysletc, empty syslets: status" 1 "$st"
expect_eq "sysletc, empty syslets: the message" "$want" "$(head -n 1 err.txt)"
awk 'BEGIN { for (i = 0; i < 70000; i++) { printf "syslet s%d(", i
	for (j = 0; j < 16; j++) printf "%sint p%d", j ? ", " : "", j
	print ") { getpid(); }" } }' >params.syslet
want='params.syslet:65537:15: error: more than 1048576 variables: an image holds at most 1048576 cells'
st=0
(ulimit -v $lim && $SYSLETC -o params.slo params.syslet) >out.txt 2>err.txt || st=$?
expect_eq "sysletc, parameters: status" 1 "$st"
expect_eq "sysletc, parameters: the message" "$want" "$(head -n 1 err.txt)"
exit 0
