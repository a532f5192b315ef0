#!/bin/sh
# relinked.sh: an image with parameters relinked by ld -r (which renumbers its symbols, its own section symbols first, so that .syslet.params names the wrong ones) is refused by syslet-run, sysletc -d and both of libsyslet's openers with a message that says why and what to do, where each said only '.syslet.params: bad symbol index'; an image without parameters still runs after ld -r.
. "$top_srcdir/tests/image/refused.sh"
command -v ld >/dev/null 2>&1 || skip "no ld(1)"
$SYSLETC --target=x86_64 -o cat.slo "$top_srcdir/examples/cat.syslet" || exit 99
ld -r -o relinked.slo cat.slo 2>/dev/null || skip "ld -r cannot relink an x86_64 object here"
refused "ld -r" relinked.slo ".syslet.params: parameter record 1 names symbols 7 and 6, which are not a cell and its syslet: the symbols were renumbered after sysletc wrote the image (as ld -r does); compile the source again" "$top_srcdir/examples/cat.syslet"
$SYSLETC --target=x86_64 -o hello.slo "$top_srcdir/examples/hello.syslet" || exit 99
ld -r -o hello-relinked.slo hello.slo || exit 99
out=$($SYSLET_RUN hello-relinked.slo) || fail "hello relinked did not run"
expect_eq "hello relinked" "$($SYSLET_RUN hello.slo)" "$out"
exit 0
