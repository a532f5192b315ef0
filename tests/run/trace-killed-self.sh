#!/bin/sh
# trace-killed-self.sh: a syslet killed by a signal it raised itself (SIGPIPE from a write to a closed pipe, kill(getpid(), SIGUSR1)) ends its --trace with strace's '+++ killed by SIGPIPE +++' and its --stats with the counters, and syslet-run still dies of that signal.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
# SIGPIPE ignored on entry stays ignored (POSIX sh cannot undo it): the
# write then fails with EPIPE and nothing is killed.
{ yes; echo $? >yes.st; } | head -c 1 >/dev/null
[ "$(cat yes.st)" = 141 ] || skip "SIGPIPE is ignored in this environment"
printf 'syslet yes() {\n\tloop\n\t\twrite(1, "y\\n", 2);\n}\n' >yes.syslet
printf 'syslet me() {\n\tvar pid = getpid();\n\tkill(pid, SIGUSR1);\n\twrite(1, "not reached\\n", 12);\n}\n' >me.syslet
for b in $backends; do
	for opt in --trace --stats; do
		{ $SYSLET_RUN --backend="$b" $opt yes.syslet 2>err.txt
		  echo $? >st.txt; } | head -c 2 >/dev/null
		expect_eq "$b $opt: status" 141 "$(cat st.txt)"
		if [ $opt = --trace ]; then
			tail -n 1 err.txt | grep -qx '+++ killed by SIGPIPE +++' ||
				fail "$b --trace: the last line is '$(tail -n 1 err.txt)'"
		else
			grep -q '^ *syscalls  *[1-9]' err.txt ||
				fail "$b --stats: no counters: '$(cat err.txt)'"
		fi
	done
	st=0
	$SYSLET_RUN --backend="$b" --trace me.syslet >out.txt 2>err.txt || st=$?
	expect_eq "$b kill: status" 138 "$st"
	[ ! -s out.txt ] || fail "$b kill: the syslet went on: '$(cat out.txt)'"
	# (The shell that ran it may add "User defined signal 1".)
	grep -qx '+++ killed by SIGUSR1 +++' err.txt ||
		fail "$b kill: no '+++ killed by SIGUSR1 +++' in '$(cat err.txt)'"
done
exit 0
