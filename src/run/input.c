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
	char *b;
	size_t n = 0;

	if (common_read_file(COMMON_PATH_NOT_STDIN(path), COMMON_MAX_IMAGE,
			     &b, &n, err, errlen))
		return -1;
	if (n >= 4 && !memcmp(b, "\177ELF", 4)) {
		*buf = b;
		*len = n;
		return SRUN_INPUT_IMAGE;
	}
	if (n > COMMON_MAX_SOURCE) {
		size_t used;

		common_read_too_large(err, errlen, COMMON_MAX_SOURCE);
		used = strlen(err);
		snprintf(err + used, errlen - used, " for a syslet source");
		goto fail;
	}
	if (memchr(b, '\0', n)) {
		snprintf(err, errlen,
			 "neither a syslet image nor a syslet source");
		goto fail;
	}
	/* A #! line is the kernel's business: blank it, keeping the lines
	 * (and so every diagnostic's line number). */
	if (n >= 2 && b[0] == '#' && b[1] == '!')
		for (size_t i = 0; i < n && b[i] != '\n'; i++)
			b[i] = ' ';
	*buf = b;
	*len = n;
	return SRUN_INPUT_SOURCE;
fail:
	free(b);
	return -1;
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
