# tests/asm.mk: the i386 assembly (user-space build) against its C reference, built with -m32.
ASM_TEST_SOURCES = tests/asm/asm-test.c tests/asm/asm-test.h \
	$(ASM_I386_USER_SOURCES)
ASM_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/asm-i386 \
	-I$(top_srcdir)/tests/asm
ASM_TESTS = tests/asm/copy-uatom tests/asm/umem-add tests/asm/fixup

if HAVE_M32
check_PROGRAMS += $(ASM_TESTS)
TESTS += $(ASM_TESTS)
else
TESTS += tests/asm/no-m32.sh
endif
EXTRA_DIST += tests/asm/no-m32.sh

# The kernel files' installer needs no -m32.
TESTS += tests/asm/install-kernel.sh
EXTRA_DIST += tests/asm/install-kernel.sh

# Per-target flags: only these programs are 32-bit.
tests_asm_copy_uatom_SOURCES = tests/asm/copy-uatom.c $(ASM_TEST_SOURCES)
tests_asm_copy_uatom_CPPFLAGS = $(ASM_TEST_CPPFLAGS)
tests_asm_copy_uatom_CFLAGS = $(AM_CFLAGS) -m32
tests_asm_copy_uatom_CCASFLAGS = -m32
tests_asm_copy_uatom_LDFLAGS = -m32

tests_asm_umem_add_SOURCES = tests/asm/umem-add.c $(ASM_TEST_SOURCES)
tests_asm_umem_add_CPPFLAGS = $(ASM_TEST_CPPFLAGS)
tests_asm_umem_add_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_asm_umem_add_CCASFLAGS = -m32
tests_asm_umem_add_LDFLAGS = -m32 -pthread

tests_asm_fixup_SOURCES = tests/asm/fixup.c $(ASM_TEST_SOURCES)
tests_asm_fixup_CPPFLAGS = $(ASM_TEST_CPPFLAGS)
tests_asm_fixup_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_asm_fixup_CCASFLAGS = -m32
tests_asm_fixup_LDFLAGS = -m32 -pthread
