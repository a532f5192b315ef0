/* shell-names.c: the names tab completion offers: commands, syscalls, the language's words, and the session's and program's names. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compiler/sysletc.h"
#include "libsyslet.h"
#include "run/qualify.h"
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
		add(ctx, "all");
	}
	if (kinds & SHL_N_OFF)
		add(ctx, "off");
	if (kinds & SHL_N_CLASS) {
		const char *c;

		for (i = 0; (c = srun_set_class(i)); i++)
			add(ctx, c);
	}
	if (sh->dbg)
		shl_dbg_names(sh, kinds, add, ctx);
	if (sh->imm)
		shl_imm_names(sh, kinds, add, ctx);
}

static bool shl_blank(char c)
{
	return c == ' ' || c == '\t';
}

unsigned int shl_complete_kinds(const char *line, int start)
{
	const struct shl_cmd *cmd;
	char word[32];
	int i = 0, n = 0, arg = 0;
	unsigned int kinds;

	while (i < start && shl_blank(line[i]))
		i++;
	if (i >= start)
		return SHL_N_COMMAND | SHL_N_SYSCALL | SHL_N_CELL |
		       SHL_N_OBJECT | SHL_N_KEYWORD;
	while (i < start && !shl_blank(line[i]) && n < (int)sizeof(word) - 1)
		word[n++] = line[i++];
	word[n] = '\0';
	cmd = shl_cmd_find(word);
	if (!cmd || !shl_is_command(line))
		return SHL_N_SYSCALL | SHL_N_CELL | SHL_N_OBJECT |
		       SHL_N_KEYWORD | SHL_N_ENTRY;
	/* Which argument: words are blank-separated; the word may have
	 * begun before start, at a break character (%, !, ',', '='). */
	for (;;) {
		while (i < start && shl_blank(line[i]))
			i++;
		if (i >= start)
			break;
		while (i < start && !shl_blank(line[i]))
			i++;
		if (i >= start)
			break;
		arg++;
	}
	kinds = arg == 0 ? cmd->complete : cmd->complete_more;
	/* A SET's %CLASS: readline breaks the word at the '%'. */
	if ((kinds & SHL_N_SYSCALL) && start > 0 && line[start - 1] == '%')
		return SHL_N_CLASS;
	return kinds;
}

struct shl_filter {
	const char	*text;
	size_t		len;
	shl_name_fn	add;
	void		*ctx;
};

static void shl_filter_add(void *ctx, const char *name)
{
	struct shl_filter *f = ctx;

	if (strncmp(name, f->text, f->len) == 0)
		f->add(f->ctx, name);
}

void shl_complete_names(struct shell *sh, unsigned int kinds,
			const char *text, shl_name_fn add, void *ctx)
{
	struct shl_filter f = { text, strlen(text), add, ctx };
	const char *colon = strrchr(text, ':');

	/* After a rule's ':' come its keys, the rule so far before them. */
	if ((kinds & SHL_N_RULE) && colon) {
		static const char *const keys[] = { "error=", "retval=",
						    "when=" };
		char buf[256];

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			int w = snprintf(buf, sizeof(buf), "%.*s:%s",
					 (int)(colon - text), text, keys[k]);

			if (w > 0 && (size_t)w < sizeof(buf))
				shl_filter_add(&f, buf);
		}
		return;
	}
	shl_names(sh, kinds, shl_filter_add, &f);
}
