/* header.c: a C header declaring an image's entries, cells and objects (sysletc -H). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "common/systab.h"

/*
 * Like `bpftool gen skeleton`: the program that links the .slo includes
 * this and reaches every symbol by a C name.  ELF names may hold dots
 * (cat.fd), so each declaration carries an asm label with the real name
 * and a C name with the dots turned into "__" (cat__fd).
 */

/* Names we can declare: what sysletc writes, nothing a hostile image
 * could use to inject text into the header. */
static int declarable(const char *name)
{
	if (!name || !*name || isdigit((unsigned char)*name))
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			return 0;
	return 1;
}

static void c_name(const char *name, struct slo_text *t)
{
	for (const char *p = name; *p; p++)
		if (*p == '.')
			slo_text_add(t, "__");
		else
			slo_text_add(t, "%c", *p);
}

static void print_c_name(FILE *out, const char *name)
{
	struct slo_text t = { 0 };

	c_name(name, &t);
	fputs(t.s ? t.s : "", out);
	slo_text_free(&t);
}

static void print_guard(FILE *out, const char *guard, int upper)
{
	for (const char *p = guard; *p; p++) {
		int c = (unsigned char)*p;

		if (!isalnum(c))
			c = '_';
		fputc(upper ? toupper(c) : tolower(c), out);
	}
}

#define print_macro_prefix(out, guard) print_guard(out, guard, 1)

/* A file name that can sit inside a C comment. */
static int commentable(const char *s)
{
	if (!s || strstr(s, "*/"))
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
}

static void entry_decl(const struct slo_image *img, size_t k, FILE *out)
{
	const struct slo_symbol *e = &img->syms[k];
	uint64_t asz = slo_atom_size(img);
	int nparams = 0;

	fprintf(out, "\n/* syslet %s: %llu atoms */\n", e->name,
		(unsigned long long)(e->size / asz));
	fprintf(out, "extern struct syslet_uatom ");
	print_c_name(out, e->name);
	fprintf(out, "[%llu] __asm__(\"%s\");\n",
		(unsigned long long)(e->size / asz ? e->size / asz : 1), e->name);
	fprintf(out, "enum {\n\t");
	print_c_name(out, e->name);
	fprintf(out, "__nr_atoms = %llu,\n", (unsigned long long)(e->size / asz));
	for (int pi = 0; pi < 64; pi++) {
		for (size_t i = 0; i < img->nr_syms; i++) {
			const struct slo_symbol *s = &img->syms[i];

			if (s->kind != SLO_SYM_PARAM || s->entry != (int)k ||
			    s->param_index != pi || !declarable(s->name))
				continue;
			fprintf(out, "\t");
			print_c_name(out, e->name);
			fprintf(out, "__param_%s = %d,\t/* %s */\n",
				slo_short_name(s->name, e), pi,
				s->param_type == SLO_PARAM_STR
					? "str: the cell holds a char *"
					: "int: the cell holds the number");
			nparams++;
		}
	}
	fprintf(out, "\t");
	print_c_name(out, e->name);
	fprintf(out, "__nr_params = %d,\n", nparams);
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->kind != SLO_SYM_LABEL || !declarable(s->name) ||
		    slo_entry_of(img, s->value / asz) != e)
			continue;
		fprintf(out, "\t");
		print_c_name(out, s->name);
		fprintf(out, "__atom = %llu,\t/* label: index in ",
			(unsigned long long)((s->value - e->value) / asz));
		print_c_name(out, e->name);
		fprintf(out, "[] */\n");
	}
	fprintf(out, "};\n");
}

static void cell_decls(const struct slo_names *nm, const char *guard,
		       FILE *out)
{
	const struct slo_image *img = nm->img;

	fprintf(out, "\n/* Cells: one machine word each, in .syslet.cells. */\n");
	for (size_t i = 0; i < nm->nr_cells; i++) {
		const struct slo_symbol *s = nm->sym[i];

		if (!s || !declarable(s->name))
			continue;
		fprintf(out, "extern unsigned long ");
		print_c_name(out, s->name);
		fprintf(out, " __asm__(\"%s\");", s->name);
		if (s->kind == SLO_SYM_PARAM)
			fprintf(out, "\t/* parameter %d of %s */", s->param_index,
				img->syms[s->entry].name);
		fprintf(out, "\n");
	}
	/* The whole section as a struct, for code that copies instances. */
	fprintf(out, "\nstruct ");
	print_guard(out, guard, 0);
	fprintf(out, "_cells {\n");
	for (size_t i = 0; i < nm->nr_cells; i++) {
		const struct slo_symbol *s = nm->sym[i];

		fprintf(out, "\tunsigned long ");
		if (s && declarable(s->name))
			print_c_name(out, s->name);
		else
			fprintf(out, "cell%zu", i);
		fprintf(out, ";\t/* [%zu]", i);
		if (!s && commentable(nm->cell[i]))
			fprintf(out, " %s", nm->cell[i]);
		fprintf(out, " */\n");
	}
	if (!nm->nr_cells)
		fprintf(out, "\tunsigned long none_;\n");
	fprintf(out, "};\n");
}

static void object_decls(const struct slo_image *img, FILE *out)
{
	int any = 0;

	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if ((s->kind != SLO_SYM_BUFFER && s->kind != SLO_SYM_DATA) ||
		    !declarable(s->name))
			continue;
		if (!any++)
			fprintf(out, "\n/* Buffers and data. */\n");
		fprintf(out, "extern %sunsigned char ",
			s->kind == SLO_SYM_DATA ? "const " : "");
		print_c_name(out, s->name);
		fprintf(out, "[%llu] __asm__(\"%s\");\n",
			(unsigned long long)(s->size ? s->size : 1), s->name);
	}
}

void slo_image_header(const struct slo_image *img, const char *guard,
		      FILE *out)
{
	struct slo_names nm;
	const char *prof = systab_profile_name((enum systab_profile)img->profile);

	if (!guard || !*guard)
		guard = "SYSLET_IMAGE_H";
	if (slo_names_init(&nm, img)) {
		fprintf(out, "#error \"sysletc: out of memory\"\n");
		return;
	}
	fprintf(out, "/* Generated by sysletc%s%s: the symbols of a syslet image. Do not edit. */\n",
		commentable(img->source) ? " from " : "",
		commentable(img->source) ? img->source : "");
	fprintf(out, "#ifndef ");
	print_macro_prefix(out, guard);
	fprintf(out, "\n#define ");
	print_macro_prefix(out, guard);
	fprintf(out, "\n\n#include <syslet.h>\n\n");
	fprintf(out, "#define ");
	print_macro_prefix(out, guard);
	fprintf(out, "_PROFILE \"%s\"\n", prof ? prof : "?");
	fprintf(out, "#define ");
	print_macro_prefix(out, guard);
	fprintf(out, "_NR_CELLS %zu\n", nm.nr_cells);
	fprintf(out, "_Static_assert(sizeof(unsigned long) == %u,\n"
		     "\t       \"this image is for %s: compile with -m%u\");\n",
		img->word_size, prof ? prof : "?", img->word_size * 8);
	for (size_t k = 0; k < img->nr_syms; k++)
		if (img->syms[k].kind == SLO_SYM_ENTRY &&
		    declarable(img->syms[k].name))
			entry_decl(img, k, out);
	cell_decls(&nm, guard, out);
	object_decls(img, out);
	fprintf(out, "\n#endif\n");
	slo_names_free(&nm);
}
