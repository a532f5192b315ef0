# src/lib/local.mk: libsyslet, the runtime library (ABI calls, backends, emul engine, image API).
lib_LTLIBRARIES += src/lib/libsyslet.la
include_HEADERS += src/include/syslet.h src/include/libsyslet.h \
	src/include/syslet-compat.h
nodist_include_HEADERS = src/include/syslet-nr.h

# The core: everything but the image API.  Also built -m32 for the tests
# (tests/runtime.mk), so it must not need libelf.
libsyslet_core_sources = src/lib/calls.c src/lib/backend.c src/lib/backend.h \
	src/lib/backend-kernel.c src/lib/emul.c src/lib/emul.h \
	src/lib/emul-exec.c src/lib/emul-policy.c src/lib/emul-fault.c \
	src/lib/emul-fault.h src/lib/observe.c src/lib/ring.c \
	src/lib/interp.h src/lib/interp.c src/lib/cring.h src/lib/cring.c \
	src/lib/api.h src/lib/decode.c src/lib/once.h src/lib/once.c
# The image API (helper "run"): add its files here.
libsyslet_image_sources =

src_lib_libsyslet_la_SOURCES = $(libsyslet_core_sources) \
	$(libsyslet_image_sources)
src_lib_libsyslet_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(LIBELF_CFLAGS)
src_lib_libsyslet_la_LIBADD = src/common/libcommon.la src/image/libimage.la \
	$(LIBELF_LIBS)
# The uring engine (liburing; not in the -m32 build, which has none).
if HAVE_LIBURING
src_lib_libsyslet_la_SOURCES += src/lib/uring.c src/lib/uring.h \
	src/lib/uring-ops.c
src_lib_libsyslet_la_CFLAGS += $(LIBURING_CFLAGS)
src_lib_libsyslet_la_LIBADD += $(LIBURING_LIBS)
endif
src_lib_libsyslet_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-Wl,--version-script=$(srcdir)/src/lib/libsyslet.map
EXTRA_src_lib_libsyslet_la_DEPENDENCIES = $(srcdir)/src/lib/libsyslet.map
EXTRA_DIST += src/lib/libsyslet.map src/lib/libsyslet.pc.in src/lib/gen-nr.sh \
	src/lib/libsyslet-uninstalled.pc.in

BUILT_SOURCES += src/include/syslet-nr.h
CLEANFILES += src/include/syslet-nr.h
src/include/syslet-nr.h: $(srcdir)/src/lib/gen-nr.sh
	$(AM_V_GEN)$(MKDIR_P) src/include && \
	$(SHELL) $(srcdir)/src/lib/gen-nr.sh '$(UNISTD_64_H)' '$(UNISTD_32_H)' \
		> $@.tmp && mv $@.tmp $@

# Made at every make, not by configure: the directories are make's, so
# that "make install prefix=DIR" (GNU's way to install elsewhere) gets a
# file that names DIR, as autoconf's manual advises for installed files
# that hold installation directories.  Rewritten only when it changes.
pkgconfig_DATA += src/lib/libsyslet.pc
CLEANFILES += src/lib/libsyslet.pc
DISTCLEANFILES += libsyslet-uninstalled.pc
src/lib/libsyslet.pc: $(srcdir)/src/lib/libsyslet.pc.in syslet-pc-force
	$(AM_V_GEN)$(MKDIR_P) src/lib && \
	sed -e 's|@prefix[@]|$(prefix)|g' \
	    -e 's|@exec_prefix[@]|$(exec_prefix)|g' \
	    -e 's|@libdir[@]|$(libdir)|g' \
	    -e 's|@includedir[@]|$(includedir)|g' \
	    -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	    -e 's|@LIBURING_PC[@]|$(LIBURING_PC)|g' \
	    $(srcdir)/src/lib/libsyslet.pc.in >$@.tmp && \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
syslet-pc-force:
.PHONY: syslet-pc-force
