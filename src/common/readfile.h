/* readfile.h: read a whole file, or the standard input, into memory. */
#ifndef SYSLET_COMMON_READFILE_H
#define SYSLET_COMMON_READFILE_H

#include <stddef.h>
#include <string.h>

/*
 * The bound follows what the bytes can be.  A syslet source is text that
 * the compiler holds whole with its diagnostics: 64 MiB is far above any
 * program and far below what would hurt.  An image is ELF holding at
 * most what src/image/slo-format.h allows (atoms, cells, 64 MiB of data)
 * plus its relocations, symbols and debug records: 1 GiB bounds all of
 * it.  A reader that learns from the first byte which one it has
 * (syslet-run, the shell's load) holds each to its own bound.  A file of
 * exactly the bound is read; one byte more is refused.
 */
#define COMMON_MAX_SOURCE	((size_t)64 << 20)
#define COMMON_MAX_IMAGE	((size_t)1 << 30)

/*
 * Read all of path ("-": the standard input, which stays open) into a
 * new buffer with a NUL after the last byte, which is not counted in
 * *len.  Only a regular file, a pipe, a socket or a terminal is read:
 * anything else (a device such as /dev/zero, a directory) is refused
 * before a byte is read.  Streams are read to their end; interrupted and
 * short reads are retried.  Returns 0, or -1 with errno set, *buf NULL
 * and a one-line reason in err (no file name: every caller puts its own
 * before it): strerror's text, "Is a directory" for a directory, "not a
 * regular file or a pipe (a character device)", or "larger than the
 * limit of 64 MiB" for more than max bytes.
 */
int common_read_file(const char *path, size_t max, char **buf, size_t *len,
		     char *err, size_t errlen);

/*
 * What the bytes must be.  Checked as they arrive, so that a stream that
 * cannot be one is refused at its first bytes, not read to the bound:
 *
 *   COMMON_TEXT         a syslet source, up to COMMON_MAX_SOURCE: no NUL
 *                       byte ("a NUL byte at line 2, column 11:
 *                       binary data, not text")
 *   COMMON_ELF          an image, up to COMMON_MAX_IMAGE: the ELF magic
 *                       first ("not an ELF file"); from a stream, no byte
 *                       past the end of the last section or of the section
 *                       table its header describes (so their sizes bound
 *                       the read too)
 *   COMMON_TEXT_OR_ELF  the first byte decides: 0x7f is ELF, anything
 *                       else text, each with its own bound
 *
 * A refusal of the content sets errno to EILSEQ.  *kind (when kind is not
 * NULL) says which of COMMON_TEXT and COMMON_ELF was read, or was being
 * read when it failed (COMMON_TEXT for an empty file).
 */
enum common_content {
	COMMON_TEXT = 1,
	COMMON_ELF,
	COMMON_TEXT_OR_ELF,
};

int common_read_input(const char *path, enum common_content what,
		      char **buf, size_t *len, enum common_content *kind,
		      char *err, size_t errlen);

/* The reason common_read_file gives for more than max bytes, for a
 * caller that applies a tighter bound of its own afterwards. */
void common_read_too_large(char *err, size_t errlen, size_t max);

/*
 * The checks common_read_input() makes of COMMON_ELF bytes, on an image
 * already in memory (syslet_obj__open_mem()): 0, or -1 with errno
 * EILSEQ and "more bytes than its ELF headers describe", or EFBIG past
 * COMMON_MAX_IMAGE, so that a buffer is held to what a file is.  Bytes
 * that are no ELF pass: the image reader says what is wrong with them.
 */
int common_check_elf(const void *buf, size_t len, char *err, size_t errlen);

/* For a caller whose standard input belongs to someone else (the program
 * it runs, the shell's commands): "./-" names the file "-" without
 * meaning the standard input. */
#define COMMON_PATH_NOT_STDIN(path) (strcmp((path), "-") ? (path) : "./-")

#endif /* SYSLET_COMMON_READFILE_H */
