# src/run/local.mk: syslet-run, a thin client of libsyslet (plus the compiler, for sources).
bin_PROGRAMS += syslet-run
syslet_run_SOURCES = src/run/main.c src/run/run.h src/run/load.c \
	src/run/exec.c src/run/trace.c src/run/trace.h src/run/decode.c \
	src/run/decode.h src/run/input.c src/run/input.h \
	src/run/span.c
syslet_run_LDADD = src/lib/libsyslet.la src/compiler/libcompiler.la \
	grammar/libgrammar.la src/image/libimage.la src/common/libcommon.la \
	$(LIBELF_LIBS)
