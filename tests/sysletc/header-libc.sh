#!/bin/sh
# header-libc.sh: sysletc -H's header compiles after <stdio.h>, <errno.h> and the other standard headers: an entry named stdin or printf (--prefix=), a symbol pthread_create (--prefix=pthread), a cell named errno or EOF are left out with a comment and a warning, where the header redeclared libc's stdin and expanded errno's macro.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
: "${CC:=cc}"
cat >inc.c <<'SRC'
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
SRC

# hdr NAME OPTION...: sysletc -H NAME.h of NAME.syslet, then a C file
# including the standard headers and NAME.h compiles with -Werror.
hdr() {
	name=$1
	shift
	$SYSLETC "$@" -H "$name.h" -o "$name.slo" "$name.syslet" 2>err.txt ||
		{ cat err.txt >&2; fail "sysletc $name.syslet"; }
	{ cat inc.c; echo "#include \"$name.h\""; echo 'int f(void) { return 0; }'; } >"$name.c"
	$CC -std=gnu11 -Wall -Werror -I"$top_srcdir/src/include" -c "$name.c" ||
		fail "the header of $name.syslet does not compile after <stdio.h>"
}

cat >bare.syslet <<'SRC'
syslet stdin() { getpid(); }
syslet printf() { getpid(); }
var errno, count;
syslet ok() { count++; errno++; }
SRC
hdr bare --prefix=
for n in stdin printf errno; do
	grep -q "^sysletc: warning: the image defines the symbol '$n', which the C library defines too" err.txt ||
		{ cat err.txt >&2; fail "no warning for $n"; }
	grep -q "^/\* $n: C name taken; " bare.h || fail "$n declared"
done
grep -q "^extern struct syslet_uatom ok\[" bare.h || fail "ok not declared"
grep -q "^extern unsigned long count " bare.h || fail "count not declared"

# With a prefix: a symbol it makes (pthread_create), members named as
# a macro (errno, EOF, BUFSIZ).
cat >pthread.syslet <<'SRC'
var errno, EOF, BUFSIZ, stdin;
syslet create() { errno++; EOF++; BUFSIZ++; stdin++; }
SRC
hdr pthread
grep -q "^sysletc: warning: the image defines the symbol 'pthread_create'" err.txt ||
	{ cat err.txt >&2; fail "no warning for pthread_create"; }
grep -q "^extern unsigned long pthread_errno " pthread.h || fail "pthread_errno not declared"
for n in errno EOF BUFSIZ; do
	grep -q "^	unsigned long cell[0-9]*;	/\* \[[0-9]*\] $n \*/" pthread.h ||
		fail "member $n is not a cellN"
done
grep -q "^	unsigned long stdin;" pthread.h || fail "member stdin is not declared"
exit 0
