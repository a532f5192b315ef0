/* shell-int.h: interfaces between the parts of the interactive shell (input, commands, session). */
#ifndef SYSLET_RUN_SHELL_INT_H
#define SYSLET_RUN_SHELL_INT_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/textbuf.h"
#include "run/qualify.h"
#include "run/shell.h"

struct shell;

/* ---- Text buffers (common/textbuf.h): append, or give up -------------- */
/* Out of memory: a message, the terminal given back, exit status 2. */
__attribute__((noreturn)) void shl_oom(void);
/* Readline's handler removed, the terminal restored (if it had it). */
void shl_line_release(void);
void shl_buf_add(struct text_buf *b, const char *s, size_t n);
void shl_buf_puts(struct text_buf *b, const char *s);
void shl_buf_printf(struct text_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Names to indexes, for sessions of any size (shell-util.c); keys are
 * copied. */
struct shl_map {
	struct {
		char	*key;
		size_t	val;
	}		*v;
	size_t		n, cap;
};

bool shl_map_get(const struct shl_map *m, const char *key, size_t *val);
/* The same for the n bytes at key. */
bool shl_map_getn(const struct shl_map *m, const char *key, size_t n,
		  size_t *val);
/* Insert, or replace the value of, key. */
void shl_map_put(struct shl_map *m, const char *key, size_t val);
void shl_map_free(struct shl_map *m);

/* Parse a C integer literal (or an errno name, with an optional minus:
 * -ENOENT), the whole string; false when it is not one, with errno
 * ERANGE for a literal outside a word's range (LONG_MIN..ULONG_MAX),
 * EINVAL for anything else. */
bool shl_parse_long(const char *s, long *v);

/* hexdump -C's lines, offsets relative to base: repeats folded into
 * "*", the end offset last. */
void shl_hexdump(FILE *out, const void *p, size_t len, unsigned long base);

/* ---- Input (shell-line.c) ---------------------------------------------- */
/* Set by SIGINT: a prompt discards what was typed, a running syslet stops
 * before its next atom (a blocking call in it returns -EINTR). */
extern volatile sig_atomic_t shl_interrupted;

struct shl_input {
	bool		tty;		/* readline, prompts, history */
	FILE		*in;		/* without a terminal */
	char		*histfile;	/* NULL: no history kept */
	unsigned long	lineno;		/* lines read so far */
	unsigned long	unit_line;	/* the line the unit read last began on */
	char		*pending;	/* a line read ahead, without a tty */
	/* The callback interface of readline hands lines over here. */
	char		*rl_line;
	bool		rl_got, rl_eof;
};

int shl_input_open(struct shell *sh, bool force_tty);
void shl_input_close(struct shell *sh);
/* One complete unit of input: a command line, or a statement whose
 * braces and parentheses balance (lines joined with '\n').  NULL at end
 * of input; "" when the user interrupted the line.  A trailing '\'
 * continues a line too. */
char *shl_input_read(struct shell *sh);
/* Where the history lives: $XDG_DATA_HOME/syslet/history, else
 * ~/.local/share/syslet/history; NULL if neither can be found. */
char *shl_history_path(void);

/* ---- Names for completion (shell-names.c) ------------------------------- */
enum {
	SHL_N_COMMAND	= 1u << 0,
	SHL_N_SYSCALL	= 1u << 1,
	SHL_N_CELL	= 1u << 2,	/* variables and parameters */
	SHL_N_OBJECT	= 1u << 3,	/* buffers and data */
	SHL_N_ENTRY	= 1u << 4,
	SHL_N_LABEL	= 1u << 5,
	SHL_N_BACKEND	= 1u << 6,
	SHL_N_ONOFF	= 1u << 7,	/* trace's on, off and all */
	SHL_N_KEYWORD	= 1u << 8,	/* var, buffer, if, while, ... */
	SHL_N_FILE	= 1u << 9,	/* readline's own file name completion */
	SHL_N_CLASS	= 1u << 10,	/* a SET's %CLASS, after its '%' */
	SHL_N_RULE	= 1u << 11,	/* inject's SET:error=, :retval=, :when= */
	SHL_N_OFF	= 1u << 12,	/* inject off */
	SHL_N_CALLED	= 1u << 13,	/* the calls the program's atoms make */
};

typedef void (*shl_name_fn)(void *ctx, const char *name);
void shl_names(struct shell *sh, unsigned int kinds, shl_name_fn add,
	       void *ctx);
/*
 * The kinds of name that fit the word at start in line: at the start, a
 * command or a statement; in a command, what its argument at that place
 * takes (a SET's class after '%', inject's keys after the SET's ':');
 * inside a statement, everything a statement can name.  0: nothing.
 */
unsigned int shl_complete_kinds(const char *line, int start);
/* Every name of kinds that begins with text, to add (SHL_N_RULE: text
 * with each of inject's keys after its ':'). */
void shl_complete_names(struct shell *sh, unsigned int kinds,
			const char *text, shl_name_fn add, void *ctx);

/* ---- Commands (shell-cmd.c) -------------------------------------------- */
struct shl_cmd {
	const char	*name;
	const char	*alias;		/* a short form, or NULL */
	const char	*usage;		/* "break ATOM|LINE" */
	const char	*brief;		/* one line for `help` */
	const char	*help;		/* the rest for `help NAME` */
	/* argv[0] is the command; rest is the text after it, trimmed. */
	int		(*fn)(struct shell *sh, int argc, char **argv,
			      const char *rest);
	unsigned int	complete;	/* SHL_N_* for its first argument */
	unsigned int	complete_more;	/* and for those after it */
};

const struct shl_cmd *shl_cmd_find(const char *word);
const struct shl_cmd *shl_cmd_table(size_t *n);
/* Whether line is a command (rather than a statement or declaration):
 * its first word names a command and the second is not an operator. */
bool shl_is_command(const char *line);
/* Run one command line; errors are printed and return -1. */
int shl_cmd_run(struct shell *sh, const char *line);

/* ---- The debugger (shell-dbg.c) and immediate mode (shell-imm.c) ------- */
struct shl_dbg;
struct shl_imm;
struct shl_exec;
struct syslet_inst;
struct syslet_uatom;
struct syslet_ring;

int shl_dbg_init(struct shell *sh);
void shl_dbg_free(struct shell *sh);
/* Load path as the program (args: the default arguments of run). */
int shl_dbg_load_path(struct shell *sh, const char *path, int argc,
		      char **argv);
/* The session's completion ring, registered on first use; NULL (message
 * printed) when registration failed. */
struct syslet_ring *shl_ring(struct shell *sh);
/* Keep inst (and prog, its program) until the session ends: a worker
 * may still run it. */
struct shl_prog;
void shl_dbg_keep(struct shell *sh, struct syslet_inst *inst,
		  struct shl_prog *prog);
void shl_dbg_names(struct shell *sh, unsigned int kinds, shl_name_fn add,
		   void *ctx);
/* "a buffer", "a variable" ... when the loaded program has a cell or an
 * object called name (a local also by its name alone), else NULL;
 * *prog: the program's file. */
const char *shl_dbg_prog_has(struct shell *sh, const char *name,
			     const char **prog);

/* Command handlers. */
#define SHL_HANDLER(name) \
	int shl_dbg_##name(struct shell *sh, int argc, char **argv, \
			   const char *rest)
SHL_HANDLER(load);
SHL_HANDLER(list);
SHL_HANDLER(break);
SHL_HANDLER(delete);
SHL_HANDLER(watch);
SHL_HANDLER(run);
SHL_HANDLER(step);
SHL_HANDLER(next);
SHL_HANDLER(continue);
SHL_HANDLER(print);
SHL_HANDLER(set);
SHL_HANDLER(x);
SHL_HANDLER(ring);
SHL_HANDLER(wait);
SHL_HANDLER(backend);
SHL_HANDLER(info);

int shl_imm_init(struct shell *sh);
void shl_imm_free(struct shell *sh);
/* Compile and run a statement, or add a declaration to the session. */
void shl_imm_eval(struct shell *sh, const char *text);
/* Whether text is a declaration of the session (else statements), and
 * whether it ends without the ';' or '}' a statement ends with (one is
 * added): how shl_imm_eval() will compile it. */
bool shl_is_decl(const char *text);
bool shl_ends_open(const char *text);
/* What shl_imm_eval() adds after such a statement: "", ";", or "\n;"
 * where its last line ends in a // comment or an open quote. */
const char *shl_stmt_semi(const char *text);
struct sysletc_probe;
/* sysletc_probe() of statements as shl_imm_eval() compiles them: with
 * the ';' shl_stmt_semi() says is missing. */
void shl_probe_stmts(const char *text, struct sysletc_probe *r);
void shl_imm_names(struct shell *sh, unsigned int kinds, shl_name_fn add,
		   void *ctx);
/* A session variable's word, or NULL; a session buffer or data object's
 * bytes (size in *size), or NULL. */
unsigned long *shl_imm_cell(struct shell *sh, const char *name);
/* Whether name is a constant declared in the session (no cell). */
bool shl_imm_is_const(struct shell *sh, const char *name);
unsigned char *shl_imm_object(struct shell *sh, const char *name,
			      size_t *size);
/* Print every session variable as print does. */
void shl_imm_print_all(struct shell *sh);
void shl_imm_info(struct shell *sh);
/* The session's declarations, as source text. */
const char *shl_imm_source(struct shell *sh);

/* ---- The session (shell.c) --------------------------------------------- */
struct shell {
	const struct srun_shell_opts	*opt;
	const char			*prog;
	FILE				*out;	/* results */
	FILE				*err;	/* diagnostics */
	struct shl_input		in;
	bool				quit;
	int				status;
	int				signo;	/* the signal that ended it */
	bool				trace;
	struct srun_set			trace_set; /* trace SET */
	char				trace_spec[128]; /* its text */
	unsigned int			errors;	/* printed so far */

	struct shl_exec			*exec;	/* running, for events */
	bool				stepping; /* step prints events */

	struct shl_dbg			*dbg;	/* shell-dbg.c */
	struct shl_imm			*imm;	/* shell-imm.c */
};

/* Whether the trace shows @ev: trace on, and its call in the set that
 * `trace SET` chose (faults always, as with --trace=SET). */
bool shl_traced(const struct shell *sh, const struct syslet_event *ev);

/* "syslet-run: " + message, counted in sh->errors. */
void shl_error(struct shell *sh, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* SYSLET_RUN_SHELL_INT_H */
