#!/bin/sh
# lost-report.sh: with SIGPIPE ignored (trap '' PIPE, as CI runners and Python's subprocesses leave it), a trace, counters, --each's reports or the shell's messages that cannot be written (2>/dev/full, a pipe whose reader is gone) make syslet-run fail, as cat fails on a write error, where it exited 0; what sysletc prints (-S, -d, --dot, -H) is held to the same rule.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
[ -w /dev/full ] || skip "no /dev/full here"
trap '' PIPE
printf 'syslet hi() { write(1, "hi\\n", 3); }\n' >hi.syslet
printf 'syslet one(str p) { getppid(); }\n' >one.syslet

# full WHAT EXPECTED CMD...: CMD's exit status is EXPECTED with its
# standard error on /dev/full (and its output on /dev/null).
full() {
	st_what=$1 st_want=$2
	shift 2
	st=0
	"$@" >/dev/null 2>/dev/full || st=$?
	expect_eq "$st_what: status" "$st_want" "$st"
}

# closed CMD...: CMD's standard error is a pipe whose reader has closed
# it before CMD starts (no race with the reader); its status in st.
closed() {
	rm -f closed st.txt
	{ while [ ! -e closed ]; do sleep 0.05; done
	  st=0; "$@" 2>&1 >/dev/null || st=$?; echo $st >st.txt; } |
		{ exec <&-; : >closed; }
	st=$(cat st.txt)
}

for b in $backends; do
	full "$b --trace 2>/dev/full" 1 \
		$SYSLET_RUN --backend=$b --trace hi.syslet
	full "$b --stats 2>/dev/full" 1 \
		$SYSLET_RUN --backend=$b --stats hi.syslet
	full "$b --each --stats 2>/dev/full" 1 \
		$SYSLET_RUN --backend=$b --each --stats one.syslet a b c
	full "$b --each --trace 2>/dev/full" 1 \
		$SYSLET_RUN --backend=$b --each --trace one.syslet a b c
	closed $SYSLET_RUN --backend=$b --trace hi.syslet
	expect_eq "$b --trace into a closed pipe: status" 1 "$st"
	closed $SYSLET_RUN --backend=$b --stats hi.syslet
	expect_eq "$b --stats into a closed pipe: status" 1 "$st"
	# Nothing lost: 0 as before.
	st=0
	$SYSLET_RUN --backend=$b --trace --stats hi.syslet >/dev/null \
		2>/dev/null || st=$?
	expect_eq "$b --trace --stats: status" 0 "$st"
done

# The shell: its messages on standard error lost, where the session
# would have ended 0.
if $SYSLET_RUN -i </dev/null >/dev/null 2>&1; then
	export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"
	printf 'print nosuch\n' >msg.in
	printf 'list\n' >list.in
	st=0
	$SYSLET_RUN -i hi.syslet <msg.in >/dev/null 2>/dev/full || st=$?
	expect_eq "-i, a message 2>/dev/full: status" 2 "$st"
	st=0
	$SYSLET_RUN -i hi.syslet <list.in >/dev/null 2>/dev/full || st=$?
	expect_eq "-i, no message, 2>/dev/full: status" 0 "$st"
fi

# sysletc's listing, disassembly, graph and header.
$SYSLETC -o hi.slo hi.syslet || fail "sysletc hi.syslet"
for how in "-S hi.syslet" "-d hi.slo" "--dot hi.syslet"; do
	st=0
	$SYSLETC $how >/dev/full 2>/dev/null || st=$?
	expect_eq "sysletc $how >/dev/full: status" 1 "$st"
done
st=0
$SYSLETC -H /dev/full -o h2.slo hi.syslet 2>/dev/null || st=$?
expect_eq "sysletc -H /dev/full: status" 1 "$st"
exit 0
