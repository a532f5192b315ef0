/* slurp.h: read a whole test input into memory, for the C test programs. */
#ifndef SYSLET_TESTS_SLURP_H
#define SYSLET_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The file's bytes with a NUL after them, or NULL (errno set). */
static inline char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		if (!r)
			break;
		n += r;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

#endif /* SYSLET_TESTS_SLURP_H */
