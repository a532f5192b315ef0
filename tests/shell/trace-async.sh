#!/bin/sh
# trace-async.sh: with "trace on" (or -i --trace), a run that goes async is traced to its end, the atoms run after the run returned included, each with its source line; the shell died of SIGSEGV at the first of them.
. "$top_srcdir/tests/shell/lib.sh"
shell_require
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
export XDG_DATA_HOME="$tmpdir/data" HOME="$tmpdir"
printf 'syslet t() {\n\tasync getppid();\n\tgetpid();\n\tgetuid();\n}\n' >t.syslet
for b in $backends; do
	for how in 'trace on' '--trace'; do
		if [ "$how" = --trace ]; then
			printf 'run\nwait\n' >in
			opt=--trace
		else
			printf 'trace on\nrun\nwait\n' >in
			opt=
		fi
		st=0
		SYSLET_BACKEND=$b $SYSLET_RUN -i $opt t.syslet <in >out 2>&1 ||
			st=$?
		expect_eq "$b, $how: the shell's status" 0 "$st"
		grep -q '^t\.syslet:3 \[1\] getpid() = [0-9]* <cachemiss> -> \[2\]$' out &&
			grep -q '^t\.syslet:4 \[2\] getuid() = [0-9]* <cachemiss> -> end$' out ||
			{ cat out >&2; fail "$b, $how: the atoms after the run returned"; }
	done
done
exit 0
