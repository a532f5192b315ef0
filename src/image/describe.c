/* describe.c: names for atoms, cells and flags, worked out from the image alone. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "common/consts.h"
#include "common/systab.h"
#include "syslet.h"

void slo_text_add(struct slo_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 64;
		char *s;

		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		s = realloc(t->s, cap);
		if (!s)
			return;
		t->s = s;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void slo_text_free(struct slo_text *t)
{
	free(t->s);
	t->s = NULL;
	t->len = t->cap = 0;
}

uint64_t slo_atom_size(const struct slo_image *img)
{
	return (uint64_t)SLO_ATOM_FIELDS * img->word_size;
}

uint64_t slo_atom_word(const struct slo_image *img, size_t atom, int field)
{
	return slo_image_word(img, SLO_SEC_ATOMS,
			      atom * slo_atom_size(img) +
				      (uint64_t)field * img->word_size);
}

long slo_atom_target(const struct slo_image *img, size_t atom, int field)
{
	const struct slo_reloc *r = slo_image_reloc_at(
		img, SLO_SEC_ATOMS,
		atom * slo_atom_size(img) + (uint64_t)field * img->word_size);

	if (!r || r->target != SLO_SEC_ATOMS)
		return -1;
	return (long)(r->addend / slo_atom_size(img));
}

const struct slo_symbol *slo_entry_of(const struct slo_image *img,
				      size_t atom)
{
	uint64_t off = atom * slo_atom_size(img);

	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->kind == SLO_SYM_ENTRY && s->value <= off &&
		    (off - s->value < s->size || s->value == off))
			return s;
	}
	return NULL;
}

const struct slo_symbol *slo_sym_at(const struct slo_image *img,
				    enum slo_section sec, uint64_t off,
				    int kind)
{
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->section == sec && s->value == off &&
		    (kind < 0 || s->kind == (enum slo_sym_kind)kind))
			return s;
	}
	return NULL;
}

void slo_describe_flags(uint64_t flags, struct slo_text *t)
{
	static const char *const names[] = {
		"async", "sync", "no-complete", "stop-on-nonzero",
		"stop-on-zero", "stop-on-negative", "stop-on-non-positive",
		"skip",
	};
	int any = 0;

	for (unsigned int b = 0; b < 8; b++) {
		if (!(flags & (1ULL << b)))
			continue;
		slo_text_add(t, "%s%s", any ? "|" : "", names[b]);
		any = 1;
	}
	if (flags & ~(uint64_t)SYSLET_FLAGS_MASK) {
		slo_text_add(t, "%s%#" PRIx64, any ? "|" : "",
			     flags & ~(uint64_t)SYSLET_FLAGS_MASK);
		any = 1;
	}
	if (!any)
		slo_text_add(t, "-");
}

const char *slo_param_type_name(enum slo_param_type t)
{
	return t == SLO_PARAM_STR ? "str" :
	       t == SLO_PARAM_SOCKADDR_IN ? "sockaddr_in" : "int";
}

const char *slo_role_name(enum slo_role r)
{
	static const char *const names[SLO_NR_ROLES] = {
		"call", "arith", "copy", "test", "trampoline", "stop",
	};

	return (unsigned)r < SLO_NR_ROLES ? names[r] : "?";
}

void slo_quote(const uint8_t *s, size_t n, struct slo_text *t)
{
	slo_text_add(t, "\"");
	for (size_t i = 0; i < n; i++) {
		uint8_t c = s[i];

		switch (c) {
		case '\n': slo_text_add(t, "\\n"); break;
		case '\t': slo_text_add(t, "\\t"); break;
		case '\r': slo_text_add(t, "\\r"); break;
		case '"': slo_text_add(t, "\\\""); break;
		case '\\': slo_text_add(t, "\\\\"); break;
		case 0:
			/* "\0" then a digit would read as one octal escape. */
			if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7')
				slo_text_add(t, "\\x00");
			else
				slo_text_add(t, "\\0");
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				slo_text_add(t, "\\x%02x", c);
			else
				slo_text_add(t, "%c", c);
		}
	}
	slo_text_add(t, "\"");
}

/* Signed value of a word; small numbers in decimal, large in hex. */
static void describe_value(const struct slo_image *img, uint64_t v,
			   struct slo_text *t)
{
	int64_t s = img->word_size == 4 ? (int64_t)(int32_t)(uint32_t)v
					: (int64_t)v;

	if (s >= -65536 && s <= 65536)
		slo_text_add(t, "%" PRId64, s);
	else if (img->word_size == 4)
		slo_text_add(t, "%#" PRIx32, (uint32_t)v);
	else
		slo_text_add(t, "%#" PRIx64, v);
}

const char *slo_short_name(const char *name, const struct slo_symbol *entry)
{
	size_t n;

	if (!entry)
		return name;
	n = strlen(entry->name);
	if (!strncmp(name, entry->name, n) && name[n] == '.' && name[n + 1])
		return name + n + 1;
	return name;
}

/* The first object start in .syslet.rodata after off, or its end. */
static uint64_t ro_next(const struct slo_names *nm, uint64_t off)
{
	size_t lo = 0, hi = nm->nr_ro_start;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (nm->ro_start[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nm->nr_ro_start ? nm->ro_start[lo]
				    : nm->img->size[SLO_SEC_RODATA];
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Object starts in .syslet.rodata: data symbols and every pointer into
 * the section (the compiler gives each string literal, and each
 * "literal" + k, an object of its own, so targets are starts). */
static int ro_starts(struct slo_names *nm)
{
	const struct slo_image *img = nm->img;
	size_t n = 0;

	nm->ro_start = malloc((img->nr_syms + img->nr_relocs + 1) *
			      sizeof(*nm->ro_start));
	if (!nm->ro_start)
		return -1;
	for (size_t i = 0; i < img->nr_syms; i++)
		if (img->syms[i].section == SLO_SEC_RODATA)
			nm->ro_start[n++] = img->syms[i].value;
	for (size_t i = 0; i < img->nr_relocs; i++)
		if (img->relocs[i].target == SLO_SEC_RODATA)
			nm->ro_start[n++] = img->relocs[i].addend;
	qsort(nm->ro_start, n, sizeof(*nm->ro_start), u64_cmp);
	nm->nr_ro_start = n;
	return 0;
}

/* Where an address points, as the source would name the object. */
static void describe_target(const struct slo_names *nm, enum slo_section sec,
			    uint64_t off, struct slo_text *t)
{
	const struct slo_image *img = nm->img;
	const struct slo_symbol *best = NULL;
	static const char *const secs[SLO_NR_SECTIONS] = {
		".syslet.atoms", ".syslet.cells", ".syslet.rodata", ".syslet.bss",
	};

	if (sec == SLO_SEC_CELLS && off % img->word_size == 0 &&
	    off / img->word_size < nm->nr_cells) {
		slo_text_add(t, "&%s", nm->cell[off / img->word_size]);
		return;
	}
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->section == sec && s->value <= off &&
		    (off - s->value < s->size || off == s->value) &&
		    (!best || s->value > best->value))
			best = s;
	}
	if (best && best->value == off && sec != SLO_SEC_ATOMS) {
		slo_text_add(t, "%s", best->name);
	} else if (best) {
		slo_text_add(t, "%s%s+%" PRIu64, sec == SLO_SEC_ATOMS ? "&" : "",
			     best->name, off - best->value);
	} else if (sec == SLO_SEC_RODATA && off < img->size[sec] &&
		   memchr(img->data[sec] + off, 0, img->size[sec] - off)) {
		const uint8_t *p = img->data[sec];
		uint64_t end = ro_next(nm, off);

		/* A string literal is its bytes and a NUL, up to where the
		 * next object starts: NULs inside it are shown too. */
		if (p[end - 1] == 0)
			slo_quote(p + off, (size_t)(end - 1 - off), t);
		else
			slo_quote(p + off, strnlen((const char *)p + off,
						   (size_t)(end - off)), t);
	} else {
		slo_text_add(t, "%s+%" PRIu64, secs[sec], off);
	}
}

int slo_names_init(struct slo_names *nm, const struct slo_image *img)
{
	size_t n = img->size[SLO_SEC_CELLS] / img->word_size;

	memset(nm, 0, sizeof(*nm));
	nm->img = img;
	nm->nr_cells = n;
	nm->cell = calloc(n + 1, sizeof(*nm->cell));
	nm->sym = calloc(n + 1, sizeof(*nm->sym));
	nm->written = calloc(n + 1, 1);
	nm->ref = malloc((n + 1) * sizeof(*nm->ref));
	if (!nm->cell || !nm->sym || !nm->written || !nm->ref ||
	    ro_starts(nm)) {
		slo_names_free(nm);
		return -1;
	}
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (s->section == SLO_SEC_CELLS && s->value % img->word_size == 0 &&
		    s->value / img->word_size < n && !nm->sym[s->value / img->word_size])
			nm->sym[s->value / img->word_size] = s;
	}
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];
		int is_ret = r->where == SLO_SEC_ATOMS &&
			     r->offset % slo_atom_size(img) ==
				     SLO_W_RET * img->word_size;

		/* Only results count: a constant read through &c stays one. */
		if (r->target == SLO_SEC_CELLS && r->addend % img->word_size == 0 &&
		    r->addend / img->word_size < n && is_ret)
			nm->written[r->addend / img->word_size] = 1;
	}
	/* Plain names first, so an address cell can name what it points at. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			uint64_t off = i * img->word_size;
			const struct slo_reloc *r =
				slo_image_reloc_at(img, SLO_SEC_CELLS, off);
			struct slo_text t = { 0 };

			nm->ref[i] = r && r->target == SLO_SEC_CELLS &&
						     r->addend % img->word_size == 0 &&
						     r->addend / img->word_size < n
					     ? (long)(r->addend / img->word_size)
					     : -1;
			if (nm->sym[i]) {
				if (pass)
					continue;
				slo_text_add(&t, "%s", nm->sym[i]->name);
			} else if (r) {
				if (!pass)
					continue;
				describe_target(nm, r->target, r->addend, &t);
			} else {
				if (pass)
					continue;
				if (nm->written[i])
					slo_text_add(&t, "%%%zu", i);
				else
					describe_value(
						img,
						slo_image_word(img, SLO_SEC_CELLS, off),
						&t);
			}
			nm->cell[i] = t.s ? t.s : strdup("?");
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!nm->cell[i]) {
			slo_names_free(nm);
			return -1;
		}
	return 0;
}

void slo_names_free(struct slo_names *nm)
{
	if (nm->cell)
		for (size_t i = 0; i < nm->nr_cells; i++)
			free(nm->cell[i]);
	free(nm->cell);
	free(nm->sym);
	free(nm->written);
	free(nm->ref);
	free(nm->ro_start);
	memset(nm, 0, sizeof(*nm));
}

void slo_describe_ptr(const struct slo_names *nm, size_t atom, int field,
		      const struct slo_symbol *entry, struct slo_text *t)
{
	const struct slo_image *img = nm->img;
	const struct slo_reloc *r = slo_image_reloc_at(
		img, SLO_SEC_ATOMS,
		atom * slo_atom_size(img) + (uint64_t)field * img->word_size);
	const char *name;

	if (!r) {
		slo_text_add(t, "NULL");
		return;
	}
	/* The compiler's name for what the field reaches (fds[1], or
	 * &fds[1] for umem_add's pointer), when it gave one. */
	name = img->debug && field >= SLO_W_ARG0 ?
		       img->debug[atom].name[1 + field - SLO_W_ARG0] :
	       img->debug && field == SLO_W_RET ? img->debug[atom].name[0] :
						  NULL;
	if (name) {
		slo_text_add(t, "%s", slo_short_name(name, entry));
		return;
	}
	if (r->target == SLO_SEC_CELLS && r->addend % img->word_size == 0 &&
	    r->addend / img->word_size < nm->nr_cells) {
		size_t c = r->addend / img->word_size;
		long ref = nm->ref[c];

		if (nm->sym[c])
			slo_text_add(t, "%s", slo_short_name(nm->cell[c], entry));
		else if (ref >= 0 && nm->sym[ref])
			slo_text_add(t, "&%s", slo_short_name(nm->cell[ref], entry));
		else
			slo_text_add(t, "%s", nm->cell[c]);
		return;
	}
	slo_text_add(t, "*");
	describe_target(nm, r->target, r->addend, t);
}

/* The number in the atom is the truth; the debug name only helps when
 * the table has no name for it. */
const char *slo_atom_syscall(const struct slo_image *img, size_t atom)
{
	const char *name = systab_name((enum systab_profile)img->profile,
				       (long)slo_atom_word(img, atom, SLO_W_NR));

	if (name)
		return name;
	if (img->debug && img->debug[atom].syscall &&
	    strcmp(img->debug[atom].syscall, "syscall"))
		return img->debug[atom].syscall;
	return NULL;
}

/* The values of an atom's arguments that are pooled constants. */
static void const_args(const struct slo_names *nm, size_t atom,
		       int64_t *vals, bool *known)
{
	const struct slo_image *img = nm->img;

	for (int a = 0; a < 6; a++) {
		const struct slo_reloc *r = slo_image_reloc_at(
			img, SLO_SEC_ATOMS,
			atom * slo_atom_size(img) +
				(uint64_t)(SLO_W_ARG0 + a) * img->word_size);
		size_t c;
		uint64_t v;

		known[a] = false;
		vals[a] = 0;
		if (!r || r->target != SLO_SEC_CELLS ||
		    r->addend % img->word_size ||
		    r->addend / img->word_size >= nm->nr_cells)
			continue;
		c = r->addend / img->word_size;
		/* A constant: no name, no pointer in it, no atom writes it. */
		if (nm->sym[c] || nm->written[c] ||
		    slo_image_reloc_at(img, SLO_SEC_CELLS, r->addend))
			continue;
		v = slo_image_word(img, SLO_SEC_CELLS, r->addend);
		vals[a] = img->word_size == 4 ? (int64_t)(int32_t)(uint32_t)v
					      : (int64_t)v;
		known[a] = true;
	}
}

void slo_describe_call(const struct slo_names *nm, size_t atom,
		       struct slo_text *t)
{
	int64_t vals[6];
	bool known[6];
	char name[128];
	const struct slo_image *img = nm->img;
	const struct slo_symbol *entry = slo_entry_of(img, atom);
	const char *sys = slo_atom_syscall(img, atom);
	uint64_t base = atom * slo_atom_size(img);

	if (slo_image_reloc_at(img, SLO_SEC_ATOMS,
			       base + SLO_W_RET * img->word_size)) {
		slo_describe_ptr(nm, atom, SLO_W_RET, entry, t);
		slo_text_add(t, " = ");
	}
	if (sys)
		slo_text_add(t, "%s(", sys);
	else
		slo_text_add(t, "syscall(%" PRIu64 "%s",
			     slo_atom_word(img, atom, SLO_W_NR),
			     slo_image_reloc_at(img, SLO_SEC_ATOMS,
						base + SLO_W_ARG0 * img->word_size)
				     ? ", " : "");
	/* Like the kernel, stop at the first NULL argument. */
	const_args(nm, atom, vals, known);
	for (int a = 0; a < 6; a++) {
		if (!slo_image_reloc_at(img, SLO_SEC_ATOMS,
					base + (uint64_t)(SLO_W_ARG0 + a) *
						       img->word_size))
			break;
		if (a)
			slo_text_add(t, ", ");
		/* A constant flag or enum is shown by its name, as the
		 * source spelled it (and as strace would). */
		if (known[a] && sysconst_describe(sys, (unsigned int)a,
						  vals[a], vals, known, name,
						  sizeof(name)))
			slo_text_add(t, "%s", name);
		else
			slo_describe_ptr(nm, atom, SLO_W_ARG0 + a, entry, t);
	}
	slo_text_add(t, ")");
}
