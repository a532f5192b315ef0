/* shell-prog.c: programs of the shell: a .slo read, or source compiled by the compiler library, opened by libsyslet. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/compiler.h"
#include "run/input.h"
#include "run/shell-prog.h"

struct shl_prog *shl_prog_get(struct shl_prog *p)
{
	p->refs++;
	return p;
}

void shl_prog_free(struct shl_prog *p)
{
	if (!p || --p->refs)
		return;
	syslet_obj__close(p->obj);
	slo_image_free(p->img);
	free(p->name);
	free(p);
}

/* The model is kept beside the runtime's object, for the listing and
 * for names. */
static struct shl_prog *shl_prog_open(struct shell *sh, const char *name,
				      struct slo_image *img)
{
	struct shl_prog *p = calloc(1, sizeof(*p));
	char err[256];

	if (!p)
		abort();
	p->refs = 1;
	p->obj = srun_input_open_image(img, err, sizeof(err));
	if (!p->obj) {
		shl_error(sh, "%s: %s", name, err);
		free(p);
		slo_image_free(img);
		return NULL;
	}
	p->img = img;
	p->name = strdup(name);
	return p;
}

struct shl_prog *shl_prog_compile(struct shell *sh, const char *name,
				  const char *src, size_t len, FILE *diags)
{
	struct sysletc_options copt = { .profile = systab_native_profile() };
	struct slo_image *img;
	struct diag d;

	diag_init(&d, name, src, len, diags);
	img = sysletc_compile(src, len, &copt, &d);
	diag_flush(&d);
	if (!img) {
		if (!d.errors)	/* the compiler always says why; be safe */
			fprintf(diags, "%s: cannot compile\n", name);
		sh->errors++;
		return NULL;
	}
	return shl_prog_open(sh, name, img);
}

struct shl_prog *shl_prog_load(struct shell *sh, const char *path)
{
	struct shl_prog *p;
	char err[256] = "";
	size_t len;
	char *buf;

	switch (srun_input_read(path, &buf, &len, err, sizeof(err))) {
	case SRUN_INPUT_IMAGE:
		p = calloc(1, sizeof(*p));
		if (!p)
			abort();
		p->refs = 1;
		p->img = slo_image_read_mem(buf, len, err, sizeof(err));
		if (p->img)
			p->obj = syslet_obj__open_mem(buf, len, err,
						      sizeof(err));
		free(buf);
		if (!p->obj) {
			shl_error(sh, "%s: %s", path, err);
			shl_prog_free(p);
			return NULL;
		}
		p->name = strdup(path);
		return p;
	case SRUN_INPUT_SOURCE:
		p = shl_prog_compile(sh, path, buf, len, sh->err);
		free(buf);
		return p;
	default:
		shl_error(sh, "%s: %s", path, err);
		return NULL;
	}
}

long shl_prog_sym_atom(const struct shl_prog *p, const char *name, int kind)
{
	const struct slo_symbol *s = slo_image_find(p->img, name, kind);
	uint64_t atom_size = 11u * p->img->word_size;

	if (!s || s->section != SLO_SEC_ATOMS)
		return -1;
	return (long)(s->value / atom_size);
}
