#!/bin/sh
# no-m32.sh: stands in for the asm-i386 tests when gcc -m32 cannot link here.
echo "SKIP: $CC -m32 cannot build programs (Debian: gcc-multilib); asm-i386 tests not built"
exit 77
