#!/bin/sh
# addresses.sh: what syslet(5) says of addresses and strings: NAME + OFFSET in arguments, addresses in variables moved by +=, adjacent strings joined, offsets checked.
. "$top_srcdir/tests/lib/harness.sh"
cd "$tmpdir" || exit 99

cat >addr.syslet <<'EOS'
const SIZE = 16;
buffer buf[SIZE];
data msg = "0123" "456789\n";		/* one string, one NUL */
data two = "ab\n", "cd\n";		/* a NUL after the last only */

syslet main() {
	var n, p;

	n = read(0, buf + 4, 8);		/* into the middle of buf */
	write(1, buf + 4, n);
	write(1, buf + (SIZE - 12), 2);		/* a compound offset */
	write(1, "\n", 1);
	write(1, msg + 7, len(msg) - 7);
	write(1, "x" /* a comment */ "y"
		 "z\n" + 1, 3);			/* "xyz\n" + 1 */
	p = msg + 4;				/* an address in a variable */
	write(1, p, 3);
	p += 2;					/* moved on by two bytes */
	write(1, p, 4);
	write(1, two + 3, 3);
	write(1, msg + sizeof(msg), 0);		/* just past the end */
	write(1, msg, sizeof(msg));		/* 11 bytes and a NUL */
	write(1, two, sizeof(two));		/* 6 bytes and a NUL */
}
EOS
printf 'hello' | $SYSLET_RUN addr.syslet >out.txt 2>err.txt || fail "addr.syslet: $(cat err.txt)"
printf 'hellohe\n789\nyz\n4566789cd\n0123456789\n\000ab\ncd\n\000' >exp.txt
cmp exp.txt out.txt || fail "addresses and strings: $(od -c out.txt)"

# Offsets outside the object, before the name or run-time, are errors.
for bad in 'buf - 1:offset -1 is outside '"'"'buf'"'"' (16 bytes)' \
	   'buf + 17:offset 17 is outside '"'"'buf'"'"' (16 bytes)' \
	   'msg + 12:offset 12 is outside '"'"'msg'"'"' (11 bytes)' \
	   '"abc" + 4:offset 4 is outside the string (3 bytes)' \
	   'buf + n:would be computed at run time' \
	   'buf + SIZE - 1:would be computed at run time'; do
	arg=${bad%%:*} msg=${bad#*:}
	printf 'buffer buf[16];\ndata msg = "0123456789";\nconst SIZE = 16;\nsyslet main() {\n\tvar n;\n\twrite(1, %s, 1);\n}\n' "$arg" >bad.syslet
	$SYSLETC -o bad.slo bad.syslet 2>err.txt && fail "'$arg' compiled"
	grep -qF "$msg" err.txt || fail "'$arg': $(cat err.txt)"
done
exit 0
