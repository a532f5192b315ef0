#!/bin/sh
# times.sh: -T ends each trace line with the atom's time, <0.000012> (a call that went async: from where it went to its end), -t/-tt/-ttt and -r start it with strace's timestamps; each turns --trace on.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
# A getppid, a sleep of 0.3 s (a call that blocks: it goes async), a
# getppid.
cat >s.syslet <<'EOS'
data ts = u64(0), u64(300000000);
syslet s() {
	getppid();
	nanosleep(ts, 0);
	getppid();
}
EOS
secs() { sed -n 's/.* <\([0-9]*\.[0-9]*\)>$/\1/p'; }
for b in $backends; do
	$SYSLET_RUN --backend=$b -T s.syslet 2>trace || fail "$b: -T run"
	# Every line carries its time; the sleep, which went async, is
	# one line (nothing came between).
	[ "$(grep -c ' <[0-9]*\.[0-9]\{6\}>$' trace)" = 3 ] &&
		[ "$(wc -l <trace)" = 4 ] &&
		[ "$(tail -1 trace)" = '+++ exited with 0 +++' ] &&
		grep -q 'nanosleep({tv_sec=0, tv_nsec=300000000}, NULL) = 0 <cachemiss, went async> -> \[2\] <[0-9.]*>$' trace ||
		{ cat trace >&2; fail "$b: -T lines"; }
	sleep=$(grep 'nanosleep(' trace | secs)
	ppid=$(grep '\[2\] getppid' trace | secs)
	# The sleep's time is at least its 0.3 s, and more than a getppid's
	# (a ratio within one run: the machine may be loaded).
	awk -v s="$sleep" -v p="$ppid" 'BEGIN { exit !(s >= 0.29 && s > p) }' ||
		{ cat trace >&2; fail "$b: -T: sleep $sleep, getppid $ppid"; }

	hms='[0-2][0-9]:[0-5][0-9]:[0-6][0-9]'
	check() { # OPTION LINE-REGEX
		$SYSLET_RUN --backend=$b $1 s.syslet 2>trace ||
			fail "$b: $1 run"
		[ "$(grep -c "$2" trace)" = 3 ] ||
			{ cat trace >&2; fail "$b: $1: not every line"; }
	}
	check -t "^$hms s\\.syslet:"
	check -tt "^$hms\\.[0-9]\\{6\\} s\\.syslet:"
	check -ttt "^[0-9]\\{9,\\}\\.[0-9]\\{6\\} s\\.syslet:"
	check -r "^ *[0-9]*\\.[0-9]\\{6\\} s\\.syslet:"
	check '-t -r' "^$hms (+ *[0-9]*\\.[0-9]\\{6\\}) s\\.syslet:"
	# -r: the line after the sleep says how long it was; the first line,
	# which has none before it, 0.000000, as strace -r's first.
	$SYSLET_RUN --backend=$b -r s.syslet 2>trace || fail "$b: -r run"
	head -1 trace | grep -q '^    0\.000000 s\.syslet:' ||
		{ cat trace >&2; fail "$b: -r: the first line is not 0.000000"; }
	rel=$(sed -n 's/^ *\([0-9.]*\) .*\[2\] getppid.*/\1/p' trace)
	awk -v r="$rel" 'BEGIN { exit !(r >= 0.29) }' ||
		{ cat trace >&2; fail "$b: -r: $rel after the sleep"; }
	# With --each the instance comes first, as strace's [pid N].
	printf 'syslet p(int x) { getppid(); }\n' >p.syslet
	$SYSLET_RUN --backend=$b -t -T --each --jobs=1 p.syslet 1 2 2>trace ||
		fail "$b: --each -t run"
	[ "$(grep -c "^#[01] $hms p\\.syslet:1 \\[0\\] getppid() = [0-9]* <[a-z]*> -> end <[0-9.]*>\$" trace)" = 2 ] ||
		{ cat trace >&2; fail "$b: --each -t -T lines"; }
done
exit 0
