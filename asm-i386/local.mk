# asm-i386/local.mk: the i386 routines; their user-space build is linked into the -m32 tests (tests/asm.mk).
# Kernel-only files are shipped for kernel-patch/, which copies them into
# the 6.12 tree (see asm-i386/README.md).
ASM_I386_USER_SOURCES = asm-i386/syslet_32.S asm-i386/syslet-asm.h \
	asm-i386/uasm.h asm-i386/uasm-fixup.c asm-i386/uatom-ref.c \
	asm-i386/uatom-ref.h
EXTRA_DIST += asm-i386/README.md asm-i386/syslet_entry_32.S \
	asm-i386/install-kernel.sh asm-i386/syslet_kunit.c
