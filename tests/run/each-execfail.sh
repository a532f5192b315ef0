#!/bin/sh
# each-execfail.sh: syslet-run --each when async_exec() fails for one instance (its chain reaches an atom that cannot be read: EFAULT, as copy_uatom() in 2007's exec_atom()): every syslet submitted with it ran, and each stop among them is reported once, in argument order, the failure named with its argument, and the exit status is 1.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99
# An instance whose file holds bytes of 2 reads them (in the caller: sync)
# over the atoms before its buffer (p = b - 512): the next atom's
# pointers are 0x0202..., which no fetch can follow.  A missing file
# stops at the open.
cp "$top_srcdir/tests/run/over.syslet" over.syslet
head -c 512 /dev/zero | tr '\0' '\2' >bad
st=0
$SYSLET_RUN --backend=emul over.syslet bad >out.txt 2>err.txt || st=$?
grep -q '^syslet-run: async_exec: Bad address$' err.txt ||
	skip "the bytes did not reach the atoms (status $st): $(head -n 2 err.txt)"
set -- /nonexistent.ef/0 bad
for i in 1 2 3 4 5; do set -- "$@" /nonexistent.ef/$i; done
backends=emul
$SYSLET_RUN --backend=uring "$top_srcdir/tests/run/cat.syslet" /dev/null \
	>/dev/null 2>&1 && backends="$backends uring"
for be in $backends; do
	st=0
	$SYSLET_RUN --backend=$be --each --jobs=1 over.syslet "$@" \
		>out.txt 2>err.txt || st=$?
	expect_eq "$be: exit status" 1 "$st"
	grep -o '/nonexistent\.ef/[0-9]*: s stopped at atom 0 .*open("/nonexistent\.ef/[0-9]*", O_RDONLY) = -2 ENOENT$' \
		err.txt | sed 's/:.*//' >got.txt
	printf '/nonexistent.ef/%s\n' 0 1 2 3 4 5 >want.txt
	cmp -s want.txt got.txt || { cat err.txt >&2
		fail "$be: the stops reported are not each argument's once, in order"; }
	# emul runs the chain in place and fails there; uring may have it
	# go async first (its completion then comes through the ring).
	[ $be = uring ] && continue
	grep -q '^syslet-run: bad: async_exec: Bad address$' err.txt ||
		{ cat err.txt >&2; fail "$be: the failure does not name its argument"; }
done
exit 0
