#!/bin/sh
# trace-scratch.sh: the trace names a test's scratch copy and a constant an assignment reads as the listing does (umem_add(&%2, -3), umem_add(&0, 0)), not by their addresses; so do the shell's trace and step.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

cat >sc.syslet <<'SRC'
syslet t() {
	var i, n;
	for (i = 0; i < 3; i++)
		n = getppid();
	if (n > 1)
		getppid();
}
SRC
"$SYSLETC" -S sc.syslet >sc.lst || fail "sysletc -S failed"
# The umem_add atoms whose word is a scratch cell (&%N) or a constant (&0).
grep -o 'umem_add(&\(%[0-9]*\|-*[0-9][0-9]*\), -*[0-9]*)' sc.lst |
	sort -u >want
[ "$(wc -l <want)" -ge 3 ] ||
	fail "the listing has fewer scratch and constant words than expected: $(cat want)"
for be in emul uring; do
	"$SYSLET_RUN" --backend=$be --trace sc.syslet >/dev/null 2>trace
	rc=$?
	if [ $rc -eq 2 ] && [ $be = uring ]; then
		echo "uring skipped: $(cat trace)"
		continue
	fi
	[ $rc -eq 0 ] || fail "$be: exit $rc: $(cat trace)"
	while read -r w; do
		grep -qF "] $w = " trace ||
			fail "$be: the trace has no '$w' (the listing's): $(grep umem_add trace)"
	done <want
	grep 'umem_add(0x' trace &&
		fail "$be: the trace shows a cell by its address"
done
# The shell's trace of a run, and its step, print the same words.
printf 'run\n' | "$SYSLET_RUN" -i --backend=emul --trace sc.syslet >shell.out 2>&1
printf 'step 40\n' | "$SYSLET_RUN" -i --backend=emul sc.syslet >step.out 2>&1
for f in shell.out step.out; do
	while read -r w; do
		grep -qF "$w = " $f ||
			fail "shell ($f): no '$w': $(grep umem_add $f)"
	done <want
	grep 'umem_add(0x' $f && fail "shell ($f): a cell by its address"
done
exit 0
