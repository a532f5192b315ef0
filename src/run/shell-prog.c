/* shell-prog.c: programs of the shell: a .slo read, or source compiled by the compiler library, opened by libsyslet. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/readfile.h"
#include "common/systab.h"
#include "compiler/compiler.h"
#include "run/shell-prog.h"

void shl_prog_free(struct shl_prog *p)
{
	if (!p)
		return;
	syslet_obj__close(p->obj);
	slo_image_free(p->img);
	free(p->name);
	free(p);
}

/*
 * The runtime opens only ELF, so a compiled image goes through the same
 * validating reader as a file would: write it out, open the bytes.  The
 * model is kept beside it for the listing and for names.
 */
static struct shl_prog *shl_prog_open(struct shell *sh, const char *name,
				      struct slo_image *img)
{
	struct shl_prog *p = calloc(1, sizeof(*p));
	char err[256] = "";
	char *elf = NULL;
	FILE *tmp = tmpfile();
	long size = -1;

	if (!p || !tmp ||
	    slo_image_write(img, fileno(tmp), err, sizeof(err)) ||
	    (size = lseek(fileno(tmp), 0, SEEK_END)) < 0 ||
	    !(elf = malloc((size_t)size + 1)) ||
	    pread(fileno(tmp), elf, (size_t)size, 0) != size) {
		shl_error(sh, "%s: cannot write the image: %s", name,
			  *err ? err : strerror(errno));
		goto fail;
	}
	p->obj = syslet_obj__open_mem(elf, (size_t)size, err, sizeof(err));
	if (!p->obj) {
		shl_error(sh, "%s: %s", name, err);
		goto fail;
	}
	p->img = img;
	p->name = strdup(name);
	free(elf);
	fclose(tmp);
	return p;
fail:
	if (tmp)
		fclose(tmp);
	free(elf);
	free(p);
	slo_image_free(img);
	return NULL;
}

struct shl_prog *shl_prog_compile(struct shell *sh, const char *name,
				  const char *src, size_t len, FILE *diags)
{
	struct sysletc_options copt = { .profile = systab_native_profile() };
	struct slo_image *img;
	struct diag d;

	diag_init(&d, name, src, len, diags);
	img = sysletc_compile(src, len, &copt, &d);
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
	size_t len = 0, i;
	char *buf;

	/* The shell's standard input holds its commands: "-" is a file. */
	if (common_read_file(COMMON_PATH_NOT_STDIN(path), COMMON_MAX_IMAGE,
			     &buf, &len, err, sizeof(err))) {
		shl_error(sh, "%s: %s", path, err);
		return NULL;
	}
	if (len >= 4 && memcmp(buf, "\177ELF", 4) == 0) {
		p = calloc(1, sizeof(*p));
		if (!p)
			abort();
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
	}
	if (len > COMMON_MAX_SOURCE) {
		common_read_too_large(err, sizeof(err), COMMON_MAX_SOURCE);
		shl_error(sh, "%s: %s for a syslet source", path, err);
		free(buf);
		return NULL;
	}
	/* A #! line is for the kernel: blank it but keep the line count. */
	if (len >= 2 && buf[0] == '#' && buf[1] == '!')
		for (i = 0; i < len && buf[i] != '\n'; i++)
			buf[i] = ' ';
	p = shl_prog_compile(sh, path, buf, len, sh->err);
	free(buf);
	return p;
}

long shl_prog_sym_atom(const struct shl_prog *p, const char *name, int kind)
{
	const struct slo_symbol *s = slo_image_find(p->img, name, kind);
	uint64_t atom_size = 11u * p->img->word_size;

	if (!s || s->section != SLO_SEC_ATOMS)
		return -1;
	return (long)(s->value / atom_size);
}
