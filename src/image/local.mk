# src/image/local.mk: the .slo image model shared by compiler and runtime.
noinst_LTLIBRARIES += src/image/libimage.la
src_image_libimage_la_SOURCES = src/image/image.c src/image/verify.c src/image/image.h \
	src/image/slo-format.h
