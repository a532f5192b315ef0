#!/bin/sh
# cells-block.sh: the block of cells that sysletc -H declares is saved and restored by NAME_h_cells_save() and NAME_h_cells_restore() in a program built with -O2 -Wall -Wextra -Werror (and in C++), and a linked image runs twice from the same state that way, the cells read after a restore holding the restored values (sysletc(1), -H). Images whose cell [0] has no C name get them too.
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

# Images whose member [0] has no C name: in first.syslet the name of
# cell [0] (parameter a.b, C name a__b) is taken by the syslet a__b, so
# the block is found from the next cell declared; in consts.syslet no
# cell has a name at all, and it is found from an atom that points into
# it.  Each block is checked against the constants it holds, and a
# restore against a declared cell.
cat >first.syslet <<'EOS'
syslet a__b() { getppid(); }
syslet a(int b, int c) { write(b, "xy", c); lseek(b, 77, 0); }
EOS
cat >consts.syslet <<'EOS'
buffer b[66];
syslet s() { write(1, b, 66); lseek(1, 55, 0); }
EOS
for f in first consts; do
	$SYSLETC -H $f.h -o $f.slo $f.syslet || fail "sysletc -H $f.syslet"
	grep -q "${f}_h_cells_save" $f.h ||
		fail "$f.h declares no ${f}_h_cells_save(): $(cat $f.h)"
done
cat >two.c <<'EOS'
#include <stdio.h>
#include "first.h"
#include "consts.h"

int main(void)
{
	struct first_h_cells f, g;
	struct consts_h_cells c;

	first_a__c = 5;
	first_h_cells_save(&f);
	consts_h_cells_save(&c);
	/* first: a.b, a.c, then the constants "xy"'s address, 77, 0. */
	if (f.a__c != 5 || f.cell3 != 77 || f.cell4 != 0) {
		printf("first: a.c %lu, [3] %lu, [4] %lu\n", f.a__c, f.cell3,
		       f.cell4);
		return 1;
	}
	/* consts: 1, b's address, 66, 55, 0. */
	if (c.cell0 != 1 || c.cell2 != 66 || c.cell3 != 55 || c.cell4) {
		printf("consts: %lu %lu %lu %lu\n", c.cell0, c.cell2, c.cell3,
		       c.cell4);
		return 1;
	}
	g = f;
	g.a__c = 9;
	first_h_cells_restore(&g);
	if (first_a__c != 9) {
		printf("first: a.c %lu after a restore of 9\n", first_a__c);
		return 1;
	}
	consts_h_cells_restore(&c);
	return 0;
}
EOS
"$top_builddir/libtool" --quiet --mode=link $CC -std=gnu11 -O2 -Wall \
	-Wextra -Werror -I"$top_srcdir/src/include" \
	-I"$top_builddir/src/include" -o two two.c first.slo consts.slo \
	"$top_builddir/src/lib/libsyslet.la" ||
	fail "first.h and consts.h do not build warning-free at -O2"
./two || fail "the blocks found without member [0]'s name: status $?"
exit 0
