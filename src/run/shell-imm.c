/* shell-imm.c: immediate mode: statements compiled against the session's declarations and run at once. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/decode.h"
#include "run/run.h"
#include "run/shell-exec.h"

#define SHL_IMM_FILE	SHL_INPUT
#define SHL_IMM_ENTRY	"__shell"

/*
 * The session keeps its declarations as source text, prepended to every
 * statement, and the values of its variables, buffers and data by name:
 * copied into each statement's fresh instance before it runs and back
 * after, so that they persist although each statement is its own image.
 */
struct shl_var {
	char		*name;
	bool		object;		/* buffer or data, else a variable */
	unsigned long	value;
	unsigned char	*bytes;
	size_t		size;
};

struct shl_imm {
	struct shl_buf	decls;
	unsigned int	decl_lines;
	struct shl_var	*vars;
	size_t		nvars;
	char		**consts;	/* names, for completion */
	size_t		nconsts;
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
	free(m->consts);
	free(m->vars);
	shl_buf_free(&m->decls);
	free(m);
	sh->imm = NULL;
}

static struct shl_var *shl_var_find(struct shl_imm *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nvars; i++)
		if (strcmp(m->vars[i].name, name) == 0)
			return &m->vars[i];
	return NULL;
}

unsigned long *shl_imm_cell(struct shell *sh, const char *name)
{
	struct shl_var *v = shl_var_find(sh->imm, name);

	return v && !v->object ? &v->value : NULL;
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

/* @call: the value is what a call just returned (an errno is named). */
static void shl_print_var(struct shell *sh, const struct shl_var *v,
			  bool call)
{
	char res[64];

	if (v->object) {
		fprintf(sh->out, "%s: %zu bytes (x %s)\n", v->name, v->size,
			v->name);
		return;
	}
	srun_format_result(res, sizeof(res), (long)v->value, call);
	fprintf(sh->out, "%s = %s\n", v->name, res);
}

void shl_imm_print_all(struct shell *sh)
{
	size_t i;

	for (i = 0; i < sh->imm->nvars; i++)
		shl_print_var(sh, &sh->imm->vars[i], false);
}

const char *shl_imm_source(struct shell *sh)
{
	return shl_buf_str(&sh->imm->decls);
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

	for (i = 0; i < p->img->nr_syms; i++) {
		const struct slo_symbol *s = &p->img->syms[i];
		struct shl_var *v;

		if (strchr(s->name, '.') || shl_var_find(m, s->name))
			continue;
		if (s->kind != SLO_SYM_VAR && s->kind != SLO_SYM_BUFFER &&
		    s->kind != SLO_SYM_DATA)
			continue;
		v = realloc(m->vars, (m->nvars + 1) * sizeof(*v));
		if (!v)
			abort();
		m->vars = v;
		v = &m->vars[m->nvars++];
		memset(v, 0, sizeof(*v));
		v->name = strdup(s->name);
		v->object = s->kind != SLO_SYM_VAR;
		if (v->object) {
			void *src = syslet_inst__object(inst, s->name,
							&v->size);

			v->bytes = calloc(1, v->size ? v->size : 1);
			if (!v->bytes)
				abort();
			if (src)
				memcpy(v->bytes, src, v->size);
		} else {
			unsigned long *c = syslet_inst__cell(inst, s->name);

			v->value = c ? *c : 0;
		}
	}
}

static void shl_copy(struct shl_imm *m, struct syslet_inst *inst, bool in)
{
	size_t i;

	for (i = 0; i < m->nvars; i++) {
		struct shl_var *v = &m->vars[i];

		if (v->object) {
			size_t size = 0;
			unsigned char *p = syslet_inst__object(inst, v->name,
							       &size);

			if (!p)
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
 * lines (the quoted line and caret are right already).
 */
static void shl_emit_diags(struct shell *sh, const char *text,
			   unsigned int prelude)
{
	const char *p = text, *nl;
	size_t pre = strlen(SHL_IMM_FILE ":");

	for (; *p; p = nl) {
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		if (strncmp(p, SHL_IMM_FILE ":", pre) == 0 &&
		    isdigit((unsigned char)p[pre])) {
			char *end;
			unsigned long line = strtoul(p + pre, &end, 10);

			if (line > prelude)
				line -= prelude;
			fprintf(sh->err, "%s:%lu", SHL_IMM_FILE, line);
			fwrite(end, 1, (size_t)(nl - end), sh->err);
			continue;
		}
		fwrite(p, 1, (size_t)(nl - p), sh->err);
	}
	fflush(sh->err);
}

static struct shl_prog *shl_imm_compile(struct shell *sh, const char *src,
					unsigned int prelude)
{
	struct shl_prog *p;
	char *diags = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&diags, &len);

	if (!mem)
		abort();
	p = shl_prog_compile(sh, SHL_IMM_FILE, src, strlen(src), mem);
	fclose(mem);
	shl_emit_diags(sh, diags, prelude);
	free(diags);
	return p;
}

static unsigned int shl_count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool shl_word_is(const char *s, const char *w)
{
	size_t n = strlen(w);

	s += strspn(s, " \t\n");
	return strncmp(s, w, n) == 0 && !isalnum((unsigned char)s[n]) &&
	       s[n] != '_';
}

static bool shl_is_decl(const char *text)
{
	return shl_word_is(text, "var") || shl_word_is(text, "const") ||
	       shl_word_is(text, "buffer") || shl_word_is(text, "data") ||
	       shl_word_is(text, "syslet");
}

/* Remember the names a `const` declaration introduces, for completion. */
static void shl_note_consts(struct shl_imm *m, const char *text)
{
	const char *p = text + strspn(text, " \t\n") + strlen("const");

	for (;;) {
		size_t n;
		char **v;

		p += strspn(p, " \t\n");
		n = 0;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (!n)
			return;
		v = realloc(m->consts, (m->nconsts + 1) * sizeof(*v));
		if (!v)
			abort();
		m->consts = v;
		m->consts[m->nconsts++] = strndup(p, n);
		/* `const A = 1, B = 2;`: on to the next name, if any. */
		p = strpbrk(p + n, ",;");
		if (!p || *p == ';')
			return;
		p++;
	}
}

/* An assignment to a name nobody declared declares it, as a shell does. */
static char *shl_implicit_var(struct shell *sh, const char *text)
{
	const char *p = text + strspn(text, " \t\n");
	size_t n = 0;
	char *name;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return NULL;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	p += n;
	p += strspn(p, " \t");
	if (p[0] != '=' || p[1] == '=')
		return NULL;
	name = strndup(text + strspn(text, " \t\n"), n);
	if (shl_var_find(sh->imm, name) || shl_word_is(name, "if") ||
	    shl_word_is(name, "while")) {
		free(name);
		return NULL;
	}
	for (size_t i = 0; i < sh->imm->nconsts; i++)
		if (strcmp(sh->imm->consts[i], name) == 0) {
			free(name);
			return NULL;
		}
	return name;
}

static void shl_add_decl(struct shl_imm *m, const char *text)
{
	shl_buf_puts(&m->decls, text);
	shl_buf_puts(&m->decls, "\n");
	m->decl_lines = shl_count_lines(m->decls.s);
}

static void shl_imm_declare(struct shell *sh, const char *text)
{
	struct shl_imm *m = sh->imm;
	struct shl_buf src = { 0 };
	struct syslet_inst *inst;
	struct shl_prog *p;
	char err[256];

	/* Checked by compiling it with everything declared so far. */
	shl_buf_puts(&src, shl_buf_str(&m->decls));
	shl_buf_puts(&src, text);
	/* The compiler wants something to run; this adds no names. */
	shl_buf_puts(&src, "\nsyslet " SHL_IMM_ENTRY "() { }\n");
	p = shl_imm_compile(sh, src.s, m->decl_lines);
	shl_buf_free(&src);
	if (!p)
		return;
	inst = syslet_obj__instantiate(p->obj, err, sizeof(err));
	if (!inst) {
		shl_error(sh, "%s", err);
		shl_prog_free(p);
		return;
	}
	shl_add_decl(m, text);
	if (shl_word_is(text, "const"))
		shl_note_consts(m, text);
	shl_adopt(m, p, inst);
	syslet_inst__free(inst);
	shl_prog_free(p);
}

/* After a statement: every variable it changed, else its last call. */
static void shl_imm_report(struct shell *sh, const unsigned long *before,
			   const struct shl_exec *x, struct syslet_inst *inst)
{
	struct shl_imm *m = sh->imm;
	const struct syslet_event *ev = NULL;
	bool any = false;
	size_t i;

	for (i = 0; i < m->nvars; i++) {
		const struct syslet_event *c = &x->last_call;

		if (m->vars[i].object || m->vars[i].value == before[i])
			continue;
		/* `fd = open(...)`: the variable holds the call's result. */
		shl_print_var(sh, &m->vars[i],
			      x->have_call && c->ret_stored &&
			      srun_is_call(c->nr) &&
			      (long)m->vars[i].value == c->ret);
		any = true;
	}
	if (any || sh->trace)
		return;	/* trace printed every atom already */
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

/* Whether text ends without the ';' or '}' a statement ends with. */
static bool shl_ends_open(const char *text)
{
	size_t n = strlen(text);

	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	return n && text[n - 1] != ';' && text[n - 1] != '}';
}

static void shl_imm_run(struct shell *sh, const char *text)
{
	struct shl_imm *m = sh->imm;
	struct shl_buf src = { 0 };
	struct syslet_inst *inst;
	struct syslet_uatom *entry;
	unsigned long *before;
	struct shl_prog *p;
	struct shl_exec x;
	char err[256];
	char *implicit = shl_implicit_var(sh, text);
	size_t i;

	shl_buf_puts(&src, shl_buf_str(&m->decls));
	if (implicit)
		shl_buf_printf(&src, "var %s;\n", implicit);
	shl_buf_puts(&src, "syslet " SHL_IMM_ENTRY "() {\n");
	shl_buf_puts(&src, text);
	/* At the prompt, as in nft, a lone statement needs no ';'. */
	if (shl_ends_open(text))
		shl_buf_puts(&src, ";");
	shl_buf_puts(&src, "\n}\n");
	p = shl_imm_compile(sh, src.s, m->decl_lines + (implicit ? 2 : 1));
	shl_buf_free(&src);
	if (!p)
		goto out;
	inst = syslet_obj__instantiate(p->obj, err, sizeof(err));
	if (!inst) {
		shl_error(sh, "%s", err);
		goto out;
	}
	if (implicit) {
		struct shl_buf d = { 0 };

		shl_buf_printf(&d, "var %s;", implicit);
		shl_add_decl(m, d.s);
		shl_buf_free(&d);
	}
	shl_adopt(m, p, inst);
	shl_copy(m, inst, true);
	before = calloc(m->nvars + 1, sizeof(*before));
	if (!before)
		abort();
	for (i = 0; i < m->nvars; i++)
		before[i] = m->vars[i].value;
	entry = syslet_inst__entry(inst, SHL_IMM_ENTRY);
	/* Only a statement that asks to go async takes the full path
	 * through async_exec and a worker; the rest runs here, where
	 * Ctrl-C can interrupt a call that blocks. */
	if (!shl_wants_async(inst, p)) {
		shl_exec_steps(sh, &x, inst, entry);
	} else if (shl_exec_chain(sh, &x, inst, entry, true) < 0) {
		syslet_inst__free(inst);
		free(before);
		goto out;
	}
	if (x.async) {
		/* Interrupted while a worker still runs it: its cells stay
		 * its own; the completion will show in the ring. */
		fputs("interrupted; the statement goes on in a worker (ring, "
		      "wait)\n", sh->out);
		shl_dbg_keep(sh, inst);
		free(before);
		goto out;
	}
	shl_copy(m, inst, false);
	shl_imm_report(sh, before, &x, inst);
	free(before);
	syslet_inst__free(inst);
out:
	shl_prog_free(p);
	free(implicit);
}

void shl_imm_eval(struct shell *sh, const char *text)
{
	if (shl_is_decl(text))
		shl_imm_declare(sh, text);
	else
		shl_imm_run(sh, text);
}
