/* image-sym.c: an opened image's symbols for callers: each one's name, kind and place, and the atom an entry or a label names. */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "image-priv.h"

size_t syslet_obj__sym_count(const struct syslet_obj *obj)
{
	if (!obj)
		return api_none();
	return obj->img->nr_syms;
}

/* The image format's kinds, numbered by its own enum; ours are the
 * interface's and may not follow it. */
static enum syslet_sym_kind sym_kind(enum slo_sym_kind k)
{
	switch (k) {
	case SLO_SYM_ENTRY:
		return SYSLET_SYM_ENTRY;
	case SLO_SYM_LABEL:
		return SYSLET_SYM_LABEL;
	case SLO_SYM_VAR:
		return SYSLET_SYM_VAR;
	case SLO_SYM_PARAM:
		return SYSLET_SYM_PARAM;
	case SLO_SYM_BUFFER:
		return SYSLET_SYM_BUFFER;
	case SLO_SYM_DATA:
		break;
	}
	return SYSLET_SYM_DATA;
}

/* An entry's or a label's atom: its byte offset in the atoms over the
 * size of an atom in the image's words (the loader checked that it is
 * one atom's start). */
static long sym_atom(const struct slo_image *img, const struct slo_symbol *s)
{
	if (s->kind != SLO_SYM_ENTRY && s->kind != SLO_SYM_LABEL)
		return -1;
	return (long)(s->value / (SLIO_ATOM_WORDS * img->word_size));
}

int syslet_obj__sym_info(const struct syslet_obj *obj, size_t i,
			 struct syslet_sym_info *info)
{
	const struct slo_image *img;
	struct syslet_sym_info si = { .sz = sizeof(si) };
	const struct slo_symbol *s;

	if (!obj || !api_sz_ok(info, sizeof(*info)))
		return api_err(-EINVAL);
	img = obj->img;
	if (i >= img->nr_syms)
		return api_err(-ERANGE);
	s = &img->syms[i];
	si.name = s->name;
	si.kind = sym_kind(s->kind);
	si.atom = sym_atom(img, s);
	si.size = (size_t)s->size;
	api_sz_copy(info, &si, sizeof(si));
	return 0;
}

long syslet_obj__find_atom(const struct syslet_obj *obj, const char *name)
{
	const struct slo_symbol *s;

	if (!obj)
		return api_err(-EINVAL);
	s = slio_find_sym(obj, name, SLO_SYM_ENTRY, SLO_SYM_ENTRY);
	if (!s)
		s = slio_find_sym(obj, name, SLO_SYM_LABEL, SLO_SYM_LABEL);
	return s ? sym_atom(obj->img, s) : api_err(-ENOENT);
}

/* ---- the listing ---------------------------------------------------------- */

struct list_ctx {
	syslet_list_fn	fn;
	void		*ctx;
};

static void list_line(const char *text, enum slo_list_part part, long atom,
		      void *ctx)
{
	const struct list_ctx *lc = ctx;
	struct syslet_list_line l = {
		.sz = sizeof(l),
		.text = text,
		.atom = atom,
	};

	switch (part) {
	case SLO_LIST_HEADER:
		l.part = SYSLET_LIST_HEADER;
		break;
	case SLO_LIST_ATOMS:
		l.part = SYSLET_LIST_ATOMS;
		break;
	case SLO_LIST_CELLS:
		l.part = SYSLET_LIST_CELLS;
		break;
	case SLO_LIST_OBJECTS:
		l.part = SYSLET_LIST_OBJECTS;
		break;
	}
	lc->fn(&l, lc->ctx);
}

int syslet_obj__list(const struct syslet_obj *obj, syslet_list_fn fn,
		     void *ctx)
{
	struct list_ctx lc = { fn, ctx };

	if (!obj || !fn)
		return api_err(-EINVAL);
	slo_image_list_lines(obj->img, list_line, &lc);
	return 0;
}
