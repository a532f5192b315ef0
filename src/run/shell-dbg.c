/* shell-dbg.c: the shell's debugger: load, list, breakpoints, run and step, cells, the ring. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/quote.h"
#include "run/run.h"
#include "run/shell-exec.h"

#define SHL_RING_DEFAULT	16
#define SHL_DUMP_MAX		256

struct shl_bp {
	int	id;
	size_t	atom;
};

/* watch CELL: continue stops after an atom that changed the cell. */
struct shl_watch {
	int		id;		/* numbered with the breakpoints */
	char		*name;
	unsigned long	old;
	bool		have_old;
};

struct shl_dbg {
	struct shl_prog		*prog;
	char			**args;		/* run's default arguments */
	int			nargs;
	struct syslet_inst	*inst;		/* of the last run */
	char			*entry;
	struct syslet_uatom	*pc;		/* next atom; NULL: not running */
	bool			async;		/* inst went to a worker */
	struct shl_bp		*bps;
	size_t			nbps;
	struct shl_watch	*watches;
	size_t			nwatches;
	int			bp_ids;
	struct syslet_ring	ring;
	bool			ring_on;
	unsigned long		runs;		/* started, this session */
};

const char *shl_dbg_prog_has(struct shell *sh, const char *name,
			     const char **prog)
{
	static const char *const kinds[] = {
		[SYSLET_SYM_VAR] = "a variable",
		[SYSLET_SYM_PARAM] = "a parameter",
		[SYSLET_SYM_BUFFER] = "a buffer",
		[SYSLET_SYM_DATA] = "data",
	};
	struct shl_dbg *d = sh->dbg;
	size_t n, i, len = strlen(name);

	if (!d || !d->prog)
		return NULL;
	n = syslet_obj__sym_count(d->prog->obj);
	for (i = 0; i < n; i++) {
		SYSLET_OPTS(syslet_sym_info, si);
		const char *dot;

		if (syslet_obj__sym_info(d->prog->obj, i, &si) < 0 ||
		    si.kind < SYSLET_SYM_VAR || si.kind > SYSLET_SYM_DATA ||
		    !si.name)
			continue;
		dot = strrchr(si.name, '.');
		if (strcmp(si.name, name) != 0 &&
		    !(dot && strlen(dot + 1) == len &&
		      !strcmp(dot + 1, name)))
			continue;
		*prog = d->prog->name;
		return kinds[si.kind];
	}
	return NULL;
}

/* The ring, when the session ended with syslets still running: they may
 * yet complete into it, until the process exits.  Never read, so
 * volatile: the store must stay for leak checkers to see it. */
static struct syslet_ring *volatile shl_ring_left;

int shl_dbg_init(struct shell *sh)
{
	sh->dbg = calloc(1, sizeof(*sh->dbg));
	if (!sh->dbg)
		return -1;
	shl_exec_init(sh);
	return 0;
}

static void shl_watch_clear(struct shl_dbg *d)
{
	for (size_t i = 0; i < d->nwatches; i++)
		free(d->watches[i].name);
	free(d->watches);
	d->watches = NULL;
	d->nwatches = 0;
}

static void shl_free_args(struct shl_dbg *d)
{
	int i;

	for (i = 0; i < d->nargs; i++)
		free(d->args[i]);
	free(d->args);
	d->args = NULL;
	d->nargs = 0;
}

/* Drop the instance of the last run, unless a worker may still use it. */
static void shl_drop_inst(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;

	if (d->inst && d->async)
		shl_dbg_keep(sh, d->inst, d->prog);
	else
		syslet_inst__free(d->inst);
	d->inst = NULL;
	d->async = false;
	d->pc = NULL;
	free(d->entry);
	d->entry = NULL;
}

void shl_dbg_keep(struct shell *sh, struct syslet_inst *inst,
		  struct shl_prog *prog)
{
	(void)sh;
	shl_exec_keep(inst, prog);
}

void shl_dbg_free(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	size_t running;

	if (!d)
		return;
	shl_drop_inst(sh);
	/* Unregistering waits for busy workers, which would never come back
	 * from a syslet that does not end: those are left to the process's
	 * exit, with their instances, programs and ring. */
	running = shl_exec_end_flights(sh, d->ring_on ? &d->ring : NULL);
	if (d->ring_on && !running) {
		syslet_ring__exit(&d->ring);
	} else if (d->ring_on) {
		struct syslet_ring *r = malloc(sizeof(*r));

		if (!r)
			shl_oom();
		*r = d->ring;
		shl_ring_left = r;
	}
	shl_exec_fini(sh);
	shl_exec_free_flights(!running);
	shl_free_args(d);
	free(d->bps);
	shl_watch_clear(d);
	shl_prog_free(d->prog);
	free(d);
	sh->dbg = NULL;
}

struct syslet_ring *shl_ring(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	unsigned long entries = sh->opt->ring > 0 ? (unsigned long)sh->opt->ring
						  : SHL_RING_DEFAULT;
	unsigned long threads = sh->opt->threads > 0
				? (unsigned long)sh->opt->threads : -1UL;
	int err;

	if (d->ring_on)
		return &d->ring;
	d->ring.sz = sizeof(d->ring);
	err = syslet_ring__init(&d->ring, entries, threads);
	if (err) {
		shl_error(sh, "async_register (backend %s): %s",
			  syslet_backend_name() ? syslet_backend_name() : "?",
			  strerror(-err));
		return NULL;
	}
	d->ring_on = true;
	return &d->ring;
}

static bool shl_need_prog(struct shell *sh, const char *cmd)
{
	if (sh->dbg->prog)
		return true;
	shl_error(sh, "%s: no program loaded (load IMAGE|SOURCE)", cmd);
	return false;
}

/* ---- load, list ---------------------------------------------------------- */

static void shl_dbg_load_info(struct shell *sh);
static void shl_dbg_set_prog(struct shell *sh, struct shl_prog *p, int argc,
			     char **argv);

int shl_dbg_load_path(struct shell *sh, const char *path, int argc,
		      char **argv)
{
	struct shl_prog *p = shl_prog_load(sh, path);

	if (!p)
		return -1;
	shl_dbg_set_prog(sh, p, argc, argv);
	return 0;
}

static void shl_dbg_set_prog(struct shell *sh, struct shl_prog *p, int argc,
			     char **argv)
{
	struct shl_dbg *d = sh->dbg;
	int k;

	shl_drop_inst(sh);
	/* Instances kept because they went async hold their own reference. */
	shl_prog_free(d->prog);
	d->prog = p;
	free(d->bps);
	d->bps = NULL;
	d->nbps = 0;
	shl_watch_clear(d);
	shl_free_args(d);
	d->args = calloc(argc + 1, sizeof(*d->args));
	if (!d->args)
		shl_oom();
	for (k = 0; k < argc; k++)
		if (!(d->args[k] = strdup(argv[k])))
			shl_oom();
	d->nargs = argc;
	shl_dbg_load_info(sh);
}

static void shl_dbg_load_info(struct shell *sh)
{
	struct shl_prog *p = sh->dbg->prog;
	size_t i, n;
	int k;

	n = syslet_obj__entry_count(p->obj);
	fprintf(sh->out, "%s: %zu atom%s, profile %s, entr%s", p->name,
		syslet_obj__atom_count(p->obj),
		syslet_obj__atom_count(p->obj) == 1 ? "" : "s",
		syslet_obj__profile(p->obj), n == 1 ? "y" : "ies");
	for (i = 0; i < n; i++) {
		const char *e = syslet_obj__entry_name(p->obj, i);
		int np = syslet_obj__entry_params(p->obj, e);

		fprintf(sh->out, "%s %s(", i ? "," : "", e);
		for (k = 0; k < np; k++) {
			SYSLET_OPTS(syslet_param, pa);

			if (syslet_obj__entry_param(p->obj, e, (size_t)k, &pa))
				continue;
			fprintf(sh->out, "%s%s %s", k ? ", " : "",
				pa.type == SYSLET_PARAM_STR ? "str" :
				pa.type == SYSLET_PARAM_SOCKADDR_IN ?
				"sockaddr_in" : "int",
				pa.name);
		}
		fputc(')', sh->out);
	}
	fputc('\n', sh->out);
}

SHL_HANDLER(load)
{
	/* Without a file: the syslets declared in the session. */
	if (argc < 2) {
		const char *src = shl_imm_source(sh);
		struct shl_prog *p;

		if (!strstr(src, "syslet ")) {
			shl_error(sh, "load: expected IMAGE|SOURCE [ARG...] "
				  "(or declare a syslet first)");
			return -1;
		}
		p = shl_prog_compile(sh, SHL_INPUT, src, strlen(src), sh->err);
		if (!p)
			return -1;
		shl_dbg_set_prog(sh, p, 0, NULL);
		return 0;
	}
	return shl_dbg_load_path(sh, argv[1], argc - 2, argv + 2);
}

static long shl_pc_index(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;

	return d->pc && d->inst ? syslet_inst__atom_index(d->inst, d->pc) : -1;
}

static bool shl_is_bp(struct shl_dbg *d, size_t atom)
{
	size_t i;

	for (i = 0; i < d->nbps; i++)
		if (d->bps[i].atom == atom)
			return true;
	return false;
}

/* "#N" or "[N]", as the listing and the trace name atoms. */
static bool shl_parse_atom(const char *w, long *v)
{
	struct text_buf b = { 0 };
	bool ok;

	if (w[0] == '#')
		return shl_parse_long(w + 1, v);
	if (w[0] != '[' || !w[1] || w[strlen(w) - 1] != ']')
		return false;
	shl_buf_add(&b, w + 1, strlen(w) - 2);
	ok = shl_parse_long(b.s, v);
	text_buf_free(&b);
	return ok;
}

/* The first atom of the entry named name, in *atom. */
static bool shl_entry_atom(const struct syslet_obj *obj, const char *name,
			   long *atom)
{
	size_t n = syslet_obj__sym_count(obj);

	for (size_t i = 0; i < n; i++) {
		SYSLET_OPTS(syslet_sym_info, si);

		if (syslet_obj__sym_info(obj, i, &si) == 0 &&
		    si.kind == SYSLET_SYM_ENTRY && !strcmp(si.name, name)) {
			*atom = si.atom;
			return true;
		}
	}
	return false;
}

/* Whether an atom comes from source line v. */
static bool shl_line_has_atom(const struct syslet_obj *obj, long v)
{
	size_t n = syslet_obj__atom_count(obj);

	if (v <= 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		SYSLET_OPTS(syslet_atom_info, ai);

		if (syslet_obj__atom_info(obj, i, &ai) == 0 &&
		    ai.line == (unsigned long)v)
			return true;
	}
	return false;
}

/*
 * After "no atom on line N": a plain number is a line, as in gdb, but
 * one who reads the listing may have meant its atom N, which is [N].
 */
static const char *shl_atom_hint(const struct syslet_obj *obj, long v,
				 char *buf, size_t len)
{
	if (v < 0 || (size_t)v >= syslet_obj__atom_count(obj))
		return "";
	snprintf(buf, len, " (atom %ld is [%ld] or #%ld)", v, v, v);
	return buf;
}

/* What the list command shows of the listing, line by line. */
struct shl_list {
	struct shell	*sh;
	long		pc, from, to, line, cur;
};

static void shl_list_line(const struct syslet_list_line *l, void *ctx)
{
	struct shl_list *ls = ctx;
	struct shl_dbg *d = ls->sh->dbg;
	long a = l->part == SYSLET_LIST_ATOMS ? l->atom : -1;
	bool show = true;

	/* Cells and objects follow the atoms, belonging to none. */
	if (l->part == SYSLET_LIST_CELLS || l->part == SYSLET_LIST_OBJECTS)
		ls->cur = -1;
	if (a >= 0)
		ls->cur = a;
	if (ls->from >= 0 && (ls->cur < ls->from ||
			      (ls->to >= 0 && ls->cur >= ls->to) ||
			      !*l->text))
		show = false;
	if (ls->line >= 0) {
		SYSLET_OPTS(syslet_atom_info, ai);

		show = ls->cur >= 0 &&
		       syslet_obj__atom_info(d->prog->obj, (size_t)ls->cur,
					     &ai) == 0 &&
		       ai.line == (unsigned long)ls->line;
	}
	/* Mark the listing's atom lines: b breakpoint, > next to run. */
	if (show)
		fprintf(ls->sh->out, "%c%c %s\n",
			a >= 0 && shl_is_bp(d, (size_t)a) ? 'b' : ' ',
			a >= 0 && a == ls->pc ? '>' : ' ', l->text);
}

SHL_HANDLER(list)
{
	struct shl_dbg *d = sh->dbg;
	char hint[80];
	struct shl_list ls = { .sh = sh, .pc = shl_pc_index(sh), .from = -1,
			       .to = -1, .line = -1, .cur = -1 };

	if (!shl_need_prog(sh, "list"))
		return -1;
	if (argc > 2) {
		shl_error(sh, "list: expected ENTRY, [N] or LINE, got '%s'",
			  rest);
		return -1;
	}
	if (argc == 2) {
		long v;

		if (shl_parse_atom(argv[1], &v)) {
			size_t n = syslet_obj__atom_count(d->prog->obj);

			/* -1 would be "from no atom": the whole listing. */
			if (v < 0 || (size_t)v >= n) {
				shl_error(sh, "list: no atom %s (the program "
					  "has %zu)", argv[1], n);
				return -1;
			}
			ls.from = v;
		} else if (shl_parse_long(argv[1], &v)) {
			/* As break says it: a line of no atom shows nothing,
			 * and -1 would be "no line": the whole listing. */
			if (!shl_line_has_atom(d->prog->obj, v)) {
				shl_error(sh, "list: no atom on line %s%s",
					  argv[1], shl_atom_hint(d->prog->obj,
						v, hint, sizeof(hint)));
				return -1;
			}
			ls.line = v;
		} else if (shl_entry_atom(d->prog->obj, argv[1], &v)) {
			size_t n = syslet_obj__sym_count(d->prog->obj);

			ls.from = v;
			/* ...to the next entry */
			for (size_t i = 0; i < n; i++) {
				SYSLET_OPTS(syslet_sym_info, si);

				if (syslet_obj__sym_info(d->prog->obj, i,
							 &si) == 0 &&
				    si.kind == SYSLET_SYM_ENTRY &&
				    si.atom > ls.from &&
				    (ls.to < 0 || si.atom < ls.to))
					ls.to = si.atom;
			}
		} else {
			shl_error(sh, "list: no entry '%s' (expected ENTRY, "
				  "[N] or LINE)", argv[1]);
			return -1;
		}
	}
	if (syslet_obj__list(d->prog->obj, shl_list_line, &ls)) {
		shl_error(sh, "list: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- breakpoints ---------------------------------------------------------- */

static void shl_describe_atom(struct shell *sh, size_t atom);

/* An atom from "#N", "atom N", a line number, an entry or a label;
 * -3 for the name of a system call (shl_break_syscall()). */
static long shl_locate(struct shell *sh, int argc, char **argv)
{
	struct shl_prog *p = sh->dbg->prog;
	size_t n = syslet_obj__atom_count(p->obj), i;
	const char *w = argv[1];
	const char *like;
	char hint[80];
	long v;

	if (argc == 3 && strcmp(argv[1], "atom") == 0)
		w = argv[2];
	else if (argc != 2)
		return -2;
	if (w[0] == '#' || w[0] == '[' || w != argv[1]) {
		if (!(w != argv[1] ? shl_parse_long(w, &v)
				   : shl_parse_atom(w, &v)) ||
		    v < 0 || (size_t)v >= n) {
			shl_error(sh, "break: no atom %s (the program has %zu)", w,
				  n);
			return -1;
		}
		return v;
	}
	if (shl_parse_long(w, &v)) {
		for (i = 0; i < n; i++) {
			SYSLET_OPTS(syslet_atom_info, ai);

			if (syslet_obj__atom_info(p->obj, i, &ai) == 0 &&
			    ai.line == (unsigned long)v)
				return (long)i;
		}
		shl_error(sh, "break: no atom on line %s%s", w,
			  shl_atom_hint(p->obj, v, hint, sizeof(hint)));
		return -1;
	}
	v = syslet_obj__find_atom(p->obj, w);
	if (v >= 0)
		return v;
	/* A label may be named without its syslet; the first that has it
	 * when several do. */
	for (i = 0; i < syslet_obj__sym_count(p->obj); i++) {
		SYSLET_OPTS(syslet_sym_info, si);
		const char *dot;

		if (syslet_obj__sym_info(p->obj, i, &si) ||
		    si.kind != SYSLET_SYM_LABEL)
			continue;
		dot = strchr(si.name, '.');
		if (dot && strcmp(dot + 1, w) == 0)
			return si.atom;
	}
	/* A system call's name: every atom that makes it (the handler's),
	 * as strace's -e trace=NAME and gdb's catch syscall NAME. */
	if (w == argv[1] && syslet_syscall_number(w) >= 0)
		return -3;
	/* A misspelt call is answered as the compiler and --trace= answer
	 * it. */
	like = w == argv[1] ? syslet_syscall_suggest(w) : NULL;
	shl_error(sh, "break: no entry, label or system call '%s' (expected "
		  "[N], LINE, ENTRY, LABEL or SYSCALL)%s%s%s", w,
		  like ? "; did you mean '" : "", like ? like : "",
		  like ? "'?" : "");
	return -1;
}

/* A breakpoint at each atom whose call is @name; 0, or -1 when the
 * program makes no such call. */
static int shl_break_syscall(struct shell *sh, const char *name)
{
	struct shl_dbg *d = sh->dbg;
	const struct syslet_obj *obj = d->prog->obj;
	size_t n = syslet_obj__atom_count(obj), i, set = 0;

	for (i = 0; i < n; i++) {
		SYSLET_OPTS(syslet_atom_info, ai);
		struct shl_bp *v;

		if (syslet_obj__atom_info(obj, i, &ai) != 0 || !ai.syscall ||
		    strcmp(ai.syscall, name) != 0)
			continue;
		set++;
		if (shl_is_bp(d, i)) {
			fprintf(sh->out, "breakpoint already at [%zu]\n", i);
			continue;
		}
		v = realloc(d->bps, (d->nbps + 1) * sizeof(*v));
		if (!v)
			shl_oom();
		d->bps = v;
		d->bps[d->nbps].id = ++d->bp_ids;
		d->bps[d->nbps].atom = i;
		fprintf(sh->out, "breakpoint %d at ", d->bp_ids);
		shl_describe_atom(sh, i);
		fputc('\n', sh->out);
		d->nbps++;
	}
	if (set)
		return 0;
	shl_error(sh, "break: no atom of the program calls %s (list shows "
		  "its atoms)", name);
	return -1;
}

static void shl_describe_atom(struct shell *sh, size_t atom)
{
	SYSLET_OPTS(syslet_atom_info, ai);

	fprintf(sh->out, "[%zu]", atom);
	if (syslet_obj__atom_info(sh->dbg->prog->obj, atom, &ai) != 0)
		return;
	if (ai.syscall)
		fprintf(sh->out, " %s", ai.syscall);
	if (ai.line)
		fprintf(sh->out, " (%s:%u%s%s)", ai.source ? ai.source : "",
			ai.line, ai.text ? ": " : "", ai.text ? ai.text : "");
}

SHL_HANDLER(break)
{
	struct shl_dbg *d = sh->dbg;
	struct shl_bp *v;
	long atom;
	size_t i;

	if (!shl_need_prog(sh, "break"))
		return -1;
	if (argc == 1) {
		if (!d->nbps && !d->nwatches)
			fputs("no breakpoints\n", sh->out);
		for (i = 0; i < d->nbps; i++) {
			fprintf(sh->out, "%d: ", d->bps[i].id);
			shl_describe_atom(sh, d->bps[i].atom);
			fputc('\n', sh->out);
		}
		for (i = 0; i < d->nwatches; i++)
			fprintf(sh->out, "%d: watch %s\n", d->watches[i].id,
				d->watches[i].name);
		return 0;
	}
	atom = shl_locate(sh, argc, argv);
	if (atom == -3)
		return shl_break_syscall(sh, argv[1]);
	if (atom == -2)
		shl_error(sh, "break: expected [N], LINE or NAME (an entry, a "
			  "label or a system call), got '%s'", rest);
	if (atom < 0)
		return -1;
	if (shl_is_bp(d, (size_t)atom)) {
		fprintf(sh->out, "breakpoint already at [%ld]\n", atom);
		return 0;
	}
	v = realloc(d->bps, (d->nbps + 1) * sizeof(*v));
	if (!v)
		shl_oom();
	d->bps = v;
	d->bps[d->nbps].id = ++d->bp_ids;
	d->bps[d->nbps].atom = (size_t)atom;
	fprintf(sh->out, "breakpoint %d at ", d->bp_ids);
	shl_describe_atom(sh, (size_t)atom);
	fputc('\n', sh->out);
	d->nbps++;
	return 0;
}

SHL_HANDLER(delete)
{
	struct shl_dbg *d = sh->dbg;
	long id;
	size_t i;

	if (argc == 1) {
		d->nbps = 0;
		shl_watch_clear(d);
		return 0;
	}
	if (argc != 2 || !shl_parse_long(argv[1], &id)) {
		if (argc == 2 && errno == ERANGE)
			shl_error(sh, "delete: no breakpoint %s (break lists "
				  "them)", argv[1]);
		else
			shl_error(sh, "delete: expected a breakpoint number, "
				  "got '%s'", rest);
		return -1;
	}
	for (i = 0; i < d->nbps; i++) {
		if (d->bps[i].id == id) {
			memmove(&d->bps[i], &d->bps[i + 1],
				(d->nbps - i - 1) * sizeof(d->bps[0]));
			d->nbps--;
			return 0;
		}
	}
	for (i = 0; i < d->nwatches; i++) {
		if (d->watches[i].id == id) {
			free(d->watches[i].name);
			memmove(&d->watches[i], &d->watches[i + 1],
				(d->nwatches - i - 1) * sizeof(d->watches[0]));
			d->nwatches--;
			return 0;
		}
	}
	shl_error(sh, "delete: no breakpoint %ld (break lists them)", id);
	return -1;
}

static unsigned long *shl_cell(struct shell *sh, const char *name,
			       bool *prog);

/*
 * gdb's watch: continue (and run) stops after an atom that changed the
 * cell, saying its old and new values.  The cell is named as print names
 * it; a program's cell exists from run on, so it may be watched before.
 */
SHL_HANDLER(watch)
{
	struct shl_dbg *d = sh->dbg;
	struct shl_watch *v;
	const char *kind, *prog;
	bool in_prog;
	unsigned long *c;

	if (!shl_need_prog(sh, "watch"))
		return -1;
	if (argc == 1)
		return shl_dbg_break(sh, argc, argv, rest);
	if (argc != 2) {
		shl_error(sh, "watch: expected one cell, got '%s'", rest);
		return -1;
	}
	c = shl_cell(sh, argv[1], &in_prog);
	kind = c ? NULL : shl_dbg_prog_has(sh, argv[1], &prog);
	if (!c && (!kind || (strcmp(kind, "a variable") &&
			     strcmp(kind, "a parameter")))) {
		shl_error(sh, "watch: no cell '%s'%s", argv[1],
			  kind ? " (buffers and data are not watched: a "
				 "cell is)" : "");
		return -1;
	}
	for (size_t i = 0; i < d->nwatches; i++)
		if (!strcmp(d->watches[i].name, argv[1])) {
			fprintf(sh->out, "watchpoint already on %s\n",
				argv[1]);
			return 0;
		}
	v = realloc(d->watches, (d->nwatches + 1) * sizeof(*v));
	if (!v)
		shl_oom();
	d->watches = v;
	v = &d->watches[d->nwatches];
	v->id = ++d->bp_ids;
	v->name = strdup(argv[1]);
	if (!v->name)
		shl_oom();
	v->have_old = c != NULL;
	v->old = c ? *c : 0;
	d->nwatches++;
	fprintf(sh->out, "watchpoint %d: %s\n", v->id, argv[1]);
	return 0;
}

/* Take the watched cells' values now (a run's fresh instance). */
static void shl_watch_arm(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	bool prog;

	for (size_t i = 0; i < d->nwatches; i++) {
		unsigned long *c = shl_cell(sh, d->watches[i].name, &prog);

		d->watches[i].have_old = c != NULL;
		d->watches[i].old = c ? *c : 0;
	}
}

/* The first watched cell the last atom changed: said, and true. */
static bool shl_watch_hit(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	bool prog, hit = false;

	for (size_t i = 0; i < d->nwatches; i++) {
		struct shl_watch *w = &d->watches[i];
		unsigned long *c = shl_cell(sh, w->name, &prog);

		if (!c || (w->have_old && *c == w->old))
			continue;
		if (!hit) {
			char was[64], now[64];

			srun_format_result(was, sizeof(was), (long)w->old,
					   SRUN_NR_VALUE);
			srun_format_result(now, sizeof(now), (long)*c,
					   SRUN_NR_VALUE);
			fprintf(sh->out, "watchpoint %d: %s: %s -> %s\n",
				w->id, w->name, w->have_old ? was : "?", now);
		}
		hit = true;
		w->old = *c;
		w->have_old = true;
	}
	return hit;
}

/* ---- running ---------------------------------------------------------- */

/* A fresh instance at entry with args bound; 0 or -1 (message printed). */
static int shl_param_type(const struct shl_dbg *d, const char *name);

/* " a.fd = 3, a.n = 0": the program instance's variables, on one line
 * (the parameters are the run's arguments); " none" without any. */
static void shl_cells_inline(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	size_t n = syslet_obj__cell_count(d->prog->obj), k;
	bool any = false;

	for (k = 0; k < n; k++) {
		const char *name = syslet_obj__cell_name(d->prog->obj, k);
		unsigned long *c = syslet_inst__cell(d->inst, name);

		if (!c || shl_param_type(d, name))
			continue;
		fprintf(sh->out, "%s %s = %ld", any ? "," : "", name,
			(long)*c);
		any = true;
	}
	if (!any)
		fputs(" none", sh->out);
}

/* @cmd: run, or step and next, which start a program not running with
 * the arguments of load or of the command line, and cannot take others. */
static int shl_start(struct shell *sh, const char *cmd, const char *entry,
		     int argc, char **argv)
{
	struct shl_dbg *d = sh->dbg;
	char err[256] = "";
	struct syslet_inst *inst;

	if (!entry)
		entry = sh->opt->entry;
	if (!entry && syslet_obj__entry_count(d->prog->obj) > 0)
		entry = syslet_obj__entry_name(d->prog->obj, 0);
	if (!entry) {
		shl_error(sh, "%s: the program has no entry", cmd);
		return -1;
	}
	if (syslet_obj__entry_params(d->prog->obj, entry) < 0) {
		shl_error(sh, "%s: no entry '%s'", cmd, entry);
		return -1;
	}
	inst = syslet_obj__instantiate(d->prog->obj, err, sizeof(err));
	if (!inst) {
		shl_error(sh, "%s: %s", cmd, err);
		return -1;
	}
	if (syslet_inst__bind(inst, entry, argc, argv, err, sizeof(err))) {
		int i;

		/* run --each a b: an option of the command line typed to
		 * run, which takes none and bound it as an argument. */
		for (i = 0; i < argc && (strncmp(argv[i], "--", 2) ||
					 !argv[i][2]); i++)
			;
		if (strcmp(cmd, "run"))
			shl_error(sh, "%s: %s (%s starts the program with the "
				  "arguments given to load or on the command "
				  "line; to give others: break [0], then run "
				  "ARG...)", cmd, err, cmd);
		else
			shl_error(sh, "run: %s%s", err, i == argc ? "" :
				  " (run takes no options: syslet-run's, such "
				  "as --each, go on its command line; the "
				  "shell's trace, inject and stats do what "
				  "--trace, --inject and --stats do)");
		syslet_inst__free(inst);
		return -1;
	}
	/* gdb's run kills the old process, and its descriptors go with
	 * it; a syslet's calls opened them in this one, where they stay:
	 * run again on a server stopped after its listen() fails at bind
	 * (EADDRINUSE) with no word why. */
	if (d->inst && d->pc) {
		long idx = shl_pc_index(sh);

		fprintf(sh->out, "the run of %s stopped at ", d->entry);
		if (idx >= 0)
			shl_describe_atom(sh, (size_t)idx);
		else
			fputs("an atom", sh->out);
		fputs(" is left: the descriptors its calls opened stay open "
		      "in this process; its variables were", sh->out);
		shl_cells_inline(sh);
		fputs(" (a statement closes a descriptor: close(N);)\n",
		      sh->out);
	}
	shl_drop_inst(sh);
	d->inst = inst;
	d->entry = strdup(entry);
	if (!d->entry)
		shl_oom();
	d->pc = syslet_inst__entry(inst, entry);
	d->runs++;
	return 0;
}

/* What happened when the chain ended after atom `last`, which ran as
 * @ev says where there is one (its nr, not the atom's now: the atom may
 * have rewritten it). */
static void shl_report_end(struct shell *sh, struct syslet_uatom *last,
			   const struct syslet_event *ev, long ret,
			   bool injected)
{
	struct shl_dbg *d = sh->dbg;
	unsigned long nr = ev && ev->atom == last &&
			   ev->end != SYSLET_END_FAULT ? ev->nr :
			   srun_ran_nr(last);
	char res[64];
	long val = 0;

	d->pc = NULL;
	/* A failed call is reported as syslet-run reports it, also at the
	 * test of the variable it failed into; a test or arithmetic atom's
	 * value is otherwise only a value. */
	if ((srun_is_call(nr) && ret < 0 && ret > -4096) ||
	    srun_failed(d->inst, last, nr, &val, NULL)) {
		srun_stop_report(sh->out, sh->prog, NULL, d->entry, d->inst, last,
				 nr, ret, injected);
		/* A server run again after a run that ended without closing
		 * its socket: gdb's run would have started a new process,
		 * and nothing here says why the address is taken. */
		if ((ret == -EADDRINUSE || val == -EADDRINUSE) && d->runs > 1)
			fprintf(sh->out, "note: the descriptors that earlier "
				"runs opened stay open in this process, "
				"whether they ended or stopped: a socket one "
				"of them left bound holds the address (ls -l "
				"/proc/%ld/fd lists them; a statement closes "
				"one: close(N);)\n", (long)getpid());
		return;
	}
	srun_format_result(res, sizeof(res), ret, nr);
	fprintf(sh->out, "%s finished at [%ld]: %s\n", d->entry,
		syslet_inst__atom_index(d->inst, last), res);
}

static void shl_show_next(struct shell *sh)
{
	long pc = shl_pc_index(sh);

	if (pc < 0)
		return;
	fputs("next: ", sh->out);
	shl_describe_atom(sh, (size_t)pc);
	fputc('\n', sh->out);
}

/* One atom through the stepping engine; false when the chain ended.
 * With @watch (run and continue), a watched cell that the chain's last
 * atom changed is said before the end, as any other atom's change is. */
static bool shl_step_one(struct shell *sh, bool show, bool watch)
{
	struct shl_dbg *d = sh->dbg;
	struct syslet_uatom *atom = d->pc;
	struct shl_exec x;

	d->pc = shl_exec_step(sh, &x, d->inst, atom);
	if (show || shl_traced(sh, &x.last))
		shl_print_event(sh, sh->out, d->inst, &x.last);
	if (d->pc)
		return true;
	if (watch)
		shl_watch_hit(sh);
	shl_report_end(sh, atom, &x.last, x.last.end == SYSLET_END_FAULT
				 ? -EFAULT : x.last.ret, x.last.injected);
	return false;
}

/* The chain went async: a completion comes into the ring unless it
 * ends on a nocomplete atom, which the program's atoms tell. */
static void shl_said_async(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	size_t i, n = syslet_obj__atom_count(d->prog->obj), nc = 0;

	for (i = 0; i < n; i++) {
		struct syslet_uatom *a = syslet_inst__atom(d->inst, i);

		nc += a && (a->flags & SYSLET_NO_COMPLETE);
	}
	if (!nc)
		fprintf(sh->out, "%s went async; its completion will come "
			"into the ring (ring, wait)\n", d->entry);
	else if (nc == n)
		fprintf(sh->out, "%s went async; its atoms are all nocomplete: "
			"nothing will come into the ring\n", d->entry);
	else
		fprintf(sh->out, "%s went async; its completion will come "
			"into the ring unless it ends on a nocomplete atom "
			"(ring, wait)\n", d->entry);
}

/* continue: through async_exec when no breakpoint can stop the chain,
 * so that it runs (and goes async) exactly as in a full run; atom by
 * atom otherwise. */
static int shl_resume(struct shell *sh, bool first)
{
	struct shl_dbg *d = sh->dbg;
	struct shl_exec x;
	long idx;

	if (d->nbps == 0 && d->nwatches == 0) {
		/* At a terminal the run has it until it ends, as gdb hands
		 * it to the inferior: readline reading meanwhile would share
		 * the typed lines with a syslet that reads them.  Ctrl-C
		 * gives it back, the syslet left in flight. */
		if (shl_exec_chain(sh, &x, d->inst, d->pc, sh->in.tty) < 0)
			return -1;
		if (x.interrupted && x.end)
			fputs("interrupted\n", sh->out);
		if (x.async) {
			d->pc = NULL;
			d->async = true;
			shl_said_async(sh);
			return 0;
		}
		shl_report_end(sh, x.end, x.have_last ? &x.last : NULL,
			       srun_result(d->inst, x.end),
			       x.have_last && x.last.atom == x.end &&
			       x.last.injected);
		return 0;
	}
	shl_interrupted = 0;
	shl_watch_arm(sh);
	for (;;) {
		idx = shl_pc_index(sh);
		if (!first && idx >= 0 && shl_is_bp(d, (size_t)idx)) {
			fputs("breakpoint: ", sh->out);
			shl_describe_atom(sh, (size_t)idx);
			fputc('\n', sh->out);
			return 0;
		}
		first = false;
		if (shl_interrupted) {
			shl_interrupted = 0;
			fputs("interrupted; ", sh->out);
			shl_show_next(sh);
			return 0;
		}
		if (!shl_step_one(sh, false, true))
			return 0;
		if (shl_watch_hit(sh)) {
			/* The next atom has a breakpoint too: both are said,
			 * as gdb says both when they stop it at once, so
			 * that the breakpoint a continue goes past is seen. */
			idx = shl_pc_index(sh);
			if (idx >= 0 && shl_is_bp(d, (size_t)idx)) {
				fputs("breakpoint: ", sh->out);
				shl_describe_atom(sh, (size_t)idx);
				fputc('\n', sh->out);
			} else {
				shl_show_next(sh);
			}
			return 0;
		}
	}
}

SHL_HANDLER(run)
{
	struct shl_dbg *d = sh->dbg;
	const char *entry = NULL;
	int skip = 1;
	long idx;

	if (!shl_need_prog(sh, "run"))
		return -1;
	if (argc > 1 && syslet_obj__entry_params(d->prog->obj, argv[1]) >= 0) {
		entry = argv[1];
		skip = 2;
	}
	if (argc > skip ? shl_start(sh, "run", entry, argc - skip, argv + skip)
			: shl_start(sh, "run", entry, d->nargs, d->args))
		return -1;
	idx = shl_pc_index(sh);
	/* A breakpoint on the entry stops before anything runs. */
	if (idx >= 0 && shl_is_bp(d, (size_t)idx)) {
		fputs("breakpoint: ", sh->out);
		shl_describe_atom(sh, (size_t)idx);
		fputc('\n', sh->out);
		return 0;
	}
	return shl_resume(sh, true);
}

static int shl_steps(struct shell *sh, int argc, char **argv,
		     const char *rest, bool statement)
{
	struct shl_dbg *d = sh->dbg;
	long n = 1, i;

	bool num = argc == 2 && shl_parse_long(argv[1], &n);

	/* A number below 1 (0, -1, or 0xffffffffffffffff, which the
	 * shell's words take as -1) is out of range as one past a long
	 * is, not "not a count". */
	if (argc > 2 || (argc == 2 && (!num || n < 1))) {
		if (argc == 2 && (num || errno == ERANGE))
			shl_error(sh, "%s: %s is out of range: a count is 1 to "
				  "%ld", argv[0], argv[1], LONG_MAX);
		else
			shl_error(sh, "%s: expected a count, got '%s'",
				  argv[0], rest);
		return -1;
	}
	if (!shl_need_prog(sh, argv[0]))
		return -1;
	if (!d->pc && shl_start(sh, statement ? "next" : "step", NULL,
				d->nargs, d->args))
		return -1;
	shl_interrupted = 0;
	for (i = 0; i < n && !shl_interrupted; i++) {
		SYSLET_OPTS(syslet_atom_info, ai);
		unsigned int line = 0;

		if (syslet_inst__atom_info(d->inst, d->pc, &ai) == 0)
			line = ai.line;
		if (!shl_step_one(sh, true, false))
			return 0;
		/* next: the helper atoms of the same statement too. */
		while (statement && !shl_interrupted &&
		       syslet_inst__atom_info(d->inst, d->pc, &ai) == 0 &&
		       ai.role != SYSLET_ROLE_CALL && ai.line == line)
			if (!shl_step_one(sh, true, false))
				return 0;
	}
	shl_interrupted = 0;
	shl_show_next(sh);
	return 0;
}

SHL_HANDLER(step)
{
	return shl_steps(sh, argc, argv, rest, false);
}

SHL_HANDLER(next)
{
	return shl_steps(sh, argc, argv, rest, true);
}

SHL_HANDLER(continue)
{
	if (argc > 1) {
		shl_error(sh, "continue: takes no argument, got '%s'", rest);
		return -1;
	}
	if (!sh->dbg->pc) {
		shl_error(sh, "continue: not running (run starts the program)");
		return -1;
	}
	return shl_resume(sh, true);
}

/* ---- cells and memory ----------------------------------------------------- */

/* A cell of the program's instance, else of the session. */
static unsigned long *shl_cell(struct shell *sh, const char *name,
			       bool *prog)
{
	unsigned long *c = NULL;

	if (sh->dbg->inst)
		c = syslet_inst__cell(sh->dbg->inst, name);
	*prog = c != NULL;
	if (!c)
		c = shl_imm_cell(sh, name);
	return c;
}

static void shl_print_cell(struct shell *sh, const char *name,
			   unsigned long v)
{
	char res[64];

	srun_format_result(res, sizeof(res), (long)v, SRUN_NR_VALUE);
	fprintf(sh->out, "%s = %s\n", name, res);
}

/* The type of the program's parameter cell @name (cat.path, or path
 * alone), or 0 for a cell that is no parameter. */
static int shl_param_type(const struct shl_dbg *d, const char *name)
{
	const struct syslet_obj *obj = d->prog->obj;
	size_t e, ne = syslet_obj__entry_count(obj);

	for (e = 0; e < ne; e++) {
		const char *en = syslet_obj__entry_name(obj, e);
		size_t len = en ? strlen(en) : 0;
		int i, np = en ? syslet_obj__entry_params(obj, en) : 0;

		for (i = 0; i < np; i++) {
			SYSLET_OPTS(syslet_param, p);

			if (syslet_obj__entry_param(obj, en, (size_t)i, &p))
				continue;
			if (!strcmp(name, p.name) ||
			    (!strncmp(name, en, len) && name[len] == '.' &&
			     !strcmp(name + len + 1, p.name)))
				return (int)p.type;
		}
	}
	return 0;
}

/* A set cell may point anywhere: read through the kernel. */
static bool shl_peek(void *dst, unsigned long addr, size_t len)
{
	return srun_peek(dst, (const void *)addr, len);
}

/*
 * A str or sockaddr_in parameter holds an address: shown with what it
 * points at, as gdb shows a char * and strace a struct sockaddr_in,
 * where the number alone said nothing.
 */
static void shl_print_param(struct shell *sh, const char *name,
			    unsigned long v, int type)
{
	char c, ip[INET_ADDRSTRLEN];
	struct sockaddr_in sin;
	size_t i;

	fprintf(sh->out, "%s = %#lx", name, v);
	if (type == SYSLET_PARAM_SOCKADDR_IN && shl_peek(&sin, v, sizeof(sin)) &&
	    sin.sin_family == AF_INET &&
	    inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof(ip)))
		fprintf(sh->out, " {sa_family=AF_INET, sin_port=htons(%u), "
			"sin_addr=inet_addr(\"%s\")}", ntohs(sin.sin_port), ip);
	if (type == SYSLET_PARAM_STR && shl_peek(&c, v, 1)) {
		unsigned char s[COMMON_PATH_SHOWN + 1];
		size_t n = 0, shown;
		bool nul = false;
		char e[4];

		/* As the trace shows a file name: whole up to PATH_MAX,
		 * escaped as strace escapes it, "..." after where no NUL
		 * ends it there (or the memory ended first). */
		while (n <= COMMON_PATH_SHOWN && shl_peek(&s[n], v + n, 1)) {
			if (!s[n]) {
				nul = true;
				break;
			}
			n++;
		}
		shown = n < COMMON_PATH_SHOWN ? n : COMMON_PATH_SHOWN;
		fputs(" \"", sh->out);
		for (i = 0; i < shown; i++)
			fwrite(e, 1, common_escape(e, s[i], i + 1 < shown ?
							     s[i + 1] : -1),
			       sh->out);
		fputs(nul ? "\"" : "\"...", sh->out);
	}
	fputc('\n', sh->out);
}

/* A cell of the program (@prog) or of the session, by its name. */
static void shl_show_cell(struct shell *sh, const char *name,
			  unsigned long v, bool prog)
{
	int type = prog && sh->dbg->prog ? shl_param_type(sh->dbg, name) : 0;

	if (type == SYSLET_PARAM_STR || type == SYSLET_PARAM_SOCKADDR_IN)
		shl_print_param(sh, name, v, type);
	else
		shl_print_cell(sh, name, v);
}

/*
 * @name is the loaded program's, which has no instance yet: an error that
 * says so and what gives it memory, where 'no cell' denied that the name
 * existed.  A run starts from the image's values, so a value set before
 * it would be lost: set is told to stop at the first atom.  False when
 * the name is not the program's, or the program has an instance.
 */
static bool shl_not_started(struct shell *sh, const char *cmd,
			    const char *name)
{
	const char *kind, *prog;

	if (sh->dbg->inst || !(kind = shl_dbg_prog_has(sh, name, &prog)))
		return false;
	shl_error(sh, "%s: '%s' is %s of %s, which has no memory until run "
		  "or step starts the program%s", cmd, name, kind, prog,
		  strcmp(cmd, "set") ? "" :
		  " (each run starts from the image's values: break [0], "
		  "run, then set)");
	return true;
}

SHL_HANDLER(print)
{
	struct shl_dbg *d = sh->dbg;
	int i, bad = 0;
	bool prog;

	if (argc == 1) {
		if (d->inst) {
			size_t n = syslet_obj__cell_count(d->prog->obj), k;

			for (k = 0; k < n; k++) {
				const char *name =
					syslet_obj__cell_name(d->prog->obj, k);
				unsigned long *c =
					syslet_inst__cell(d->inst, name);

				if (c)
					shl_show_cell(sh, name, *c, true);
			}
		} else if (d->prog) {
			fputs("(the program has not run: its cells exist "
			      "once run or step starts it)\n", sh->out);
		}
		shl_imm_print_all(sh);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		unsigned long *c = shl_cell(sh, argv[i], &prog);

		if (c) {
			unsigned long *own = prog ? shl_imm_cell(sh, argv[i])
						  : NULL;
			char res[64];

			shl_show_cell(sh, argv[i], *c, prog);
			/* n = 5 typed at the prompt declared a session n
			 * beside the program's: both, each said whose. */
			if (own) {
				srun_format_result(res, sizeof(res),
						   (long)*own, SRUN_NR_VALUE);
				fprintf(sh->out, "the session's %s = %s "
					"(statements typed here use it; the "
					"line above is the program's)\n",
					argv[i], res);
			}
			continue;
		}
		if (shl_imm_is_const(sh, argv[i]))
			shl_error(sh, "print: '%s' is a constant, which has "
				  "no cell (info lists its declaration)",
				  argv[i]);
		else if (!shl_not_started(sh, "print", argv[i])) {
			size_t size;

			if ((sh->dbg->inst &&
			     syslet_inst__object(sh->dbg->inst, argv[i],
						 &size)) ||
			    shl_imm_object(sh, argv[i], &size))
				shl_error(sh, "print: '%s' is a buffer or data "
					  "object of %zu bytes, not a cell (x "
					  "%s shows its bytes)", argv[i], size,
					  argv[i]);
			else
				shl_error(sh, "print: no cell '%s'", argv[i]);
		}
		bad = -1;
	}
	return bad;
}

SHL_HANDLER(set)
{
	struct text_buf name = { 0 };
	const char *eq = strchr(rest, '=');
	unsigned long *c;
	long v;
	bool prog;

	if (!eq) {
		shl_error(sh, "set: expected CELL = VALUE, got '%s'", rest);
		return -1;
	}
	shl_buf_add(&name, rest, (size_t)(eq - rest));
	while (name.len && (name.s[name.len - 1] == ' ' ||
			    name.s[name.len - 1] == '\t'))
		name.s[--name.len] = '\0';
	if (name.len && !shl_parse_long(eq + 1, &v) && errno == ERANGE) {
		shl_error(sh, "set: %s is out of range: a cell holds %ld to "
			  "%lu", eq + 1 + strspn(eq + 1, " \t"), LONG_MIN,
			  ULONG_MAX);
		text_buf_free(&name);
		return -1;
	}
	if (!name.len || !shl_parse_long(eq + 1, &v)) {
		shl_error(sh, "set: expected CELL = VALUE (an integer or "
			  "-ERRNO), got '%s'", rest);
		text_buf_free(&name);
		return -1;
	}
	c = shl_cell(sh, name.s, &prog);
	if (!c) {
		if (!shl_not_started(sh, "set", name.s))
			shl_error(sh, "set: no cell '%s'", name.s);
		text_buf_free(&name);
		return -1;
	}
	*c = (unsigned long)v;
	shl_print_cell(sh, name.s, *c);
	text_buf_free(&name);
	return 0;
}

SHL_HANDLER(x)
{
	size_t size = 0;
	unsigned char *p = NULL;
	long len = -1;
	bool prog;

	if (argc < 2 || argc > 3 ||
	    (argc == 3 && shl_parse_long(argv[2], &len) && len < 0)) {
		shl_error(sh, "x: expected BUFFER|DATA|CELL [LEN], got '%s'",
			  rest);
		return -1;
	}
	/* 'x b n' after n = read(fd, b, 16): a cell's value as the length,
	 * as gdb's x takes an expression. */
	if (argc == 3 && !shl_parse_long(argv[2], &len)) {
		unsigned long *c;

		if (errno == ERANGE) {
			shl_error(sh, "x: LEN %s is out of range: a length "
				  "holds at most %ld", argv[2], LONG_MAX);
			return -1;
		}
		c = shl_cell(sh, argv[2], &prog);
		if (!c) {
			shl_error(sh, "x: LEN is a number or a variable, got "
				  "'%s'", argv[2]);
			return -1;
		}
		len = (long)*c;
		if (len < 0) {
			char res[64];

			srun_format_result(res, sizeof(res), len,
					   SRUN_NR_CALL);
			shl_error(sh, "x: %s = %s is no length", argv[2], res);
			return -1;
		}
	}
	if (sh->dbg->inst)
		p = syslet_inst__object(sh->dbg->inst, argv[1], &size);
	if (!p)
		p = shl_imm_object(sh, argv[1], &size);
	if (!p) {
		p = (unsigned char *)shl_cell(sh, argv[1], &prog);
		size = sizeof(unsigned long);
	}
	if (!p) {
		/* Buffers and data exist only in an instance. */
		if (!shl_not_started(sh, "x", argv[1]))
			shl_error(sh, "x: no buffer, data or cell '%s'",
				  argv[1]);
		return -1;
	}
	if (len < 0)
		len = size > SHL_DUMP_MAX ? SHL_DUMP_MAX : (long)size;
	if ((size_t)len > size) {
		/* As gdb's x past a mapping: the bytes there are, then
		 * where they end, and the command fails. */
		shl_hexdump(sh->out, p, size, 0);
		shl_error(sh, "x: %s ends at %08zx: it has %zu byte%s, "
			  "not %ld", argv[1], size, size,
			  size == 1 ? "" : "s", len);
		return -1;
	}
	shl_hexdump(sh->out, p, (size_t)len, 0);
	return 0;
}

/* ---- the ring ------------------------------------------------------------ */

static void shl_show_ring(struct shell *sh)
{
	struct shl_dbg *d = sh->dbg;
	struct syslet_ring *r = &d->ring;
	unsigned long i, used = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *list;

	if (!d->ring_on) {
		fputs("no ring registered yet (the first run or async "
		      "statement registers it)\n",
		      sh->out);
		return;
	}
	/* A worker may fill a slot while the ring is shown: each slot is
	 * read once, and the count is of the slots listed (it said "0
	 * full" over a slot it then listed). */
	list = open_memstream(&text, &len);
	if (!list) {
		shl_error(sh, "ring: %s", strerror(errno));
		return;
	}
	for (i = 0; i < r->entries; i++) {
		struct syslet_uatom *a =
			__atomic_load_n(&r->slots[i], __ATOMIC_ACQUIRE);
		struct syslet_inst *inst = NULL;
		char res[64];

		if (!a)
			continue;
		used++;
		if (d->inst && syslet_inst__atom_index(d->inst, a) >= 0)
			inst = d->inst;
		if (!inst)
			inst = shl_exec_kept(a);
		fprintf(list, "  slot %lu: ", i);
		if (inst) {
			const char *ran = srun_call_name(a->nr);

			srun_format_result(res, sizeof(res),
					   srun_result(inst, a), a->nr);
			fprintf(list, "[%ld]", syslet_inst__atom_index(inst, a));
			if (ran)
				fprintf(list, " %s", ran);
			fprintf(list, " = %s\n", res);
		} else {
			fprintf(list, "%p\n", (void *)a);
		}
	}
	if (fclose(list) || !text) {
		free(text);
		shl_error(sh, "ring: out of memory");
		return;
	}
	fprintf(sh->out, "ring: %lu slots, %lu full\n", r->entries, used);
	fputs(text, sh->out);
	free(text);
}

SHL_HANDLER(ring)
{
	struct shl_dbg *d = sh->dbg;
	unsigned long i;

	if (argc == 2 && strcmp(argv[1], "clear") == 0) {
		for (i = 0; d->ring_on && i < d->ring.entries; i++)
			d->ring.slots[i] = NULL;
		return 0;
	}
	if (argc != 1) {
		shl_error(sh, "ring: expected nothing or 'clear', got '%s'",
			  rest);
		return -1;
	}
	shl_show_ring(sh);
	return 0;
}

SHL_HANDLER(wait)
{
	long n = 1;

	bool num = argc == 2 && shl_parse_long(argv[1], &n);

	if (argc > 2 || (argc == 2 && (!num || n < 0))) {
		if (argc == 2 && (num || errno == ERANGE))
			shl_error(sh, "wait: %s is out of range: a count is 0 "
				  "to %ld", argv[1], LONG_MAX);
		else
			shl_error(sh, "wait: expected a count, got '%s'",
				  rest);
		return -1;
	}
	/* Without a head, async_wait() is EINVAL (the seeds'
	 * sys_async_wait): wait registers none, as ring does not. */
	if (!sh->dbg->ring_on) {
		shl_error(sh, "wait: no ring registered yet (the first run or "
			  "async statement registers it): nothing to wait for");
		return -1;
	}
	shl_interrupted = 0;
	if (sys_async_wait((unsigned long)n) < 0) {
		if (errno == EINTR)
			fputs("interrupted\n", sh->out);
		else
			shl_error(sh, "async_wait: %s", strerror(errno));
	}
	shl_interrupted = 0;
	shl_show_ring(sh);
	return 0;
}

SHL_HANDLER(backend)
{
	struct shl_dbg *d = sh->dbg;
	const char *now;
	int err;

	if (argc == 1) {
		now = syslet_backend_name();
		fprintf(sh->out, "backend: %s\n", now ? now : "(none)");
		return 0;
	}
	if (argc != 2) {
		shl_error(sh, "backend: expected a name, got '%s'", rest);
		return -1;
	}
	/* The backend changes only while no head is registered: a name
	 * that cannot run is refused before the ring and the program's
	 * instance are given up for it. */
	err = syslet_backend_check(argv[1]);
	if (!err && d->ring_on) {
		shl_drop_inst(sh);
		syslet_ring__exit(&d->ring);
		d->ring_on = false;
	}
	if (!err)
		err = syslet_set_backend(argv[1]);
	if (err) {
		/* The library's reason names the backends, or says why the
		 * one named cannot run here. */
		const char *why = syslet_backend_error();

		if (why)
			shl_error(sh, "backend: %s", why);
		else
			shl_error(sh, "backend '%s': %s", argv[1],
				  strerror(-err));
		return -1;
	}
	now = syslet_backend_name();
	fprintf(sh->out, "backend: %s\n", now ? now : argv[1]);
	return 0;
}

SHL_HANDLER(info)
{
	struct shl_dbg *d = sh->dbg;
	const char *b = syslet_backend_name();

	if (argc > 1) {
		shl_error(sh, "info: takes no argument, got '%s'", rest);
		return -1;
	}
	fprintf(sh->out, "backend: %s\n", b ? b : "(none)");
	if (d->prog) {
		fprintf(sh->out, "program: ");
		shl_dbg_load_info(sh);
		if (d->pc) {
			fprintf(sh->out, "running %s, ", d->entry);
			shl_show_next(sh);
		}
		shl_dbg_break(sh, 1, argv, "");
	} else {
		fputs("program: none (load IMAGE|SOURCE)\n", sh->out);
	}
	shl_exec_info(sh, d->ring_on ? &d->ring : NULL);
	shl_imm_info(sh);
	return 0;
}

void shl_dbg_names(struct shell *sh, unsigned int kinds, shl_name_fn add,
		   void *ctx)
{
	struct shl_prog *p = sh->dbg->prog;
	size_t i;

	if (!p)
		return;
	if (kinds & SHL_N_ENTRY)
		for (i = 0; i < syslet_obj__entry_count(p->obj); i++)
			add(ctx, syslet_obj__entry_name(p->obj, i));
	if (kinds & SHL_N_CELL)
		for (i = 0; i < syslet_obj__cell_count(p->obj); i++) {
			const char *n = syslet_obj__cell_name(p->obj, i);
			const char *dot = strchr(n, '.');

			add(ctx, n);
			if (dot)
				add(ctx, dot + 1);
		}
	/* Each call once: the first atom that makes it names it. */
	if (kinds & SHL_N_CALLED)
		for (i = 0; i < syslet_obj__atom_count(p->obj); i++) {
			SYSLET_OPTS(syslet_atom_info, ai);
			size_t j;

			if (syslet_obj__atom_info(p->obj, i, &ai) ||
			    !ai.syscall)
				continue;
			for (j = 0; j < i; j++) {
				SYSLET_OPTS(syslet_atom_info, aj);

				if (!syslet_obj__atom_info(p->obj, j, &aj) &&
				    aj.syscall &&
				    !strcmp(aj.syscall, ai.syscall))
					break;
			}
			if (j == i)
				add(ctx, ai.syscall);
		}
	for (i = 0; i < syslet_obj__sym_count(p->obj); i++) {
		SYSLET_OPTS(syslet_sym_info, si);
		const char *dot;

		if (syslet_obj__sym_info(p->obj, i, &si))
			continue;
		dot = strchr(si.name, '.');
		if (((kinds & SHL_N_OBJECT) && (si.kind == SYSLET_SYM_BUFFER ||
						si.kind == SYSLET_SYM_DATA)) ||
		    ((kinds & SHL_N_LABEL) && si.kind == SYSLET_SYM_LABEL)) {
			add(ctx, si.name);
			if (dot)
				add(ctx, dot + 1);
		}
	}
}
