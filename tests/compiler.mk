# tests/compiler.mk: unit and golden tests of the front end (grammar, lowering, diagnostics, fuzz replay).
if HAVE_CMOCKA
check_PROGRAMS += tests/grammar/diag
TESTS += tests/grammar/diag
tests_grammar_diag_SOURCES = tests/grammar/diag.c
tests_grammar_diag_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_grammar_diag_LDADD = grammar/libgrammar.la $(CMOCKA_LIBS)
endif

# front-dump: sysletc_front() on one file -> diagnostics or an IR dump.
check_PROGRAMS += tests/compiler/front-dump
tests_compiler_front_dump_SOURCES = tests/compiler/front-dump.c
tests_compiler_front_dump_LDADD = src/compiler/libfront.la

TESTS += tests/compiler/diag.sh tests/compiler/lower.sh \
	tests/compiler/examples.sh
EXTRA_DIST += tests/compiler/diag.sh tests/compiler/lower.sh \
	tests/compiler/examples.sh \
	$(wildcard $(srcdir)/tests/compiler/diag/*.syslet) \
	$(wildcard $(srcdir)/tests/compiler/diag/*.err) \
	$(wildcard $(srcdir)/tests/compiler/lower/*.syslet) \
	$(wildcard $(srcdir)/tests/compiler/lower/*.ir)
