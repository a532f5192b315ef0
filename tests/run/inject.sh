#!/bin/sh
# inject.sh: syslet-run --inject in strace's syntax: the syslet sees the injected result (stop test, exit status, (INJECTED) in the trace), the call is not made, when= counts per call over the whole run (--each too); bad rules are usage errors.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
printf 'one line\n' >in.txt
cat >w.syslet <<'EOS'
syslet w() {
	write(1, "a", 1);
	write(1, "b", 1);
	write(1, "c", 1);
}
EOS
printf 'syslet u(str p) { unlink(p); }\n' >u.syslet
cat >loop.syslet <<'EOS'
syslet l(int n) {
	while (n > 0) {
		getpid();
		n -= 1;
	}
}
EOS
cp "$top_srcdir/tests/run/cat.syslet" cat.syslet

for b in $backends; do
	run() { # STATUS OUTPUT --inject=... ARGS
		want=$1 out=$2
		shift 2
		st=0
		$SYSLET_RUN --backend=$b "$@" >"$tmpdir/out" \
			2>"$tmpdir/err" || st=$?
		expect_eq "$b $*: status" "$want" "$st"
		expect_eq "$b $*: output" "$out" "$(cat "$tmpdir/out")"
	}
	# when=: strace's forms, on three writes.
	run 1 "" --inject=write:error=EIO w.syslet
	run 0 ac --inject=write:error=EIO:when=2 w.syslet
	run 1 a --inject=write:error=EIO:when=2+ w.syslet
	run 1 b --inject=write:error=EIO:when=1+2 w.syslet
	run 1 a --inject=write:error=EIO:when=2..3 w.syslet
	run 0 ac --inject=write:error=EIO:when=2..3+2 w.syslet
	# retval=: a success that is not one; the call is not made.
	run 0 "" --inject=write:retval=1 w.syslet
	# Several rules; for one call, the last counts.
	run 0 "" --inject=write:error=EIO --inject=write:retval=1 w.syslet
	# The stop report and the trace say what the syslet saw.
	run 1 "" --trace --inject=open:error=EACCES cat.syslet in.txt
	grep -q '\[0\] open("in.txt", O_RDONLY) = -13 EACCES (INJECTED) <[a-z]*> -> stop$' \
		"$tmpdir/err" || { cat "$tmpdir/err" >&2; fail "$b: no (INJECTED) line"; }
	grep -q 'cat stopped at atom 0 (.*): open("in.txt", O_RDONLY) = -13 EACCES (INJECTED)$' "$tmpdir/err" ||
		fail "$b: the stop is not reported"
	# read returning 0: the loop ends, close runs, nothing printed.
	run 0 "" --inject=read:retval=0 cat.syslet in.txt
	# A class, and the call is not made: the file is still there.
	touch victim
	run 1 "" --inject=%file:error=EPERM u.syslet victim
	[ -e victim ] || fail "$b: an injected unlink was made"
	grep -q 'unlink.*-1 EPERM (INJECTED)$' "$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "$b: unlink report"; }
	run 0 "" u.syslet victim
	[ -e victim ] && fail "$b: unlink without injection did nothing"
	# Counting is per call over the whole run: with --each, the 2nd open
	# of all the instances fails, whichever instance makes it.
	for jobs in 1 2; do
		run 1 "one line
one line" --each --jobs=$jobs --inject=open:error=ENOENT:when=2 \
			cat.syslet in.txt in.txt in.txt
		expect_eq "$b --jobs=$jobs: instances stopped" 1 \
			"$(grep -c 'stopped at atom 0' "$tmpdir/err")"
	done
	# when= counts past strace's 65535: a syslet's loop makes a call
	# more often than that.
	run 0 "" --stats --inject=getpid:retval=7:when=65537..65538+1 \
		loop.syslet 65538
	grep -q '^  injected  *2$' "$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "$b: when=65537..65538: not 2 injected"; }
	# --stats counts them.
	run 0 ac --stats --inject=write:error=EIO:when=2 w.syslet
	grep -q '^  injected  *1$' "$tmpdir/err" ||
		{ cat "$tmpdir/err" >&2; fail "$b: --stats lacks injected 1"; }
done

# Bad rules: exit 2 before anything runs, with the reason.
bad() { # MESSAGE-REGEX RULE
	refused inject "$2" "$1" w.syslet
}
bad 'expected SET:error=ERRNO or SET:retval=N' write
bad 'error= or retval= is needed' write:when=2
bad "unknown system call 'wrte'; did you mean 'write'\\?" wrte:error=EIO
bad 'expected an errno name' write:error=ENOPE
bad 'expected an errno name' write:error=4096
bad 'expected FIRST' write:error=EIO:when=0
bad 'expected FIRST' write:error=EIO:when=3..2
bad 'expected FIRST' write:error=EIO:when=2+0
bad 'expected FIRST' write:error=EIO:when=x
# Counts and values past a word: out of range, as the options say it
# (they said 'expected FIRST...' and 'expected a number from 0').
bad 'when=99999999999999999999999: a count is out of range: at most ' \
	write:error=EIO:when=99999999999999999999999
bad 'when=2[+]99999999999999999999: a count is out of range: at most ' \
	write:error=EIO:when=2+99999999999999999999
bad 'retval=99999999999999999999999 is out of range: at most ' \
	write:retval=99999999999999999999999
bad 'one error= or retval=' write:error=EIO:retval=1
bad 'expected a number from 0' write:retval=-1
bad "umem_add is arithmetic" umem_add:error=EIO
bad "strace's" write:signal=SIGSEGV
bad "unknown 'bogus'" write:error=EIO:bogus=1
# An empty field is refused, as an empty name in a --trace set is:
# "write:error=EIO:" is a rule cut short or a ':' typed twice.
bad "an empty field" write:error=EIO:
bad "an empty field" write::error=EIO
bad "an empty field" write:error=EIO::when=2
bad "an empty field" write:
exit 0
