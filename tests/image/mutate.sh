#!/bin/sh
# mutate.sh: images mutated from the examples (tests/image/mutate.c: atoms, relocations, symbols, section headers; seeded, the same on every run) are refused with a message, listed, or run on emul and uring: never a crash, and a run ends within seconds unless the mutant loops, which atoms may do.
. "$top_srcdir/tests/lib/harness.sh"
mutate=$top_builddir/tests/image/mutate
[ -x "$mutate" ] || exit 99
[ "$(uname -m)" = x86_64 ] || skip "the mutations keep x86_64's call numbers"
# SYSLET_MUTATE_COUNT=N SYSLET_MUTATE_FIRST=S: seeds S..S+N-1, for a
# longer run by hand (under ./configure --enable-sanitize too).
count=${SYSLET_MUTATE_COUNT:-120}
seed=${SYSLET_MUTATE_FIRST:-1}
backends=emul
$SYSLET_RUN --backend=uring "$top_srcdir/examples/hello.syslet" \
	>/dev/null 2>&1 && backends="emul uring"
cd "$tmpdir" || exit 99
for e in cat copy countdown hello; do
	$SYSLETC -o $e.slo "$top_srcdir/examples/$e.syslet" || exit 99
done
printf 'a line\n' >in.txt
# args NAME: the arguments its entry takes.
args() {
	case $1 in
	cat) echo in.txt ;;
	copy) echo in.txt out.txt ;;
	countdown) echo 3 ;;
	esac
}
# check WHAT STATUS: a status that is not an answer (0, 1, 2) nor the
# kill of a run that loops (137, from timeout) is a crash.
check() {
	case $2 in
	0|1|2) ;;
	137) looped=$((looped + 1)) ;;
	*) cp m.slo "$top_builddir/tests/image/mutant-$seed.slo" 2>/dev/null
	   fail "$1: exit status $2 (the mutant: tests/image/mutant-$seed.slo; $(head -c 300 err | tr '\n' ' '))" ;;
	esac
}
looped=0 end=$((seed + count))
while [ $seed -lt $end ]; do
	set -- cat copy countdown hello
	shift $((seed % 4))
	name=$1
	"$mutate" $seed $name.slo m.slo || exit 99
	st=0
	timeout -s KILL 10 $SYSLETC -d m.slo >/dev/null 2>err || st=$?
	check "seed $seed ($name): sysletc -d" $st
	for b in $backends; do
		st=0
		timeout -s KILL 2 $SYSLET_RUN --backend=$b m.slo $(args $name) \
			</dev/null >out 2>err || st=$?
		check "seed $seed ($name): syslet-run --backend=$b" $st
	done
	seed=$((seed + 1))
done
echo "$count mutants; runs killed as loops: $looped"
exit 0
