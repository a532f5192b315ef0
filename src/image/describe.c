/* describe.c: names for atoms, cells and flags, worked out from the image alone. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "common/callsig.h"
#include "common/consts.h"
#include "common/systab.h"
#include "syslet.h"

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

void slo_describe_flags(uint64_t flags, struct text_buf *t)
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
		text_buf_printf(t, "%s%s", any ? "|" : "", names[b]);
		any = 1;
	}
	if (flags & ~(uint64_t)SYSLET_FLAGS_MASK) {
		text_buf_printf(t, "%s%#" PRIx64, any ? "|" : "",
			     flags & ~(uint64_t)SYSLET_FLAGS_MASK);
		any = 1;
	}
	if (!any)
		text_buf_printf(t, "-");
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

/* Escapes go through a small buffer appended a chunk at a time: a
 * 60 MB data object took 10.6 s as one formatted append a byte. */
void slo_quote(const uint8_t *s, size_t n, struct text_buf *t)
{
	static const char hex[] = "0123456789abcdef";
	char buf[4096];
	size_t k = 0;

	text_buf_add(t, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = s[i];
		char *o;

		if (k > sizeof(buf) - 4) {
			text_buf_add(t, buf, k);
			k = 0;
		}
		o = buf + k;
		switch (c) {
		case '\n': o[0] = '\\'; o[1] = 'n'; k += 2; break;
		case '\t': o[0] = '\\'; o[1] = 't'; k += 2; break;
		case '\r': o[0] = '\\'; o[1] = 'r'; k += 2; break;
		case '"': o[0] = '\\'; o[1] = '"'; k += 2; break;
		case '\\': o[0] = '\\'; o[1] = '\\'; k += 2; break;
		case 0:
			/* "\0" then a digit would read as one octal escape. */
			if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
				memcpy(o, "\\x00", 4);
				k += 4;
			} else {
				o[0] = '\\';
				o[1] = '0';
				k += 2;
			}
			break;
		default:
			if (c < 0x20 || c >= 0x7f) {
				o[0] = '\\';
				o[1] = 'x';
				o[2] = hex[c >> 4];
				o[3] = hex[c & 15];
				k += 4;
			} else {
				o[0] = (char)c;
				k++;
			}
		}
	}
	text_buf_add(t, buf, k);
	text_buf_add(t, "\"", 1);
}

/* Signed value of a word; small numbers in decimal, large in hex. */
static void describe_value(const struct slo_image *img, uint64_t v,
			   struct text_buf *t)
{
	int64_t s = img->word_size == 4 ? (int64_t)(int32_t)(uint32_t)v
					: (int64_t)v;

	if (s >= -65536 && s <= 65536)
		text_buf_printf(t, "%" PRId64, s);
	else if (img->word_size == 4)
		text_buf_printf(t, "%#" PRIx32, (uint32_t)v);
	else
		text_buf_printf(t, "%#" PRIx64, v);
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

/*
 * The symbols of one section sorted by address, for "which symbol holds
 * this address" in O(log n): describe_target() wants, among the symbols
 * that hold off (value <= off < value + size, or value == off), the one
 * that starts last, and of those the first in symbol order.  Sorted by
 * (value, then symbol index descending), that is the rightmost position
 * at or before the last value <= off whose end lies past off; a max
 * segment tree over the ends finds it.
 */
struct slo_sym_index {
	size_t		n, leaves;
	size_t		*sym;		/* sorted position -> symbol index */
	uint64_t	*value;		/* its value */
	uint64_t	*tree;		/* 2 * leaves: max end over a range */
};

static const struct slo_image *sort_img;

static int by_value(const void *a, const void *b)
{
	const struct slo_symbol *s = sort_img->syms;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (s[x].value != s[y].value)
		return s[x].value < s[y].value ? -1 : 1;
	return x < y ? 1 : x > y ? -1 : 0;
}

static int sym_index_init(struct slo_sym_index *ix,
			  const struct slo_image *img, enum slo_section sec)
{
	size_t n = 0;

	memset(ix, 0, sizeof(*ix));
	for (size_t i = 0; i < img->nr_syms; i++)
		n += img->syms[i].section == sec;
	ix->sym = malloc((n + 1) * sizeof(*ix->sym));
	ix->value = malloc((n + 1) * sizeof(*ix->value));
	for (ix->leaves = 1; ix->leaves < n; ix->leaves *= 2)
		;
	ix->tree = calloc(2 * ix->leaves, sizeof(*ix->tree));
	if (!ix->sym || !ix->value || !ix->tree)
		return -1;
	for (size_t i = 0; i < img->nr_syms; i++)
		if (img->syms[i].section == sec)
			ix->sym[ix->n++] = i;
	sort_img = img;
	qsort(ix->sym, ix->n, sizeof(*ix->sym), by_value);
	for (size_t k = 0; k < ix->n; k++) {
		const struct slo_symbol *s = &img->syms[ix->sym[k]];
		uint64_t size = s->size ? s->size : 1;

		ix->value[k] = s->value;
		/* The end, saturated: a symbol of size 0 holds its value. */
		ix->tree[ix->leaves + k] = s->value > UINT64_MAX - size ?
					   UINT64_MAX : s->value + size;
	}
	for (size_t k = ix->leaves; k-- > 1;)
		ix->tree[k] = ix->tree[2 * k] > ix->tree[2 * k + 1] ?
			      ix->tree[2 * k] : ix->tree[2 * k + 1];
	return 0;
}

static void sym_index_free(struct slo_sym_index *ix)
{
	free(ix->sym);
	free(ix->value);
	free(ix->tree);
	memset(ix, 0, sizeof(*ix));
}

/* Rightmost leaf in [lo, hi) of node, at position <= p, whose end is
 * past off; -1 if none. */
static long rightmost(const struct slo_sym_index *ix, size_t node, size_t lo,
		      size_t hi, size_t p, uint64_t off)
{
	long r;

	if (lo > p || ix->tree[node] <= off)
		return -1;
	if (hi - lo == 1)
		return (long)lo;
	r = rightmost(ix, 2 * node + 1, lo + (hi - lo) / 2, hi, p, off);
	if (r >= 0)
		return r;
	return rightmost(ix, 2 * node, lo, lo + (hi - lo) / 2, p, off);
}

static const struct slo_symbol *holder(const struct slo_names *nm,
				       enum slo_section sec, uint64_t off)
{
	const struct slo_sym_index *ix = &nm->by_addr[sec];
	size_t lo = 0, hi = ix->n;
	long k;

	while (lo < hi) {		/* first value > off */
		size_t mid = lo + (hi - lo) / 2;

		if (ix->value[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	k = rightmost(ix, 1, 0, ix->leaves, lo - 1, off);
	return k < 0 ? NULL : &nm->img->syms[ix->sym[k]];
}

/* A string shown for an anonymous address into read-only data is at most
 * this long, and must end within SCAN bytes to count as one: a cell's
 * name costs a bounded time whatever the image holds. */
#define TARGET_QUOTE	256
#define TARGET_SCAN	4096

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

/*
 * The string an anonymous address into read-only data starts, if it is
 * one: a string literal is its bytes and a NUL up to where the next
 * object starts (NULs inside it count: they are shown); otherwise a C
 * string must end within TARGET_SCAN bytes.  *len: its bytes, without
 * the final NUL.  Bounded work per address whatever the image holds.
 */
static bool rodata_string(const struct slo_names *nm, uint64_t off,
			  uint64_t *len)
{
	const struct slo_image *img = nm->img;
	const uint8_t *p = img->data[SLO_SEC_RODATA];
	uint64_t end = ro_next(nm, off), scan;

	if (!p || off >= end)
		return false;
	if (p[end - 1] == 0) {
		*len = end - 1 - off;
		return true;
	}
	scan = end - off < TARGET_SCAN ? end - off : TARGET_SCAN;
	*len = strnlen((const char *)p + off, (size_t)scan);
	return *len < scan;
}

/* Where an address points, as the source would name the object. */
static void describe_target(const struct slo_names *nm, enum slo_section sec,
			    uint64_t off, struct text_buf *t)
{
	const struct slo_image *img = nm->img;
	const struct slo_symbol *best;
	uint64_t len;
	static const char *const secs[SLO_NR_SECTIONS] = {
		".syslet.atoms", ".syslet.cells", ".syslet.rodata", ".syslet.bss",
	};

	if (sec == SLO_SEC_CELLS && off % img->word_size == 0 &&
	    off / img->word_size < nm->nr_cells) {
		text_buf_printf(t, "&%s", nm->cell[off / img->word_size]);
		return;
	}
	best = (unsigned)sec < SLO_NR_SECTIONS ? holder(nm, sec, off) : NULL;
	if (best && best->value == off && sec != SLO_SEC_ATOMS) {
		text_buf_printf(t, "%s", best->name);
	} else if (best) {
		text_buf_printf(t, "%s%s+%" PRIu64, sec == SLO_SEC_ATOMS ? "&" : "",
			     best->name, off - best->value);
	} else if (sec == SLO_SEC_RODATA && off < img->size[sec] &&
		   rodata_string(nm, off, &len)) {
		const uint8_t *p = img->data[sec] + off;

		slo_quote(p, len < TARGET_QUOTE ? len : TARGET_QUOTE, t);
		if (len > TARGET_QUOTE)
			text_buf_printf(t, "...");
	} else {
		text_buf_printf(t, "%s+%" PRIu64, secs[sec], off);
	}
}

/* Each atom's entry: the first entry symbol, in symbol order, whose
 * range holds it.  Entries are painted over the atoms they hold in that
 * order, each atom once: a "next unpainted atom" forest skips the
 * painted runs, so overlapping entries in a hostile image cost no more. */
static int paint_entries(struct slo_names *nm)
{
	const struct slo_image *img = nm->img;
	uint64_t asz = slo_atom_size(img);
	size_t n = img->nr_atoms;
	size_t *next = malloc((n + 1) * sizeof(*next));

	for (size_t a = 0; a < n; a++)
		nm->entry_of[a] = -1;
	/* Else every atom listed as no entry's, its cells named in full
	 * (cat.fd), and nothing said. */
	if (!next)
		return -1;
	for (size_t a = 0; a <= n; a++)
		next[a] = a;
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];
		uint64_t lo, hi, end;

		if (s->kind != SLO_SYM_ENTRY)
			continue;
		end = s->value > UINT64_MAX - s->size ? UINT64_MAX
						      : s->value + s->size;
		lo = s->value / asz + (s->value % asz != 0);
		hi = end / asz + (end % asz != 0);
		if (s->value % asz == 0 && hi <= lo)
			hi = lo + 1;	/* an entry of size 0 holds its atom */
		if (lo >= n)
			continue;
		if (hi > n)
			hi = n;
		for (size_t a = (size_t)lo;;) {
			size_t r = a;

			while (next[r] != r)	/* find, halving the path */
				r = next[r] = next[next[r]];
			if (r >= hi)
				break;
			nm->entry_of[r] = (long)i;
			next[r] = r + 1;
			a = r + 1;
		}
	}
	free(next);
	return 0;
}

static int param_order(const void *a, const void *b)
{
	const struct slo_symbol *s = sort_img->syms;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (s[x].entry != s[y].entry)
		return s[x].entry < s[y].entry ? -1 : 1;
	if (s[x].param_index != s[y].param_index)
		return s[x].param_index < s[y].param_index ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int index_symbols(struct slo_names *nm)
{
	const struct slo_image *img = nm->img;
	uint64_t asz = slo_atom_size(img);
	size_t ns = img->nr_syms, np = 0, *params;

	nm->entry_of = malloc((img->nr_atoms + 1) * sizeof(long));
	nm->at_first = malloc((img->nr_atoms + 1) * sizeof(long));
	nm->at_next = malloc((ns + 1) * sizeof(long));
	nm->param_first = malloc((ns + 1) * sizeof(long));
	nm->param_next = malloc((ns + 1) * sizeof(long));
	nm->by_addr = calloc(SLO_NR_SECTIONS, sizeof(*nm->by_addr));
	params = malloc((ns + 1) * sizeof(*params));
	if (!nm->entry_of || !nm->at_first || !nm->at_next ||
	    !nm->param_first || !nm->param_next || !nm->by_addr || !params) {
		free(params);
		return -1;
	}
	if (paint_entries(nm)) {
		free(params);
		return -1;
	}
	for (size_t a = 0; a < img->nr_atoms; a++)
		nm->at_first[a] = -1;
	for (size_t i = ns; i-- > 0;) {
		const struct slo_symbol *s = &img->syms[i];

		nm->at_next[i] = nm->param_first[i] = nm->param_next[i] = -1;
		if (s->section == SLO_SEC_ATOMS && s->value % asz == 0 &&
		    s->value / asz < img->nr_atoms) {
			nm->at_next[i] = nm->at_first[s->value / asz];
			nm->at_first[s->value / asz] = (long)i;
		}
	}
	for (size_t i = 0; i < ns; i++)
		if (img->syms[i].kind == SLO_SYM_PARAM &&
		    img->syms[i].entry >= 0 && (size_t)img->syms[i].entry < ns)
			params[np++] = i;
	sort_img = img;
	qsort(params, np, sizeof(*params), param_order);
	for (size_t k = np; k-- > 0;) {
		size_t e = (size_t)img->syms[params[k]].entry;

		nm->param_next[params[k]] = nm->param_first[e];
		nm->param_first[e] = (long)params[k];
	}
	free(params);
	for (int sec = 0; sec < SLO_NR_SECTIONS; sec++)
		if (sym_index_init(&nm->by_addr[sec], img,
				   (enum slo_section)sec))
			return -1;
	return 0;
}

const struct slo_symbol *slo_names_entry_of(const struct slo_names *nm,
					    size_t atom)
{
	long e = atom < nm->img->nr_atoms ? nm->entry_of[atom] : -1;

	return e >= 0 ? &nm->img->syms[e] : NULL;
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
	    index_symbols(nm) || ro_starts(nm)) {
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
			struct text_buf t = { 0 };

			nm->ref[i] = r && r->target == SLO_SEC_CELLS &&
						     r->addend % img->word_size == 0 &&
						     r->addend / img->word_size < n
					     ? (long)(r->addend / img->word_size)
					     : -1;
			if (nm->sym[i]) {
				if (pass)
					continue;
				text_buf_printf(&t, "%s", nm->sym[i]->name);
			} else if (r) {
				if (!pass)
					continue;
				describe_target(nm, r->target, r->addend, &t);
			} else {
				if (pass)
					continue;
				if (nm->written[i])
					text_buf_printf(&t, "%%%zu", i);
				else
					describe_value(
						img,
						slo_image_word(img, SLO_SEC_CELLS, off),
						&t);
			}
			/* A name cut short is no name: the check below
			 * makes it "out of memory". */
			if (t.failed)
				text_buf_free(&t);
			else
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
	free(nm->entry_of);
	free(nm->at_first);
	free(nm->at_next);
	free(nm->param_first);
	free(nm->param_next);
	if (nm->by_addr)
		for (int sec = 0; sec < SLO_NR_SECTIONS; sec++)
			sym_index_free(&nm->by_addr[sec]);
	free(nm->by_addr);
	free(nm->ro_start);
	memset(nm, 0, sizeof(*nm));
}

void slo_describe_ptr(const struct slo_names *nm, size_t atom, int field,
		      const struct slo_symbol *entry, struct text_buf *t)
{
	const struct slo_image *img = nm->img;
	const struct slo_reloc *r = slo_image_reloc_at(
		img, SLO_SEC_ATOMS,
		atom * slo_atom_size(img) + (uint64_t)field * img->word_size);
	const char *name;

	if (!r) {
		text_buf_printf(t, "NULL");
		return;
	}
	/* The compiler's name for what the field reaches (fds[1], or
	 * &fds[1] for umem_add's pointer), when it gave one. */
	name = img->debug && field >= SLO_W_ARG0 ?
		       img->debug[atom].name[1 + field - SLO_W_ARG0] :
	       img->debug && field == SLO_W_RET ? img->debug[atom].name[0] :
						  NULL;
	if (name) {
		text_buf_printf(t, "%s", slo_short_name(name, entry));
		return;
	}
	if (r->target == SLO_SEC_CELLS && r->addend % img->word_size == 0 &&
	    r->addend / img->word_size < nm->nr_cells) {
		size_t c = r->addend / img->word_size;
		long ref = nm->ref[c];

		if (nm->sym[c])
			text_buf_printf(t, "%s", slo_short_name(nm->cell[c], entry));
		else if (ref >= 0 && nm->sym[ref])
			text_buf_printf(t, "&%s", slo_short_name(nm->cell[ref], entry));
		else
			text_buf_printf(t, "%s", nm->cell[c]);
		return;
	}
	text_buf_printf(t, "*");
	describe_target(nm, r->target, r->addend, t);
}

/* The number in the atom is the truth; the debug name only helps when
 * the table has no name for it ("umem_add", the trampoline's), and is
 * none when it only spells the number: "syscall", or the compiler's
 * "syscall_335" for syscall(335, ...), which is listed as written and as
 * the trace shows it. */
const char *slo_atom_syscall(const struct slo_image *img, size_t atom)
{
	uint64_t nr = slo_atom_word(img, atom, SLO_W_NR);
	const char *name = systab_name((enum systab_profile)img->profile,
				       (long)nr);
	char numbered[32];

	if (name)
		return name;
	if (!img->debug || !img->debug[atom].syscall)
		return NULL;
	name = img->debug[atom].syscall;
	snprintf(numbered, sizeof(numbered), "syscall_%" PRIu64, nr);
	if (!strcmp(name, "syscall") || !strcmp(name, numbered))
		return NULL;
	return name;
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
		       struct text_buf *t)
{
	int64_t vals[6];
	bool known[6];
	char name[512];
	const struct slo_image *img = nm->img;
	const struct slo_symbol *entry = slo_names_entry_of(nm, atom);
	const char *sys = slo_atom_syscall(img, atom);
	uint64_t base = atom * slo_atom_size(img);

	if (slo_image_reloc_at(img, SLO_SEC_ATOMS,
			       base + SLO_W_RET * img->word_size)) {
		slo_describe_ptr(nm, atom, SLO_W_RET, entry, t);
		text_buf_printf(t, " = ");
	}
	if (sys)
		text_buf_printf(t, "%s(", sys);
	else
		text_buf_printf(t, "syscall(%" PRIu64 "%s",
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
			text_buf_printf(t, ", ");
		/* A constant flag or enum is shown by its name, as the
		 * source spelled it (and as strace would). */
		if (known[a] && sysconst_describe(sys, (unsigned int)a,
						  vals[a], vals, known, name,
						  sizeof(name)))
			text_buf_printf(t, "%s", name);
		else if (known[a] && !vals[a] &&
			 callsig_pointer(sys, (unsigned int)a))
			/* write(1, NULL, 0): an address, as strace and the
			 * source write a null one. */
			text_buf_printf(t, "NULL");
		else
			slo_describe_ptr(nm, atom, SLO_W_ARG0 + a, entry, t);
	}
	text_buf_printf(t, ")");
}
