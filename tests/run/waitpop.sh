#!/bin/sh
# waitpop.sh: syslet_ring__wait_pop() returns a completion that came between its look at the next slot and its wait, on every user-space backend (tests/run/waitpop.c).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
for b in $backends; do
	st=0
	SYSLET_BACKEND=$b "$top_builddir/tests/run/waitpop" || st=$?
	[ $st = 77 ] && continue
	expect_eq "waitpop on $b: exit status" 0 "$st"
done
exit 0
