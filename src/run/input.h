/* input.h: what syslet-run and its shell share to load a program: the file read and sorted into an image or a source. */
#ifndef SYSLET_RUN_INPUT_H
#define SYSLET_RUN_INPUT_H

#include <stddef.h>

enum srun_input_kind {
	SRUN_INPUT_IMAGE = 1,	/* starts with the ELF magic */
	SRUN_INPUT_SOURCE = 2,	/* text; a #! first line blanked */
};

/*
 * Read path whole ("-" is a file named "-": standard input belongs to
 * the program or to the shell's commands) and tell an image from a
 * source.  Returns the kind with *buf (free() it) and *len, or -1 with a
 * one-line reason in err that does not name the file.
 */
int srun_input_read(const char *path, char **buf, size_t *len, char *err,
		    size_t errlen);

#endif /* SYSLET_RUN_INPUT_H */
