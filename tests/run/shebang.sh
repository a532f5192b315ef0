#!/bin/sh
# shebang.sh: a syslet source with a #! line runs through syslet-run, and as a script.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run

out=$($SYSLET_RUN "$src/shebang.syslet") || fail "syslet-run shebang.syslet"
expect_eq "output" "hi from a script" "$out"
# As an executable: only with the syslet-run of this build on PATH.
case $SYSLET_RUN in
*" "*) exit 0 ;;
esac
cp "$src/shebang.syslet" "$tmpdir/hi"
chmod +x "$tmpdir/hi"
out=$(PATH="$(dirname "$SYSLET_RUN"):$PATH" "$tmpdir/hi") ||
	fail "running the script"
expect_eq "script output" "hi from a script" "$out"
exit 0
