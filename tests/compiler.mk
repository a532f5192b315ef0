# tests/compiler.mk: unit and golden tests of the front end.
if HAVE_CMOCKA
check_PROGRAMS += tests/grammar/diag
TESTS += tests/grammar/diag
tests_grammar_diag_SOURCES = tests/grammar/diag.c
tests_grammar_diag_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_grammar_diag_LDADD = grammar/libgrammar.la $(CMOCKA_LIBS)
endif
