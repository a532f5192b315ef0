# src/lib/image.mk: libsyslet's image loader (open, validate, instantiate, bind, atom info).
# libimage and libcommon are already in libsyslet's LIBADD (src/lib/local.mk).
src_lib_libsyslet_la_SOURCES += src/lib/image.c src/lib/image-inst.c \
	src/lib/image-mem.c src/lib/image-sym.c \
	src/lib/image-priv.h
