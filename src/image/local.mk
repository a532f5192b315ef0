# src/image/local.mk: the .slo image model shared by compiler and runtime.
noinst_LTLIBRARIES += src/image/libimage.la
src_image_libimage_la_SOURCES = src/image/image.c src/image/verify.c src/image/image.h \
	src/image/slo-format.h src/image/elf-local.h src/image/elf-write.c \
	src/image/elf-read.c src/image/describe.h src/image/describe.c \
	src/image/list.c src/image/dot.c src/image/header.c
src_image_libimage_la_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
src_image_libimage_la_LIBADD = $(LIBELF_LIBS)
