/* read-fuzz.c: libFuzzer target: any bytes through slo_image_read_mem() and, when accepted, every printer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "image/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char err[256];
	struct slo_image *img;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	img = slo_image_read_mem(data, size, err, sizeof(err));
	if (!img)
		return 0;
	if (slo_image_verify(img, NULL, NULL))
		__builtin_trap();	/* the reader let a bad image through */
	slo_image_list(img, devnull);
	slo_image_dot(img, devnull);
	slo_image_header(img, "FUZZ_H", devnull);
	slo_image_free(img);
	return 0;
}

#ifndef SYSLET_LIBFUZZER
/* Built without libFuzzer: replays the files it is given (make check). */
#include "fuzz-replay.h"
#endif
