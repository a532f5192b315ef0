#!/bin/sh
# each-perfile.sh: what syslet-run --each keeps per file besides the instances it reuses (a job record, the argument's string, the lane's index of live instances) touches under 82 bytes a file, by the page faults of 256 and of 2,056 arguments (57 here; 256, so that both runs hand the engine batches of 64 syslets, a quarter of the lane's ring at most, and take as many slots for their instances): the runner's index of all instances, unused with --each, and the lane's index, zeroed whole by calloc, made it 107.  One lane: with two, which lane takes which jobs and when moves the count by tens of faults on a loaded machine.
. "$top_srcdir/tests/lib/harness.sh"
minflt=$top_builddir/tests/run/minflt
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's allocator touches its own pages"
printf 'syslet p(str s) { getppid(); }\n' >"$tmpdir/p.syslet"
$SYSLETC -o "$tmpdir/p.slo" "$tmpdir/p.syslet" || fail "sysletc p.syslet"
a256=$(yes x | head -n 256 | tr '\n' ' ')
a2056=$(yes x | head -n 2056 | tr '\n' ' ')

# faults BACKEND ARGS: the fewest minor faults of three runs.
faults() {
	best=
	for k in 1 2 3; do
		# shellcheck disable=SC2086 # one argument a word
		r=$("$minflt" $SYSLET_RUN --each --jobs=1 --backend="$1" \
			"$tmpdir/p.slo" $2 2>"$tmpdir/err") ||
			{ cat "$tmpdir/err" >&2; return 1; }
		n=${r% *} st=${r#* }
		[ "$st" = 0 ] || { cat "$tmpdir/err" >&2; echo "status $st" >&2
			return 1; }
		if [ -z "$best" ] || [ "$n" -lt "$best" ]; then best=$n; fi
	done
	echo "$best"
}

. "$top_srcdir/tests/run/lib-backends.sh"
for b in $backends; do
	f256=$(faults $b "$a256") || fail "--backend=$b, 256 arguments"
	f2056=$(faults $b "$a2056") || fail "--backend=$b, 2,056 arguments"
	per=$(awk -v a="$f256" -v b="$f2056" \
		'BEGIN { printf "%.0f", (b - a) * 4096 / 1800 }')
	echo "--backend=$b: $f256 page faults for 256 arguments," \
		"$f2056 for 2,056: $per bytes a file"
	[ "$per" -lt 82 ] ||
		fail "--backend=$b: $per bytes touched a file (at most 81)"
done
