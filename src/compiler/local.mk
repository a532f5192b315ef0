# src/compiler/local.mk: layout, emit and the sysletc command (see compiler.h).
noinst_HEADERS += src/compiler/ir.h

# The IR's own helpers: the front end links them, and so do the back-end
# tests that build programs by hand without it.
noinst_LTLIBRARIES += src/compiler/libir.la
src_compiler_libir_la_SOURCES = src/compiler/ir.c src/compiler/ir-pass.c

# The back end alone (IR -> laid-out image), testable without the front end.
noinst_LTLIBRARIES += src/compiler/libback.la
src_compiler_libback_la_SOURCES = src/compiler/layout.c src/compiler/emit.c

# The whole compiler: front end, back end, image model, tables.
noinst_LTLIBRARIES += src/compiler/libcompiler.la
src_compiler_libcompiler_la_SOURCES = src/compiler/compile.c \
	src/compiler/compile-mem.c src/compiler/probe.c src/compiler/sysletc.h
src_compiler_libcompiler_la_LIBADD = src/compiler/libback.la \
	src/compiler/libfront.la grammar/libgrammar.la src/image/libimage.la \
	src/common/libcommon.la

bin_PROGRAMS += sysletc
sysletc_SOURCES = src/compiler/main.c
sysletc_LDADD = src/compiler/libcompiler.la
sysletc_LDFLAGS = $(STATIC_DEPS_LDFLAGS)
