#!/bin/sh
# elements32.sh: the same element program compiled for i386 runs in a 32-bit process (where u32 is a word): through a 32-bit syslet-run when one is given as $SYSLET_RUN32, else linked into an -m32 C program with the 32-bit engine.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
src=$top_srcdir/tests/run/elements.syslet
want='ok
hello
tick
tick'
$SYSLETC --target=i386 -H "$tmpdir/elements.h" -o "$tmpdir/elements.slo" "$src" ||
	fail "sysletc --target=i386 elements.syslet"
# Whichever way it runs, it is a 32-bit process: a kernel without ia32
# emulation refuses to exec it (Exec format error).
m32_runs || skip "$m32_why"
# make kernel-guest-run32 builds one for the i386 guest: used when it is
# newer than this tree's programs (an old one may not read new images).
guest32=$top_builddir/tests/kernel/guest/32/syslet-run
if [ -z "${SYSLET_RUN32:-}" ] && [ -x "$guest32" ] &&
	[ "$guest32" -nt "$top_builddir/sysletc" ] &&
	[ "$guest32" -nt "$top_builddir/syslet-run" ]; then
	SYSLET_RUN32=$guest32
fi
if [ -n "${SYSLET_RUN32:-}" ]; then
	echo "running the i386 image through $SYSLET_RUN32"
	status=0
	out=$($SYSLET_RUN32 "$tmpdir/elements.slo" 2>"$tmpdir/err") || status=$?
	[ "$status" = 0 ] ||
		{ cat "$tmpdir/err" >&2; fail "32-bit syslet-run: exit status $status"; }
	expect_eq "32-bit syslet-run elements.slo" "$want" "$out"
	exit 0
fi
lib=$top_builddir/tests/runtime/.libs/libsyslet32.a
[ "$HAVE_M32" = yes ] || skip "$CC -m32 cannot build programs here (and no \$SYSLET_RUN32)"
[ -f "$lib" ] || skip "no $lib (the 32-bit engine is built by make check with -m32)"
# A linked image is one instance: run its entry on the 32-bit engine.
echo "no 32-bit syslet-run (\$SYSLET_RUN32): the image runs linked into an -m32 program"
entry=$(sed -n 's/^extern struct syslet_uatom \([A-Za-z0-9_]*\)\[.*/\1/p' "$tmpdir/elements.h")
[ -n "$entry" ] || fail "no entry declared in the -H header"
cat >"$tmpdir/main.c" <<EOC
#include <stdio.h>
#include <libsyslet.h>
#include "elements.h"

static struct syslet_uatom *ring[8];
static struct async_head_user head = {
	.completion_ring = ring,
	.ring_size_bytes = sizeof(ring),
	.max_nr_threads = -1UL,
};

int main(void)
{
	struct syslet_uatom *done;

	if (syslet_backend_init()) {
		fprintf(stderr, "SKIP: no backend: %s\n", syslet_backend_error());
		return 77;
	}
	if (sys_async_register(&head, sizeof(head)))
		return 99;
	fflush(stdout);
	done = sys_async_exec($entry);
	if (!done) {
		sys_async_wait(1);
		done = ring[0];
	}
	return done ? 0 : 1;
}
EOC
# A sanitizer build's engine needs the sanitizers' run time too.
san=
grep -q __asan_init "$lib" && san=-fsanitize=address
grep -q __ubsan_handle "$lib" && san="$san -fsanitize=undefined"
$CC -m32 -std=gnu11 -Wall -Werror $san -I"$top_srcdir/src/include" \
	-I"$top_builddir/src/include" -I"$tmpdir" -o "$tmpdir/prog" \
	"$tmpdir/main.c" "$tmpdir/elements.slo" "$lib" -lpthread ||
	fail "linking the i386 image into an -m32 program"
status=0
out=$("$tmpdir/prog" 2>"$tmpdir/err") || status=$?
[ "$status" = 77 ] && skip "$(cat "$tmpdir/err")"
[ "$status" = 0 ] || { cat "$tmpdir/err" >&2; fail "-m32 program: exit status $status"; }
expect_eq "elements.slo (i386) in an -m32 program" "$want" "$out"
