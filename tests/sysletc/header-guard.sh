#!/bin/sh
# header-guard.sh: a header sysletc -H writes under the name of one of libsyslet's own (syslet.h, libsyslet.h, syslet-compat.h, syslet-nr.h) has an include guard of its own, so that a program including it and then <libsyslet.h> gets both, and builds with -Wall -Werror; its names keep the file's name (SYSLET_H_PROFILE).
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
cd "$tmpdir" || exit 99
printf 'syslet go() { getppid(); }\n' >img.syslet
for h in syslet.h libsyslet.h syslet-compat.h syslet-nr.h; do
	mkdir -p "d-$h" || exit 99
	$SYSLETC --prefix=img -H "d-$h/$h" -o "d-$h/img.slo" img.syslet ||
		fail "sysletc -H $h"
	guard=$(printf '%s' "$h" | tr 'a-z.-' 'A-Z__')
	cat >"d-$h/main.c" <<EOC
#include "$h"
#include <libsyslet.h>
#include <syslet-compat.h>

int main(void)
{
	const char *p = ${guard}_PROFILE;

	(void)p;
	return sys_async_exec(img_go) ? 0 : syslet_backend_init();
}
EOC
	$CC -std=gnu11 -Wall -Wextra -Werror -I"$top_srcdir/src/include" \
		-I"$top_builddir/src/include" -fsyntax-only "d-$h/main.c" \
		2>err.txt ||
		fail "a program including the header $h and <libsyslet.h> does not build: $(head -3 err.txt)"
done
exit 0
