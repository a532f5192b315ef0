#!/bin/sh
# stats-async.sh: --stats counts one syscall for each atom that issued one, also for an async atom, which the emul engine hands to a worker before trying it (it counted none), and for atoms waiting on a pipe.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"

cd "$tmpdir" || exit 99
# stat NAME FILE: the counter NAME of a --stats report.
stat() { sed -n "s/^  $1  *//p" "$2"; }

# Three calls, two of them async: three atoms, three syscalls.
cat >async.syslet <<'END'
var a, b;
syslet main() {
	async a = getpid();
	b = getppid();
	async getuid();
}
END
# Ten instances, each an async read of the pipe then a write: the reads
# wait until the writer comes, on workers; twenty syscalls.
cat >pipe.syslet <<'END'
buffer b[1];
var n;
syslet main(int fd) {
	async n = read(fd, b, 1);
	write(STDOUT, b, n);
}
END
for b in $backends; do
	$SYSLET_RUN --backend="$b" --stats async.syslet 2>stats ||
		{ cat stats >&2; fail "$b: async.syslet failed"; }
	expect_eq "$b: atoms of async.syslet" 3 "$(stat atoms stats)"
	expect_eq "$b: syscalls of async.syslet" 3 "$(stat syscalls stats)"
	(sleep 0.2; printf 0123456789) |
		$SYSLET_RUN --backend="$b" --stats --each pipe.syslet \
			0 0 0 0 0 0 0 0 0 0 >out 2>stats ||
		{ cat stats >&2; fail "$b: pipe.syslet failed"; }
	expect_eq "$b: output of pipe.syslet" 10 "$(wc -c <out | tr -d ' ')"
	expect_eq "$b: atoms of pipe.syslet" 20 "$(stat atoms stats)"
	expect_eq "$b: syscalls of pipe.syslet" 20 "$(stat syscalls stats)"
done
exit 0
