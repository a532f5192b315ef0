#!/bin/sh
# each-partial-stats.sh: syslet-run --each --stats or --trace that fails part-way (an async_exec() that fails for one instance) still prints what --stats counted, once, before the stops of the syslets that ran, as at a run's end (strace -c prints its counts however the run ended).
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
# As tests/run/each-execfail.sh: 'bad' holds bytes that its syslet reads
# over its own atoms, so that its chain faults in the caller.
cp "$top_srcdir/tests/run/over.syslet" over.syslet
head -c 512 /dev/zero | tr '\0' '\2' >bad
for opt in --stats "--stats --trace"; do
	st=0
	$SYSLET_RUN --backend=emul --each --jobs=1 $opt over.syslet \
		/nonexistent.ps/0 bad /nonexistent.ps/1 >out.txt 2>err.txt ||
		st=$?
	grep -q '^syslet-run: bad: async_exec: Bad address$' err.txt ||
		skip "the bytes did not reach the atoms (status $st): $(head -n 2 err.txt)"
	expect_eq "$opt: exit status" 1 "$st"
	expect_eq "$opt: stats printed" 1 \
		"$(grep -c '^syslet-run: stats (backend emul):$' err.txt)"
	# 3 syslets: the failed one counts as run.
	grep -q '^  syslets  *3$' err.txt ||
		{ cat err.txt >&2; fail "$opt: not 3 syslets counted"; }
	sed -n '/^syslet-run: stats/,$p' err.txt |
		grep -o '/nonexistent\.ps/[01]: s stopped' >got.txt
	printf '/nonexistent.ps/%s: s stopped\n' 0 1 >want.txt
	cmp -s want.txt got.txt || { cat err.txt >&2
		fail "$opt: the stops do not follow the stats once each"; }
done
exit 0
