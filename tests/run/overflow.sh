#!/bin/sh
# overflow.sh: a call that writes past a buffer, a cell or a str parameter faults in the syslet's own instance (EFAULT or a short count): the runner and the other instances of --each live on.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

# traced_result FILE SYSCALL: the results of SYSCALL's atoms in a trace.
traced_results() {
	sed -n "s/.*\] $2(.*) = \(-*[0-9]*\).*/\1/p" "$1"
}
# A short count (less than a page) or -EFAULT, nothing else.
contained() {
	for r in $1; do
		[ "$r" = -14 ] || [ "$r" -ge 0 -a "$r" -lt 4096 ] ||
			fail "$2: the call wrote $r bytes"
	done
	[ -n "$1" ] || fail "$2: no result traced"
}

# 64 KiB into 16 bytes, the length in a variable so that no compiler
# check stands in the way: the runtime alone must contain it.
cat >ovf.syslet <<'SYSLET'
buffer small[16];
var count = 65536;
syslet ovf() {
	read(0, small, count);
	write(1, "alive\n", 6);
}
SYSLET
head -c 65536 /dev/zero | tr '\0' '\377' >64k
st=0
$SYSLET_RUN --backend=emul --trace ovf.syslet <64k >out 2>trace || st=$?
[ "$st" -lt 2 ] || { cat trace >&2; fail "buffer overflow: status $st"; }
expect_eq "after the overflow" alive "$(cat out)"
contained "$(traced_results trace read)" "read(0, small, 65536)"

# Through a str parameter: read-only, so EFAULT at once.  Then through
# a cell's address: what follows the cell in the instance is its own to
# spoil (the constant 1 and the string's address among them), but the
# runner must survive it.
cat >cell.syslet <<'SYSLET'
var x, count = 65536;
syslet cell(str p) {
	read(0, p, count);
	write(1, "alive\n", 6);
	read(0, &x, count);
}
SYSLET
st=0
$SYSLET_RUN --backend=emul --trace cell.syslet some-path <64k >out \
	2>trace || st=$?
[ "$st" -lt 2 ] || { cat trace >&2; fail "cell overflow: status $st"; }
expect_eq "after writing to a str parameter" alive "$(cat out)"
grep -q '\] read(0, [^,]*, 65536) = -14 EFAULT' trace ||
	{ cat trace >&2; fail "a str parameter was written"; }
contained "$(traced_results trace read | tail -n 1)" "read(0, &x, 65536)"

# --each: eight instances each read 1 MiB into 16 bytes; each must still
# run its own atoms, with its own cells, to the end.
cat >each.syslet <<'SYSLET'
buffer b[16];
var n = 1048576;
syslet each(str path) {
	var fd;
	fd = open(path, O_RDONLY);
	if (fd < 0) stop;
	n = read(fd, b, n);
	close(fd);
	write(1, "done\n", 5);
}
SYSLET
head -c 1048576 /dev/zero | tr '\0' '\1' >f1
for i in 2 3 4 5 6 7 8; do cp f1 f$i; done
st=0
$SYSLET_RUN --backend=emul --trace --each each.syslet f1 f2 f3 f4 f5 f6 \
	f7 f8 >out 2>trace || st=$?
[ "$st" = 0 ] || { cat trace >&2; fail "--each overflow: status $st"; }
expect_eq "--each: every instance ran to its end" 8 "$(grep -c '^done$' out)"
expect_eq "--each: reads traced" 8 "$(traced_results trace read | wc -l)"
contained "$(traced_results trace read)" "--each read(fd, b, 1048576)"
# Reads that went async let instances overlap: descriptors differ.
expect_eq "--each: opens that failed" "" \
	"$(traced_results trace open | grep -v '^[0-9][0-9]*$')"
expect_eq "--each: close results" 0 "$(traced_results trace close | sort -u)"
expect_eq "--each: write results" 5 "$(traced_results trace write | sort -u)"
exit 0
