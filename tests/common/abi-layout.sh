#!/bin/sh
# abi-layout.sh: the ABI's compile-time checks (abi-layout.c) hold for -m64 and, where the compiler makes 32-bit code, -m32; a wrong value in them stops the compile.
. "$top_srcdir/tests/lib/harness.sh"
: "${CC:=cc}"
unit=$top_srcdir/tests/common/abi-layout.c
abi_cc() {
	$CC -std=gnu11 -Wall -Werror -fsyntax-only \
		-I"$top_srcdir/src/include" -I"$top_srcdir/asm-i386" "$@"
}
abi_cc -m64 "$unit" || fail "the ABI's checks fail with -m64"
echo "-m64: the layout checks hold"
# The checks bite: the same unit with one expected value wrong.
sed 's/SYSLET_STOP_MASK == 0x78/SYSLET_STOP_MASK == 0x79/' "$unit" \
	>"$tmpdir/wrong.c"
! cmp -s "$unit" "$tmpdir/wrong.c" || exit 99
abi_cc -m64 "$tmpdir/wrong.c" 2>"$tmpdir/err" &&
	fail "a wrong value in the checks compiled"
grep -q 'ABI: SYSLET_STOP_MASK == 0x79' "$tmpdir/err" ||
	{ cat "$tmpdir/err" >&2; fail "no message naming the failed check"; }
# Compiling needs no 32-bit C library, only the compiler's -m32.
echo 'int abi_probe;' >"$tmpdir/probe.c"
abi_cc -m32 "$tmpdir/probe.c" 2>"$tmpdir/err" ||
	skip "-m32 not checked: $CC does not compile 32-bit code here: $(head -n 1 "$tmpdir/err")"
abi_cc -m32 "$unit" || fail "the ABI's checks fail with -m32"
echo "-m32: the layout checks hold, with the i386 assembly's offsets"
