/* image.c: construction, word access and symbol lookup of the in-memory image model. */
#include <stdlib.h>
#include <string.h>

#include "image/image.h"

struct slo_image *slo_image_new(unsigned int word_size, int profile)
{
	struct slo_image *img;

	if (word_size != 4 && word_size != 8)
		return NULL;
	img = calloc(1, sizeof(*img));
	if (!img)
		return NULL;
	img->word_size = word_size;
	img->profile = profile;
	img->format_version = SLO_FORMAT_VERSION;
	return img;
}

uint64_t slo_section_max(enum slo_section s, unsigned int word_size)
{
	switch (s) {
	case SLO_SEC_ATOMS:
		return (uint64_t)SLO_MAX_ATOMS * 11 * word_size;
	case SLO_SEC_CELLS:
		return (uint64_t)SLO_MAX_CELLS * word_size;
	case SLO_SEC_RODATA:
		return SLO_MAX_RODATA;
	case SLO_SEC_BSS:
		return SLO_MAX_BSS;
	default:
		return 0;
	}
}

void slo_image_free(struct slo_image *img)
{
	if (!img)
		return;
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		free(img->data[s]);
	for (size_t i = 0; i < img->nr_syms; i++)
		free(img->syms[i].name);
	if (img->debug) {
		for (size_t i = 0; i < img->nr_atoms; i++) {
			free(img->debug[i].syscall);
			free(img->debug[i].text);
			for (int k = 0; k < SLO_DEBUG_NAMES; k++)
				free(img->debug[i].name[k]);
		}
	}
	free(img->debug);
	free(img->syms);
	free(img->relocs);
	free(img->source);
	free(img->prefix);
	free(img);
}

/* ASCII only, whatever the locale: the prefix ends up in C and ELF. */
static bool ident_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

bool slo_prefix_valid(const char *s)
{
	size_t n = 0;

	if (!s)
		return false;
	for (const char *p = s; *p; p++, n++)
		if (!ident_char(*p, p == s))
			return false;
	return n <= SLO_PREFIX_MAX;
}

char *slo_prefix_of_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n, k = 0;
	char *out;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (!n && *base == '.')	/* ".x.slo": the name after the dot */
		n = strcspn(++base, ".");
	if (n > SLO_PREFIX_MAX - 1)
		n = SLO_PREFIX_MAX - 1;
	out = malloc(n + 2);
	if (!out)
		return NULL;
	if (!n || !ident_char(base[0], true))
		out[k++] = '_';
	for (size_t i = 0; i < n; i++)
		out[k++] = ident_char(base[i], false) ? base[i] : '_';
	out[k] = 0;
	return out;
}

char *slo_prefixed_name(const struct slo_image *img, const char *name)
{
	const char *p = img->prefix ? img->prefix : "";
	size_t np = strlen(p), nn = strlen(name);
	char *out = malloc(np + nn + 2);

	if (!out)
		return NULL;
	if (np) {
		memcpy(out, p, np);
		out[np++] = '_';
	}
	memcpy(out + np, name, nn + 1);
	return out;
}

/* Out-of-range access reads as zero and writes nothing: callers check
 * bounds where it matters, and a stray offset must never corrupt memory. */
static uint8_t *word_ptr(const struct slo_image *img, enum slo_section s,
			 uint64_t offset)
{
	if ((unsigned)s >= SLO_NR_SECTIONS || s == SLO_SEC_BSS ||
	    !img->data[s] || offset > img->size[s] ||
	    img->size[s] - offset < img->word_size)
		return NULL;
	return img->data[s] + offset;
}

uint64_t slo_image_word(const struct slo_image *img, enum slo_section s,
			uint64_t offset)
{
	const uint8_t *p = word_ptr(img, s, offset);
	uint64_t v = 0;

	if (!p)
		return 0;
	for (unsigned int i = img->word_size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

void slo_image_set_word(struct slo_image *img, enum slo_section s,
			uint64_t offset, uint64_t value)
{
	uint8_t *p = word_ptr(img, s, offset);

	if (!p)
		return;
	for (unsigned int i = 0; i < img->word_size; i++, value >>= 8)
		p[i] = (uint8_t)value;
}

static int reloc_cmp_key(const struct slo_reloc *r, enum slo_section where,
			 uint64_t offset)
{
	if (r->where != where)
		return r->where < where ? -1 : 1;
	if (r->offset != offset)
		return r->offset < offset ? -1 : 1;
	return 0;
}

static int reloc_cmp(const void *a, const void *b)
{
	const struct slo_reloc *y = b;

	return reloc_cmp_key(a, y->where, y->offset);
}

void slo_image_sort_relocs(struct slo_image *img)
{
	if (img->nr_relocs > 1)
		qsort(img->relocs, img->nr_relocs, sizeof(*img->relocs),
		      reloc_cmp);
}

/* Bisects: the verifier asks once per pointer field of every atom. */
const struct slo_reloc *slo_image_reloc_at(const struct slo_image *img,
					   enum slo_section where,
					   uint64_t offset)
{
	size_t lo = 0, hi = img->nr_relocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = reloc_cmp_key(&img->relocs[mid], where, offset);

		if (!c)
			return &img->relocs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct slo_symbol *slo_image_find(const struct slo_image *img,
					const char *name, int kind)
{
	for (size_t i = 0; i < img->nr_syms; i++)
		if ((kind < 0 || img->syms[i].kind == (enum slo_sym_kind)kind) &&
		    !strcmp(img->syms[i].name, name))
			return &img->syms[i];
	return NULL;
}
