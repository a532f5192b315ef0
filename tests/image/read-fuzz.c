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
/*
 * Built without libFuzzer, it replays the files it is given, so that make
 * check (and its sanitizer build) runs every input the fuzzer ever found.
 */
int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = malloc(1 << 16);
		size_t len;

		if (!f || !buf) {
			perror(argv[i]);
			rc = 1;
		} else {
			len = fread(buf, 1, 1 << 16, f);
			LLVMFuzzerTestOneInput(buf, len);
		}
		if (f)
			fclose(f);
		free(buf);
	}
	printf("%d inputs replayed\n", argc - 1);
	return rc;
}
#endif
