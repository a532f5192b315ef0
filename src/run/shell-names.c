/* shell-names.c: the names tab completion offers: commands, syscalls, the language's words, and the session's and program's names. */
#include "config.h"

#include <string.h>

#include "compiler/sysletc.h"
#include "libsyslet.h"
#include "run/shell-int.h"

void shl_names(struct shell *sh, unsigned int kinds, shl_name_fn add,
	       void *ctx)
{
	size_t i, n;

	if (kinds & SHL_N_COMMAND) {
		const struct shl_cmd *cmds = shl_cmd_table(&n);

		for (i = 0; i < n; i++)
			add(ctx, cmds[i].name);
	}
	/* The language's words from the grammar's and the compiler's
	 * tables, so that completion cannot drift from the language. */
	if (kinds & SHL_N_KEYWORD)
		sysletc_words(add, ctx);
	if (kinds & SHL_N_SYSCALL) {
		long nr, count = syslet_syscall_count();

		for (nr = 0; nr < count; nr++) {
			const char *name = syslet_syscall_name(nr);

			if (name && syslet_syscall_denied(nr) == 0)
				add(ctx, name);
		}
	}
	if (kinds & SHL_N_BACKEND) {
		const char *const *b = syslet_backend_list();

		for (; b && *b; b++)	/* "auto" among them */
			add(ctx, *b);
	}
	if (kinds & SHL_N_ONOFF) {
		add(ctx, "on");
		add(ctx, "off");
	}
	if (sh->dbg)
		shl_dbg_names(sh, kinds, add, ctx);
	if (sh->imm)
		shl_imm_names(sh, kinds, add, ctx);
}
