#!/bin/sh
# each-perfile.sh: what syslet-run --each keeps per file besides the instances it reuses (a job record, the argument's string, the lane's index of live instances) touches under 82 bytes a file, by the page faults of 200 and of 2,000 arguments (57 here): the runner's index of all instances, unused with --each, and the lane's index, zeroed whole by calloc, made it 107.  One lane: with two, which lane takes which jobs and when moves the count by tens of faults on a loaded machine.
. "$top_srcdir/tests/lib/harness.sh"
minflt=$top_builddir/tests/run/minflt
[ -z "${SYSLET_SANITIZE:-}" ] || skip "a sanitizer's allocator touches its own pages"
printf 'syslet p(str s) { getppid(); }\n' >"$tmpdir/p.syslet"
$SYSLETC -o "$tmpdir/p.slo" "$tmpdir/p.syslet" || fail "sysletc p.syslet"
a200=$(yes x | head -n 200 | tr '\n' ' ')
a2000=$(yes x | head -n 2000 | tr '\n' ' ')

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
	f200=$(faults $b "$a200") || fail "--backend=$b, 200 arguments"
	f2000=$(faults $b "$a2000") || fail "--backend=$b, 2,000 arguments"
	per=$(awk -v a="$f200" -v b="$f2000" \
		'BEGIN { printf "%.0f", (b - a) * 4096 / 1800 }')
	echo "--backend=$b: $f200 page faults for 200 arguments," \
		"$f2000 for 2,000: $per bytes a file"
	[ "$per" -lt 82 ] ||
		fail "--backend=$b: $per bytes touched a file (at most 81)"
done
