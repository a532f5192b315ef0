/* fuzz-replay.h: the main() of a fuzz target built without libFuzzer: it replays the files it is given through LLVMFuzzerTestOneInput(). */
#ifndef SYSLET_TESTS_FUZZ_REPLAY_H
#define SYSLET_TESTS_FUZZ_REPLAY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * make check (and its sanitizer build) runs so every input the fuzzer
 * ever found; an input is read up to 64 KiB, as the targets take it.
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
