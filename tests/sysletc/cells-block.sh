#!/bin/sh
# cells-block.sh: the block of cells that sysletc -H declares is saved and restored by NAME_h_cells_save() and NAME_h_cells_restore() in a program built with -O2 -Wall -Wextra -Werror (and in C++), and a linked image runs twice from the same state that way, the cells read after a restore holding the restored values (sysletc(1), -H).
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
: "${CXX:=c++}"
cd "$tmpdir" || exit 99

cat >bump.syslet <<'EOS'
var total = 10;
syslet bump(int k) {
	total += k;
	getppid();
}
EOS
$SYSLETC -H bump.h -o bump.slo bump.syslet || fail "sysletc -H"
cat >main.c <<'EOS'
#include <errno.h>
#include <libsyslet.h>
#include <stdio.h>
#include "bump.h"

static int run(unsigned long k)
{
	bump_bump__k = k;
	if (!sys_async_exec(bump_bump)) {
		if (errno)
			return -1;
		sys_async_wait(1);
	}
	return 0;
}

int main(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu = { ring, sizeof(ring), (unsigned long)-1 };
	struct bump_h_cells saved, now;

	bump_h_cells_save(&saved);
	if (sys_async_register(&ahu, sizeof(ahu)) || run(5))
		return 2;
	bump_h_cells_save(&now);
	if (bump_total != 15 || now.total != 15 || saved.total != 10) {
		printf("first run: total %lu, saved after it %lu, before %lu\n",
		       bump_total, now.total, saved.total);
		return 1;
	}
	bump_h_cells_restore(&saved);
	if (bump_total != 10) {
		printf("restored: total %lu, not 10\n", bump_total);
		return 1;
	}
	if (run(7))
		return 2;
	if (bump_total != 17) {
		printf("second run: total %lu, not 17\n", bump_total);
		return 1;
	}
	return 0;
}
EOS
"$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -O2 -Wall \
	-Wextra -Werror -I"$top_srcdir/src/include" \
	-I"$top_builddir/src/include" -o prog main.c bump.slo \
	"$top_builddir/src/lib/libsyslet.la" ||
	fail "the program does not build warning-free at -O2"
./prog || fail "a run from the restored block: status $?"
if command -v "$CXX" >/dev/null 2>&1; then
	printf '#include "bump.h"\nvoid f(bump_h_cells *c) { bump_h_cells_save(c); bump_h_cells_restore(c); }\n' >f.cc
	$CXX -O2 -Wall -Wextra -Werror -I"$top_srcdir/src/include" -c f.cc ||
		fail "the header does not build in C++"
fi
exit 0
