#!/bin/sh
# rodata.sh: strings and data objects are read-only at run time, as syslet(5) says, not only where the compiler sees the write: a read() into a string reached through a variable fails with EFAULT and the string is unchanged for the atoms after it; and umem_add on a data object's word fails the same way (-14, a value), on every user-space backend.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
printf '%s\n' 'data word = u64(7);' 'syslet ro() {' '	var p, q, n, m;' \
	'	p = "hello";' '	n = read(0, p, 5);' '	write(1, "hello\n", 6);' \
	'	q = word;' '	m = umem_add(q, 1);' '	write(1, word, 8);' '}' >ro.syslet
for b in $backends; do
	st=0
	echo XYZ | "$SYSLET_RUN" --backend="$b" --trace ro.syslet >out 2>trace ||
		st=$?
	expect_eq "$b: status" 0 "$st"
	grep -q '^ro\.syslet:5 \[[0-9]*\] read(0, 0x[0-9a-f]*, 5) = -14 EFAULT' \
		trace || { cat trace >&2; fail "$b: a read into a string ran"; }
	grep -q '^ro\.syslet:8 \[[0-9]*\] umem_add(word, 1) = -14 ' trace ||
		{ cat trace >&2; fail "$b: umem_add on a data object ran"; }
	# "hello\n" and the word 7, unchanged.
	expect_eq "$b: output" "68656c6c6f0a0700000000000000" \
		"$(od -An -tx1 out | tr -d ' \n')"
done
exit 0
