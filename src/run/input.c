/* input.c: loading shared by syslet-run and its shell: read a file and tell an image from a source. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/input.h"
#include "common/readfile.h"

int srun_input_read(const char *path, char **buf, size_t *len, char *err,
		    size_t errlen)
{
	enum common_content kind;
	char *b;
	size_t n = 0;

	/* The first byte tells an image (ELF) from a source (text, no NUL
	 * byte), and each is refused at its first bytes that cannot be. */
	if (common_read_input(COMMON_PATH_NOT_STDIN(path), COMMON_TEXT_OR_ELF,
			      &b, &n, &kind, err, errlen)) {
		size_t used = strlen(err);

		if (kind == COMMON_TEXT && errno == EILSEQ)
			snprintf(err, errlen,
				 "neither a syslet image nor a syslet source");
		else if (kind == COMMON_TEXT && errno == EFBIG)
			snprintf(err + used, errlen - used,
				 " for a syslet source");
		return -1;
	}
	if (kind == COMMON_ELF) {
		*buf = b;
		*len = n;
		return SRUN_INPUT_IMAGE;
	}
	/* A #! line is the kernel's business: blank it, keeping the lines
	 * (and so every diagnostic's line number). */
	if (n >= 2 && b[0] == '#' && b[1] == '!')
		for (size_t i = 0; i < n && b[i] != '\n'; i++)
			b[i] = ' ';
	*buf = b;
	*len = n;
	return SRUN_INPUT_SOURCE;
}
