# src/lib/image.mk: libsyslet's image loader (open, validate, instantiate, bind, atom info).
src_lib_libsyslet_la_SOURCES += src/lib/image.c src/lib/image-inst.c \
	src/lib/image-priv.h
src_lib_libsyslet_la_LIBADD += src/image/libimage.la src/common/libcommon.la \
	$(LIBELF_LIBS)
