/* compile-mem.c: source text to the bytes of a .slo image in memory, for the programs that run what they compile (sysletc.h). */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "compiler/sysletc.h"
#include "common/systab.h"

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

/* The image written as a file would be, then its bytes read back. */
static int image_bytes(const struct slo_image *img, void **elf,
		       size_t *elf_len, char *err, size_t errlen)
{
	struct stat st;
	void *map, *copy;
	int fd, ret = -EIO;

	*err = '\0';
	errno = 0;
	fd = image_fd();
	if (fd < 0 || slo_image_write(img, fd, err, errlen) ||
	    fstat(fd, &st) || st.st_size <= 0) {
		char why[128];

		ret = errno ? -errno : -EIO;
		snprintf(why, sizeof(why), "%s",
			 *err ? err : strerror(-ret));
		snprintf(err, errlen, "cannot write the image: %s", why);
		goto out;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		ret = -errno;
		snprintf(err, errlen, "cannot read the image back: %s",
			 strerror(errno));
		goto out;
	}
	copy = malloc((size_t)st.st_size);
	if (copy) {
		memcpy(copy, map, (size_t)st.st_size);
		*elf = copy;
		*elf_len = (size_t)st.st_size;
		ret = 0;
	} else {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
	}
	munmap(map, (size_t)st.st_size);
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

int sysletc_compile_mem(const char *file, const char *src, size_t len,
			FILE *diags, void **elf, size_t *elf_len, char *err,
			size_t errlen)
{
	struct sysletc_options copt = { .profile = systab_native_profile() };
	struct slo_image *img;
	struct diag d;
	int ret;

	*elf = NULL;
	*elf_len = 0;
	diag_init(&d, file, src, len, diags);
	d.max_errors = SYSLETC_MEM_MAX_ERRORS;
	img = sysletc_compile(src, len, &copt, &d);
	diag_flush(&d);
	if (!img) {
		if (!d.errors) {	/* the compiler always says why; be safe */
			fprintf(diags, "%s: cannot compile\n", file);
			return 1;
		}
		return (int)d.errors;
	}
	ret = image_bytes(img, elf, elf_len, err, errlen);
	slo_image_free(img);
	return ret;
}
