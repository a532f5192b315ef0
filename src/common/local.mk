# src/common/local.mk: syscall and errno tables, the whole-file reader, the output-file writer, the quoting of names in messages, the growable text buffer and the stack main runs on, shared by compiler and runtime.
noinst_LTLIBRARIES += src/common/libcommon.la
src_common_libcommon_la_SOURCES = src/common/systab.c src/common/systab.h \
	src/common/readfile.c src/common/readfile.h \
	src/common/outfile.c src/common/outfile.h \
	src/common/stdfds.c src/common/stdfds.h \
	src/common/quote.c src/common/quote.h \
	src/common/stack.c src/common/stack.h \
	src/common/hidx.c src/common/hidx.h \
	src/common/consts.c src/common/consts.h \
	src/common/callsig.c src/common/callsig.h \
	src/common/textbuf.c src/common/textbuf.h
nodist_src_common_libcommon_la_SOURCES = src/common/tables.c
BUILT_SOURCES += src/common/tables.c
CLEANFILES += src/common/tables.c
EXTRA_DIST += src/common/gen-tables.sh
src/common/tables.c: $(srcdir)/src/common/gen-tables.sh
	$(AM_V_GEN)$(MKDIR_P) src/common && \
	$(SHELL) $(srcdir)/src/common/gen-tables.sh '$(UNISTD_64_H)' \
		'$(UNISTD_32_H)' /usr/include/asm-generic/errno-base.h \
		/usr/include/asm-generic/errno.h > $@.tmp && mv $@.tmp $@
# Until libsyslet installs them (include_HEADERS in src/lib/local.mk), ship them.
EXTRA_DIST += src/include/syslet.h src/include/libsyslet.h
