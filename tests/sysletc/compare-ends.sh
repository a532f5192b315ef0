#!/bin/sh
# compare-ends.sh: comparisons at the ends of the signed range (v OP -2^63, x++ OP 2^63 - 1, x-- OP -2^63) and the constant -2^63 / -1 give what syslet(5) says, on emul and uring.
. "$top_srcdir/tests/lib/harness.sh"

# Each test writes 1 when true, 0 when false.  syslet(5), Conditions:
# "The answer is C's comparison of signed words for every value", and
# "A test of x++ or x-- is made on the value after the step ... at the
# end of the range ... it sees the wrapped value" (new OP k + 1 or
# k - 1, exactly); Constants: a result from -2^63 to 2^64 - 1 is kept.
cat >"$tmpdir/ends.syslet" <<'EOF'
const MIN = -0x8000000000000000;
const MAX = 0x7fffffffffffffff;
var m = MIN, u = -3, p = 7, z, x = 5, y = 5, top = MAX, bot = MIN;
syslet main() {
	if (m <= MIN) write(1, "1", 1); else write(1, "0", 1);
	if (u <= MIN) write(1, "1", 1); else write(1, "0", 1);
	if (m < MIN) write(1, "1", 1); else write(1, "0", 1);
	if (u > 0x8000000000000000) write(1, "1", 1); else write(1, "0", 1);
	if (p > MIN) write(1, "1", 1); else write(1, "0", 1);
	if (m >= MIN) write(1, "1", 1); else write(1, "0", 1);
	if (m == MIN) write(1, "1", 1); else write(1, "0", 1);
	if (u != MIN) write(1, "1", 1); else write(1, "0", 1);
	write(1, " ", 1);
	if (x-- > MIN) write(1, "1", 1); else write(1, "0", 1);
	if (x-- <= MIN) write(1, "1", 1); else write(1, "0", 1);
	if (y++ < MAX) write(1, "1", 1); else write(1, "0", 1);
	if (y++ >= MAX) write(1, "1", 1); else write(1, "0", 1);
	if (top++ < MAX) write(1, "1", 1); else write(1, "0", 1);
	if (bot-- > MIN) write(1, "1", 1); else write(1, "0", 1);
	if (x == 3) write(1, "1", 1); else write(1, "0", 1);
	if (top == MIN) write(1, "1", 1); else write(1, "0", 1);
	write(1, " ", 1);
	z = (MIN / -1) - 1;
	if (z == MAX) write(1, "1", 1); else write(1, "0", 1);
	write(1, "\n", 1);
}
EOF
want="10011111 10101111 1"
ran=0
for b in emul uring; do
	st=0
	$SYSLET_RUN --backend=$b "$tmpdir/ends.syslet" >"$tmpdir/out" \
		2>"$tmpdir/err" || st=$?
	if [ $st = 2 ] && grep -q "backend" "$tmpdir/err" &&
	   ! grep -q "error:" "$tmpdir/err"; then
		echo "$b: not here: $(cat "$tmpdir/err")"
		continue
	fi
	[ $st = 0 ] || { cat "$tmpdir/err" >&2; fail "$b: status $st"; }
	expect_eq "$b" "$want" "$(cat "$tmpdir/out")"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither emul nor uring runs here"
