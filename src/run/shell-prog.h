/* shell-prog.h: a program of the shell: the runtime's object of a .slo read or a source compiled. */
#ifndef SYSLET_RUN_SHELL_PROG_H
#define SYSLET_RUN_SHELL_PROG_H

#include <stdio.h>

#include "libsyslet.h"
#include "run/shell-int.h"

/* The file name of statements typed at the prompt. */
#define SHL_INPUT "<input>"

struct shl_prog {
	char			*name;	/* file name, or "<input>" */
	struct syslet_obj	*obj;
	unsigned int		refs;	/* instances a worker may run hold one */
};

/* A .slo, or else a source compiled in memory; NULL, reason printed. */
struct shl_prog *shl_prog_load(struct shell *sh, const char *path);
/* Source text under name; the compiler's diagnostics go to diags. */
struct shl_prog *shl_prog_compile(struct shell *sh, const char *name,
				  const char *src, size_t len, FILE *diags);
/* Another reference; shl_prog_free() drops one, the last frees. */
struct shl_prog *shl_prog_get(struct shl_prog *p);
void shl_prog_free(struct shl_prog *p);

/* One line per atom run: for a program's atoms the line of --trace, for
 * a statement typed at the prompt "read(3, "hi\n", 64) = 3". */
struct syslet_event;
void shl_print_event(struct shell *sh, FILE *out, struct syslet_inst *inst,
		     const struct syslet_event *ev);

#endif /* SYSLET_RUN_SHELL_PROG_H */
