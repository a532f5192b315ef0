/* load.c: syslet-run's loading: an image file, or a syslet source compiled in memory; the entry to run. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "run.h"
#include "run/input.h"
#include "common/systab.h"
#include "compiler/compiler.h"
#include "grammar/diag.h"

static struct syslet_obj *compile(const char *path, const char *src,
				  size_t len, const char *progname)
{
	struct sysletc_options copt = { .profile = systab_native_profile() };
	struct syslet_obj *obj;
	struct slo_image *img;
	char err[256];
	struct diag d;

	diag_init(&d, path, src, len, stderr);
	img = sysletc_compile(src, len, &copt, &d);
	diag_flush(&d);
	if (!img) {
		fprintf(stderr, "%s: %s: %u error%s\n", progname, path,
			d.errors, d.errors == 1 ? "" : "s");
		return NULL;
	}
	obj = srun_input_open_image(img, err, sizeof(err));
	if (!obj)
		fprintf(stderr, "%s: %s: %s\n", progname, path, err);
	slo_image_free(img);
	return obj;
}

struct syslet_obj *srun_load(const char *path, const char *progname,
			     int *status)
{
	struct syslet_obj *obj = NULL;
	char err[256] = "";
	size_t len;
	char *buf;

	*status = SRUN_USAGE;
	switch (srun_input_read(path, &buf, &len, err, sizeof(err))) {
	case SRUN_INPUT_IMAGE:
		obj = syslet_obj__open_mem(buf, len, err, sizeof(err));
		if (!obj)
			fprintf(stderr, "%s: %s: %s\n", progname, path, err);
		break;
	case SRUN_INPUT_SOURCE:
		obj = compile(path, buf, len, progname);
		break;
	default:
		fprintf(stderr, "%s: %s: %s\n", progname, path, err);
		return NULL;
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
		if (syslet_obj__entry_params(obj, want) >= 0)
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
