/* header.c: a C header declaring an image's entries, cells and objects (sysletc -H). */
#include <ctype.h>
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <stdlib.h>
#include <string.h>

#include "image/describe.h"
#include "common/hidx.h"
#include "common/systab.h"
#include "common/textbuf.h"

/*
 * Like `bpftool gen skeleton`: the program that links the .slo includes
 * this and reaches every symbol by a C name.  ELF names carry the image's
 * prefix and may hold dots (cat_cat.fd), so each declaration has an asm
 * label with the real name and a C name with the dots turned into "__"
 * (cat_cat__fd).  A C name that is a keyword, a macro of the standard
 * headers, a symbol of the C library (stdin, printf: with --prefix= an
 * entry may be named so), or that an earlier declaration took, is not
 * declared (a comment says so): the header always compiles, after
 * <stdio.h> too.  The members of the cells struct keep the source's
 * names: they live in the struct's own name space.
 */

struct names {
	char			**v;
	size_t			n, cap;
	struct common_hidx	index;	/* name -> v[], for linear time */
	int			members;	/* a struct's, not file scope */
};

static const char *const reserved[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while", "_Bool", "_Complex",
	"_Static_assert", "asm", "typeof", "bool", "true", "false", "class",
	"new", "delete", "this", "template", "namespace", "operator",
	"private", "public", "protected", "virtual", "main",
};

/*
 * Object-like macros of the standard headers a program including the
 * header is likely to have included first (<stdio.h>, <errno.h>,
 * <stdlib.h>, <stddef.h>, <limits.h>, <unistd.h>): a declaration or a
 * member so named is the macro's expansion, which does not compile
 * (errno is (*__errno_location ()), EOF is (-1)).  The language's own
 * constants (NULL, O_RDONLY, ENOENT, SEEK_SET...) cannot be names.
 */
static const char *const c_macros[] = {
	"errno", "EOF", "BUFSIZ", "FILENAME_MAX",
	"FOPEN_MAX", "L_tmpnam", "TMP_MAX", "L_ctermid", "P_tmpdir",
	"EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "MB_LEN_MAX",
	"CHAR_BIT", "CHAR_MAX", "CHAR_MIN", "INT_MAX", "INT_MIN", "LONG_MAX",
	"LONG_MIN", "UINT_MAX", "ULONG_MAX", "SHRT_MAX", "SHRT_MIN",
	"USHRT_MAX", "SCHAR_MAX", "SCHAR_MIN", "UCHAR_MAX", "SSIZE_MAX",
	"PATH_MAX", "NAME_MAX", "PIPE_BUF", "IOV_MAX", "STDIN_FILENO",
	"STDOUT_FILENO", "STDERR_FILENO", "F_OK", "R_OK", "W_OK", "X_OK",
};

static int c_macro(const char *c)
{
	for (size_t i = 0; i < sizeof(c_macros) / sizeof(*c_macros); i++)
		if (!strcmp(c, c_macros[i]))
			return 1;
	return 0;
}

int slo_libc_defines(const char *name)
{
	static void *libc;
	static int tried;

	/* Already mapped in every process that runs us: only looked up. */
	if (!tried) {
		libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
		tried = 1;
	}
	return libc && dlsym(libc, name);
}

/* 1 if c is new (and now taken), 0 if it was taken already. */
static int claim(struct names *nm, const char *c)
{
	for (size_t i = 0; i < sizeof(reserved) / sizeof(*reserved); i++)
		if (!strcmp(c, reserved[i]))
			return 0;
	if (c_macro(c) || (!nm->members && slo_libc_defines(c)))
		return 0;
	uint32_t h = common_hash_str(c);
	struct common_hidx_iter it;

	for (long i = common_hidx_first(&nm->index, h, &it); i >= 0;
	     i = common_hidx_next(&nm->index, &it))
		if (!strcmp(nm->v[i], c))
			return 0;
	if (nm->n == nm->cap) {
		size_t cap = nm->cap ? 2 * nm->cap : 32;
		char **v = realloc(nm->v, cap * sizeof(*v));

		if (!v)
			return 0;
		nm->v = v;
		nm->cap = cap;
	}
	nm->v[nm->n] = strdup(c);
	if (!nm->v[nm->n] || common_hidx_add(&nm->index, h, nm->n)) {
		free(nm->v[nm->n]);
		return 0;
	}
	nm->n++;
	return 1;
}

static void names_free(struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	common_hidx_free(&nm->index);
}

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

/* The C name of a symbol plus a suffix, in a buffer the caller frees. */
static char *c_name(const char *name, const char *suffix)
{
	struct text_buf t = { 0 };

	for (const char *p = name; *p; p++)
		if (*p == '.')
			text_buf_printf(&t, "__");
		else
			text_buf_printf(&t, "%c", *p);
	if (text_buf_printf(&t, "%s", suffix)) {
		text_buf_free(&t);
		return NULL;	/* never a name cut short */
	}
	return t.s;
}

/* A file or symbol name that can sit inside a C comment: a comment's
 * opening in one is a -Wcomment warning, an error with -Werror. */
static int commentable(const char *s)
{
	if (!s || strstr(s, "*/") || strstr(s, "/*"))
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return 0;
	return 1;
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

/*
 * The include guard: the guard's name, but for a header named as one of
 * libsyslet's own (syslet.h, libsyslet.h...), whose guard would hide
 * that header from a program that includes both, the generated one
 * first; such a guard gets _IMAGE after it.  The names the header
 * declares keep the guard's name as it is (SYSLET_H_PROFILE).
 */
static void print_include_guard(FILE *out, const char *guard)
{
	static const char *const ours[] = { "SYSLET_H", "LIBSYSLET_H",
					    "SYSLET_COMPAT_H", "SYSLET_NR_H" };

	print_guard(out, guard, 1);
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		const char *p = guard, *q = ours[i];

		for (; *p && *q; p++, q++)
			if ((isalnum((unsigned char)*p) ?
			     toupper((unsigned char)*p) : '_') != *q)
				break;
		if (!*p && !*q) {
			fputs("_IMAGE", out);
			return;
		}
	}
}

static void not_declared(FILE *out, const char *name, const char *what)
{
	fprintf(out, "/* %s: C name taken; %s not declared */\n", name, what);
}

/* One enumerator "<entry>__<what> = value," if its name is free. */
static void enumerator(struct names *nm, FILE *out, const char *entry,
		       const char *what, unsigned long long value,
		       const char *comment)
{
	char *c = c_name(entry, what);

	if (c && claim(nm, c)) {
		fprintf(out, "\t%s = %llu,", c, value);
		if (comment)
			fprintf(out, "\t/* %s */", comment);
		fprintf(out, "\n");
	} else {
		fprintf(out, "\t/* %s%s: name taken */\n", entry, what);
	}
	free(c);
}

/* Each entry's labels, in symbol order: lists built in one pass. */
struct label_lists {
	long	*first;		/* entry symbol -> its first label */
	long	*next;		/* label -> the entry's next one */
};

static int label_lists_init(struct label_lists *ll,
			    const struct slo_names *cn)
{
	const struct slo_image *img = cn->img;
	uint64_t asz = slo_atom_size(img);

	ll->first = malloc((img->nr_syms + 1) * sizeof(long));
	ll->next = malloc((img->nr_syms + 1) * sizeof(long));
	if (!ll->first || !ll->next)
		return -1;
	for (size_t i = 0; i < img->nr_syms; i++)
		ll->first[i] = ll->next[i] = -1;
	for (size_t i = img->nr_syms; i-- > 0;) {
		const struct slo_symbol *s = &img->syms[i];
		const struct slo_symbol *e;

		if (s->kind != SLO_SYM_LABEL)
			continue;
		e = slo_names_entry_of(cn, (size_t)(s->value / asz));
		if (!e)
			continue;
		ll->next[i] = ll->first[e - img->syms];
		ll->first[e - img->syms] = (long)i;
	}
	return 0;
}

static char *entry_decl(const struct slo_names *cn,
		       const struct label_lists *labels, size_t k,
		       struct names *nm, FILE *out)
{
	const struct slo_image *img = cn->img;
	const struct slo_symbol *e = &img->syms[k];
	uint64_t asz = slo_atom_size(img);
	unsigned long long atoms = e->size / asz;
	char *ename = slo_prefixed_name(img, e->name);
	char *c = ename ? c_name(ename, "") : NULL;
	int nparams = 0;
	char *declared = NULL;

	if (!ename) {
		fprintf(out, "#error \"sysletc: out of memory\"\n");
		free(c);
		return NULL;
	}
	fprintf(out, "\n/* syslet %s: %llu atom%s */\n", e->name, atoms,
		atoms == 1 ? "" : "s");
	if (c && claim(nm, c)) {
		fprintf(out, "extern struct syslet_uatom %s[%llu] __asm__(\"%s\");\n",
			c, atoms ? atoms : 1, ename);
		declared = c;
		c = NULL;
	} else {
		not_declared(out, ename, "entry");
	}
	free(c);
	fprintf(out, "enum {\n");
	enumerator(nm, out, ename, "__nr_atoms", atoms, NULL);
	/* Parameters by position (then symbol order), from the index. */
	for (long i = cn->param_first[k]; i >= 0; i = cn->param_next[i]) {
		const struct slo_symbol *s = &img->syms[i];
		int pi = s->param_index;
		char what[300];

		if (pi < 0 || pi >= 256)
			continue;
		/* Counted even where no C name can be given to it: the
		 * entry takes it all the same. */
		nparams++;
		if (!declarable(s->name))
			continue;
		snprintf(what, sizeof(what), "__param_%s",
			 slo_short_name(s->name, e));
		for (char *p = what; *p; p++)
			if (*p == '.')
				*p = '_';
		enumerator(nm, out, ename, what, (unsigned)pi,
			   s->param_type == SLO_PARAM_STR
				   ? "str: the cell holds a char *" :
			   s->param_type == SLO_PARAM_SOCKADDR_IN
				   ? "sockaddr_in: the cell holds a "
				     "struct sockaddr_in *"
				   : "int: the cell holds the number");
	}
	enumerator(nm, out, ename, "__nr_params", (unsigned)nparams, NULL);
	/* Its labels, in symbol order, from the lists made once. */
	for (long i = labels->first[k]; i >= 0; i = labels->next[i]) {
		const struct slo_symbol *s = &img->syms[i];
		char *lname;

		if (!declarable(s->name))
			continue;
		lname = slo_prefixed_name(img, s->name);
		if (lname)
			enumerator(nm, out, lname, "__atom",
				   (unsigned long long)((s->value - e->value) /
							asz),
				   "label: index of its atom in the entry");
		free(lname);
	}
	fprintf(out, "};\n");
	free(ename);
	return declared;
}

/*
 * Where NAME_h_cells_save() and _restore() find the block of cells once
 * linked: expr, a C expression of a pointer off bytes into the block.
 */
struct block_anchor {
	char			*expr;
	unsigned long long	off;	/* in cells */
};

/*
 * The anchor is the first cell declared, which need not be member [0]:
 * that one's C name may be taken, or it may be a constant's.
 */
static void cell_decls(const struct slo_names *cn, const char *guard,
		       struct names *nm, struct block_anchor *first,
		       FILE *out)
{
	const struct slo_image *img = cn->img;
	struct names members = { .members = 1 };

	fprintf(out, "\n/* Cells: one machine word each, in .syslet.cells. */\n");
	for (size_t i = 0; i < cn->nr_cells; i++) {
		const struct slo_symbol *s = cn->sym[i];
		char *c, *ename;

		if (!s || !declarable(s->name))
			continue;
		ename = slo_prefixed_name(img, s->name);
		c = ename ? c_name(ename, "") : NULL;
		if (c && claim(nm, c)) {
			if (!first->expr) {
				struct text_buf t = { 0 };

				if (!text_buf_printf(&t, "&%s", c)) {
					first->expr = t.s;
					first->off = i;
				} else {
					text_buf_free(&t);
				}
			}
			fprintf(out, "extern unsigned long %s __asm__(\"%s\");", c,
				ename);
			/* The entry's name as the image has it, which only
			 * a comment that cannot end early may hold. */
			if (s->kind == SLO_SYM_PARAM &&
			    commentable(img->syms[s->entry].name))
				fprintf(out, "\t/* parameter %d of %s */",
					s->param_index, img->syms[s->entry].name);
			else if (s->kind == SLO_SYM_PARAM)
				fprintf(out, "\t/* parameter %d */",
					s->param_index);
			fprintf(out, "\n");
		} else {
			not_declared(out, ename ? ename : s->name, "cell");
		}
		free(c);
		free(ename);
	}
	/* The whole section as a struct: its layout, for code that saves,
	 * restores or copies cells as a block. */
	fprintf(out, "\nstruct ");
	print_guard(out, guard, 0);
	fprintf(out, "_cells {\n");
	for (size_t i = 0; i < cn->nr_cells; i++) {
		const struct slo_symbol *s = cn->sym[i];
		char *c = s && declarable(s->name) ? c_name(s->name, "") : NULL;

		if (c && claim(&members, c)) {
			fprintf(out, "\tunsigned long %s;\t/* [%zu] */\n", c, i);
		} else {
			fprintf(out, "\tunsigned long cell%zu;\t/* [%zu]", i, i);
			if (commentable(cn->cell[i]))
				fprintf(out, " %s", cn->cell[i]);
			fprintf(out, " */\n");
		}
		free(c);
	}
	if (!cn->nr_cells)
		fprintf(out, "\tunsigned long none_;\n");
	fprintf(out, "};\n");
	names_free(&members);
}

/*
 * An image with cells but none declared (only constants and addresses,
 * or every name taken) still has atoms that point into the block: the
 * first pointer field of a declared entry that the linker made the
 * address of a cell anchors it, as long as the program leaves that
 * field as linked.
 */
static void atom_anchor(const struct slo_image *img, char *const *entry_c,
			struct block_anchor *a)
{
	uint64_t asz = slo_atom_size(img);

	for (size_t k = 0; k < img->nr_syms && !a->expr; k++) {
		const struct slo_symbol *e = &img->syms[k];

		if (!entry_c[k] || !asz)
			continue;
		for (uint64_t at = 0; at + asz <= e->size && !a->expr;
		     at += asz) {
			/* ret_ptr is word 2, arg_ptr[] words 4 to 9. */
			for (unsigned int f = 2; f < 10 && !a->expr; f++) {
				const struct slo_reloc *r = f == 3 ? NULL :
					slo_image_reloc_at(img, SLO_SEC_ATOMS,
							   e->value + at +
							   f * img->word_size);
				struct text_buf t = { 0 };
				int n;

				if (!r || r->target != SLO_SEC_CELLS ||
				    r->addend % img->word_size)
					continue;
				if (f == 2)
					n = text_buf_printf(&t, "%s[%llu].ret_ptr",
							    entry_c[k],
							    (unsigned long long)(at / asz));
				else
					n = text_buf_printf(&t, "%s[%llu].arg_ptr[%u]",
							    entry_c[k],
							    (unsigned long long)(at / asz),
							    f - 4);
				if (n) {
					text_buf_free(&t);
					continue;
				}
				a->expr = t.s;
				a->off = r->addend / img->word_size;
			}
		}
	}
}

/*
 * NAME_h_cells_save() and NAME_h_cells_restore(): the block of cells
 * copied as its struct, from the cell it starts at.  The compiler takes
 * each cell declared above for an object of one word, so a copy through
 * a cast of that cell's address warns (-Warray-bounds at -O2), and an
 * access of the block's size is one it deems unable to touch any cell:
 * a cell read after a restore gave the value from before it.  The empty
 * asm hides where the pointer came from, as the kernel's RELOC_HIDE()
 * does, and its memory clobbers make every cell be stored before the
 * copy and read again after it.  Declared last, so that they take no
 * name of the image's.
 */
static void block_fn(const char *guard, const struct block_anchor *first,
		     int restore, struct names *nm, FILE *out)
{
	const char *verb = restore ? "_cells_restore" : "_cells_save";
	size_t n = strlen(guard);
	char *fn = malloc(n + strlen(verb) + 1);

	if (!fn)
		return;
	for (size_t i = 0; i < n; i++)
		fn[i] = isalnum((unsigned char)guard[i]) ?
			tolower((unsigned char)guard[i]) : '_';
	strcpy(fn + n, verb);
	if (!claim(nm, fn)) {
		not_declared(out, fn, "function");
		free(fn);
		return;
	}
	fprintf(out, "static __inline__ void %s(%sstruct ", fn,
		restore ? "const " : "");
	print_guard(out, guard, 0);
	fprintf(out, "_cells *%s)\n{\n\t%sstruct ", restore ? "from" : "to",
		restore ? "" : "const ");
	print_guard(out, guard, 0);
	fprintf(out, "_cells *p;\n\n"
		     "\t__asm__ __volatile__(\"\" : \"=r\"(p) : \"0\"(%s) : \"memory\");\n",
		first->expr);
	/* Back from the anchor to the block's start, once the compiler no
	 * longer knows what p points into. */
	if (first->off) {
		fprintf(out, "\tp = (%sstruct ", restore ? "" : "const ");
		print_guard(out, guard, 0);
		fprintf(out, "_cells *)((%schar *)p - %llu * sizeof(unsigned long));\n",
			restore ? "" : "const ", first->off);
	}
	fprintf(out, "\t%s;\n"
		     "\t__asm__ __volatile__(\"\" : : : \"memory\");\n}\n",
		restore ? "*p = *from" : "*to = *p");
	free(fn);
}

static void block_decl(const char *guard, const struct block_anchor *first,
		       struct names *nm, FILE *out)
{
	if (!first->expr)
		return;
	fprintf(out, "\n/* The cells as one block: saved, and restored to run "
		     "from the same state. */\n");
	block_fn(guard, first, 0, nm, out);
	block_fn(guard, first, 1, nm, out);
}

static void object_decls(const struct slo_image *img, struct names *nm,
			 FILE *out)
{
	int any = 0;

	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];
		char *c, *ename;

		if ((s->kind != SLO_SYM_BUFFER && s->kind != SLO_SYM_DATA) ||
		    !declarable(s->name))
			continue;
		if (!any++)
			fprintf(out, "\n/* Buffers and data. */\n");
		ename = slo_prefixed_name(img, s->name);
		c = ename ? c_name(ename, "") : NULL;
		if (c && claim(nm, c))
			fprintf(out, "extern %sunsigned char %s[%llu] __asm__(\"%s\");\n",
				s->kind == SLO_SYM_DATA ? "const " : "", c,
				(unsigned long long)(s->size ? s->size : 1),
				ename);
		else
			not_declared(out, ename ? ename : s->name, "object");
		free(c);
		free(ename);
	}
}

void slo_image_header(const struct slo_image *img, const char *guard,
		      FILE *out)
{
	struct slo_names cn;
	struct label_lists labels = { 0 };
	struct names nm = { 0 };
	const char *prof = systab_profile_name((enum systab_profile)img->profile);
	struct block_anchor first = { 0 };
	char **entry_c = NULL;

	if (!guard || !*guard)
		guard = "SYSLET_IMAGE_H";
	if (slo_names_init(&cn, img) || label_lists_init(&labels, &cn) ||
	    !(entry_c = calloc(img->nr_syms + 1, sizeof(*entry_c)))) {
		fprintf(out, "#error \"sysletc: out of memory\"\n");
		free(labels.first);
		free(labels.next);
		slo_names_free(&cn);
		return;
	}
	fprintf(out, "/* Generated by sysletc%s%s: the symbols of a syslet image. Do not edit. */\n",
		commentable(img->source) ? " from " : "",
		commentable(img->source) ? img->source : "");
	fprintf(out, "#ifndef ");
	print_include_guard(out, guard);
	fprintf(out, "\n#define ");
	print_include_guard(out, guard);
	fprintf(out, "\n\n#include <syslet.h>\n\n");
	fprintf(out, "#define ");
	print_guard(out, guard, 1);
	fprintf(out, "_PROFILE \"%s\"\n", prof ? prof : "?");
	fprintf(out, "#define ");
	print_guard(out, guard, 1);
	fprintf(out, "_PREFIX \"%s\"\n", img->prefix ? img->prefix : "");
	fprintf(out, "#define ");
	print_guard(out, guard, 1);
	fprintf(out, "_NR_CELLS %zu\n", cn.nr_cells);
	fprintf(out, "#ifdef __cplusplus\n"
		     "static_assert(sizeof(unsigned long) == %u,\n"
		     "\t      \"this image is for %s: compile with -m%u\");\n"
		     "extern \"C\" {\n"
		     "#elif __STDC_VERSION__ >= 201112L\n"
		     "_Static_assert(sizeof(unsigned long) == %u,\n"
		     "\t       \"this image is for %s: compile with -m%u\");\n"
		     "#endif\n",
		img->word_size, prof ? prof : "?", img->word_size * 8,
		img->word_size, prof ? prof : "?", img->word_size * 8);
	for (size_t k = 0; k < img->nr_syms; k++)
		if (img->syms[k].kind == SLO_SYM_ENTRY &&
		    declarable(img->syms[k].name))
			entry_c[k] = entry_decl(&cn, &labels, k, &nm, out);
	cell_decls(&cn, guard, &nm, &first, out);
	if (!first.expr && cn.nr_cells)
		atom_anchor(img, entry_c, &first);
	object_decls(img, &nm, out);
	block_decl(guard, &first, &nm, out);
	free(first.expr);
	for (size_t k = 0; k < img->nr_syms; k++)
		free(entry_c[k]);
	free(entry_c);
	fprintf(out, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
	names_free(&nm);
	free(labels.first);
	free(labels.next);
	slo_names_free(&cn);
}
