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

TESTS += tests/sysletc/golden.sh
EXTRA_DIST += tests/sysletc/golden.sh \
	$(wildcard $(srcdir)/tests/sysletc/golden/*.syslet) \
	$(wildcard $(srcdir)/tests/sysletc/golden/*.S)
TESTS += tests/sysletc/cli.sh tests/sysletc/output.sh
EXTRA_DIST += tests/sysletc/cli.sh tests/sysletc/output.sh
# Doubling any input at most triples sysletc's time (tests/lib/linear.sh).
TESTS += tests/sysletc/linear.sh
EXTRA_DIST += tests/sysletc/linear.sh tests/lib/linear.sh
TESTS += tests/sysletc/examples.sh tests/sysletc/corrupt.sh
EXTRA_DIST += tests/sysletc/examples.sh tests/sysletc/corrupt.sh

# semantics: front + layout + emit on real sources; the image runs the
# same atoms as the IR did, for random stop outcomes.
check_PROGRAMS += tests/sysletc/semantics
tests_sysletc_semantics_SOURCES = tests/sysletc/semantics.c
tests_sysletc_semantics_LDADD = src/compiler/libcompiler.la
TESTS += tests/sysletc/semantics.sh
EXTRA_DIST += tests/sysletc/semantics.sh
