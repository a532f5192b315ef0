/* shell-prog.c: programs of the shell: a .slo read, or source compiled by the compiler library (sysletc.h), opened by libsyslet. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/sysletc.h"
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
	free(p->name);
	free(p);
}

/* An image's bytes, opened by the runtime as a file's would be. */
static struct shl_prog *shl_prog_open(struct shell *sh, const char *name,
				      const void *elf, size_t len)
{
	struct shl_prog *p = calloc(1, sizeof(*p));
	char err[256];

	if (!p)
		shl_oom();
	p->refs = 1;
	p->obj = syslet_obj__open_mem(elf, len, err, sizeof(err));
	if (!p->obj) {
		shl_error(sh, "%s: %s", name, err);
		free(p);
		return NULL;
	}
	p->name = strdup(name);
	if (!p->name)
		shl_oom();
	return p;
}

struct shl_prog *shl_prog_compile(struct shell *sh, const char *name,
				  const char *src, size_t len, FILE *diags)
{
	struct shl_prog *p;
	size_t elf_len;
	char err[256];
	void *elf;
	int n;

	n = sysletc_compile_mem(name, src, len, diags, &elf, &elf_len, err,
				sizeof(err));
	if (n > 0) {
		sh->errors++;
		return NULL;
	}
	if (n < 0) {
		shl_error(sh, "%s: %s", name, err);
		return NULL;
	}
	p = shl_prog_open(sh, name, elf, elf_len);
	free(elf);
	return p;
}

struct shl_prog *shl_prog_load(struct shell *sh, const char *path)
{
	struct shl_prog *p;
	char err[256] = "";
	size_t len;
	char *buf;

	switch (srun_input_read(path, &buf, &len, err, sizeof(err))) {
	case SRUN_INPUT_IMAGE:
		p = shl_prog_open(sh, path, buf, len);
		free(buf);
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
