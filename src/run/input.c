/* input.c: loading shared by syslet-run and its shell: read and sort a file, open a compiled image without a file. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A descriptor libelf can write to: anonymous memory where the kernel
 * has memfd_create (no file system needed, nothing left behind), else
 * an unlinked temporary file. */
static int image_fd(void)
{
#ifdef MFD_CLOEXEC
	int fd = memfd_create("syslet-image", MFD_CLOEXEC);

	if (fd >= 0 || errno != ENOSYS)
		return fd;
#endif
	{
		FILE *tmp = tmpfile();
		int fd2;

		if (!tmp)
			return -1;
		fd2 = dup(fileno(tmp));
		fclose(tmp);
		return fd2;
	}
}

struct syslet_obj *srun_input_open_image(const struct slo_image *img,
					 char *err, size_t errlen)
{
	struct syslet_obj *obj = NULL;
	struct stat st;
	void *elf;
	int fd;

	*err = '\0';
	fd = image_fd();
	if (fd < 0 || slo_image_write(img, fd, err, errlen) ||
	    fstat(fd, &st) || st.st_size <= 0) {
		char why[128];

		snprintf(why, sizeof(why), "%s",
			 *err ? err : strerror(errno ? errno : EIO));
		snprintf(err, errlen, "cannot write the image: %s", why);
		goto out;
	}
	elf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (elf == MAP_FAILED) {
		snprintf(err, errlen, "cannot read the image back: %s",
			 strerror(errno));
		goto out;
	}
	obj = syslet_obj__open_mem(elf, (size_t)st.st_size, err, errlen);
	munmap(elf, (size_t)st.st_size);
out:
	if (fd >= 0)
		close(fd);
	return obj;
}
