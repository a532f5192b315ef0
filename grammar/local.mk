# grammar/local.mk: scanner, parser and syntax tree, as one convenience library.
# The generated scanner and parser build in a library of their own so they
# get $(GEN_CFLAGS) instead of the house warnings; a tarball ships them.
AM_YFLAGS = -d -Wall -Wno-yacc
noinst_LTLIBRARIES += grammar/libgrammar-gen.la grammar/libgrammar.la
grammar_libgrammar_gen_la_SOURCES = grammar/parser.y grammar/scanner.l
grammar_libgrammar_gen_la_CFLAGS = $(GEN_CFLAGS)
grammar_libgrammar_la_SOURCES = grammar/diag.c grammar/diag.h \
	grammar/words.c grammar/words.h \
	grammar/ast.c grammar/ast.h grammar/parse.h
grammar_libgrammar_la_LIBADD = grammar/libgrammar-gen.la
BUILT_SOURCES += grammar/parser.h
