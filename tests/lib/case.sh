#!/bin/sh
# case.sh CASE: make check's log compiler for the golden cases (.syslet, .args, .session tests): runs CASE through its folder's driver, DIR.sh beside DIR.
# Each case is a test of its own: a mismatch fails that case alone, and
# its actual output is kept as GOLDEN.actual in the build tree
# (tests/lib/harness.sh, golden).
case=${1:?usage: case.sh CASE}
driver=${case%/*}.sh
[ -f "$driver" ] || { echo "ERROR: $case: no driver $driver" >&2; exit 99; }
exec sh "$driver" "$case"
