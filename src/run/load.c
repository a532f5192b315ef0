/* load.c: syslet-run's loading: an image file, or a syslet source compiled in memory; the entry to run. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "common/readfile.h"
#include "common/systab.h"
#include "compiler/compiler.h"
#include "grammar/diag.h"

/* The runtime reads only ELF: the compiled image takes the same path
 * through the validating reader as a file from disk would. */
static struct syslet_obj *compile(const char *path, char *src, size_t len,
				  const char *progname, int *status)
{
	struct sysletc_options copt = { .profile = systab_native_profile() };
	struct syslet_obj *obj = NULL;
	struct slo_image *img;
	char err[256] = "";
	struct diag d;
	char *elf = NULL;
	FILE *tmp;
	long size;

	/* A #! line is the kernel's business: blank it, keeping the lines. */
	if (len >= 2 && src[0] == '#' && src[1] == '!')
		for (size_t i = 0; i < len && src[i] != '\n'; i++)
			src[i] = ' ';
	diag_init(&d, path, src, len, stderr);
	img = sysletc_compile(src, len, &copt, &d);
	if (!img) {
		fprintf(stderr, "%s: %s: %u error%s\n", progname, path,
			d.errors, d.errors == 1 ? "" : "s");
		return NULL;
	}
	tmp = tmpfile();
	if (!tmp || slo_image_write(img, fileno(tmp), err, sizeof(err)) ||
	    (size = lseek(fileno(tmp), 0, SEEK_END)) < 0 ||
	    !(elf = malloc((size_t)size + 1)) ||
	    pread(fileno(tmp), elf, (size_t)size, 0) != size) {
		fprintf(stderr, "%s: %s: cannot write the image: %s\n",
			progname, path, *err ? err : strerror(errno));
		goto out;
	}
	obj = syslet_obj__open_mem(elf, (size_t)size, err, sizeof(err));
	if (!obj)
		fprintf(stderr, "%s: %s: %s\n", progname, path, err);
	else
		*status = 0;
out:
	if (tmp)
		fclose(tmp);
	free(elf);
	slo_image_free(img);
	return obj;
}

struct syslet_obj *srun_load(const char *path, const char *progname,
			     int *status)
{
	struct syslet_obj *obj = NULL;
	char err[256] = "";
	size_t len = 0;
	char *buf;

	*status = SRUN_USAGE;
	/* The program's standard input is its own: "-" is a file here. */
	if (common_read_file(COMMON_PATH_NOT_STDIN(path), COMMON_MAX_IMAGE,
			     &buf, &len, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", progname, path, err);
		return NULL;
	}
	if (len >= 4 && !memcmp(buf, "\177ELF", 4)) {
		obj = syslet_obj__open_mem(buf, len, err, sizeof(err));
		if (!obj)
			fprintf(stderr, "%s: %s: %s\n", progname, path, err);
	} else if (len > COMMON_MAX_SOURCE) {
		common_read_too_large(err, sizeof(err), COMMON_MAX_SOURCE);
		fprintf(stderr, "%s: %s: %s for a syslet source\n", progname,
			path, err);
	} else if (memchr(buf, '\0', len)) {
		fprintf(stderr,
			"%s: %s: neither a syslet image nor a syslet source\n",
			progname, path);
	} else {
		obj = compile(path, buf, len, progname, status);
	}
	free(buf);
	if (obj)
		*status = 0;
	return obj;
}

const char *srun_pick_entry(const struct syslet_obj *obj, const char *want,
			    const char *progname)
{
	size_t n = syslet_obj__entry_count(obj);

	if (want) {
		if (syslet_obj__entry_params(obj, want, NULL) >= 0)
			return want;
		fprintf(stderr, "%s: no syslet named '%s'; the image has:",
			progname, want);
	} else if (n == 1) {
		return syslet_obj__entry_name(obj, 0);
	} else {
		fprintf(stderr,
			"%s: the image has %zu syslets; choose one with --entry:",
			progname, n);
	}
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %s", syslet_obj__entry_name(obj, i));
	fputc('\n', stderr);
	return NULL;
}
