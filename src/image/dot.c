/* dot.c: the atom graph of an image in graphviz's language (sysletc --dot). */
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "syslet.h"

/* A dot string: quotes and backslashes escaped, newlines as dot's \n,
 * other control bytes blanked. */
static void put_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n') {
			fputs("\\n", out);
			continue;
		}
		if (c == '"' || c == '\\')
			fputc('\\', out);
		fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
	}
	fputc('"', out);
}

/* Index of the entry symbol owning atom i, or -1. */
static long entry_index(const struct slo_names *nm, size_t i)
{
	return nm->entry_of[i];
}

static void end_node(FILE *out, long entry)
{
	if (entry >= 0)
		fprintf(out, "end%ld", entry);
	else
		fprintf(out, "end");
}

static void atom_node(const struct slo_names *nm, size_t i, FILE *out)
{
	const struct slo_image *img = nm->img;
	uint64_t flags = slo_atom_word(img, i, SLO_W_FLAGS);
	int ends = slo_atom_target(img, i, SLO_W_NEXT) < 0 ||
		   ((flags & SYSLET_STOP_MASK) &&
		    !(flags & SYSLET_SKIP_TO_NEXT_ON_STOP));
	struct text_buf t = { 0 };

	text_buf_printf(&t, "%zu: ", i);
	slo_describe_call(nm, i, &t);
	if (flags) {
		text_buf_printf(&t, "\n");
		slo_describe_flags(flags, &t);
	}
	if (img->debug && img->debug[i].line)
		text_buf_printf(&t, "\nline %u", img->debug[i].line);
	fprintf(out, "\t\ta%zu [label=", i);
	put_quoted(out, t.failed ? "out of memory" : t.s);
	if (img->debug && img->debug[i].role == SLO_ROLE_TRAMPOLINE)
		fprintf(out, ", style=dashed");
	if (ends)
		fprintf(out, ", peripheries=2");
	fprintf(out, "];\n");
	text_buf_free(&t);
}

static void atom_edges(const struct slo_names *nm, size_t i, FILE *out)
{
	const struct slo_image *img = nm->img;
	uint64_t flags = slo_atom_word(img, i, SLO_W_FLAGS);
	long next = slo_atom_target(img, i, SLO_W_NEXT);
	long e = entry_index(nm, i);

	fprintf(out, "\ta%zu -> ", i);
	if (next >= 0)
		fprintf(out, "a%ld;\n", next);
	else {
		end_node(out, e);
		fprintf(out, ";\n");
	}
	if (!(flags & SYSLET_STOP_MASK))
		return;
	fprintf(out, "\ta%zu -> ", i);
	if (flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
		fprintf(out, "a%zu [style=dashed, label=\"stop\"];\n", i + 1);
	} else {
		end_node(out, e);
		fprintf(out, " [style=dotted, color=red, fontcolor=red, label=\"stop\"];\n");
	}
}

void slo_image_dot(const struct slo_image *img, FILE *out)
{
	struct slo_names nm;
	long *first = NULL, *next = NULL;
	int loose = 0;

	if (slo_names_init(&nm, img) ||
	    !(first = malloc((img->nr_syms + 1) * sizeof(*first))) ||
	    !(next = malloc((img->nr_atoms + 1) * sizeof(*next)))) {
		fprintf(out, "/* out of memory */\n");
		free(first);
		slo_names_free(&nm);
		return;
	}
	/* Each entry's atoms in order, as lists: one pass, not one per
	 * entry. */
	for (size_t k = 0; k < img->nr_syms; k++)
		first[k] = -1;
	for (size_t i = img->nr_atoms; i-- > 0;) {
		long e = entry_index(&nm, i);

		next[i] = e >= 0 ? first[e] : -1;
		if (e >= 0)
			first[e] = (long)i;
	}
	fprintf(out, "digraph syslet {\n");
	if (img->source) {
		fprintf(out, "\tlabel=");
		put_quoted(out, img->source);
		fprintf(out, ";\n");
	}
	fprintf(out, "\tnode [shape=box, fontname=\"monospace\"];\n");
	for (size_t k = 0; k < img->nr_syms; k++) {
		const struct slo_symbol *s = &img->syms[k];

		if (s->kind != SLO_SYM_ENTRY)
			continue;
		fprintf(out, "\tsubgraph cluster%zu {\n\t\tlabel=", k);
		put_quoted(out, s->name);
		fprintf(out, ";\n\t\tentry%zu [shape=plaintext, label=", k);
		put_quoted(out, s->name);
		fprintf(out, "];\n");
		fprintf(out, "\t\tend%zu [shape=doublecircle, label=\"end\"];\n",
			k);
		for (long i = first[k]; i >= 0; i = next[i])
			atom_node(&nm, (size_t)i, out);
		fprintf(out, "\t}\n");
		fprintf(out, "\tentry%zu -> a%llu [style=bold];\n", k,
			(unsigned long long)(s->value / slo_atom_size(img)));
	}
	for (size_t i = 0; i < img->nr_atoms; i++) {
		if (entry_index(&nm, i) >= 0)
			continue;
		if (!loose++)
			fprintf(out, "\tend [shape=doublecircle, label=\"end\"];\n");
		atom_node(&nm, i, out);
	}
	for (size_t i = 0; i < img->nr_atoms; i++)
		atom_edges(&nm, i, out);
	fprintf(out, "}\n");
	free(first);
	free(next);
	slo_names_free(&nm);
}
