/* readfile.c: the one reader of whole files for the compiler, the image reader, syslet-run and its shell. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/readfile.h"

/* Every failure: a reason for the caller's message, errno for its logic. */
static int rf_fail(char *err, size_t errlen, int e, const char *reason)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", reason);
	errno = e;
	return -1;
}

void common_read_too_large(char *err, size_t errlen, size_t max)
{
	static const struct {
		size_t		unit;
		const char	*name;
	} units[] = {
		{ (size_t)1 << 30, "GiB" },
		{ (size_t)1 << 20, "MiB" },
		{ (size_t)1 << 10, "KiB" },
	};
	char msg[64];
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (max && max % units[i].unit == 0)
			break;
	if (i < sizeof(units) / sizeof(units[0]))
		snprintf(msg, sizeof(msg), "larger than the limit of %zu %s",
			 max / units[i].unit, units[i].name);
	else
		snprintf(msg, sizeof(msg), "larger than the limit of %zu byte%s",
			 max, max == 1 ? "" : "s");
	rf_fail(err, errlen, EFBIG, msg);
}

/*
 * A section or the section table that the ELF header puts past the bound:
 * the file itself may be a few hundred bytes, so the message says that it
 * is what the headers describe (a 1,632-byte image whose .symtab began at
 * 1 GiB was "larger than the limit of 1 GiB").
 */
static int rf_described_too_large(char *err, size_t errlen, size_t max)
{
	char msg[64];

	common_read_too_large(msg, sizeof(msg), max);
	if (err && errlen)
		snprintf(err, errlen, "its ELF headers describe a file %s",
			 msg);
	errno = EFBIG;
	return -1;
}

/*
 * The checks of common_read_input(), run on what has arrived so far.
 * what is COMMON_TEXT_OR_ELF until the first byte; 0 checks nothing.
 */
struct rf_sniff {
	int		what;
	size_t		max;
	off_t		size;		/* a regular file's */
	size_t		scanned;	/* text: bytes known to hold no NUL */
	int		elf_stage;	/* 0: header, 1: table, 2: extent */
	uint64_t	need;		/* ELF: the end of the section table */
	uint64_t	extent;		/* ELF: the end of everything described */
	int		cut;		/* ELF: read no further than extent */
};

static uint64_t rf_le(const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* "a NUL byte at line L, column C": where, for a file that is no text. */
static int rf_nul(char *err, size_t errlen, const char *buf, const char *nul)
{
	unsigned int line = 1;
	const char *bol = buf;
	char msg[96];

	for (const char *p = buf; p < nul; p++)
		if (*p == '\n') {
			line++;
			bol = p + 1;
		}
	snprintf(msg, sizeof(msg), "a NUL byte at line %u, column %zu: "
		 "binary data, not text", line, (size_t)(nul - bol) + 1);
	return rf_fail(err, errlen, EILSEQ, msg);
}

/*
 * An ELF file or stream is read as far as its header says it goes: the
 * section table's end once the header is in, then the end of the last
 * section once the table is in.  A header this code cannot follow (a
 * class or byte order sysletc never writes, no sections, a section
 * header of another size, a table past the limit) is read no further
 * (1: the caller stops there), and the image reader says what is wrong
 * with it from the header alone: such a file was read whole first, 900
 * MB in 3.4 s and 1.8 GB.  A regular file is held to it too: a 3 KB
 * image padded to 900 MB was read whole (25 s, 2 GB) and ran, where its
 * bytes through a pipe were refused.
 */
static int rf_elf(struct rf_sniff *s, const unsigned char *b, size_t n,
		  char *err, size_t errlen)
{
	unsigned int w, ehsize, entsize;
	uint64_t shoff, shnum, shentsize;

	if (memcmp(b, "\177ELF", n < 4 ? n : 4))
		return rf_fail(err, errlen, EILSEQ, "not an ELF file");
	if (n < 16)
		return 0;
	w = b[4] == 1 ? 4 : b[4] == 2 ? 8 : 0;
	if (s->elf_stage == 0 && (!w || b[5] != 1)) {
		s->elf_stage = 2;
		s->extent = 16;		/* EI_NIDENT: what the reader checks */
		s->cut = 1;
	}
	ehsize = w == 4 ? 52 : 64;
	entsize = w == 4 ? 40 : 64;
	if (s->elf_stage == 0) {
		if (n < ehsize)
			return 0;
		shoff = rf_le(b + (w == 4 ? 32 : 40), w);
		shentsize = rf_le(b + (w == 4 ? 46 : 58), 2);
		shnum = rf_le(b + (w == 4 ? 48 : 60), 2);
		if (shentsize != entsize || shnum == 0 || shoff > s->max) {
			s->elf_stage = 2;
			s->extent = ehsize;
			s->cut = 1;
		} else {
			s->need = shoff + shnum * shentsize;
			if (s->need > s->max)
				return rf_described_too_large(err, errlen,
							      s->max);
			s->extent = s->need > ehsize ? s->need : ehsize;
			s->elf_stage = 1;
		}
	}
	if (s->elf_stage == 1) {
		if (n < s->need)
			return 0;
		shoff = rf_le(b + (w == 4 ? 32 : 40), w);
		shnum = (s->need - shoff) / entsize;
		for (uint64_t i = 0; i < shnum; i++) {
			const unsigned char *h = b + shoff + i * entsize;
			uint64_t type = rf_le(h + 4, 4);
			uint64_t off = rf_le(h + (w == 4 ? 16 : 24), w);
			uint64_t size = rf_le(h + (w == 4 ? 20 : 32), w);

			if (type == 8 /* SHT_NOBITS */ || type == 0)
				continue;
			if (off > s->max || size > s->max - off) {
				return rf_described_too_large(err, errlen,
							      s->max);
			}
			if (off + size > s->extent)
				s->extent = off + size;
		}
		s->elf_stage = 2;
	}
	if (n > s->extent)
		return s->cut ? 1 : rf_fail(err, errlen, EILSEQ, "more bytes "
					    "than its ELF headers describe");
	return 0;
}

/* The first byte tells an image from a source, and so the bound. */
static void rf_decide(struct rf_sniff *s, char first)
{
	s->what = first == '\177' ? COMMON_ELF : COMMON_TEXT;
	s->max = s->what == COMMON_ELF ? COMMON_MAX_IMAGE : COMMON_MAX_SOURCE;
}

static int rf_check(struct rf_sniff *s, const char *buf, size_t n, char *err,
		    size_t errlen)
{
	const char *nul;

	if (!s->what || !n)
		return 0;
	if (s->what == COMMON_TEXT_OR_ELF)
		rf_decide(s, buf[0]);
	if (s->what == COMMON_ELF)
		return rf_elf(s, (const unsigned char *)buf, n, err, errlen);
	nul = memchr(buf + s->scanned, '\0', n - s->scanned);
	if (nul)
		return rf_nul(err, errlen, buf, nul);
	s->scanned = n;
	return 0;
}

int common_check_elf(const void *buf, size_t len, char *err, size_t errlen)
{
	struct rf_sniff s = { .what = COMMON_ELF, .max = COMMON_MAX_IMAGE };

	if (len < 4 || memcmp(buf, "\177ELF", 4))
		return 0;
	if (len > s.max) {
		common_read_too_large(err, errlen, s.max);
		return -1;
	}
	/* Bytes in memory cost nothing more: the reader judges them. */
	return rf_check(&s, buf, len, err, errlen) < 0 ? -1 : 0;
}

/* Room for max + 1 bytes (one more than allowed shows the file is too
 * large without reading on) and the NUL. */
static int rf_read_fd(int fd, struct rf_sniff *s, size_t cap, char **out,
		      size_t *len, char *err, size_t errlen)
{
	char *buf = malloc(cap);
	size_t n = 0;
	int rc;

	if (!buf)
		goto nomem;
	for (;;) {
		size_t want;
		ssize_t r;

		if (n == cap - 1) {
			size_t ncap;
			char *nb;

			if (n > s->max)
				break;
			ncap = cap > (s->max + 2) / 2 ? s->max + 2 : cap * 2;
			/* A regular file's image grows to its size, no more. */
			if (s->size > 0 && (size_t)s->size + 2 > cap &&
			    ncap > (size_t)s->size + 2)
				ncap = (size_t)s->size + 2;
			nb = realloc(buf, ncap);
			if (!nb)
				goto nomem;
			buf = nb;
			cap = ncap;
		}
		want = cap - 1 - n;
		/* An image is checked as it arrives (rf_elf()): from a
		 * regular file too, in reads that double, so that bytes past
		 * its described end are refused after a read of at most
		 * twice what it describes, not of the whole file. */
		if (s->what == COMMON_ELF && want > (n > 65536 ? n : 65536))
			want = n > 65536 ? n : 65536;
		r = read(fd, buf + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return rf_fail(err, errlen, e, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
		rc = rf_check(s, buf, n > s->max ? s->max : n, err, errlen);
		if (rc > 0) {		/* the header, for the reader */
			n = (size_t)s->extent;
			break;
		}
		if (rc) {
			int e = errno;

			free(buf);
			errno = e;
			return -1;
		}
	}
	if (n > s->max) {
		free(buf);
		common_read_too_large(err, errlen, s->max);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
nomem:
	free(buf);
	return rf_fail(err, errlen, ENOMEM, "out of memory");
}

/*
 * What may be read at all: bytes a file or a stream holds, never a
 * device that makes them up (/dev/zero, /dev/urandom) or a disk.  A named
 * device is refused before it is opened (opening some has effects of its
 * own); the standard input may also be a terminal.
 */
static int rf_type_ok(const struct stat *st, int tty, char *err,
		      size_t errlen)
{
	if (S_ISDIR(st->st_mode))
		return rf_fail(err, errlen, EISDIR, strerror(EISDIR));
	if (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) ||
	    S_ISSOCK(st->st_mode) || (S_ISCHR(st->st_mode) && tty))
		return 0;
	return rf_fail(err, errlen, EINVAL, S_ISCHR(st->st_mode) ?
		       "not a regular file or a pipe (a character device)" :
		       S_ISBLK(st->st_mode) ?
		       "not a regular file or a pipe (a block device)" :
		       "not a regular file or a pipe");
}

static int rf_read(const char *path, size_t max, enum common_content what,
		   char **buf, size_t *len, enum common_content *kind,
		   char *err, size_t errlen)
{
	int is_stdin = !strcmp(path, "-");
	struct rf_sniff s = { .what = (int)what, .max = max };
	size_t cap = 65536;
	struct stat st;
	int fd = STDIN_FILENO, rc = -1, e;

	*buf = NULL;
	*len = 0;
	if (what == COMMON_TEXT)
		s.max = COMMON_MAX_SOURCE;
	else if (what)
		s.max = COMMON_MAX_IMAGE;	/* until the first byte says */
	if (s.max > (size_t)-1 / 2)	/* keeps max + 2 and doubling in range */
		s.max = (size_t)-1 / 2;
	if (!is_stdin) {
		if (stat(path, &st))
			return rf_fail(err, errlen, errno, strerror(errno));
		if (rf_type_ok(&st, 0, err, errlen))
			return -1;
		/* open() of a named socket fails with ENXIO, "No such
		 * device or address": say what it is (one can still come
		 * as the standard input). */
		if (S_ISSOCK(st.st_mode))
			return rf_fail(err, errlen, ENXIO,
				       "not a regular file or a pipe (a socket)");
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return rf_fail(err, errlen, errno, strerror(errno));
	}
	/* A standard input that cannot be read (closed, then taken by
	 * common_std_fds() with a write-only /dev/null or an O_PATH
	 * descriptor) is no character device to complain of. */
	if (is_stdin) {
		int fl = fcntl(fd, F_GETFL);

		if (fl < 0 || (fl & O_ACCMODE) == O_WRONLY
#ifdef O_PATH
		    || (fl & O_PATH)
#endif
		    )
			return rf_fail(err, errlen, EBADF,
				       "Bad file descriptor (the standard input is closed)");
	}
	/* What was opened is what counts (the name may have changed). */
	if (fstat(fd, &st)) {
		rf_fail(err, errlen, errno, strerror(errno));
		goto out;
	}
	if (rf_type_ok(&st, is_stdin && isatty(fd), err, errlen))
		goto out;
	s.size = st.st_size;
	if (S_ISREG(st.st_mode)) {
		unsigned char first;

		/* Which bound applies, before a buffer of the size is made;
		 * up to 64 KiB the buffer and the reads are the same for
		 * both, and the first read decides (a system call less for
		 * every small image or source). */
		if (s.what == COMMON_TEXT_OR_ELF && st.st_size > 65536 &&
		    pread(fd, &first, 1, 0) == 1)
			rf_decide(&s, (char)first);
		if ((unsigned long long)st.st_size > s.max) {
			common_read_too_large(err, errlen, s.max);
			goto out;
		}
		/* One byte over the size sees the end without a realloc.
		 * An image is read in steps (rf_read_fd()): its buffer grows
		 * with them, so that one padded far past what its headers
		 * describe is refused without the room for it. */
		cap = (size_t)st.st_size + 2;
		if (s.what == COMMON_ELF && cap > 65536 + 2)
			cap = 65536 + 2;
	} else if (cap > s.max + 2) {
		cap = s.max + 2;
	}
	rc = rf_read_fd(fd, &s, cap, buf, len, err, errlen);
	/* A UTF-8 byte order mark, which some editors write first, is no
	 * part of a source: gcc skips it too (it was three stray bytes). */
	if (!rc && s.what == COMMON_TEXT && *len >= 3 &&
	    !memcmp(*buf, "\xef\xbb\xbf", 3)) {
		memmove(*buf, *buf + 3, *len - 3 + 1);
		*len -= 3;
	}
out:
	e = errno;
	/* Also on failure, for a caller whose message depends on it. */
	if (kind)
		*kind = s.what == COMMON_TEXT_OR_ELF ? COMMON_TEXT :
			(enum common_content)s.what;
	if (!is_stdin)
		close(fd);
	errno = e;
	return rc;
}

int common_read_file(const char *path, size_t max, char **buf, size_t *len,
		     char *err, size_t errlen)
{
	return rf_read(path, max, 0, buf, len, NULL, err, errlen);
}

int common_read_input(const char *path, enum common_content what,
		      char **buf, size_t *len, enum common_content *kind,
		      char *err, size_t errlen)
{
	return rf_read(path, 0, what, buf, len, kind, err, errlen);
}
