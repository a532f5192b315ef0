#!/bin/sh
# each-partial.sh: when syslet-run --each fails part-way (an instance that cannot be mapped), the syslets that ran are still reported: a stop before the failure is printed, as at a run's end, and the exit status is 1.
. "$top_srcdir/tests/lib/harness.sh"
[ -z "${SYSLET_SANITIZE:-}" ] ||
	skip "a sanitizer runtime ($SYSLET_SANITIZE) needs more address space than the limit"
cd "$tmpdir" || exit 99
# 16 MiB of buffer each, under 1 GiB of address space: the first
# instance stops at its open; the others wait in their read of stdin
# (a pipe that ends after a second), in flight, until one cannot be
# mapped (made a chunk at a time: the first ones have run by then).
cat >big.syslet <<'SRC'
buffer big[16 << 20];
syslet s(str p) {
	var fd;
	fd = open(p, O_RDONLY);
	if (fd < 0) stop;
	read(fd, big, 1);
}
SRC
set -- /nonexistent.ep/0
for i in $(seq 99); do set -- "$@" /dev/stdin; done
st=0
sleep 1 | (ulimit -v 1048576 && exec $SYSLET_RUN --each --jobs=1 big.syslet "$@") \
	>out.txt 2>err.txt || st=$?
grep -q '^syslet-run: cannot map an instance' err.txt ||
	skip "every instance fit under ulimit -v 1048576 (status $st): $(head -n 2 err.txt)"
expect_eq "exit status" 1 "$st"
grep -q '^syslet-run: /nonexistent.ep/0: s stopped at atom 0 .*open("/nonexistent.ep/0", O_RDONLY) = -2 ENOENT$' err.txt ||
	fail "the stop before the failure is not reported: $(cat err.txt)"
exit 0
