#!/bin/sh
# cplusplus.sh: a C++ program includes <libsyslet.h>, <syslet-compat.h> and a header of sysletc -H, links with the image and the library, and runs the image's syslet (syslet.h's struct field "private" is a C++ keyword).
. "$top_srcdir/tests/lib/harness.sh"
: "${CXX:=c++}"
command -v "$CXX" >/dev/null 2>&1 || skip "no C++ compiler ($CXX)"
# A sanitizer build's library needs the sanitizers' run time first in
# the program (ASan refuses to start otherwise).
[ -z "${SYSLET_SANITIZE:-}" ] || CXX="$CXX -fsanitize=$SYSLET_SANITIZE"
cd "$tmpdir" || exit 99
printf 'buffer b[8];\nsyslet hi() {\n\twrite(1, "hi from C++\\n", 12);\n}\n' >hi.syslet
$SYSLETC -H hi.h -o hi.slo hi.syslet || fail "sysletc -H"
cat >prog.cc <<'EOC'
#include <libsyslet.h>
#include <syslet-compat.h>
#include "hi.h"

int main()
{
	struct syslet_uatom a = {};

	a.private_ = &a;	// the 2007 field, under a name C++ takes
	async_head_init();
	if (!sys_async_exec(hi_hi))
		sys_async_wait(1);
	async_head_exit();
	return a.private_ == &a ? 0 : 1;
}
EOC
$CXX -Wall -Wextra -Werror -I"$top_srcdir/src/include" \
	-I"$top_builddir/src/include" -c -o prog.o prog.cc 2>err ||
	{ cat err >&2; fail "the headers do not compile as C++"; }
"$top_builddir/libtool" --quiet --tag=CC --mode=link $CXX -o prog prog.o \
	hi.slo "$top_builddir/src/lib/libsyslet.la" >err 2>&1 ||
	{ cat err >&2; fail "the C++ program does not link"; }
st=0
./prog >out 2>err || st=$?
expect_eq "the C++ program's status" 0 "$st"
expect_eq "the C++ program's output" "hi from C++" "$(cat out)"
exit 0
