# tests/sysletc.mk: the compiler's back end (layout, emit) and the sysletc command.
if HAVE_CMOCKA
check_PROGRAMS += tests/sysletc/back
TESTS += tests/sysletc/back
tests_sysletc_back_SOURCES = tests/sysletc/back.c tests/sysletc/irb.h
tests_sysletc_back_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_sysletc_back_LDADD = src/compiler/libback.la src/compiler/libir.la src/image/libimage.la \
	src/common/libcommon.la grammar/libgrammar.la $(CMOCKA_LIBS)
endif

# handmade: builds an image from IR by hand (no front end, no cmocka).
check_PROGRAMS += tests/sysletc/handmade
tests_sysletc_handmade_SOURCES = tests/sysletc/handmade.c tests/sysletc/irb.h
tests_sysletc_handmade_LDADD = src/compiler/libback.la src/compiler/libir.la src/image/libimage.la \
	src/common/libcommon.la grammar/libgrammar.la
TESTS += tests/sysletc/link.sh
EXTRA_DIST += tests/sysletc/link.sh tests/sysletc/link-main.c \
	tests/sysletc/handmade-x86_64.S tests/sysletc/handmade-i386.S \
	tests/sysletc/handmade-i386-2007.S tests/sysletc/handmade-x86_64.dot \
	tests/sysletc/handmade-x86_64.h

# Golden listings, a test each (tests/local.mk; golden.sh: NAME.syslet
# against NAME.S).
GOLDEN_GLOBS += tests/sysletc/golden/*.syslet
EXTRA_DIST += tests/sysletc/golden.sh \
	$(wildcard $(srcdir)/tests/sysletc/golden/*.S)
TESTS += tests/sysletc/cli.sh tests/sysletc/output.sh tests/sysletc/gone-cwd.sh tests/sysletc/failmem.sh tests/sysletc/stdfds.sh tests/sysletc/same-file.sh \
	tests/sysletc/names-quoted.sh
# A diagnostic about a very long name keeps its end.
TESTS += tests/sysletc/long-names.sh
# A linked image's cells are saved and restored as one block.
TESTS += tests/sysletc/cells-block.sh
EXTRA_DIST += tests/sysletc/cells-block.sh
EXTRA_DIST += tests/sysletc/long-names.sh
# Each diagnostic is written in one go.
TESTS += tests/sysletc/errwrites.sh
EXTRA_DIST += tests/sysletc/errwrites.sh
# A UTF-8 byte order mark at the start of a source is skipped.
TESTS += tests/sysletc/bom.sh
EXTRA_DIST += tests/sysletc/bom.sh
# -H's header compiles after the standard headers whatever the names.
TESTS += tests/sysletc/header-libc.sh
EXTRA_DIST += tests/sysletc/header-libc.sh
# -H's header compiles whatever bytes a crafted entry name holds.
TESTS += tests/sysletc/header-comment.sh
EXTRA_DIST += tests/sysletc/header-comment.sh
# -H's header named as one of libsyslet's keeps that one visible.
TESTS += tests/sysletc/header-guard.sh
EXTRA_DIST += tests/sysletc/header-guard.sh
# Comparisons at the ends of the signed range, run on emul and uring.
TESTS += tests/sysletc/compare-ends.sh
EXTRA_DIST += tests/sysletc/compare-ends.sh
EXTRA_DIST += tests/sysletc/cli.sh tests/sysletc/output.sh tests/sysletc/gone-cwd.sh tests/sysletc/failmem.sh tests/sysletc/stdfds.sh tests/sysletc/names-quoted.sh \
	tests/sysletc/same-file.sh
# Doubling any input at most triples sysletc's time (tests/lib/linear.sh).
TESTS += tests/sysletc/linear.sh tests/sysletc/list-big.sh
EXTRA_DIST += tests/sysletc/linear.sh tests/lib/linear.sh tests/sysletc/list-big.sh
# More statements than an image has atoms: refused before they cost memory.
TESTS += tests/sysletc/atom-flood.sh
EXTRA_DIST += tests/sysletc/atom-flood.sh
TESTS += tests/sysletc/examples.sh tests/sysletc/corrupt.sh
EXTRA_DIST += tests/sysletc/examples.sh tests/sysletc/corrupt.sh
# Symbol prefixes, and images of format 1 (made by sysletc 0.1.0).
TESTS += tests/sysletc/prefix.sh tests/sysletc/params-section.sh
EXTRA_DIST += tests/sysletc/params-section.sh
EXTRA_DIST += tests/sysletc/prefix.sh tests/sysletc/v1/cat-x86_64.slo \
	tests/sysletc/v1/cat-i386.slo tests/sysletc/v1/entries-x86_64.slo \
	tests/sysletc/v1/cat.syslet

# semantics: front + layout + emit on real sources; the image runs the
# same atoms as the IR did, for random stop outcomes.
check_PROGRAMS += tests/sysletc/semantics
tests_sysletc_semantics_SOURCES = tests/sysletc/semantics.c
tests_sysletc_semantics_LDADD = src/compiler/libcompiler.la
TESTS += tests/sysletc/semantics.sh
EXTRA_DIST += tests/sysletc/semantics.sh

# Two images that share every name, linked into one C program through
# their prefixes (two-a.slo's default, two_a; --prefix=beta), -m64 and,
# where 32-bit programs run, -m32.  Images and headers are made here, so
# the program is linked as a user links it.
two_m64 = tests/sysletc/m64/two-a.slo tests/sysletc/m64/two-b.slo
two_m32 = tests/sysletc/m32/two-a.slo tests/sysletc/m32/two-b.slo
two_src = $(srcdir)/tests/sysletc/two-a.syslet $(srcdir)/tests/sysletc/two-b.syslet
tests/sysletc/m64/two-a.slo: $(two_src) sysletc$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/sysletc/m64 && \
	./sysletc --target=x86_64 -H tests/sysletc/m64/two-a.h -o $@ \
		$(srcdir)/tests/sysletc/two-a.syslet
tests/sysletc/m64/two-b.slo: $(two_src) sysletc$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/sysletc/m64 && \
	./sysletc --target=x86_64 --prefix=beta -H tests/sysletc/m64/two-b.h \
		-o $@ $(srcdir)/tests/sysletc/two-b.syslet
tests/sysletc/m32/two-a.slo: $(two_src) sysletc$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/sysletc/m32 && \
	./sysletc --target=i386 -H tests/sysletc/m32/two-a.h -o $@ \
		$(srcdir)/tests/sysletc/two-a.syslet
tests/sysletc/m32/two-b.slo: $(two_src) sysletc$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tests/sysletc/m32 && \
	./sysletc --target=i386 --prefix=beta -H tests/sysletc/m32/two-b.h \
		-o $@ $(srcdir)/tests/sysletc/two-b.syslet
EXTRA_DIST += tests/sysletc/two-main.c $(two_src:$(srcdir)/%=%)
CLEANFILES += $(two_m64) $(two_m32) $(two_m64:.slo=.h) $(two_m32:.slo=.h)

check_PROGRAMS += tests/sysletc/two-images
TESTS += tests/sysletc/two-images
tests_sysletc_two_images_SOURCES = tests/sysletc/two-main.c
tests_sysletc_two_images_CPPFLAGS = $(AM_CPPFLAGS) -I$(builddir)/tests/sysletc/m64
tests_sysletc_two_images_LDADD = $(two_m64) src/lib/libsyslet.la
tests_sysletc_two_images_DEPENDENCIES = $(two_m64) src/lib/libsyslet.la
$(tests_sysletc_two_images_OBJECTS): $(two_m64)
if HAVE_M32
check_PROGRAMS += tests/sysletc/two-images32
TESTS += tests/sysletc/two-images32
tests_sysletc_two_images32_SOURCES = tests/sysletc/two-main.c
tests_sysletc_two_images32_CPPFLAGS = $(AM_CPPFLAGS) -I$(builddir)/tests/sysletc/m32
tests_sysletc_two_images32_CFLAGS = $(AM_CFLAGS) -m32 -pthread
tests_sysletc_two_images32_LDFLAGS = -m32 -pthread
tests_sysletc_two_images32_LDADD = $(two_m32) tests/runtime/libsyslet32.la
tests_sysletc_two_images32_DEPENDENCIES = $(two_m32) tests/runtime/libsyslet32.la
$(tests_sysletc_two_images32_OBJECTS): $(two_m32)
endif
