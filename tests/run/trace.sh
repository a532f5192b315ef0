#!/bin/sh
# trace.sh CASE: syslet-run --trace, with the arguments in CASE (tests/run/trace/NAME.args, run in tests/run/ on the emul backend), prints one strace-like line per atom as in the golden NAME.trace (addresses normalised), and the program's output is NAME.out.
. "$top_srcdir/tests/lib/harness.sh"
case=${1:?usage: trace.sh tests/run/trace/NAME.args}
dir=${case%/*}
name=${case##*/}
name=${name%.args}
args=$(sed '/^#/d' "$case")
# utimensat()'s dates are local time, as strace shows them: one zone for
# every machine.
TZ=UTC0
export TZ
# Relative names keep the golden files free of build paths.
(cd "$top_srcdir/tests/run" &&
 $SYSLET_RUN --backend=emul --trace $args) \
	>"$tmpdir/out" 2>"$tmpdir/trace" || fail "--trace run failed"
# Descriptor numbers depend on what the harness left open; addresses
# differ on each run; whether an atom ran inline depends on the page
# cache, and whether it went async on the machine (trace-stats.sh tests
# that some run inline).
sed -e 's/0x[0-9a-f]\{5,\}/0xADDR/g' -e 's/<\(inline\|cachemiss\)[^>]*>/<inline>/' \
	"$tmpdir/trace" >"$tmpdir/trace.norm"
# Both goldens are compared, and their actual outputs kept, before either fails.
st=0
golden_soft "$dir/$name.out" "$tmpdir/out" || st=1
golden_soft "$dir/$name.trace" "$tmpdir/trace.norm" || st=1
exit $st
