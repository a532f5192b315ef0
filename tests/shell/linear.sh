#!/bin/sh
# linear.sh: a shell session costs time in proportion to its length: doubling the lines of a scripted session (declarations, statements, an open block) must not triple its CPU time.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir" SYSLET_BACKEND=emul

# The measurement is this file's own (tests/lib/linear.sh, shared with
# the compiler's tests, was not there yet).  Times are CPU seconds (user
# + system) of the shell, from `times`: a loaded machine stretches the
# wall clock far more than the CPU time a process gets.  Both sizes are
# measured in one run, interleaved, the fastest of three each, never
# against an absolute time.
ratio_max=${LINEAR_RATIO:-3}

# cpu FILE: the shell's CPU seconds on FILE as its input.
cpu() {
	( "$SYSLET_RUN" -i <"$1" >/dev/null 2>&1; times ) | awk '
		{ t = 0
		  for (i = 1; i <= 2; i++) {
			split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2]
		  }
		  cpu = t }
		END { printf "%.3f\n", cpu }'
}

min() {
	awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'
}

# linear WHAT GEN START MAX: GEN N FILE writes a session of about N lines.
# N doubles from START until a run takes 0.3 s of CPU (or reaches MAX),
# then N and 2N are compared; up to three measurements must show a ratio
# of at most $ratio_max (linear is 2, quadratic 4).
linear() {
	what=$1 gen=$2 n=$3 max=$4
	while :; do
		$gen "$n" "$tmpdir/small"
		t=$(cpu "$tmpdir/small")
		awk -v t="$t" 'BEGIN { exit !(t >= 0.3) }' && break
		[ $((n * 2)) -le "$max" ] || break
		n=$((n * 2))
	done
	$gen $((n * 2)) "$tmpdir/large"
	try=1
	while :; do
		ts= tl= k=0
		while [ $k -lt 3 ]; do
			ts=$(min "$(cpu "$tmpdir/small")" "$ts")
			tl=$(min "$(cpu "$tmpdir/large")" "$tl")
			k=$((k + 1))
		done
		r=$(awk -v s="$ts" -v l="$tl" \
			'BEGIN { printf "%.2f", l / (s > 0.01 ? s : 0.01) }')
		echo "$what: $n lines $ts s, $((n * 2)) lines $tl s of CPU: ratio $r"
		awk -v r="$r" -v m="$ratio_max" 'BEGIN { exit !(r <= m) }' &&
			break
		[ $try -lt 3 ] ||
			fail "$what: doubling the session multiplies its time by $r"
		try=$((try + 1))
	done
}

# One declaration per line: each was compiled with all before it.
vars() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "var v%d;\n", i }' >"$2"; }
# Declarations and statements that use them; assignments that declare.
mixed() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n / 4; i++) {
		printf "var v%d;\nv%d += %d;\nw%d = v%d;\nprint w%d\n", i, i, i, i, i, i } }' >"$2"
}
# A chain of constants, each defined by the one before.
consts() {
	awk -v n="$1" 'BEGIN { print "const c0 = 1;"
		for (i = 1; i < n; i++) printf "const c%d = c%d + 1;\n", i, i - 1 }' >"$2"
}
# One block left open, a line at a time: each line rescanned the block.
braces() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "{" }' >"$2"; }

linear "var per line" vars 500 65536
linear "declare, assign, print" mixed 500 65536
linear "a chain of constants" consts 500 65536
linear "an open block" braces 20000 4194304
exit 0
