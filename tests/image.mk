# tests/image.mk: unit tests of the image model.
if HAVE_CMOCKA
check_PROGRAMS += tests/image/model
TESTS += tests/image/model
tests_image_model_SOURCES = tests/image/model.c
tests_image_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_image_model_LDADD = src/image/libimage.la src/common/libcommon.la $(CMOCKA_LIBS)
endif
