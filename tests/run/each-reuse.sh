#!/bin/sh
# each-reuse.sh: syslet-run --each frees each instance whose syslet ended with nothing to report, so that later ones reuse its memory (page faults grow by well under the two pages of an instance per file), with --stats and --trace too, and still refuses a bad argument before anything runs.
. "$top_srcdir/tests/lib/harness.sh"
src=$top_srcdir/tests/run
minflt=$top_builddir/tests/run/minflt

$SYSLETC -o "$tmpdir/cat.slo" "$src/cat.syslet" || fail "sysletc cat.syslet"
mkdir "$tmpdir/f"
i=0
while [ $i -lt 660 ]; do
	echo "file number $i" >"$tmpdir/f/$i"
	i=$((i + 1))
done
small=$(cd "$tmpdir/f" && ls | head -n 60)
all=$(cd "$tmpdir/f" && ls)

# faults BACKEND FILES [OPTION]: the fewest minor faults of three runs
# (what --trace and --stats print is thrown away).
faults() {
	best=
	for k in 1 2 3; do
		r=$(cd "$tmpdir/f" && "$minflt" $SYSLET_RUN --each --jobs=1 \
			--backend="$1" $3 "$tmpdir/cat.slo" $2 2>/dev/null) ||
			return 1
		n=${r% *} st=${r#* }
		[ "$st" = 0 ] || { echo "status $st" >&2; return 1; }
		if [ -z "$best" ] || [ "$n" -lt "$best" ]; then best=$n; fi
	done
	echo "$best"
}

. "$top_srcdir/tests/run/lib-backends.sh"
for b in $backends; do
	# Traced and counted, the instances were once all kept (170 MB
	# for 20,000 files).
	for o in "" --stats --trace; do
		f60=$(faults $b "$small" $o) ||
			fail "--each --backend=$b $o, 60 files"
		f660=$(faults $b "$all" $o) ||
			fail "--each --backend=$b $o, 660 files"
		per=$(awk -v a="$f60" -v b="$f660" \
			'BEGIN { printf "%.2f", (b - a) / 600 }')
		echo "--backend=$b $o: $f60 page faults for 60 files," \
			"$f660 for 660: $per a file"
		# Made up front, each instance took its two pages (2.0 a
		# file).
		awk -v p="$per" 'BEGIN { exit !(p < 1.0) }' ||
			fail "--backend=$b $o: $per page faults a file:" \
				"instances are not reused"
	done
done

# A bad argument is still refused before any instance runs.
printf '%s\n' 'syslet p(int n) { write(STDOUT, "x\n", 2); }' >"$tmpdir/p.syslet"
status=0
$SYSLET_RUN --each "$tmpdir/p.syslet" 1 2 x >"$tmpdir/out" 2>"$tmpdir/err" ||
	status=$?
expect_eq "bad argument: status" 2 "$status"
grep -qx "syslet-run: --each argument 3 of 3: parameter n of p: expected int, got 'x'" \
	"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "bad argument: message"; }
expect_eq "bad argument: nothing ran" "" "$(cat "$tmpdir/out")"
# ... and says which of many it was, kept instances (--trace) or not.
for opt in --jobs=1 --trace; do
	status=0
	$SYSLET_RUN --each $opt "$tmpdir/p.syslet" $(seq 4999) x $(seq 5) \
		>"$tmpdir/out" 2>"$tmpdir/err" || status=$?
	expect_eq "bad argument among 5,005 ($opt): status" 2 "$status"
	grep -qx "syslet-run: --each argument 5000 of 5005: parameter n of p: expected int, got 'x'" \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2
		fail "bad argument among 5,005 ($opt): message"; }
done
exit 0
