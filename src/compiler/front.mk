# src/compiler/front.mk: the compiler's front half: lowering (AST -> IR) on top of grammar/.
noinst_LTLIBRARIES += src/compiler/libfront.la
src_compiler_libfront_la_SOURCES = src/compiler/lower.c \
	src/compiler/check.c src/compiler/resolve.c \
	src/compiler/builtins.c \
	src/compiler/lower-ir.c src/compiler/lower-expr.c \
	src/compiler/lower-data.c src/compiler/lower-call.c \
	src/compiler/lower-cond.c src/compiler/lower.h
src_compiler_libfront_la_LIBADD = src/compiler/libir.la grammar/libgrammar.la src/common/libcommon.la
noinst_HEADERS += src/compiler/compiler.h
