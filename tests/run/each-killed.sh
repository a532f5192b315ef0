#!/bin/sh
# each-killed.sh: --each ended by SIGTERM with --trace or --stats prints the stop report of every file whose syslet had ended before the signal, once each, after the counters and before the trace's '+++ killed by SIGTERM +++': they were left out, and a user who stopped a long run could not tell which files had failed.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cp "$top_srcdir/tests/run/cat.syslet" cat.syslet
$SYSLETC -o cat.slo cat.syslet || fail "sysletc cat.syslet"
echo hi >ok.txt
mkfifo fifo || skip "mkfifo"
for b in $backends; do
	for opts in --trace --stats "--trace --stats" "--trace --jobs=2"; do
		what="$b $opts"
		# Held open for reading and writing: the fifo's read waits.
		exec 3<>fifo
		# shellcheck disable=SC2086
		$SYSLET_RUN --backend="$b" --each $opts cat.slo missing1 \
			ok.txt fifo missing2 >out 2>err &
		pid=$!
		i=0
		while ! grep -q hi out && [ $i -lt 500 ]; do
			sleep 0.02
			i=$((i + 1))
		done
		# The ended syslets are taken, the fifo's read waits.
		idle_wait $pid
		kill -TERM $pid
		st=0
		wait $pid || st=$?
		exec 3>&-
		expect_eq "$what: status" 143 "$st"
		for f in missing1 missing2; do
			n=$(grep -c "^syslet-run: $f: cat stopped at atom 0 .*ENOENT" err)
			[ "$n" = 1 ] ||
				{ cat err >&2; fail "$what: $n reports of $f, expected 1"; }
		done
		grep -q "fifo: cat stopped" err &&
			{ cat err >&2; fail "$what: a report for the unfinished fifo"; }
		last=$(tail -n 1 err)
		case $opts in
		*--trace*)
			expect_eq "$what: last line" "+++ killed by SIGTERM +++" "$last"
			# The reports come after the counters, before that line.
			tail -n 3 err | head -n 2 | grep -c 'cat stopped' |
				grep -qx 2 || { cat err >&2; fail "$what: reports not just before the killed line"; }
			;;
		*)
			case $last in
			*"missing2: cat stopped"*) ;;
			*) cat err >&2; fail "$what: the reports do not end the output" ;;
			esac
			;;
		esac
	done
done
exit 0
