/* readfile.h: read a whole file, or the standard input, into memory. */
#ifndef SYSLET_COMMON_READFILE_H
#define SYSLET_COMMON_READFILE_H

#include <stddef.h>
#include <string.h>

/*
 * The bound follows what the bytes can be.  A syslet source is text that
 * the compiler holds whole with its diagnostics: 64 MiB is far above any
 * program and far below what would hurt.  An image is ELF whose largest
 * section the reader accepts up to 1 GiB (MAX_SEC_SIZE in
 * src/image/elf-read.c), so that is its bound.  A reader that learns only
 * from the bytes which one it has (syslet-run, the shell's load) reads up
 * to the image bound, then holds a source to the source bound.  A file of
 * exactly the bound is read; one byte more is refused.
 */
#define COMMON_MAX_SOURCE	((size_t)64 << 20)
#define COMMON_MAX_IMAGE	((size_t)1 << 30)

/*
 * Read all of path ("-": the standard input, which stays open) into a
 * new buffer with a NUL after the last byte, which is not counted in
 * *len.  Pipes and terminals are read to their end; interrupted and short
 * reads are retried.  Returns 0, or -1 with errno set, *buf NULL and a
 * one-line reason in err (no file name: every caller puts its own
 * before it): strerror's text, "Is a directory" for a directory, or
 * "larger than the limit of 64 MiB" for more than max bytes.
 */
int common_read_file(const char *path, size_t max, char **buf, size_t *len,
		     char *err, size_t errlen);

/* The reason common_read_file gives for more than max bytes, for a
 * caller that applies a tighter bound of its own afterwards. */
void common_read_too_large(char *err, size_t errlen, size_t max);

/* For a caller whose standard input belongs to someone else (the program
 * it runs, the shell's commands): "./-" names the file "-" without
 * meaning the standard input. */
#define COMMON_PATH_NOT_STDIN(path) (strcmp((path), "-") ? (path) : "./-")

#endif /* SYSLET_COMMON_READFILE_H */
