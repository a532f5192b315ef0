# tests/image.mk: unit tests of the image model.
if HAVE_CMOCKA
check_PROGRAMS += tests/image/model
TESTS += tests/image/model
tests_image_model_SOURCES = tests/image/model.c
tests_image_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_image_model_LDADD = src/image/libimage.la src/common/libcommon.la $(CMOCKA_LIBS)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/image/elf
TESTS += tests/image/elf
tests_image_elf_SOURCES = tests/image/elf.c tests/image/sample.h
tests_image_elf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_image_elf_LDADD = src/image/libimage.la src/common/libcommon.la $(CMOCKA_LIBS)
endif
