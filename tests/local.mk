# tests/local.mk: the test suite; each part of the project adds its own fragment.
EXTRA_DIST += tests/lib/harness.sh
noinst_HEADERS += tests/lib/slurp.h
TESTS += tests/common/systab.sh
EXTRA_DIST += tests/common/systab.sh
check_PROGRAMS += tests/common/systab-dump
tests_common_systab_dump_SOURCES = tests/common/systab-dump.c
tests_common_systab_dump_LDADD = src/common/libcommon.la

include tests/compiler.mk
include tests/image.mk
include tests/sysletc.mk
include tests/runtime.mk
include tests/diff.mk
include tests/kernel.mk
include tests/shell.mk
include tests/asm.mk
include tests/run.mk

check_PROGRAMS += tests/common/abi-layout
TESTS += tests/common/abi-layout
include tests/man.mk

# The whole-file reader shared by sysletc, the image reader and syslet-run.
if HAVE_CMOCKA
check_PROGRAMS += tests/common/readfile
TESTS += tests/common/readfile
tests_common_readfile_SOURCES = tests/common/readfile.c
tests_common_readfile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_common_readfile_LDADD = src/common/libcommon.la $(CMOCKA_LIBS)
endif
