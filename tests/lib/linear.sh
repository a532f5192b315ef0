# linear.sh: does a cost grow linearly with its input?  The measurement shared by the tests of sysletc and of the shell (source it after harness.sh).
#
#	. "$top_srcdir/tests/lib/linear.sh"
#	gen() { awk -v n="$1" 'BEGIN { ... }' >"$2"; }	# input of size $1 into file $2
#	run() { "$SYSLETC" -o /dev/null "$1"; }		# the cost measured, on file $1
#	linear_check "var declarations" gen run
#
# linear_check WHAT GEN RUN [START]
#	GEN N FILE writes an input of size N (lines, declarations...) to
#	FILE; RUN FILE runs the program on it, its output thrown away (read
#	the file as standard input inside RUN if need be), and must exit
#	with $LINEAR_STATUS (default 0), so that a broken generator is not
#	timed on an error path.  From N = START (default 1000), N doubles
#	until one run takes $LINEAR_MIN_CPU seconds (default 0.2) or N
#	reaches $LINEAR_MAX_N (default 4194304): the cost that depends on
#	the input then outweighs the process start and the clock's 10 ms
#	ticks.  Then RUN is timed on N and 2N alternately, $LINEAR_RUNS
#	times each (default 3), and the fastest of each counts.  The check
#	fails (through fail()) when t(2N) > $LINEAR_RATIO * t(N) (default
#	3: linear is 2, quadratic 4) in $LINEAR_TRIES measurements in a row
#	(default 3).  It prints one line per measurement.
#
# The times are CPU seconds (user + system) of RUN's processes, from the
# shell's `times`: a loaded machine stretches the wall clock much more
# than the CPU time a process is given, and both sizes are measured in
# one run, interleaved, never against an absolute time.
#
# linear_cpu RUN ARG...
#	Runs RUN ARG... once; prints its CPU seconds, then its exit status.

: "${LINEAR_STATUS:=0}"
: "${LINEAR_MIN_CPU:=0.2}"
: "${LINEAR_MAX_N:=4194304}"
: "${LINEAR_RUNS:=3}"
: "${LINEAR_RATIO:=3}"
: "${LINEAR_TRIES:=3}"

linear_cpu() {
	( "$@" >/dev/null 2>&1; echo "status $?"; times ) | awk '
		/^status / { status = $2; next }
		{ t = 0
		  for (i = 1; i <= 2; i++) {
			split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2]
		  }
		  cpu = t }
		END { printf "%.3f %s\n", cpu, status }'
}

# linear_min A B: the smaller of two decimal numbers.
linear_min() {
	awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'
}

linear_check() {
	_what=$1 _gen=$2 _run=$3 _n=${4:-1000}
	_dir=$(mktemp -d "${tmpdir:-/tmp}/linear.XXXXXX") || exit 99
	# Grow the input until its cost is measurable.
	while :; do
		"$_gen" "$_n" "$_dir/in" || fail "$_what: the generator failed for $_n"
		set -- $(linear_cpu "$_run" "$_dir/in")
		[ "$2" = "$LINEAR_STATUS" ] ||
			fail "$_what: exit status $2 for size $_n, not $LINEAR_STATUS"
		if awk -v t="$1" -v m="$LINEAR_MIN_CPU" 'BEGIN { exit !(t >= m) }' ||
		   [ $((_n * 2)) -gt "$LINEAR_MAX_N" ]; then
			break
		fi
		_n=$((_n * 2))
	done
	mv "$_dir/in" "$_dir/small"
	"$_gen" $((_n * 2)) "$_dir/large" || fail "$_what: the generator failed for $((_n * 2))"
	_try=1
	while :; do
		_ts= _tl= _k=0
		while [ $_k -lt "$LINEAR_RUNS" ]; do
			set -- $(linear_cpu "$_run" "$_dir/small")
			[ "$2" = "$LINEAR_STATUS" ] || fail "$_what: exit status $2 for size $_n"
			_ts=$(linear_min "$1" "$_ts")
			set -- $(linear_cpu "$_run" "$_dir/large")
			[ "$2" = "$LINEAR_STATUS" ] || fail "$_what: exit status $2 for size $((_n * 2))"
			_tl=$(linear_min "$1" "$_tl")
			_k=$((_k + 1))
		done
		_ratio=$(awk -v s="$_ts" -v l="$_tl" 'BEGIN { printf "%.2f", l / (s > 0.01 ? s : 0.01) }')
		echo "$_what: $_n -> $_ts s, $((_n * 2)) -> $_tl s of CPU: ratio $_ratio"
		if awk -v r="$_ratio" -v m="$LINEAR_RATIO" 'BEGIN { exit !(r <= m) }'; then
			break
		fi
		[ $_try -lt "$LINEAR_TRIES" ] ||
			fail "$_what: doubling the input multiplies the time by $_ratio (more than $LINEAR_RATIO)"
		_try=$((_try + 1))
	done
	rm -rf "$_dir"
}
