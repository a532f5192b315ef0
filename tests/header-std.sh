#!/bin/sh
# header-std.sh: the installed headers, SYSLET_OPTS (with and without fields, trailing comma or not) and SYSLET_HAS included, build warning-free under -std=c99 and -std=c11 -pedantic -Wall -Wextra -Werror and in C++17 (g++, when installed), and the structs SYSLET_OPTS makes reach the library with their sz set and the rest zero.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
: "${CXX:=c++}"

cat >"$tmpdir/opts.c" <<'EOP'
#include <libsyslet.h>
#include <syslet-compat.h>
#include <stdio.h>
#include <string.h>

static int zero_past_sz(const void *p, size_t sz, size_t all)
{
	const unsigned char *b = (const unsigned char *)p;

	for (; sz < all; sz++)
		if (b[sz])
			return 0;
	return 1;
}

int main(void)
{
	SYSLET_OPTS(syslet_stats, st);
	SYSLET_OPTS(syslet_ring, ring);
	SYSLET_OPTS(syslet_event, ev);
	SYSLET_OPTS(syslet_atom_info, ai);
	SYSLET_OPTS(syslet_sym_info, si);
	SYSLET_OPTS(syslet_param, pa);
	SYSLET_OPTS(syslet_inject, inj);
	const struct syslet_event *cev = &ev;
	int bad = 0;

	if (st.sz != sizeof(st) || ring.sz != sizeof(ring) ||
	    ev.sz != sizeof(ev) || ai.sz != sizeof(ai) ||
	    si.sz != sizeof(si) || pa.sz != sizeof(pa) ||
	    inj.sz != sizeof(inj))
		bad = printf("a struct of SYSLET_OPTS has the wrong sz\n");
	if (!zero_past_sz(&st, sizeof(size_t), sizeof(st)) ||
	    !zero_past_sz(&inj, sizeof(size_t), sizeof(inj)))
		bad = printf("SYSLET_OPTS left a field set\n");
	if (!SYSLET_HAS(cev, injected) || !SYSLET_HAS(&st, uring_atoms))
		bad = printf("SYSLET_HAS denies a field of its own struct\n");
	if (syslet_get_stats(&st) != 0)
		bad = printf("syslet_get_stats refused SYSLET_OPTS's struct\n");
	if (syslet_get_inject(&inj, 1) < 0 || inj.sz != sizeof(inj))
		bad = printf("syslet_get_inject refused SYSLET_OPTS's struct\n");
	if (bad)
		return 1;
	puts("ok");
	return 0;
}
EOP
# SYSLET_OPTS with fields, in C99 and C11.
cat >"$tmpdir/fields.c" <<'EOP'
#include <libsyslet.h>
#include <stdio.h>

int main(void)
{
	SYSLET_OPTS(syslet_inject, inj, .nr = 3, .ret = -5, .first = 2,
		    .step = 1);
	/* A trailing comma, as a list of one field a line ends. */
	SYSLET_OPTS(syslet_inject, inj2,
		.nr = 4,
		.step = 2,
	);
	SYSLET_OPTS(syslet_stats, st, );
	SYSLET_OPTS(syslet_event, ev, .args = { 1, 2 }, .nargs = 2);

	return !(inj.sz == sizeof(inj) && inj.nr == 3 && inj.ret == -5 &&
		 inj.first == 2 && inj.last == 0 && inj.step == 1 &&
		 inj2.sz == sizeof(inj2) && inj2.nr == 4 && inj2.step == 2 &&
		 inj2.first == 0 && st.sz == sizeof(st) && st.atoms == 0 &&
		 ev.sz == sizeof(ev) && ev.args[1] == 2 && ev.args[2] == 0 &&
		 ev.nargs == 2);
}
EOP

inc="-I$top_srcdir/src/include -I$top_builddir/src/include"
build() { # LANG-COMPILER OUT SRC FLAGS...
	b_cc=$1 b_out=$2 b_src=$3
	shift 3
	"$top_builddir/libtool" --quiet --mode=link $b_cc "$@" $inc \
		-o "$tmpdir/$b_out" "$b_src" \
		"$top_builddir/src/lib/libsyslet.la" >"$tmpdir/cc.out" 2>&1 ||
		{ cat "$tmpdir/cc.out" >&2
		  fail "$b_src does not build with $b_cc $*: $(grep -m1 'error' "$tmpdir/cc.out")"; }
}
strict="-Wall -Wextra -pedantic -Werror"
for std in c99 c11; do
	build "$CC" "opts-$std" "$tmpdir/opts.c" -std=$std $strict
	expect_eq "SYSLET_OPTS ($std)" ok "$(SYSLET_BACKEND=emul "$tmpdir/opts-$std")"
	build "$CC" "fields-$std" "$tmpdir/fields.c" -std=$std $strict
	SYSLET_BACKEND=emul "$tmpdir/fields-$std" ||
		fail "SYSLET_OPTS with fields ($std): wrong values"
done

# <libsyslet.h> keeps its names to syslet_*, SYSLET_* and the five calls:
# the 2007 __NR_sys_NAME aliases (and <asm/unistd.h>) come with
# <syslet-nr.h> or <syslet-compat.h> alone, so that a program with
# numbers of its own under those names builds (libsyslet(3), Names).
cat >"$tmpdir/ownnr.c" <<'EOP'
#define __NR_sys_open 5
#define __NR_sys_read 3
#include <libsyslet.h>
#include <stdio.h>

int main(void)
{
	puts(__NR_sys_open == 5 && __NR_sys_read == 3 ? "ok" : "changed");
	return 0;
}
EOP
build "$CC" ownnr "$tmpdir/ownnr.c" -std=c11 $strict
expect_eq "a program's own __NR_sys_open" ok "$(SYSLET_BACKEND=emul "$tmpdir/ownnr")"
for h in syslet-nr.h syslet-compat.h; do
	printf '#include <%s>\nint main(void) { return __NR_sys_write == __NR_write && __NR_sys_async_exec > 0 ? 0 : 1; }\n' \
		"$h" >"$tmpdir/nr.c"
	build "$CC" nr "$tmpdir/nr.c" -std=c11 $strict
	"$tmpdir/nr" || fail "<$h>: __NR_sys_write is not __NR_write"
done

if ! command -v "$CXX" >/dev/null 2>&1; then
	echo "note: no C++ compiler ($CXX): the C++ checks are skipped"
	exit 0
fi
cp "$tmpdir/opts.c" "$tmpdir/opts.cc"
build "$CXX" opts-cxx "$tmpdir/opts.cc" -std=c++17 $strict
expect_eq "SYSLET_OPTS (c++17)" ok "$(SYSLET_BACKEND=emul "$tmpdir/opts-cxx")"
exit 0
