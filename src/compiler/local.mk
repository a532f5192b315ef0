# src/compiler/local.mk: layout, emit and the sysletc command (see compiler.h).
noinst_HEADERS += src/compiler/ir.h

# The back end alone (IR -> laid-out image), testable without the front end.
noinst_LTLIBRARIES += src/compiler/libback.la
src_compiler_libback_la_SOURCES = src/compiler/layout.c src/compiler/emit.c
