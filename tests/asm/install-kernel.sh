#!/bin/sh
# install-kernel.sh: asm-i386/install-kernel.sh puts the files in place, once, in a 6.12-shaped tree.
. "$top_srcdir/tests/lib/harness.sh"
inst=$top_srcdir/asm-i386/install-kernel.sh
k=$tmpdir/linux
mkdir -p "$k/arch/x86/lib" "$k/arch/x86/include/asm" "$k/arch/x86/entry"
# The shape of 6.12's arch/x86/lib/Makefile around the X86_32 block.
cat >"$k/arch/x86/lib/Makefile" <<'MK'
obj-y += iomem.o

ifeq ($(CONFIG_X86_32),y)
        obj-y += atomic64_32.o
        lib-y += checksum_32.o
else
        lib-y += clear_page_64.o
endif
MK
printf 'SYM_CODE_END(rewind_stack_and_make_dead)\n.popsection\n' \
	>"$k/arch/x86/entry/entry_32.S"

"$inst" --entry "$k" || fail "install failed"
"$inst" --entry "$k" || fail "second install failed"

for f in arch/x86/lib/syslet_32.S arch/x86/include/asm/syslet-asm.h \
	 arch/x86/lib/syslet_kunit.c arch/x86/entry/syslet_entry_32.S; do
	cmp -s "$top_srcdir/asm-i386/$(basename "$f")" "$k/$f" ||
		fail "$f not installed"
done
expect_eq "one Makefile line" 1 \
	"$(grep -c 'obj-$(CONFIG_SYSLET) += syslet_32.o' "$k/arch/x86/lib/Makefile")"
# The line sits in the X86_32 half, before the else.
expect_eq "in the X86_32 block" \
	"        obj-\$(CONFIG_SYSLET) += syslet_32.o" \
	"$(sed -n '/^ifeq ($(CONFIG_X86_32),y)$/{n;p;}' "$k/arch/x86/lib/Makefile")"
expect_eq "kunit test only when built in" \
	"ifeq (\$(CONFIG_KUNIT),y)|        obj-\$(CONFIG_SYSLET) += syslet_kunit.o|endif" \
	"$(sed -n '/^ifeq ($(CONFIG_X86_32),y)$/{n;n;N;N;s/\n/|/g;p;}' "$k/arch/x86/lib/Makefile")"
expect_eq "make still balanced" \
	"$(grep -c '^ifeq\|^ifneq' "$k/arch/x86/lib/Makefile")" \
	"$(grep -c '^endif' "$k/arch/x86/lib/Makefile")"
expect_eq "one include" 1 \
	"$(grep -c '^#include "syslet_entry_32.S"$' "$k/arch/x86/entry/entry_32.S")"
expect_eq "include last" '#include "syslet_entry_32.S"' \
	"$(tail -n 1 "$k/arch/x86/entry/entry_32.S")"

# Not a kernel tree: a clear message and a failure, nothing written.
"$inst" "$tmpdir/nothing" 2>"$tmpdir/err" && fail "accepted a non-tree"
grep -q "does not look like a linux source tree" "$tmpdir/err" ||
	fail "no clear message: $(cat "$tmpdir/err")"
"$inst" 2>/dev/null; expect_eq "usage status" 2 "$?"
exit 0
