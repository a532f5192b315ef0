#!/bin/sh
# install-kernel.sh: put the i386 routines into a linux 6.12 source tree (for kernel-patch/); idempotent.
#
# usage: install-kernel.sh [--entry] KERNEL_SRC
#
#   arch/x86/lib/syslet_32.S            copy_uatom, umem_add
#   arch/x86/include/asm/syslet-asm.h   offsets, layout asserts
#   arch/x86/lib/syslet_kunit.c         KUnit test of both, on user pages
#   arch/x86/lib/Makefile               obj-$(CONFIG_SYSLET) += syslet_32.o
#                                       in the CONFIG_X86_32 block (obj-,
#                                       not lib-: the __weak C versions
#                                       would otherwise win), and the test
#                                       when CONFIG_KUNIT=y (built-in only:
#                                       the routines are not exported)
#   --entry: also arch/x86/entry/syslet_entry_32.S and its #include at
#            the end of arch/x86/entry/entry_32.S (optional, see there)
#
# Run it on a git tree and "git diff" gives the patch for the series.
set -eu

me=$(basename "$0")
here=$(cd "$(dirname "$0")" && pwd)
entry=no
case ${1:-} in
--entry) entry=yes; shift ;;
-h|--help) sed -n '4,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
if [ $# -ne 1 ]; then
	echo "usage: $me [--entry] KERNEL_SRC" >&2
	exit 2
fi
k=$1
mk=$k/arch/x86/lib/Makefile
if [ ! -f "$mk" ] || [ ! -d "$k/arch/x86/include/asm" ]; then
	echo "$me: $k does not look like a linux source tree (no $mk)" >&2
	exit 1
fi

cp "$here/syslet_32.S" "$k/arch/x86/lib/syslet_32.S"
cp "$here/syslet-asm.h" "$k/arch/x86/include/asm/syslet-asm.h"
cp "$here/syslet_kunit.c" "$k/arch/x86/lib/syslet_kunit.c"

if ! grep -q 'syslet_32\.o' "$mk"; then
	grep -q '^ifeq ($(CONFIG_X86_32),y)$' "$mk" || {
		echo "$me: no 'ifeq (\$(CONFIG_X86_32),y)' block in $mk" >&2
		exit 1
	}
	sed -i '/^ifeq ($(CONFIG_X86_32),y)$/a\
        obj-$(CONFIG_SYSLET) += syslet_32.o\
ifeq ($(CONFIG_KUNIT),y)\
        obj-$(CONFIG_SYSLET) += syslet_kunit.o\
endif' "$mk"
fi

if [ "$entry" = yes ]; then
	e=$k/arch/x86/entry/entry_32.S
	if [ ! -f "$e" ]; then
		echo "$me: no $e" >&2
		exit 1
	fi
	cp "$here/syslet_entry_32.S" "$k/arch/x86/entry/syslet_entry_32.S"
	grep -q '^#include "syslet_entry_32.S"$' "$e" ||
		printf '\n#include "syslet_entry_32.S"\n' >>"$e"
fi
