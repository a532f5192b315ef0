#!/bin/sh
# self-nr.sh: an atom that rewrites its own number as it runs (umem_add on an address cell that points at the atom's nr, from an image whose cell relocation targets .syslet.atoms) is judged and reported by the number it ran with, umem_add, not by what it left in its nr: an arithmetic atom ends the syslet normally, status 0 and no report, on every backend, with --trace and --stats and in the shell; so is a pipe() whose fds land on its own nr, where --trace or --stats saw it run.  Before, the stop report read the atom's nr after the run: 'main stopped at atom 0 (...; it ran syscall 18446744073709551614, past the table): syscall(-2, ...) = -38 ENOSYS', status 1, while --trace showed 'umem_add(...) = -2'.
. "$top_srcdir/tests/lib/harness.sh"
craft=$top_builddir/tests/image/craft
[ -x "$craft" ] || exit 99
[ "$(uname -m)" = x86_64 ] || skip "the image is x86_64's"
cd "$tmpdir" || exit 99
# umem_add is 1004 in the x86_64 profile (SYSLET_NR_BASE + 4): adding
# -1006 to its own number leaves -2 there, and -2 is its result.
cat >self.syslet <<'SRC'
syslet main() {
	var x;
	x += -1006;
}
SRC
$SYSLETC --target=x86_64 -o self.slo self.syslet || exit 99
# Cell 1 (&main.x, relocation 0 of .rela.syslet.cells) points at atom
# 0's nr, the word after its flags.
"$craft" cellreloc self.slo selfm.slo 0 .syslet.atoms 8 || exit 99
backends=emul
$SYSLET_RUN --backend=uring self.slo >/dev/null 2>&1 && backends="emul uring"
# runs_clean NAME IMAGE TRACELINE OPTS...: with each option on every
# backend, status 0 and nothing on stderr but the trace line of the
# atom, --trace's last line and --stats' table and summary.
runs_clean() {
	name=$1 img=$2 line=$3
	shift 3
	for b in $backends; do
		for opt in "$@"; do
			st=0
			$SYSLET_RUN --backend=$b $opt "$img" >out.txt 2>err.txt || st=$?
			grep -v -e "$line" -e '^syslet-run: stats' -e '^  ' \
				-e '^+++ exited with 0 +++$' -e '^% time ' \
				-e '^------ ' -e '^ *[0-9]*\.[0-9][0-9]  *[0-9]*\.[0-9]\{6\} ' \
				err.txt >rest.txt
			[ $st = 0 ] && [ ! -s rest.txt ] ||
				fail "$b $opt$name: status $st, expected 0 and no report: $(cat rest.txt)"
		done
	done
}
umem_line='^self.syslet:3 \[0\] umem_add(0x[0-9a-f]*, -1006) = -2 <inline> -> end$'
runs_clean "" selfm.slo "$umem_line" "" --trace --stats
for b in $backends; do
	st=0
	$SYSLET_RUN --backend=$b --trace selfm.slo 2>err.txt || st=$?
	grep -q "$umem_line" err.txt ||
		fail "$b --trace: no umem_add line: $(cat err.txt)"
done
# A call that writes over its own number through a pointer (pipe() into
# the atom's nr: 3 | 4 << 32): only an observer saw the number it ran
# with, so with --trace or --stats it is judged by pipe's 0, not as
# 'syscall 17179869187, past the table' = -38 ENOSYS.
cat >pipe.syslet <<'SRC'
var fds;
syslet main() {
	pipe(&fds);
}
SRC
$SYSLETC --target=x86_64 -o pipe.slo pipe.syslet 2>/dev/null || exit 99
"$craft" cellreloc pipe.slo pipem.slo 0 .syslet.atoms 8 || exit 99
runs_clean " pipe" pipem.slo \
	'^pipe.syslet:3 \[0\] pipe(\[[0-9]*, [0-9]*\]) = 0 <inline> -> end$' \
	--trace --stats
# The shell: a run, and a step, end at the arithmetic atom.
printf 'run\n' | $SYSLET_RUN -i selfm.slo >out.txt 2>&1
expect_eq "the shell's run" "main finished at [0]: -2" "$(tail -n 1 out.txt)"
printf 'step\n' | $SYSLET_RUN -i selfm.slo >out.txt 2>&1
expect_eq "the shell's step" "main finished at [0]: -2" "$(tail -n 1 out.txt)"
exit 0
