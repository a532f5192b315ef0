# tests/image.mk: unit tests of the image model.
if HAVE_CMOCKA
check_PROGRAMS += tests/image/model
TESTS += tests/image/model
tests_image_model_SOURCES = tests/image/model.c
tests_image_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_image_model_LDADD = src/image/libimage.la src/common/libcommon.la $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/image/elf
TESTS += tests/image/elf
tests_image_elf_SOURCES = tests/image/elf.c tests/image/sample.h
tests_image_elf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_image_elf_LDADD = src/image/libimage.la src/common/libcommon.la $(CMOCKA_LIBS)
endif

# `make fuzz-image [FUZZ_SECONDS=N]`: libFuzzer (clang, ASan, UBSan) on
# slo_image_read_mem() and the printers, seeded with the examples
# compiled for every target and tests/image/corpus/; finds land in
# tests/image/corpus-run/.
IMAGE_FUZZ_SRCS = tests/image/read-fuzz.c src/image/image.c \
	src/image/verify.c src/image/elf-write.c src/image/elf-read.c \
	src/image/describe.c src/image/list.c src/image/dot.c \
	src/image/header.c src/common/systab.c src/common/readfile.c \
	src/common/hidx.c src/common/consts.c
EXTRA_DIST += tests/image/read-fuzz.c
tests/image/read-fuzz-libfuzzer: $(IMAGE_FUZZ_SRCS:%=$(srcdir)/%) src/common/tables.c
	$(AM_V_CC)$(MKDIR_P) tests/image && $(FUZZ_CC) $(FUZZ_FLAGS) \
		$(AM_CPPFLAGS) $(IMAGE_FUZZ_SRCS:%=$(srcdir)/%) src/common/tables.c \
		$(LIBELF_CFLAGS) $(LIBELF_LIBS) -o $@
fuzz-image: tests/image/read-fuzz-libfuzzer sysletc$(EXEEXT)
	$(MKDIR_P) tests/image/corpus-run
	for f in $(srcdir)/examples/*.syslet; do \
		for t in x86_64 i386 i386-2007; do \
			./sysletc$(EXEEXT) --target=$$t -o tests/image/corpus-run/$$(basename $$f .syslet)-$$t.slo $$f 2>/dev/null; \
		done; \
	done; true
	./tests/image/read-fuzz-libfuzzer -max_total_time=$(FUZZ_SECONDS) \
		-max_len=16384 -timeout=10 tests/image/corpus-run \
		$(srcdir)/tests/image/corpus
.PHONY: fuzz-image
CLEANFILES += tests/image/read-fuzz-libfuzzer
TESTS += tests/image/valgrind.sh
EXTRA_DIST += tests/image/valgrind.sh

# Every input the image fuzzer found, replayed by make check: the target
# above built as a plain program (tests/image/corpus/README).
check_PROGRAMS += tests/image/read-fuzz
tests_image_read_fuzz_SOURCES = tests/image/read-fuzz.c
tests_image_read_fuzz_LDADD = src/image/libimage.la src/common/libcommon.la \
	$(LIBELF_LIBS)
TESTS += tests/image/replay.sh
EXTRA_DIST += tests/image/replay.sh tests/image/corpus/README \
	$(wildcard $(srcdir)/tests/image/corpus/*.slo)
