/* pipeline.c: every program that passes the front end also lays out, emits and verifies, for each target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/compiler.h"
#include "tests/lib/slurp.h"

static void report(void *ctx, size_t atom, const char *msg)
{
	fprintf(stderr, "%s: atom %zu: %s\n", (const char *)ctx, atom, msg);
}

/* 0: fine or rejected by the front end; 1: a later stage failed. */
static int one(const char *path, const char *src, size_t len, int profile,
	       unsigned int *compiled)
{
	struct sysletc_options opt = { .profile = profile };
	char *sink = NULL;
	size_t n = 0;
	FILE *quiet = open_memstream(&sink, &n);
	struct ir_program *p;
	struct slo_image *img;
	struct diag d;
	int bad = 0;

	diag_init(&d, path, src, len, quiet);
	p = sysletc_front(src, len, &opt, &d);
	diag_flush(&d);
	fclose(quiet);
	free(sink);
	if (!p)
		return 0;	/* e.g. socket() on i386-2007 */
	diag_init(&d, path, src, len, stderr);
	if (ir_layout(p, &d)) {
		diag_flush(&d);
		fprintf(stderr, "%s (%s): layout failed\n", path,
			systab_profile_name(profile));
		ir_program_free(p);
		return 1;
	}
	img = ir_emit(p, &d);
	diag_flush(&d);
	if (!img) {
		fprintf(stderr, "%s (%s): emit failed\n", path,
			systab_profile_name(profile));
		bad = 1;
	} else if (slo_image_verify(img, report, (void *)path)) {
		fprintf(stderr, "%s (%s): image does not verify\n", path,
			systab_profile_name(profile));
		bad = 1;
	}
	slo_image_free(img);
	ir_program_free(p);
	(*compiled)++;
	return bad;
}

int main(int argc, char **argv)
{
	unsigned int compiled = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		size_t len;
		char *src = slurp(argv[i], &len);

		if (!src) {
			perror(argv[i]);
			return 99;
		}
		for (int prof = 0; prof < SYSTAB_NR_PROFILES; prof++)
			rc |= one(argv[i], src, len, prof, &compiled);
		free(src);
	}
	printf("%u programs laid out, emitted and verified\n", compiled);
	return rc || !compiled;
}
