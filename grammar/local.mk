# grammar/local.mk: scanner, parser and syntax tree (diagnostics so far).
noinst_LTLIBRARIES += grammar/libgrammar.la
grammar_libgrammar_la_SOURCES = grammar/diag.c grammar/diag.h
