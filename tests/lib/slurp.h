/* slurp.h: read a whole test input into memory, for the C test programs. */
#ifndef SYSLET_TESTS_SLURP_H
#define SYSLET_TESTS_SLURP_H

#include <stddef.h>

#include "common/readfile.h"

/* The file's bytes with a NUL after them, or NULL (errno set): the
 * product's reader, so that the tests read their inputs as sysletc does.
 * The programs linking this have libcommon through the compiler's
 * libraries. */
static inline char *slurp(const char *path, size_t *len)
{
	char *buf;

	if (common_read_file(path, COMMON_MAX_SOURCE, &buf, len, NULL, 0))
		return NULL;
	return buf;
}

#endif /* SYSLET_TESTS_SLURP_H */
