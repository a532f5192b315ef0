/* outfile.h: write an output file whole or not at all, never replacing what is not a regular file. */
#ifndef SYSLET_COMMON_OUTFILE_H
#define SYSLET_COMMON_OUTFILE_H

#include <stddef.h>

/*
 * What PATH is decides how it is written:
 *
 *   "-"                  the standard output
 *   missing, or a        a new file in the same directory, renamed over
 *   regular file         PATH at commit: readers see the old file or the
 *                        new one, never a part
 *   a symlink            followed to its final target, which is then
 *                        created or replaced as above, in the target's
 *                        directory; the link itself stays
 *   a character device   written through (opened without O_CREAT or
 *   or a FIFO            O_TRUNC): /dev/null stays /dev/null, a FIFO's
 *                        reader gets the bytes
 *
 * The standard output, a device or a FIFO gets the bytes at commit only,
 * from an unnamed temporary file (the caller may need to seek, and a
 * failed compile prints nothing).
 *   a directory, block   refused with a message
 *   device or socket
 *
 * While the new file is written it has no name (O_TMPFILE), so a kill at
 * any point, SIGKILL or SIGXFSZ included, leaves nothing behind; it gets
 * its temporary name PATH.XXXXXX only for the link and rename at commit,
 * with signals blocked.  Where O_TMPFILE is not supported the file is
 * named from the start, and the usual terminating signals remove it
 * before the process dies (SIGKILL cannot be caught).
 */
struct common_out {
	char	*path;		/* the name to create or replace, resolved */
	char	*tmp;		/* its temporary name (named fallback only) */
	int	fd;		/* where the caller writes (seekable) */
	int	dest;		/* standard output, device or FIFO, or -1 */
	int	how;		/* enum in outfile.c */
};

/* Open path for writing: 0, or -1 with errno set and a one-line reason
 * (no file name) in err. */
int common_out_open(struct common_out *o, const char *path, char *err,
		    size_t errlen);

/* keep: make the file appear (or copy it to the standard output);
 * otherwise throw it away.  Returns 0, or -1 with errno and err set;
 * nothing is left behind on failure. */
int common_out_close(struct common_out *o, int keep, char *err,
		     size_t errlen);

/*
 * The last name of the symlink chain starting at path (a relative target
 * is relative to its link's directory, as the kernel reads it): a name
 * that does not exist (a dangling link's target, to be created), with
 * *exists 0, or one that is not a symlink, with *exists 1 and *st its
 * lstat().  NULL with errno set (ELOOP after 40 links).  The caller
 * frees the name.
 */
struct stat;
char *common_path_follow(const char *path, struct stat *st, int *exists);

#endif /* SYSLET_COMMON_OUTFILE_H */
