#!/bin/sh
# each-failmem.sh: syslet-run --each frees the instance of a syslet that stopped as it ends, its report made then and printed in argument order at the end: kept to the end, each failed instance held its buffers, and 200 missing files with a 16 MiB buffer took 3.2 GB (under ulimit -v: 'cannot map an instance' and no report).
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
cat >big.syslet <<'SRC'
buffer buf[16777216];
syslet cat(str path) {
	var fd, n;
	fd = open(path, O_RDONLY);
	if (fd < 0) stop;
	while ((n = read(fd, buf, 4096)) > 0)
		write(1, buf, n);
	close(fd);
}
SRC
$SYSLETC -o big.slo big.syslet || fail "sysletc big.syslet"
echo "the one file" >there
# 1 GB of address space: room for the program, its threads and a few
# instances in flight, not for 200 kept (3.2 GB).
lim=1000000
for b in $backends; do
	st=0
	(ulimit -v $lim && $SYSLET_RUN --backend=$b --each big.slo \
		/nonexistent.fm/0) >out.txt 2>err.txt || st=$?
	[ $st = 1 ] && grep -q '^syslet-run: /nonexistent.fm/0: cat stopped' err.txt ||
		skip "syslet-run does not run one instance under ulimit -v $lim on $b (status $st, a sanitizer build?): $(head -n 2 err.txt)"
	args=
	i=1
	while [ $i -le 200 ]; do
		args="$args /nonexistent.fm/$i"
		[ $i = 100 ] && args="$args there"
		i=$((i + 1))
	done
	st=0
	# shellcheck disable=SC2086
	(ulimit -v $lim && $SYSLET_RUN --backend=$b --each big.slo $args) \
		>out.txt 2>err.txt || st=$?
	expect_eq "$b: status" 1 "$st"
	grep -q 'cannot map' err.txt && fail "$b: $(grep -m 1 'cannot map' err.txt)"
	expect_eq "$b: the file" "the one file" "$(cat out.txt)"
	grep '^syslet-run: /nonexistent.fm/[0-9]*: cat stopped at atom 0 .*open("/nonexistent.fm/[0-9]*", O_RDONLY) = -2 ENOENT$' \
		err.txt | sed 's|^syslet-run: /nonexistent.fm/\([0-9]*\):.*|\1|' >got.txt
	seq 1 200 >want.txt
	cmp -s got.txt want.txt ||
		fail "$b: the reports are not the 200 stops in order: $(head -n 3 err.txt)"
	expect_eq "$b: lines on stderr" 200 "$(wc -l <err.txt | tr -d ' ')"
done
exit 0
