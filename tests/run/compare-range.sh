#!/bin/sh
# compare-range.sh: a comparison with a constant answers as C's signed comparison of words for every value, those far from 0 included (n = -2^63 + 2 is not > 5), for a variable, an element, an assignment and a call as its subject, on every user-space backend; expected answers from the shell's arithmetic, not from our compiler.
. "$top_srcdir/tests/lib/harness.sh"
. "$top_srcdir/tests/run/lib-backends.sh"
cd "$tmpdir" || exit 99
[ "$(getconf LONG_BIT 2>/dev/null)" = 64 ] ||
	skip "the values are 64-bit words (LONG_BIT $(getconf LONG_BIT))"
[ $((9223372036854775807 + 0)) = 9223372036854775807 ] ||
	skip "this shell's arithmetic is narrower than 64 bits"

# The values tested, and the constants, around 0 and at both ends.
min=-9223372036854775808 max=9223372036854775807
vals="$min $((min + 1)) $((min + 2)) $((min + 5)) -6 -5 -4 -1 0 1 4 5 6
	$((max - 5)) $((max - 2)) $((max - 1)) $max"
ks="$((min + 1)) $((min + 2)) -6 -5 -1 1 5 6 $((max - 2)) $max"
ops="< <= > >= == !="

# One case per value, constant, operator and subject: the program writes
# T or F for each, in order; the shell computes what C says.
{
	echo 'word w[1];'
	echo 'syslet main() {'
	echo '	var v, n;'
} >cmp.syslet
: >expected
for v in $vals; do
	# v itself: the constant -2^63 has no literal, as in C.
	if [ "$v" = "$min" ]; then
		echo "	v = $((min + 1)); v--; w[0] = v;" >>cmp.syslet
	else
		echo "	v = $v; w[0] = v;" >>cmp.syslet
	fi
	for k in $ks; do
		for op in $ops; do
			for subj in v 'w[0]' '(n = v)' 'umem_add(&v, 0)'; do
				printf '\tif (%s %s %s) write(1, "T", 1); else write(1, "F", 1);\n' \
					"$subj" "$op" "$k" >>cmp.syslet
				if [ $((v $op k)) = 1 ]; then t=T; else t=F; fi
				printf %s "$t" >>expected
			done
		done
	done
done
echo '}' >>cmp.syslet
echo >>expected

"$SYSLETC" -o cmp.slo cmp.syslet 2>err || { cat err >&2; fail "sysletc"; }
for b in $backends; do
	st=0
	"$SYSLET_RUN" --backend="$b" cmp.slo >out 2>err || st=$?
	[ $st = 0 ] || { cat err >&2; fail "$b: exit status $st"; }
	echo >>out
	if ! cmp -s expected out; then
		# Name the first case that differs.
		i=$(cmp expected out 2>/dev/null | sed -n 's/.* byte \([0-9]*\),.*/\1/p')
		line=$(grep -n 'if (' cmp.syslet | sed -n "${i:-1}p")
		fail "$b: case $i answers $(cut -c"${i:-1}" out), C says" \
			"$(cut -c"${i:-1}" expected): $line"
	fi
done
exit 0
