/* compile.c: the whole pipeline, source text to a checked image. */
#include "compiler/compiler.h"

struct slo_image *sysletc_compile(const char *src, size_t len,
				  const struct sysletc_options *opt,
				  struct diag *d)
{
	struct ir_program *p = sysletc_front(src, len, opt, d);
	struct slo_image *img = NULL;

	if (!p)
		return NULL;
	if (!d->errors && !ir_layout(p, d) && !d->errors)
		img = ir_emit(p, d);
	ir_program_free(p);
	return img;
}
