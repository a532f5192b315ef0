#!/bin/sh
# each-killed-ends.sh: --each --jobs=4 --trace over 200 files ended by SIGTERM 1-9 ms after the start: every syslet whose end the trace shows ('-> stop') has its stop report, once, and none whose end it does not show has one.  Before, a lane that had not yet seen the signal went on taking completions while the reports were read, and a syslet that a worker ended after its lane's last look at the ring had its stop traced and counted but never reported.  A race: 15 rounds per backend, any miss fails.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cp "$top_srcdir/tests/run/cat.syslet" cat.syslet
$SYSLETC -o cat.slo cat.syslet || fail "sysletc cat.syslet"
mkfifo fifo || skip "mkfifo"
set --
i=0
while [ $i -lt 50 ]; do
	mkdir "d$i"
	echo "f$i" >"f$i"
	# Some reads and writes each, the chains the engine's driver runs.
	awk -v n="$i" 'BEGIN { for (k = 0; k < 1500; k++) printf "b%s ", n }' >"b$i"
	set -- "$@" "b$i" "m$i" "d$i" "f$i"
	i=$((i + 1))
done
# Nobody writes the fifo: its open waits until the signal.
set -- "$@" fifo
for b in $backends; do
	r=0
	while [ $r -lt 15 ]; do
		$SYSLET_RUN --backend="$b" --each --jobs=4 --trace cat.slo "$@" \
			>out 2>err &
		pid=$!
		sleep 0.00$((r % 9 + 1))
		kill -TERM $pid
		wait $pid
		# The instances that the trace ends with a stop, by name.
		sed -n 's/^#\([0-9]*\) .*-> stop$/\1/p' err | sort -n -u >stops
		for n in $(cat stops); do
			eval "f=\${$((n + 1))}"
			c=$(grep -c "^syslet-run: $f: cat stopped at" err)
			[ "$c" = 1 ] || { cat err >&2
				fail "$b round $r: #$n ($f) ends with a stop in the trace, $c reports"; }
		done
		# And no report of a syslet whose end the trace does not
		# show: the trace is cut where the reports are taken.
		sed -n 's/^syslet-run: \([^:]*\): cat stopped at.*/\1/p' err >reported
		for f in $(cat reported); do
			n=0
			for a in "$@"; do
				[ "$a" = "$f" ] && break
				n=$((n + 1))
			done
			grep -q "^#$n .*-> stop\(ped by a signal\)\{0,1\}\$" err || {
				cat err >&2
				fail "$b round $r: a report of #$n ($f), whose end the trace does not show"; }
		done
		r=$((r + 1))
	done
done
exit 0
