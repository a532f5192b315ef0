/* list.c: the annotated listing of an image (sysletc -S and -d print the same). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "common/systab.h"
#include "syslet.h"

/* Where the lines go, and the part of the listing they are in. */
struct list_out {
	slo_list_fn		fn;
	void			*ctx;
	enum slo_list_part	part;
	bool			oom;	/* said "; out of memory" */
};

/* Hostile images must not drive the terminal: control bytes become '?';
 * trailing blanks go, so listings diff cleanly.  atom: the atom the line
 * lists, or -1. */
static void put_line(struct text_buf *t, struct list_out *o, long atom)
{
	size_t n = t->len;

	if (t->failed) {
		/* The next line starts afresh. */
		text_buf_free(t);
		o->fn("; out of memory", o->part, atom, o->ctx);
		o->oom = true;
		return;
	}
	if (!t->s) {
		o->fn("", o->part, atom, o->ctx);
		return;
	}
	while (n && t->s[n - 1] == ' ')
		n--;
	t->s[n] = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->s[i];

		if (c < 0x20 || c == 0x7f)
			t->s[i] = '?';
	}
	o->fn(t->s, o->part, atom, o->ctx);
	t->len = 0;
	t->s[0] = 0;
}

/* Pad the line to `col` characters. */
static void pad_to(struct text_buf *t, size_t col)
{
	/* Out of memory, the buffer stops growing: so does the loop. */
	text_buf_printf(t, " ");
	while (t->len < col && !t->failed)
		text_buf_printf(t, " ");
}

static void entry_params(const struct slo_names *nm, size_t entry,
			 struct text_buf *t)
{
	const struct slo_image *img = nm->img;
	int first = 1;

	for (long i = nm->param_first[entry]; i >= 0; i = nm->param_next[i]) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->param_index < 0 || s->param_index >= 64)
			continue;
		text_buf_printf(t, "%s%s %s", first ? "" : ", ",
			     slo_param_type_name(s->param_type),
			     slo_short_name(s->name, &img->syms[entry]));
		first = 0;
	}
}

static void control(const struct slo_image *img, size_t i, struct text_buf *t)
{
	uint64_t flags = slo_atom_word(img, i, SLO_W_FLAGS);
	long next = slo_atom_target(img, i, SLO_W_NEXT);

	if (next >= 0)
		text_buf_printf(t, "next=%ld", next);
	else
		text_buf_printf(t, "next=end");
	if (!(flags & SYSLET_STOP_MASK))
		return;
	if (flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
		text_buf_printf(t, " stop=%zu", i + 1);
	else
		text_buf_printf(t, " stop=end");
}

static void list_atom(const struct slo_names *nm, size_t i, struct text_buf *t)
{
	const struct slo_image *img = nm->img;
	const struct slo_debug *dr = img->debug ? &img->debug[i] : NULL;

	text_buf_printf(t, "%5zu  ", i);
	slo_describe_call(nm, i, t);
	pad_to(t, 44);
	slo_describe_flags(slo_atom_word(img, i, SLO_W_FLAGS), t);
	pad_to(t, 72);
	control(img, i, t);
	if (!dr)
		return;
	pad_to(t, 90);
	text_buf_printf(t, ";");
	if (dr->line)
		text_buf_printf(t, " %u", dr->line);
	if (dr->text)
		text_buf_printf(t, ": %s", dr->text);
	if (dr->role != SLO_ROLE_CALL)
		text_buf_printf(t, " [%s]", slo_role_name(dr->role));
}

static void list_cells(const struct slo_names *nm, struct text_buf *t,
		       struct list_out *out)
{
	const struct slo_image *img = nm->img;

	out->part = SLO_LIST_CELLS;
	text_buf_printf(t, "cells:");
	put_line(t, out, -1);
	for (size_t i = 0; i < nm->nr_cells; i++) {
		const struct slo_symbol *s = nm->sym[i];
		uint64_t off = i * img->word_size;
		int64_t v = (int64_t)slo_image_word(img, SLO_SEC_CELLS, off);

		if (img->word_size == 4)
			v = (int32_t)(uint32_t)v;
		text_buf_printf(t, "%5zu  %s", i, nm->cell[i]);
		pad_to(t, 32);
		if (s && s->kind == SLO_SYM_PARAM)
			text_buf_printf(t, "param %d of %s, %s", s->param_index,
				     img->syms[s->entry].name,
				     slo_param_type_name(s->param_type));
		else if (s)
			text_buf_printf(t, "var = %" PRId64, v);
		else if (slo_image_reloc_at(img, SLO_SEC_CELLS, off))
			text_buf_printf(t, "address");
		else if (nm->written[i])
			text_buf_printf(t, "scratch = %" PRId64, v);
		else
			text_buf_printf(t, "constant");
		put_line(t, out, -1);
	}
}

static int printable(const uint8_t *p, uint64_t n)
{
	if (!n || p[n - 1])
		return 0;
	for (uint64_t i = 0; i + 1 < n; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') || p[i] >= 0x7f)
			return 0;
	return 1;
}

static void list_objects(const struct slo_image *img, struct text_buf *t,
			 struct list_out *out)
{
	int any = 0;

	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->kind != SLO_SYM_BUFFER && s->kind != SLO_SYM_DATA)
			continue;
		if (!any++) {
			out->part = SLO_LIST_OBJECTS;
			text_buf_printf(t, "objects:");
			put_line(t, out, -1);
		}
		text_buf_printf(t, "       %s", s->name);
		pad_to(t, 32);
		text_buf_printf(t, "%s, %" PRIu64 " byte%s",
			     s->kind == SLO_SYM_BUFFER ? "buffer" : "data",
			     s->size, s->size == 1 ? "" : "s");
		if (s->kind == SLO_SYM_DATA) {
			const uint8_t *p = img->data[SLO_SEC_RODATA] + s->value;

			text_buf_printf(t, ": ");
			if (printable(p, s->size)) {
				slo_quote(p, s->size - 1, t);
			} else {
				for (uint64_t k = 0; k < s->size && k < 32; k++)
					text_buf_printf(t, "%s%02x", k ? " " : "", p[k]);
				if (s->size > 32)
					text_buf_printf(t, " ...");
			}
		}
		put_line(t, out, -1);
	}
}

int slo_image_list_lines(const struct slo_image *img, slo_list_fn fn,
			 void *ctx)
{
	struct list_out o = { fn, ctx, SLO_LIST_HEADER, false };
	struct list_out *out = &o;
	struct slo_names nm;
	struct text_buf t = { 0 };
	const char *prof = systab_profile_name((enum systab_profile)img->profile);

	if (slo_names_init(&nm, img)) {
		fn("; out of memory", SLO_LIST_HEADER, -1, ctx);
		return -1;
	}
	text_buf_printf(&t, "; profile %s, %u-byte words, %zu atom%s, %zu cell%s",
		     prof ? prof : "?", img->word_size, img->nr_atoms,
		     img->nr_atoms == 1 ? "" : "s", nm.nr_cells,
		     nm.nr_cells == 1 ? "" : "s");
	put_line(&t, out, -1);
	if (img->source) {
		text_buf_printf(&t, "; source %s", img->source);
		put_line(&t, out, -1);
	}
	o.part = SLO_LIST_ATOMS;
	for (size_t i = 0; i < img->nr_atoms; i++) {
		/* The entry's name first, then labels at the same atom. */
		for (int want = SLO_SYM_ENTRY; want >= 0;
		     want = want == SLO_SYM_ENTRY ? SLO_SYM_LABEL : -1) {
			for (long k = nm.at_first[i]; k >= 0; k = nm.at_next[k]) {
				const struct slo_symbol *s = &img->syms[k];

				if (s->kind != (enum slo_sym_kind)want)
					continue;
				if (s->kind == SLO_SYM_ENTRY) {
					put_line(&t, out, -1);
					text_buf_printf(&t, "syslet %s(", s->name);
					entry_params(&nm, (size_t)k, &t);
					text_buf_printf(&t, "):");
				} else {
					text_buf_printf(&t, "%s:", slo_short_name(
						s->name, slo_names_entry_of(&nm, i)));
				}
				put_line(&t, out, -1);
			}
		}
		list_atom(&nm, i, &t);
		put_line(&t, out, (long)i);
	}
	put_line(&t, out, -1);
	list_cells(&nm, &t, out);
	list_objects(img, &t, out);
	text_buf_free(&t);
	slo_names_free(&nm);
	return o.oom ? -1 : 0;
}

static void print_line(const char *line, enum slo_list_part part, long atom,
		       void *ctx)
{
	(void)part;
	(void)atom;
	fputs(line, ctx);
	fputc('\n', ctx);
}

int slo_image_list(const struct slo_image *img, FILE *out)
{
	return slo_image_list_lines(img, print_line, out);
}
