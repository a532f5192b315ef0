#!/bin/sh
# nonblock-out.sh: a standard output or error that is a non-blocking pipe (O_NONBLOCK left by whoever shares it) and fills before its reader comes gets everything: syslet-run's trace and counters, sysletc's -S listing, -d and -o -. They stopped at the pipe's 64 KiB with EAGAIN ('standard output: Resource temporarily unavailable', status 1; syslet-run's own message lost in the full pipe).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

nbpipe=$top_builddir/tests/run/nbpipe
[ -x "$nbpipe" ] || exit 99
cd "$tmpdir" || exit 99
# 1,000 rounds: a trace of about 230 KB.
cat >lp.syslet <<'SRC'
var i;
syslet lp()
{
	i = 0;
	while (i < 1000) {
		getppid();
		i++;
	}
}
SRC
$SYSLETC -o lp.slo lp.syslet || fail "sysletc lp.syslet"
for b in $backends; do
	$SYSLET_RUN --backend=$b --trace --stats lp.slo 2>want >/dev/null ||
		fail "$b: --trace --stats to a file: exit status $?"
	st=0
	"$nbpipe" 2 300 $SYSLET_RUN --backend=$b --trace --stats lp.slo \
		>got 2>/dev/null </dev/null || st=$?
	expect_eq "$b: --trace --stats to a full non-blocking pipe: status" 0 $st
	expect_eq "$b: lines of the trace and counters" \
		"$(wc -l <want)" "$(wc -l <got)"
	expect_eq "$b: the last line" "+++ exited with 0 +++" "$(tail -n 1 got)"
	grep -q '^  syslets  *1$' got || fail "$b: no counters"
done

# 2,000 statements: a listing of about 220 KB, an image of 350 KB.
{
	echo 'syslet s() {'
	i=0
	while [ $i -lt 2000 ]; do
		echo 'getppid();'
		i=$((i + 1))
	done
	echo '}'
} >big.syslet
$SYSLETC -o big.slo big.syslet || fail "sysletc big.syslet"
$SYSLETC -S big.syslet >big.S || fail "sysletc -S: exit status $?"
$SYSLETC -d big.slo >big.d || fail "sysletc -d: exit status $?"
for how in "-o - big.syslet:big.slo" "-S big.syslet:big.S" "-d big.slo:big.d"; do
	args=${how%:*}
	st=0
	# shellcheck disable=SC2086 # the options are words
	"$nbpipe" 1 300 $SYSLETC $args >got 2>err </dev/null || st=$?
	[ $st = 0 ] || { cat err >&2
		fail "sysletc $args to a full non-blocking pipe: exit status $st"; }
	cmp -s got "${how#*:}" ||
		fail "sysletc $args to a full non-blocking pipe: $(wc -c <got) bytes of $(wc -c <"${how#*:}")"
done
exit 0
