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
# tests/image/corpus-run/.  The target is read-fuzz.c linked with the
# replay program's libraries, built in the fuzz build (tests/local.mk).
EXTRA_DIST += tests/image/read-fuzz.c
tests/image/read-fuzz-libfuzzer: tests/image/read-fuzz.c \
		$(tests_image_read_fuzz_DEPENDENCIES)
	$(AM_V_CCLD)$(fuzz_link) -o $@ $< $(tests_image_read_fuzz_LDADD) $(LIBS)
fuzz-image: sysletc$(EXEEXT)
	$(fuzz_build) tests/image/read-fuzz-libfuzzer
	$(MKDIR_P) tests/image/corpus-run
	for f in $(srcdir)/examples/*.syslet; do \
		for t in x86_64 i386 i386-2007; do \
			./sysletc$(EXEEXT) --target=$$t -o tests/image/corpus-run/$$(basename $$f .syslet)-$$t.slo $$f 2>/dev/null; \
		done; \
	done; true
	$(FUZZ_DIR)/build/tests/image/read-fuzz-libfuzzer \
		-max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 \
		tests/image/corpus-run $(srcdir)/tests/image/corpus
.PHONY: fuzz-image
CLEANFILES += tests/image/read-fuzz-libfuzzer
TESTS += tests/image/valgrind.sh
EXTRA_DIST += tests/image/valgrind.sh

# Every input the image fuzzer found, replayed by make check: the target
# above built as a plain program (tests/image/corpus/README).
check_PROGRAMS += tests/image/read-fuzz
tests_image_read_fuzz_SOURCES = tests/image/read-fuzz.c tests/image/fuzz-replay.h
tests_image_read_fuzz_LDADD = src/image/libimage.la src/common/libcommon.la \
	$(LIBELF_LIBS)
TESTS += tests/image/replay.sh
EXTRA_DIST += tests/image/replay.sh tests/image/corpus/README \
	$(wildcard $(srcdir)/tests/image/corpus/*.slo)

# The same for libsyslet: open_mem, the accessors, an instance and its
# binding (obj-fuzz.c); `make fuzz-obj [FUZZ_SECONDS=N]` runs libFuzzer
# on it, seeded with the examples and tests/image/obj-corpus/, finds in
# tests/image/obj-corpus-run/.
check_PROGRAMS += tests/image/obj-fuzz
tests_image_obj_fuzz_SOURCES = tests/image/obj-fuzz.c tests/image/fuzz-replay.h
tests_image_obj_fuzz_LDADD = src/lib/libsyslet.la
TESTS += tests/image/obj-replay.sh
EXTRA_DIST += tests/image/obj-replay.sh tests/image/obj-corpus/README \
	$(wildcard $(srcdir)/tests/image/obj-corpus/*.slo)
tests/image/obj-fuzz-libfuzzer: tests/image/obj-fuzz.c \
		$(tests_image_obj_fuzz_DEPENDENCIES)
	$(AM_V_CCLD)$(fuzz_link) -o $@ $< $(tests_image_obj_fuzz_LDADD) $(LIBS)
fuzz-obj: sysletc$(EXEEXT)
	$(fuzz_build) tests/image/obj-fuzz-libfuzzer
	$(MKDIR_P) tests/image/obj-corpus-run
	for f in $(srcdir)/examples/*.syslet; do \
		./sysletc$(EXEEXT) -o tests/image/obj-corpus-run/$$(basename $$f .syslet).slo $$f 2>/dev/null; \
	done; true
	$(FUZZ_DIR)/build/tests/image/obj-fuzz-libfuzzer \
		-max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 \
		tests/image/obj-corpus-run $(srcdir)/tests/image/obj-corpus
.PHONY: fuzz-obj
CLEANFILES += tests/image/obj-fuzz-libfuzzer

# Images no sysletc writes, made from one it wrote: shared strings that a
# reader copying each would multiply (craft.c).
check_PROGRAMS += tests/image/craft
tests_image_craft_SOURCES = tests/image/craft.c
tests_image_craft_LDADD = src/lib/libsyslet.la src/image/libimage.la \
	src/common/libcommon.la $(LIBELF_LIBS)
TESTS += tests/image/crafted.sh tests/image/overlap.sh tests/image/trailing.sh \
	tests/image/dupnames.sh tests/image/described.sh tests/image/reloc-field.sh \
	tests/image/shinfo.sh tests/image/entry-size.sh tests/image/cell-size.sh \
	tests/image/elf-header.sh tests/image/self-nr.sh tests/image/relinked.sh \
	tests/image/rel-link.sh
EXTRA_DIST += tests/image/crafted.sh tests/image/overlap.sh tests/image/trailing.sh \
	tests/image/dupnames.sh tests/image/described.sh tests/image/reloc-field.sh \
	tests/image/shinfo.sh tests/image/entry-size.sh tests/image/cell-size.sh \
	tests/image/elf-header.sh tests/image/self-nr.sh tests/image/relinked.sh \
	tests/image/rel-link.sh tests/image/refused.sh

# Images mutated from the examples, seeded (mutate.c), listed and run.
check_PROGRAMS += tests/image/mutate
tests_image_mutate_SOURCES = tests/image/mutate.c
TESTS += tests/image/mutate.sh
EXTRA_DIST += tests/image/mutate.sh
