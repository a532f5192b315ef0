/* shell-imm.c: immediate mode: statements compiled against the session's declarations and run at once. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/sysletc.h"
#include "run/run.h"
#include "run/shell-exec.h"

#define SHL_IMM_FILE	SHL_INPUT
#define SHL_IMM_ENTRY	"__shell"

/*
 * The session keeps its declarations as source text, and the values of
 * its variables, buffers and data by name: copied into each statement's
 * fresh instance before it runs and back after, so that they persist
 * although each statement is its own image.  A statement is compiled
 * after the declarations it names, and the ones those name in turn, not
 * the whole session, so that a line costs the same however long the
 * session is; a text that does not compile so is compiled again after
 * every declaration, for the diagnostics (and suggestions) it always had.
 */
struct shl_var {
	char		*name;
	bool		object;		/* buffer or data, else a variable */
	bool		constant;	/* data: read-only, compiled in */
	unsigned long	value;
	unsigned char	*bytes;
	size_t		size;
};

/* One declaration line, with the earlier declarations it names. */
struct shl_decl {
	char		*text;
	unsigned int	lines;
	unsigned int	typed_lines;	/* of the text as typed */
	unsigned long	line;		/* of the script it began on, or 0 */
	size_t		*deps;
	size_t		ndeps;
};

struct shl_imm {
	struct text_buf	decls;		/* all of them, as source */
	unsigned int	decl_lines;
	struct shl_decl	*dv;
	size_t		ndecls;
	struct shl_map	defs;		/* name -> the declaration of it */
	unsigned int	*mark;		/* per declaration, for closures */
	unsigned int	gen;
	struct shl_var	*vars;
	size_t		nvars;
	struct shl_map	var_ix;		/* name -> index in vars */
	char		**consts;	/* names, for completion */
	size_t		nconsts;
	struct shl_map	const_ix;
};

int shl_imm_init(struct shell *sh)
{
	sh->imm = calloc(1, sizeof(*sh->imm));
	return sh->imm ? 0 : -1;
}

void shl_imm_free(struct shell *sh)
{
	struct shl_imm *m = sh->imm;
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nvars; i++) {
		free(m->vars[i].name);
		free(m->vars[i].bytes);
	}
	for (i = 0; i < m->nconsts; i++)
		free(m->consts[i]);
	for (i = 0; i < m->ndecls; i++) {
		free(m->dv[i].text);
		free(m->dv[i].deps);
	}
	free(m->dv);
	free(m->mark);
	free(m->consts);
	free(m->vars);
	shl_map_free(&m->defs);
	shl_map_free(&m->var_ix);
	shl_map_free(&m->const_ix);
	text_buf_free(&m->decls);
	free(m);
	sh->imm = NULL;
}

static struct shl_var *shl_var_find(struct shl_imm *m, const char *name)
{
	size_t i;

	return shl_map_get(&m->var_ix, name, &i) ? &m->vars[i] : NULL;
}

unsigned long *shl_imm_cell(struct shell *sh, const char *name)
{
	struct shl_var *v = shl_var_find(sh->imm, name);

	return v && !v->object ? &v->value : NULL;
}

bool shl_imm_is_const(struct shell *sh, const char *name)
{
	return shl_map_get(&sh->imm->const_ix, name, NULL);
}

unsigned char *shl_imm_object(struct shell *sh, const char *name,
			      size_t *size)
{
	struct shl_var *v = shl_var_find(sh->imm, name);

	if (!v || !v->object)
		return NULL;
	*size = v->size;
	return v->bytes;
}

/* @call: the call whose result the value is, NULL for none (then a
 * number only), shown as the trace shows it; marked "(INJECTED)" as the
 * trace marks it where an --inject rule chose it. */
static void shl_print_var(struct shell *sh, const struct shl_var *v,
			  const struct syslet_event *call)
{
	char res[160];

	if (v->object) {
		fprintf(sh->out, "%s: %zu byte%s (x %s)\n", v->name, v->size,
			v->size == 1 ? "" : "s", v->name);
		return;
	}
	if (call)
		srun_format_event(res, sizeof(res), call);
	else
		srun_format_result(res, sizeof(res), (long)v->value,
				   SRUN_NR_VALUE);
	fprintf(sh->out, "%s = %s%s\n", v->name, res,
		call && call->injected ? " (INJECTED)" : "");
}

void shl_imm_print_all(struct shell *sh)
{
	size_t i;

	for (i = 0; i < sh->imm->nvars; i++)
		shl_print_var(sh, &sh->imm->vars[i], NULL);
}

const char *shl_imm_source(struct shell *sh)
{
	return text_buf_str(&sh->imm->decls);
}

void shl_imm_info(struct shell *sh)
{
	struct shl_imm *m = sh->imm;

	if (!m->decls.len) {
		fputs("declarations: none\n", sh->out);
		return;
	}
	fprintf(sh->out, "declarations:\n%s", m->decls.s);
}

void shl_imm_names(struct shell *sh, unsigned int kinds, shl_name_fn add,
		   void *ctx)
{
	struct shl_imm *m = sh->imm;
	size_t i;

	for (i = 0; i < m->nvars; i++)
		if ((kinds & (m->vars[i].object ? SHL_N_OBJECT : SHL_N_CELL)))
			add(ctx, m->vars[i].name);
	if (kinds & SHL_N_CELL)
		for (i = 0; i < m->nconsts; i++)
			add(ctx, m->consts[i]);
}

/* ---- Between the session and an instance ---------------------------------- */

/* Adopt the file-scope names an image defines that the session lacks. */
static void shl_adopt(struct shl_imm *m, const struct shl_prog *p,
		      struct syslet_inst *inst)
{
	size_t i;

	for (i = 0; i < syslet_obj__sym_count(p->obj); i++) {
		SYSLET_OPTS(syslet_sym_info, si);
		const struct syslet_sym_info *s = &si;
		struct shl_var *v;

		if (syslet_obj__sym_info(p->obj, i, &si) ||
		    strchr(s->name, '.') || shl_var_find(m, s->name) ||
		    !strncmp(s->name, SHL_IMM_ENTRY, strlen(SHL_IMM_ENTRY)))
			continue;
		if (s->kind != SYSLET_SYM_VAR && s->kind != SYSLET_SYM_BUFFER &&
		    s->kind != SYSLET_SYM_DATA)
			continue;
		v = realloc(m->vars, (m->nvars + 1) * sizeof(*v));
		if (!v)
			shl_oom();
		m->vars = v;
		shl_map_put(&m->var_ix, s->name, m->nvars);
		v = &m->vars[m->nvars++];
		memset(v, 0, sizeof(*v));
		v->name = strdup(s->name);
		/* Else the session's x was no name at all: 'x = 41' then
		 * 'print x' said 'x = 0', status 0. */
		if (!v->name)
			shl_oom();
		v->object = s->kind != SYSLET_SYM_VAR;
		v->constant = s->kind == SYSLET_SYM_DATA;
		if (v->object) {
			void *src = syslet_inst__object(inst, s->name,
							&v->size);

			v->bytes = calloc(1, v->size ? v->size : 1);
			if (!v->bytes)
				shl_oom();
			if (src)
				memcpy(v->bytes, src, v->size);
		} else {
			unsigned long *c = syslet_inst__cell(inst, s->name);

			v->value = c ? *c : 0;
		}
	}
}

/* The session's names that an image has, as indexes into m->vars in
 * the session's order; *n of them. */
static size_t *shl_image_vars(struct shl_imm *m, const struct shl_prog *p,
			      size_t *n)
{
	size_t nsyms = syslet_obj__sym_count(p->obj);
	size_t *ix = calloc(nsyms + 1, sizeof(*ix));
	size_t i, k = 0;

	if (!ix)
		shl_oom();
	for (i = 0; i < nsyms; i++) {
		SYSLET_OPTS(syslet_sym_info, si);
		const struct syslet_sym_info *s = &si;

		if (syslet_obj__sym_info(p->obj, i, &si))
			continue;
		if (s->kind != SYSLET_SYM_VAR && s->kind != SYSLET_SYM_BUFFER &&
		    s->kind != SYSLET_SYM_DATA)
			continue;
		if (!strchr(s->name, '.') &&
		    shl_map_get(&m->var_ix, s->name, &ix[k]))
			k++;
	}
	for (i = 1; i < k; i++) {	/* few: insertion sort */
		size_t v = ix[i], j = i;

		for (; j && ix[j - 1] > v; j--)
			ix[j] = ix[j - 1];
		ix[j] = v;
	}
	*n = k;
	return ix;
}

static void shl_copy(struct shl_imm *m, struct syslet_inst *inst,
		     const size_t *ix, size_t n, bool in)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct shl_var *v = &m->vars[ix[i]];

		if (v->object) {
			size_t size = 0;
			unsigned char *p = syslet_inst__object(inst, v->name,
							       &size);

			/* Data is each statement's own, read-only copy
			 * of its declaration: nothing to carry. */
			if (!p || v->constant)
				continue;
			if (size > v->size)
				size = v->size;
			if (in)
				memcpy(p, v->bytes, size);
			else
				memcpy(v->bytes, p, size);
		} else {
			unsigned long *c = syslet_inst__cell(inst, v->name);

			if (!c)
				continue;
			if (in)
				*c = v->value;
			else
				v->value = *c;
		}
	}
}

/* ---- Compiling ------------------------------------------------------------ */

/*
 * The compiler numbers lines in the whole text it saw; the user typed
 * only what follows the prelude.  Shift "<input>:L:" back by that many
 * lines (the quoted line and caret are right already).  A script read
 * without a terminal is numbered as a file is, from its first line, so
 * that the line in a message is the script's; at a terminal each
 * statement typed starts at line 1.
 */
/*
 * "'st' is not declared" where the loaded program has an st: statements
 * typed at the prompt are compiled with the session's declarations only,
 * which a newcomer who loaded a file does not expect.  The note says
 * whose st it is and what reaches it.
 */
static const char *shl_imm_prog_note(struct shell *sh, const char *from,
				     const char *to, char *buf, size_t len)
{
	static const char what[] = ": error: '";
	static const char tail[] = "' is not declared";
	const char *s = memmem(from, (size_t)(to - from), what,
			       sizeof(what) - 1), *e, *kind, *prog;
	char name[128];

	if (!s)
		return NULL;
	s += sizeof(what) - 1;
	e = memchr(s, '\'', (size_t)(to - s));
	if (!e || (size_t)(e - s) >= sizeof(name) ||
	    (size_t)(to - e) < sizeof(tail) - 1 ||
	    strncmp(e, tail, sizeof(tail) - 1) != 0)
		return NULL;
	memcpy(name, s, (size_t)(e - s));
	name[e - s] = 0;
	kind = shl_dbg_prog_has(sh, name, &prog);
	if (!kind)
		return NULL;
	snprintf(buf, len, "note: '%s' is %s of %s, the program loaded: a "
		 "statement typed here sees only the session's declarations; "
		 "print, set and x reach the program's after run or step\n",
		 name, kind, prog);
	return buf;
}

/*
 * The compiler's records on text, whose first prelude lines are the
 * session's declarations and the wrapper, renumbered as lines of what was
 * typed: map gives the script's line of each of the first nmap lines
 * (the declarations, so that a note on an earlier one names the line it
 * was typed on), 0 where unknown.
 */
static void shl_emit_diags(struct shell *sh, const char *text,
			   unsigned int prelude, unsigned int typed,
			   const unsigned long *map, unsigned int nmap)
{
	const char *p = text, *nl, *note = NULL;
	char note_buf[512];
	size_t pre = strlen(SHL_IMM_FILE ":");
	unsigned long base = !sh->in.tty && sh->in.unit_line ?
			     sh->in.unit_line - 1 : 0;
	bool told = false, skip = false;

	for (; *p; p = nl) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		if (strncmp(p, SHL_IMM_FILE ":", pre) == 0 &&
		    isdigit((unsigned char)p[pre])) {
			char *end;
			unsigned long line = strtoul(p + pre, &end, 10);
			const char *lvl = end + strspn(end, ":0123456789 ");
			bool is_note = !strncmp(lvl, "note: ", 6);

			/* A record on the shell's wrapper after the typed
			 * text ("syslet __shell() { }", the closing '}')
			 * follows from an error the text already got (a
			 * string left open swallowed the line end): it and
			 * its notes would quote text nobody typed. */
			if (!is_note)
				skip = told && line > prelude + typed;
			if (skip)
				continue;
			told |= !strncmp(lvl, "error: ", 7);
			if (map && line >= 1 && line <= nmap && map[line - 1])
				line = map[line - 1] - base;
			else if (line > prelude)
				line -= prelude;
			fprintf(sh->err, "%s:%lu", SHL_IMM_FILE, line + base);
			fwrite(end, 1, (size_t)(nl - end), sh->err);
			/* The quoted line and the caret follow: the note
			 * comes after them. */
			if (!note)
				note = shl_imm_prog_note(sh, end, nl, note_buf,
							 sizeof(note_buf));
			continue;
		}
		if (!skip)
			fwrite(p, 1, (size_t)(nl - p), sh->err);
	}
	if (note)
		fputs(note, sh->err);
	fflush(sh->err);
}

/* The script's line the unit being run began on, 0 at a terminal. */
static unsigned long shl_unit_line(const struct shell *sh)
{
	return !sh->in.tty ? sh->in.unit_line : 0;
}

static unsigned int shl_count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * Whether text is a declaration of the session: it starts with a word
 * the grammar's table calls a declaration's, or with an element type
 * before a name (u32 fds[2]; as the scanner tells a type from a
 * variable called u32).
 */
bool shl_is_decl(const char *text)
{
	const char *p = text + strspn(text, " \t\n");
	size_t n = 0;
	int cls;

	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	cls = sysletc_word_class(p, n);
	if (cls == SYSLETC_WORD_DECL)
		return true;
	if (cls != SYSLETC_WORD_ELEM || !p[n] || !strchr(" \t\n", p[n]))
		return false;
	p += n + strspn(p + n, " \t\n");
	return isalpha((unsigned char)*p) || *p == '_';
}

/* ---- What a text names ---------------------------------------------------- */

/* Call fn for each name the file-scope declarations of text define, as
 * the parser reads them, with its kind (SYSLETC_NAME_*). */
static void shl_decl_names(const char *text,
			   void (*fn)(void *ctx, const char *name, int kind),
			   void *ctx)
{
	struct sysletc_probe r = { .sz = sizeof(r), .name = fn, .ctx = ctx };

	if (sysletc_probe(text, strlen(text), SYSLETC_UNIT_FILE, &r))
		abort();	/* sz is ours */
}

/* Remember the names a `const` declaration introduces, for completion. */
static void shl_note_const(void *ctx, const char *name, int kind)
{
	struct shl_imm *m = ctx;
	char **v;

	if (kind != SYSLETC_NAME_CONST)
		return;
	v = realloc(m->consts, (m->nconsts + 1) * sizeof(*v));
	if (!v)
		shl_oom();
	m->consts = v;
	m->consts[m->nconsts] = strdup(name);
	if (!m->consts[m->nconsts])
		shl_oom();
	shl_map_put(&m->const_ix, m->consts[m->nconsts], m->nconsts);
	m->nconsts++;
}

/* Declarations picked for one text, in the order they were marked. */
struct shl_pick {
	size_t	*v;
	size_t	n, cap;
};

static void shl_pick_add(struct shl_imm *m, struct shl_pick *pk, size_t i)
{
	if (m->mark[i] == m->gen)
		return;
	m->mark[i] = m->gen;
	if (pk->n == pk->cap) {
		pk->cap = pk->cap ? pk->cap * 2 : 16;
		pk->v = realloc(pk->v, pk->cap * sizeof(*pk->v));
		if (!pk->v)
			shl_oom();
	}
	pk->v[pk->n++] = i;
}

static int shl_cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The declarations the names of a text refer to, picked. */
struct shl_refs {
	struct shl_imm	*m;
	struct shl_pick	*pk;
};

static void shl_ref(void *ctx, const char *name)
{
	struct shl_refs *r = ctx;
	size_t i;

	if (shl_map_get(&r->m->defs, name, &i))
		shl_pick_add(r->m, r->pk, i);
}

/* Append to src, in the session's order, the declarations that text
 * names, directly or through other declarations; their line count, and
 * in *all whether that was every declaration. */
/* Append to *map (when map is not NULL) the script's line of each of the
 * lines declaration d puts into a source, 0 where unknown (a terminal). */
static void shl_map_lines(const struct shl_decl *d, unsigned int lines,
			  unsigned long **map, unsigned int *nmap)
{
	unsigned long *v;

	if (!map)
		return;
	v = realloc(*map, (*nmap + lines + 1) * sizeof(*v));
	if (!v)
		shl_oom();
	*map = v;
	for (unsigned int j = 0; j < lines; j++)
		v[(*nmap)++] = !d->line ? 0 :
			d->line + (j < d->typed_lines ? j : d->typed_lines - 1);
}

static unsigned int shl_closure(struct shl_imm *m, const char *text,
				struct text_buf *src, bool *all,
				unsigned long **map, unsigned int *nmap)
{
	struct shl_pick pk = { 0 };
	struct shl_refs refs = { m, &pk };
	unsigned int lines = 0;
	size_t i, k;

	if (!++m->gen) {	/* wrapped: no mark may look current */
		memset(m->mark, 0, m->ndecls * sizeof(*m->mark));
		m->gen = 1;
	}
	sysletc_scan_names(text, strlen(text), shl_ref, &refs);
	/* Breadth first over what the picked ones name. */
	for (k = 0; k < pk.n; k++) {
		const struct shl_decl *d = &m->dv[pk.v[k]];

		for (i = 0; i < d->ndeps; i++)
			shl_pick_add(m, &pk, d->deps[i]);
	}
	if (pk.n > 1)
		qsort(pk.v, pk.n, sizeof(*pk.v), shl_cmp_size);
	for (k = 0; k < pk.n; k++) {
		shl_buf_puts(src, m->dv[pk.v[k]].text);
		shl_buf_puts(src, "\n");
		lines += m->dv[pk.v[k]].lines;
		shl_map_lines(&m->dv[pk.v[k]], m->dv[pk.v[k]].lines, map, nmap);
	}
	*all = pk.n == m->ndecls;
	free(pk.v);
	return lines;
}

static void shl_def_name(void *ctx, const char *name, int kind)
{
	struct shl_imm *m = ctx;

	(void)kind;
	shl_map_put(&m->defs, name, m->ndecls);
}

/* A declaration that compiled joins the session: its text (as
 * resolved, when given: what compiles in its place), what it names of
 * the earlier ones, and the names it defines. */
static void shl_add_decl(struct shl_imm *m, const char *text,
			 const char *resolved, unsigned long line)
{
	struct shl_decl *d;
	struct shl_pick pk = { 0 };
	struct shl_refs refs = { m, &pk };

	shl_buf_puts(&m->decls, text);
	shl_buf_puts(&m->decls, "\n");
	d = realloc(m->dv, (m->ndecls + 1) * sizeof(*d));
	if (!d)
		shl_oom();
	m->dv = d;
	m->mark = realloc(m->mark, (m->ndecls + 1) * sizeof(*m->mark));
	if (!m->mark)
		shl_oom();
	m->mark[m->ndecls] = 0;
	d = &m->dv[m->ndecls];
	memset(d, 0, sizeof(*d));
	d->text = strdup(resolved ? resolved : text);
	if (!d->text)
		shl_oom();
	d->lines = shl_count_lines(d->text) + 1;
	d->typed_lines = shl_count_lines(text) + 1;
	d->line = line;
	m->decl_lines += shl_count_lines(text) + 1;
	if (!++m->gen) {
		memset(m->mark, 0, (m->ndecls + 1) * sizeof(*m->mark));
		m->gen = 1;
	}
	sysletc_scan_names(d->text, strlen(d->text), shl_ref, &refs);
	d->deps = pk.v;
	d->ndeps = pk.n;
	shl_decl_names(text, shl_def_name, m);
	m->ndecls++;
}

/*
 * Compile text after the declarations it needs, with tail the source
 * from the first line that follows them (tail_pre lines before text in
 * it).  Warnings are shown; when that fails, text is compiled again
 * after every declaration and that run's errors are shown, so that
 * messages and suggestions are those of the whole session.
 */
static struct shl_prog *shl_imm_build(struct shell *sh, const char *text,
				      const char *tail, unsigned int tail_pre)
{
	struct shl_imm *m = sh->imm;
	unsigned int errors = sh->errors, pre;
	struct text_buf src = { 0 };
	struct shl_prog *p = NULL;
	bool all, retry = false;
	unsigned long *map = NULL;
	unsigned int nmap;

	for (;;) {
		char *diags = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&diags, &len);

		if (!mem)
			shl_oom();
		nmap = 0;
		if (retry) {
			shl_buf_puts(&src, text_buf_str(&m->decls));
			pre = m->decl_lines;
			all = true;
			for (size_t k = 0; k < m->ndecls; k++)
				shl_map_lines(&m->dv[k], m->dv[k].typed_lines,
					      &map, &nmap);
		} else {
			pre = shl_closure(m, text, &src, &all, &map, &nmap);
		}
		shl_buf_puts(&src, tail);
		p = shl_prog_compile(sh, SHL_IMM_FILE, src.s, src.len, mem);
		/* The stream's last growth may fail at fclose(), leaving no
		 * text (diags NULL) to show. */
		if (fclose(mem) || !diags)
			shl_oom();
		text_buf_free(&src);
		if (p || all || retry) {
			shl_emit_diags(sh, diags, pre + tail_pre,
				       shl_count_lines(text) + 1,
				       nmap == pre ? map : NULL, pre);
			free(diags);
			free(map);
			return p;
		}
		free(diags);
		sh->errors = errors;
		retry = true;
	}
}

/*
 * An assignment to a name nobody declared declares it, as a shell does:
 * the parser says whether the first statement is `NAME = ...`.
 */
struct shl_assign {
	struct shell	*sh;
	char		*name;
};

static void shl_assign_name(void *ctx, const char *name, int kind)
{
	struct shl_assign *a = ctx;

	if (kind != SYSLETC_NAME_ASSIGNED || a->name ||
	    shl_var_find(a->sh->imm, name) ||
	    shl_map_get(&a->sh->imm->const_ix, name, NULL))
		return;
	a->name = strdup(name);
	if (!a->name)
		shl_oom();
}

static char *shl_implicit_var(struct shell *sh, const char *text)
{
	struct shl_assign a = { sh, NULL };
	struct sysletc_probe r = { .sz = sizeof(r), .name = shl_assign_name,
				   .ctx = &a };

	shl_probe_stmts(text, &r);
	return a.name;
}

/* The names a declaration defines, one after the other. */
struct shl_names {
	struct text_buf	list;	/* "A\0B\0" */
	size_t		n;
};

static void shl_names_add(void *ctx, const char *name, int kind)
{
	struct shl_names *nm = ctx;

	(void)kind;
	shl_buf_add(&nm->list, name, strlen(name));
	shl_buf_add(&nm->list, "", 1);
	nm->n++;
}

/*
 * A const declaration that compiled, as the values it gave its names:
 * "const A = 5, B = 6;", which names no other declaration, so that a
 * chain of constants each defined by the one before costs no more per
 * line than any other declaration.  The values are read back from
 * variables initialised to the constants, in a compile of their own.
 * NULL when that cannot be done exactly (a word narrower than the
 * compiler's constants): the text then stays as typed.
 */
static char *shl_resolve_consts(struct shell *sh, const char *text)
{
	struct shl_imm *m = sh->imm;
	struct shl_names nm = { .n = 0 };
	struct text_buf src = { 0 }, out = { 0 };
	struct syslet_inst *inst = NULL;
	struct shl_prog *p = NULL;
	FILE *diags = NULL;
	char err[256];
	const char *name;
	size_t i;
	bool all;

	if (sizeof(long) < 8)
		return NULL;
	shl_decl_names(text, shl_names_add, &nm);
	if (!nm.n)
		goto out;
	shl_closure(m, text, &src, &all, NULL, NULL);
	shl_buf_puts(&src, text);
	shl_buf_puts(&src, "\n");
	for (i = 0, name = nm.list.s; i < nm.n; i++, name += strlen(name) + 1)
		shl_buf_printf(&src, "var " SHL_IMM_ENTRY "_c%zu = %s;\n", i,
			       name);
	shl_buf_puts(&src, "syslet " SHL_IMM_ENTRY "() { }\n");
	diags = fopen("/dev/null", "w");
	if (!diags)
		goto out;
	p = shl_prog_compile(sh, SHL_IMM_FILE, src.s, src.len, diags);
	if (!p) {
		sh->errors--;	/* shl_prog_compile counted it */
		goto out;
	}
	inst = syslet_obj__instantiate(p->obj, err, sizeof(err));
	if (!inst)
		goto out;
	shl_buf_puts(&out, "const ");
	for (i = 0, name = nm.list.s; i < nm.n; i++, name += strlen(name) + 1) {
		char cell[64];
		unsigned long *c;

		snprintf(cell, sizeof(cell), SHL_IMM_ENTRY "_c%zu", i);
		c = syslet_inst__cell(inst, cell);
		/* Its negation would not be a constant of the compiler. */
		if (!c || (long)*c == LONG_MIN) {
			text_buf_free(&out);
			goto out;
		}
		shl_buf_printf(&out, "%s%s = %ld", i ? ", " : "", name,
			       (long)*c);
	}
	shl_buf_puts(&out, ";");
out:
	if (diags)
		fclose(diags);
	syslet_inst__free(inst);
	shl_prog_free(p);
	text_buf_free(&src);
	text_buf_free(&nm.list);
	return out.s;
}

static void shl_is_const(void *ctx, const char *name, int kind)
{
	(void)name;
	*(bool *)ctx |= kind == SYSLETC_NAME_CONST;
}

static void shl_imm_declare(struct shell *sh, const char *text)
{
	bool is_const = false;
	struct shl_imm *m = sh->imm;
	struct text_buf src = { 0 };
	struct syslet_inst *inst;
	struct shl_prog *p;
	char err[256];
	char *resolved;

	/* Checked by compiling it with what is declared so far. */
	shl_buf_puts(&src, text);
	/* The compiler wants something to run; this adds no names. */
	shl_buf_puts(&src, "\nsyslet " SHL_IMM_ENTRY "() { }\n");
	p = shl_imm_build(sh, text, src.s, 0);
	text_buf_free(&src);
	if (!p)
		return;
	inst = syslet_obj__instantiate(p->obj, err, sizeof(err));
	if (!inst) {
		shl_error(sh, "%s", err);
		shl_prog_free(p);
		return;
	}
	shl_decl_names(text, shl_is_const, &is_const);
	resolved = is_const ? shl_resolve_consts(sh, text) : NULL;
	shl_add_decl(m, text, resolved, shl_unit_line(sh));
	free(resolved);
	shl_decl_names(text, shl_note_const, m);
	shl_adopt(m, p, inst);
	syslet_inst__free(inst);
	shl_prog_free(p);
}

/* After a statement: every variable it changed, else its last call. */
static void shl_imm_report(struct shell *sh, const size_t *ix, size_t n,
			   const unsigned long *before,
			   const struct shl_exec *x, struct syslet_inst *inst)
{
	struct shl_imm *m = sh->imm;
	const struct syslet_event *ev = NULL;
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct shl_var *v = &m->vars[ix[i]];
		const struct syslet_event *c = &x->last_call;
		bool call;

		if (v->object || v->value == before[i])
			continue;
		/* `fd = open(...)`: the variable holds the call's result. */
		call = x->have_call && c->ret_stored && srun_is_call(c->nr) &&
		       (long)v->value == c->ret;
		shl_print_var(sh, v, call ? c : NULL);
		any = true;
	}
	/* An ASYNC atom hands off before its call whether or not the call
	 * would block (2007's __exec_atom(): async_schedule() first), so
	 * async_exec() returned NULL for `async umem_add(&k, 1);` too: the
	 * values alone would not say so, where a call's line does
	 * (<went async>). */
	if (any && x->went_async && !sh->trace)
		fputs(x->have_last && (x->last.flags & SYSLET_NO_COMPLETE) ?
		      "<went async: async_exec returned NULL; nocomplete, "
		      "nothing came into the ring>\n" :
		      "<went async: async_exec returned NULL; the completion "
		      "came through the ring>\n", sh->out);
	/* The trace printed every atom already, or the call when a set
	 * (trace read) chose it. */
	if (any || (sh->trace && (!x->have_call ||
				  shl_traced(sh, &x->last_call))))
		return;
	/* Only calls: the result of a test or copy the compiler added says
	 * nothing about the statement. */
	if (x->have_call)
		ev = &x->last_call;
	if (ev)
		shl_print_event(sh, sh->out, inst, ev);
	else if (x->interrupted)
		fputs("interrupted\n", sh->out);
}

static bool shl_wants_async(struct syslet_inst *inst,
			    const struct shl_prog *p)
{
	size_t i, n = syslet_obj__atom_count(p->obj);

	for (i = 0; i < n; i++) {
		struct syslet_uatom *a = syslet_inst__atom(inst, i);

		if (a && (a->flags & SYSLET_ASYNC))
			return true;
	}
	return false;
}

/*
 * What ends a lone statement typed without its ';': nothing where its
 * last character outside comments is a ';' or a '}', else a ';' -- on a
 * line of its own where the text ends in a // comment, which would
 * swallow it ("getppid() // why" waited for more lines), or in a string
 * or character constant left open, whose quoted line and caret showed a
 * ';' nobody typed ('"abc;').  As the scanner reads them: a string may
 * go on past a backslash at the end of a line, nothing else does.
 */
const char *shl_stmt_semi(const char *text)
{
	enum { CODE, BLOCK, LINE, STR, CHR } st = CODE;
	char last = 0;

	for (const char *p = text; *p; p++) {
		switch (st) {
		case CODE:
			if (p[0] == '/' && p[1] == '*') {
				st = BLOCK;
				p++;
			} else if (p[0] == '/' && p[1] == '/') {
				st = LINE;
			} else if (*p == '"' || *p == '\'') {
				st = *p == '"' ? STR : CHR;
				last = *p;
			} else if (!isspace((unsigned char)*p)) {
				last = *p;
			}
			break;
		case BLOCK:
			if (p[0] == '*' && p[1] == '/') {
				st = CODE;
				p++;
			}
			break;
		case LINE:
			if (*p == '\n')
				st = CODE;
			break;
		case STR:
		case CHR:
			if (*p == '\\' && p[1] && (st == STR || p[1] != '\n'))
				p++;
			else if (*p == '\n' || *p == (st == STR ? '"' : '\''))
				st = CODE;
			break;
		}
	}
	if (!last || ((last == ';' || last == '}') && st == CODE))
		return "";
	return st == CODE || st == BLOCK ? ";" : "\n;";
}

bool shl_ends_open(const char *text)
{
	return *shl_stmt_semi(text) != '\0';
}

void shl_probe_stmts(const char *text, struct sysletc_probe *r)
{
	struct text_buf b = { 0 };

	shl_buf_puts(&b, text);
	shl_buf_puts(&b, shl_stmt_semi(text));
	if (sysletc_probe(b.s, b.len, SYSLETC_UNIT_STMTS, r))
		shl_oom();	/* r->sz is ours */
	text_buf_free(&b);
}

struct shl_known {
	const char	*name;
	bool		found;
};

static void shl_known_add(void *ctx, const char *name)
{
	struct shl_known *k = ctx;

	if (!strcmp(name, k->name))
		k->found = true;
}

/* Whether @name is a cell, object, entry, label, keyword or system call
 * of the language, the session or the program. */
static bool shl_name_is(struct shell *sh, const char *name,
			unsigned int kinds)
{
	struct shl_known k = { name, false };

	shl_names(sh, kinds, shl_known_add, &k);
	return k.found;
}

static bool shl_name_known(struct shell *sh, const char *name)
{
	if (shl_imm_cell(sh, name) || shl_imm_is_const(sh, name))
		return true;
	return shl_name_is(sh, name, SHL_N_SYSCALL | SHL_N_CELL |
			   SHL_N_OBJECT | SHL_N_ENTRY | SHL_N_LABEL |
			   SHL_N_KEYWORD);
}

/* Edit distance of a and b, adjacent transpositions counting one, or
 * more than 2 when it is. */
static size_t shl_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[16][16];

	if (la >= 16 || lb >= 16)
		return 3;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

/* The command @word is a typing slip of: one edit for a short word, two
 * for a longer one; NULL when none is that near. */
static const char *shl_cmd_near(const char *word)
{
	size_t i, n, best = 3, len = strlen(word);
	const struct shl_cmd *cmds = shl_cmd_table(&n);
	const char *near = NULL;

	for (i = 0; i < n; i++) {
		size_t dist = shl_distance(word, cmds[i].name);

		if (dist < best && dist <= (len <= 4 ? 1u : 2u)) {
			best = dist;
			near = cmds[i].name;
		}
	}
	return near;
}

/*
 * A line that did not compile and starts with a word that is no name of
 * the language, the session or the program, such as a command mistyped
 * (lsit, brek 3) or one from another shell (clear): the compiler's error
 * is about a statement, so the shell says it is no command either.
 * Returns whether it said so.  @alone: the word is the whole line.
 */
static bool shl_command_note(struct shell *sh, const char *text,
			     size_t lead, size_t len, bool alone,
			     unsigned long line)
{
	const char *near;
	char *name;
	bool said = false;

	if (!len || memchr(text + lead, '.', len))
		return false;
	name = strndup(text + lead, len);
	if (!name)
		shl_oom();
	if (shl_cmd_find(name) || shl_name_known(sh, name))
		goto out;
	near = len >= 3 ? shl_cmd_near(name) : NULL;
	if (near) {
		fprintf(sh->err, "%s:%lu:%zu: note: '%s' is no command: did "
			"you mean '%s'?\n", SHL_INPUT, line, lead + 1, name,
			near);
		said = true;
	} else if (alone) {
		fprintf(sh->err, "%s:%lu:%zu: note: '%s' is no command, and "
			"no cell of the session or the program; help lists "
			"the commands\n", SHL_INPUT, line, lead + 1, name);
		said = true;
	}
out:
	free(name);
	return said;
}

/*
 * A lone name at the prompt (v, or cat.fd), typed as a debugger's or a
 * REPL's user asks for a value: the compiler's error says a statement
 * calls the kernel or assigns; the shell adds the command that shows it.
 */
static void shl_value_note(struct shell *sh, const char *text)
{
	size_t lead = strspn(text, " \t"), len = 0;
	const char *s = text + lead, *rest;
	unsigned long line;
	char *name;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return;
	while (isalnum((unsigned char)s[len]) || s[len] == '_' ||
	       s[len] == '.')
		len++;
	rest = s + len;
	rest += strspn(rest, " \t");
	if (*rest == ';')
		rest++;
	if (!rest[strspn(rest, " \t\n")])
		rest += strlen(rest);
	else
		rest = s + len;
	/* The line of the compiler's error before it (shl_emit_diags()):
	 * the script's, or 1 at a terminal. */
	line = (!sh->in.tty && sh->in.unit_line ? sh->in.unit_line : 1);
	if (*rest) {
		/* A word and an argument (brek 3, lsit cat, x buf): only a
		 * mistyped command gets a note; an operator after the word
		 * makes it a statement's. */
		const char *arg = rest + strspn(rest, " \t");

		if (arg != rest && (isalnum((unsigned char)*arg) ||
				    strchr("[#\"%_", *arg)))
			shl_command_note(sh, text, lead, len, false, line);
		return;
	}
	name = strndup(s, len);
	if (!name)
		shl_oom();
	/* The compiler's note says what ends a syslet: return is no cell;
	 * nor is 'stpo', whose note names the keyword (unless the session
	 * has such a cell, and the compiler no such note). */
	if (!strcmp(name, "return") ||
	    (sysletc_word_near_class(name, len) == SYSLETC_WORD_STMT &&
	     !shl_imm_cell(sh, name))) {
		free(name);
		return;
	}
	if (shl_command_note(sh, text, lead, len, true, line)) {
		free(name);
		return;
	}
	if (shl_imm_is_const(sh, name))
		fprintf(sh->err, "%s:%lu:%zu: note: '%s' is a constant; info "
			"lists its declaration\n", SHL_INPUT, line, lead + 1,
			name);
	else if (!shl_imm_cell(sh, name) &&
		 shl_name_is(sh, name, SHL_N_OBJECT))
		fprintf(sh->err, "%s:%lu:%zu: note: '%s' is a buffer or data "
			"object: x %s shows its bytes\n", SHL_INPUT, line,
			lead + 1, name, name);
	else
		fprintf(sh->err, "%s:%lu:%zu: note: print %s shows the value "
			"of a cell\n", SHL_INPUT, line, lead + 1, name);
	free(name);
}

/* Whether @text, a statement without its ';', is unfinished: the ';'
 * the prompt adds does not complete it, and the parser, given @text
 * alone, wants more at its end. */
static bool shl_imm_unfinished(const char *text)
{
	struct sysletc_probe r = { .sz = sizeof(r) };

	if (!shl_ends_open(text))
		return false;
	shl_probe_stmts(text, &r);
	if (r.status != SYSLETC_PROBE_ERROR)
		return false;
	memset(&r, 0, sizeof(r));
	r.sz = sizeof(r);
	if (sysletc_probe(text, strlen(text), SYSLETC_UNIT_STMTS, &r))
		shl_oom();	/* r.sz is ours */
	return r.status == SYSLETC_PROBE_EOF;
}

/*
 * Run text; decl, when given, declares the variables text assigns (the
 * names of a `var` whose values are no constants): compiled before the
 * statement, and kept only when the two compiled.
 */
static void shl_imm_run(struct shell *sh, const char *text, const char *decl)
{
	struct shl_imm *m = sh->imm;
	struct text_buf src = { 0 };
	struct syslet_inst *inst;
	struct syslet_uatom *entry;
	unsigned long *before;
	struct shl_prog *p;
	struct shl_exec x;
	char err[256];
	char *implicit = decl ? NULL : shl_implicit_var(sh, text);
	const struct shl_cmd *cmd = implicit ? shl_cmd_find(implicit) : NULL;
	size_t i, n, *ix;

	/* `set = 5` is the command set without its cell, not a new
	 * variable that hides the command for the rest of the session;
	 * `x = 5` or `n = read(...)` is a variable, whose name no command
	 * that takes an '=' shares. */
	if (cmd && strcmp(cmd->name, implicit) == 0 && strchr(cmd->usage, '=')) {
		shl_error(sh, "%s: expected %s (the command), got '%s'; a "
			  "variable named %s is declared first: var %s;",
			  implicit, cmd->usage, text, implicit, implicit);
		free(implicit);
		return;
	}
	if (implicit)
		shl_buf_printf(&src, "var %s;\n", implicit);
	else if (decl)
		shl_buf_printf(&src, "%s\n", decl);
	shl_buf_puts(&src, "syslet " SHL_IMM_ENTRY "() {\n");
	shl_buf_puts(&src, text);
	/* At the prompt, as in nft, a lone statement needs no ';'; but
	 * one left unfinished ("getppid(") gets none and no closing '}',
	 * so that the error is told at the end of what was typed, not at
	 * a ';' nobody typed ("unexpected ';'", quoting "getppid(;"). */
	if (shl_imm_unfinished(text)) {
		shl_buf_puts(&src, "\n");
	} else {
		shl_buf_puts(&src, shl_stmt_semi(text));
		shl_buf_puts(&src, "\n}\n");
	}
	p = shl_imm_build(sh, text, src.s, implicit || decl ? 2 : 1);
	text_buf_free(&src);
	if (!p) {
		shl_value_note(sh, text);
		goto out;
	}
	inst = syslet_obj__instantiate(p->obj, err, sizeof(err));
	if (!inst) {
		shl_error(sh, "%s", err);
		goto out;
	}
	if (implicit) {
		struct text_buf d = { 0 };

		shl_buf_printf(&d, "var %s;", implicit);
		shl_add_decl(m, d.s, NULL, shl_unit_line(sh));
		text_buf_free(&d);
	} else if (decl) {
		shl_add_decl(m, decl, NULL, shl_unit_line(sh));
	}
	shl_adopt(m, p, inst);
	/* Only the session's names this image has: the rest cannot change. */
	ix = shl_image_vars(m, p, &n);
	shl_copy(m, inst, ix, n, true);
	before = calloc(n + 1, sizeof(*before));
	if (!before)
		shl_oom();
	for (i = 0; i < n; i++)
		before[i] = m->vars[ix[i]].value;
	entry = syslet_inst__entry(inst, SHL_IMM_ENTRY);
	/* Only a statement that asks to go async takes the full path
	 * through async_exec and a worker; the rest runs here, where
	 * Ctrl-C can interrupt a call that blocks. */
	if (!shl_wants_async(inst, p)) {
		shl_exec_steps(sh, &x, inst, entry);
	} else if (shl_exec_chain(sh, &x, inst, entry, true) < 0) {
		syslet_inst__free(inst);
		free(before);
		free(ix);
		goto out;
	}
	if (x.async) {
		/* Interrupted while a worker still runs it: its cells stay
		 * its own; the completion will show in the ring.  Said,
		 * since a user waits for n to be read into. */
		fputs("interrupted; the statement goes on in a worker", sh->out);
		if (n) {
			fputs(", on its own copy of ", sh->out);
			for (i = 0; i < n; i++)
				fprintf(sh->out, "%s%s",
					i == 0 ? "" : i + 1 == n ? " and " : ", ",
					m->vars[ix[i]].name);
			fputs(": its result comes into the ring (ring, wait), "
			      "not into them\n", sh->out);
		} else {
			fputs(" (ring, wait)\n", sh->out);
		}
		shl_dbg_keep(sh, inst, p);
		free(before);
		free(ix);
		goto out;
	}
	shl_copy(m, inst, ix, n, false);
	shl_imm_report(sh, ix, n, before, &x, inst);
	free(before);
	free(ix);
	syslet_inst__free(inst);
out:
	shl_prog_free(p);
	free(implicit);
}

/* ---- var NAME = CALL; ------------------------------------------------------ */

/* Past blanks and comments. */
static const char *shl_skip_blank(const char *p)
{
	for (;;) {
		p += strspn(p, " \t\r\n");
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			if (!e)
				return p + strlen(p);
			p = e + 2;
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else {
			return p;
		}
	}
}

/* Past an initializer: up to the ',' or ';' outside brackets, strings
 * and comments that ends it, or the end of the text. */
static const char *shl_skip_value(const char *p)
{
	int depth = 0;

	while (*p) {
		const char *q = shl_skip_blank(p);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char quote = *p++;

			while (*p && *p != quote && *p != '\n')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			if (*p == quote)
				p++;
			continue;
		}
		if (strchr("([{", *p))
			depth++;
		else if (strchr(")]}", *p))
			depth--;
		else if (depth <= 0 && (*p == ',' || *p == ';'))
			return p;
		p++;
	}
	return p;
}

/*
 * `var fd = open(path, O_RDONLY);` typed at the prompt: in a syslet such
 * a declaration assigns where it stands (syslet(5)), while a declaration
 * of the session is one at file scope, whose value must be a constant.
 * So when text is a `var` of names the session does not have, at least
 * one with a value, split it into the declaration of the names (*decl,
 * "var fd;") and the statement of the assignments (*stmt, the text with
 * `var` and the names without a value blanked and the commas after
 * values made ';', so that columns and lines stay those typed).
 */
static bool shl_var_split(struct shl_imm *m, const char *text, char **decl,
			  char **stmt)
{
	struct text_buf d = { 0 };
	const char *p = shl_skip_blank(text);
	char *s;
	bool any = false;

	if (strncmp(p, "var", 3) || !strchr(" \t\r\n/", p[3]))
		return false;
	s = strdup(text);
	if (!s)
		shl_oom();
	memset(s + (p - text), ' ', 3);
	shl_buf_puts(&d, "var ");
	p += 3;
	for (;;) {
		const char *name, *end;
		bool value = false;
		char *nm;
		bool known;

		p = shl_skip_blank(p);
		name = p;
		if (!isalpha((unsigned char)*p) && *p != '_')
			goto no;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		end = p;
		if (sysletc_word_class(name, end - name) != SYSLETC_WORD_NAME)
			goto no;
		nm = strndup(name, end - name);
		if (!nm)
			shl_oom();
		known = shl_map_get(&m->defs, nm, NULL) ||
			shl_var_find(m, nm) ||
			shl_map_get(&m->const_ix, nm, NULL);
		free(nm);
		if (known)
			goto no;
		if (d.len > 4)
			shl_buf_puts(&d, ", ");
		shl_buf_add(&d, name, end - name);
		p = shl_skip_blank(p);
		if (p[0] == '=' && p[1] != '=') {
			const char *v = shl_skip_blank(p + 1);

			p = shl_skip_value(v);
			if (p == v)
				goto no;
			value = any = true;
		}
		if (*p != ',' && *p != ';')
			goto no;
		if (value)
			s[p - text] = ';';
		else
			memset(s + (name - text), ' ', p + 1 - name);
		if (*p++ == ';')
			break;
	}
	if (!any || *shl_skip_blank(p))
		goto no;
	shl_buf_puts(&d, ";");
	*decl = d.s;
	*stmt = s;
	return true;
no:
	text_buf_free(&d);
	free(s);
	return false;
}

/* Whether text compiles as a declaration of the session, quietly, or
 * does not parse as one: then the declaration's own errors tell it. */
static bool shl_decl_compiles(struct shl_imm *m, const char *text)
{
	struct sysletc_probe r = { .sz = sizeof(r) };
	struct text_buf src = { 0 };
	char *diags = NULL, err[256];
	size_t len = 0, elf_len;
	void *elf = NULL;
	FILE *mem;
	bool all;
	int n;

	if (sysletc_probe(text, strlen(text), SYSLETC_UNIT_FILE, &r))
		shl_oom();	/* r.sz is ours */
	if (r.status != SYSLETC_PROBE_OK)
		return true;
	mem = open_memstream(&diags, &len);
	if (!mem)
		shl_oom();
	shl_closure(m, text, &src, &all, NULL, NULL);
	shl_buf_puts(&src, text);
	shl_buf_puts(&src, "\nsyslet " SHL_IMM_ENTRY "() { }\n");
	n = sysletc_compile_mem(SHL_IMM_FILE, src.s, src.len, mem, &elf,
				&elf_len, err, sizeof(err));
	fclose(mem);
	free(diags);
	free(elf);
	text_buf_free(&src);
	/* Out of memory (n < 0): the declaration's own path says so. */
	return n <= 0;
}

void shl_imm_eval(struct shell *sh, const char *text)
{
	char *decl, *stmt;

	if (!shl_is_decl(text)) {
		shl_imm_run(sh, text, NULL);
	} else if (shl_var_split(sh->imm, text, &decl, &stmt)) {
		if (shl_decl_compiles(sh->imm, text))
			shl_imm_declare(sh, text);
		else
			shl_imm_run(sh, stmt, decl);
		free(decl);
		free(stmt);
	} else {
		shl_imm_declare(sh, text);
	}
}
