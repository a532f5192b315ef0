/* compile.c: the whole pipeline, source text to a checked image. */
#include "compiler/compiler.h"

struct slo_image *sysletc_compile(const char *src, size_t len,
				  const struct sysletc_options *opt,
				  struct diag *d)
{
	struct ir_program *p = sysletc_front(src, len, opt, d);
	struct slo_image *img = NULL;
	int err = p && !d->errors ? 0 : -1;

	/* Each pass a function from one representation to the next
	 * (compiler.h); the first to fail ends the chain. */
	err = err ?: ir_layout(p, d);
	err = err ?: (d->errors ? -1 : 0);
	if (!err)
		img = ir_emit(p, d);
	ir_program_free(p);
	return img;
}
