/* craft.c: make images no sysletc writes, from one it wrote: every string of the debug records, or every symbol's name, is one long string, so that a small file names megabytes many times; or two sections share their bytes; or a symbol takes another's name; or a relocation moves onto another field of its atom, or an address cell's onto another section; or .symtab's sh_info, a section's sh_link, a symbol's size, a field of the ELF header or of section header 0, changes; and say what libsyslet's two openers make of a file. */
#define _GNU_SOURCE
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/slo-format.h"
#include "libsyslet.h"

/*
 * craft debug IN OUT: the strings of .syslet.debug's table become one,
 * and the source, syscall, text and name offsets of every record name
 * it.
 * craft symbols IN OUT: every .symtab entry of an object or an atom
 * names the longest string of .strtab.
 * craft overlap IN OUT: .syslet.cells' file data starts where
 * .syslet.atoms' does.
 * craft rename IN OUT OLD NEW: the symbol named OLD in .strtab is named
 * NEW, of the same length (with the image's prefix: two_mbin).
 * craft shinfo IN OUT N: .symtab's sh_info (one past its last local
 * symbol) becomes N.
 * craft shlink IN OUT SECTION N: SECTION's sh_link becomes N.
 * craft symsize IN OUT NAME N: the symbol NAME's st_size becomes N.
 * craft reloc IN OUT K FIELD: relocation K of .rela.syslet.atoms moves
 * onto FIELD (flags, nr, ret_ptr, next, arg0..arg5, private, or a number
 * of bytes into the atom) of the atom it was in; the field it leaves keeps
 * its bytes (0 as sysletc writes).
 * craft cellreloc IN OUT K SECTION ADDEND: relocation K of
 * .rela.syslet.cells (an address cell) points at SECTION + ADDEND,
 * through SECTION's section symbol: an address sysletc never writes,
 * as that of an atom's own field.
 * craft header IN OUT FIELD N: a field of the ELF header (osabi,
 * abiversion, version, entry, phoff, flags, ehsize, phentsize, phnum,
 * shentsize) or of section header 0 (sh0.name, sh0.type, sh0.flags,
 * sh0.addr, sh0.offset, sh0.size, sh0.link, sh0.info, sh0.addralign,
 * sh0.entsize) becomes N; of a 32-bit image too.
 * Sizes and layout stay as they were: only offsets change, so that the
 * file is as small as sysletc wrote it.  64-bit images only, but for
 * craft header.
 *
 * craft open IN: open IN with syslet_obj__open_file() and its bytes with
 * syslet_obj__open_mem(), and print what each said, "file: ok" or
 * "file: REASON", then "mem: ...": both must judge the same bytes alike.
 */

static unsigned char *img;
static size_t len;

static void die(const char *msg)
{
	fprintf(stderr, "craft: %s\n", msg);
	exit(99);
}

static const Elf64_Shdr *shdr(size_t i)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;

	if (eh->e_shoff + (i + 1) * sizeof(Elf64_Shdr) > len)
		die("section header outside the file");
	return (const Elf64_Shdr *)(img + eh->e_shoff) + i;
}

static const Elf64_Shdr *section(const char *name)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *names = shdr(eh->e_shstrndx);

	for (size_t i = 1; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = shdr(i);

		if (!strcmp((const char *)img + names->sh_offset + sh->sh_name,
			    name))
			return sh;
	}
	die("no such section");
	return NULL;
}

/* The offset of the longest NUL-terminated string in @tab. */
static uint32_t longest(const char *tab, size_t size)
{
	uint32_t best = 0;
	size_t best_len = 0;

	for (size_t off = 0; off < size; off += strlen(tab + off) + 1)
		if (strlen(tab + off) > best_len) {
			best_len = strlen(tab + off);
			best = (uint32_t)off;
		}
	if (!best_len)
		die("no string to repeat");
	return best;
}

static void craft_debug(void)
{
	const Elf64_Shdr *sh = section(SLO_SEC_NAME_DEBUG);
	unsigned char *p = img + sh->sh_offset;
	struct slo_debug_hdr h;
	size_t rec = sizeof(struct slo_debug_rec);
	uint32_t to;
	char *tab;

	memcpy(&h, p, sizeof(h));
	if (h.version != SLO_DEBUG_VERSION)
		die("not a version-3 debug section");
	/* sysletc cuts the texts it stores: the table's strings all made
	 * one, from offset 1 to its last NUL. */
	tab = (char *)p + sizeof(h) + h.nr_atoms * rec;
	for (uint32_t i = 1; i + 1 < h.strtab_size; i++)
		if (!tab[i])
			tab[i] = 'x';
	to = 1;
	memcpy(p + offsetof(struct slo_debug_hdr, source), &to, 4);
	for (uint32_t i = 0; i < h.nr_atoms; i++) {
		unsigned char *q = p + sizeof(h) + i * rec;

		memcpy(q + offsetof(struct slo_debug_rec, syscall), &to, 4);
		memcpy(q + offsetof(struct slo_debug_rec, text), &to, 4);
		for (int k = 0; k < SLO_DEBUG_NAMES; k++)
			memcpy(q + offsetof(struct slo_debug_rec, name) + 4 * k,
			       &to, 4);
	}
}

static void craft_symbols(void)
{
	const Elf64_Shdr *sym = section(".symtab");
	const Elf64_Shdr *str = shdr(sym->sh_link);
	uint32_t to = longest((const char *)img + str->sh_offset,
			      str->sh_size);
	Elf64_Sym *s = (Elf64_Sym *)(img + sym->sh_offset);

	for (size_t i = 1; i < sym->sh_size / sizeof(*s); i++)
		if (ELF64_ST_TYPE(s[i].st_info) == STT_OBJECT ||
		    ELF64_ST_TYPE(s[i].st_info) == STT_NOTYPE)
			s[i].st_name = to;
}

static void craft_overlap(void)
{
	Elf64_Shdr *cells = (Elf64_Shdr *)section(".syslet.cells");

	cells->sh_offset = section(".syslet.atoms")->sh_offset;
}

static const char *const atom_fields[] = {
	"flags", "nr", "ret_ptr", "next", "arg0", "arg1", "arg2", "arg3",
	"arg4", "arg5", "private",
};

static void craft_reloc(const char *k, const char *field)
{
	const Elf64_Shdr *rs = section(".rela.syslet.atoms");
	uint64_t asz = sizeof(atom_fields) / sizeof(atom_fields[0]) * 8;
	size_t n = rs->sh_size / sizeof(Elf64_Rela), f;
	char *end;
	unsigned long i;
	Elf64_Rela *r;
	uint64_t at;

	for (f = 0; f < asz / 8; f++)
		if (!strcmp(field, atom_fields[f]))
			break;
	/* A number: that many bytes into the atom. */
	at = f < asz / 8 ? f * 8 : strtoull(field, &end, 0);
	if (f == asz / 8 && (!*field || *end || at >= asz))
		die("reloc: no such field");
	i = strtoul(k, &end, 10);
	if (!*k || *end || i >= n || rs->sh_offset + rs->sh_size > len)
		die("reloc: no such relocation");
	r = (Elf64_Rela *)(img + rs->sh_offset) + i;
	r->r_offset = r->r_offset / asz * asz + at;
}

static void craft_shinfo(const char *n)
{
	Elf64_Shdr *sym = (Elf64_Shdr *)section(".symtab");
	char *end;
	unsigned long v = strtoul(n, &end, 0);

	if (!*n || *end || v > UINT32_MAX)
		die("shinfo: not a 32-bit number");
	sym->sh_info = (uint32_t)v;
}

static void craft_shlink(const char *name, const char *n)
{
	Elf64_Shdr *sh = (Elf64_Shdr *)section(name);
	char *end;
	unsigned long v = strtoul(n, &end, 0);

	if (!*n || *end || v > UINT32_MAX)
		die("shlink: not a 32-bit number");
	sh->sh_link = (uint32_t)v;
}

static void craft_symsize(const char *name, const char *n)
{
	const Elf64_Shdr *sym = section(".symtab");
	const Elf64_Shdr *str = shdr(sym->sh_link);
	Elf64_Sym *s = (Elf64_Sym *)(img + sym->sh_offset);
	char *end;
	unsigned long long v = strtoull(n, &end, 0);

	if (!*n || *end)
		die("symsize: not a number");
	for (size_t i = 1; i < sym->sh_size / sizeof(*s); i++)
		if (s[i].st_name < str->sh_size &&
		    !strcmp((const char *)img + str->sh_offset + s[i].st_name,
			    name)) {
			s[i].st_size = v;
			return;
		}
	die("symsize: no such symbol");
}

static void craft_cellreloc(const char *k, const char *to, const char *add)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *rs = section(".rela.syslet.cells");
	const Elf64_Shdr *sym = section(".symtab");
	const Elf64_Shdr *names = shdr(eh->e_shstrndx);
	const Elf64_Sym *s = (const Elf64_Sym *)(img + sym->sh_offset);
	size_t n = rs->sh_size / sizeof(Elf64_Rela), target = 0, symi;
	char *end;
	unsigned long i = strtoul(k, &end, 10);
	long long addend;
	Elf64_Rela *r;

	if (!*k || *end || i >= n || rs->sh_offset + rs->sh_size > len)
		die("cellreloc: no such relocation");
	addend = strtoll(add, &end, 0);
	if (!*add || *end)
		die("cellreloc: not a number");
	for (size_t j = 1; j < eh->e_shnum; j++)
		if (!strcmp((const char *)img + names->sh_offset +
			    shdr(j)->sh_name, to))
			target = j;
	for (symi = 1; target && symi < sym->sh_size / sizeof(*s); symi++)
		if (ELF64_ST_TYPE(s[symi].st_info) == STT_SECTION &&
		    s[symi].st_shndx == target)
			break;
	if (!target || symi == sym->sh_size / sizeof(*s))
		die("cellreloc: no such section, or no symbol for it");
	r = (Elf64_Rela *)(img + rs->sh_offset) + i;
	r->r_info = ELF64_R_INFO(symi, ELF64_R_TYPE(r->r_info));
	r->r_addend = addend;
}

/* Offset and width of each field in Elf32 and in Elf64 headers. */
static const struct {
	const char *name;
	unsigned char off32, len32, off64, len64;
} header_fields[] = {
	{ "osabi", EI_OSABI, 1, EI_OSABI, 1 },
	{ "abiversion", EI_ABIVERSION, 1, EI_ABIVERSION, 1 },
	{ "version", 20, 4, 20, 4 },
	{ "entry", 24, 4, 24, 8 },
	{ "phoff", 28, 4, 32, 8 },
	{ "flags", 36, 4, 48, 4 },
	{ "ehsize", 40, 2, 52, 2 },
	{ "phentsize", 42, 2, 54, 2 },
	{ "phnum", 44, 2, 56, 2 },
	{ "shentsize", 46, 2, 58, 2 },
	{ "sh0.name", 0, 4, 0, 4 },
	{ "sh0.type", 4, 4, 4, 4 },
	{ "sh0.flags", 8, 4, 8, 8 },
	{ "sh0.addr", 12, 4, 16, 8 },
	{ "sh0.offset", 16, 4, 24, 8 },
	{ "sh0.size", 20, 4, 32, 8 },
	{ "sh0.link", 24, 4, 40, 4 },
	{ "sh0.info", 28, 4, 44, 4 },
	{ "sh0.addralign", 32, 4, 48, 8 },
	{ "sh0.entsize", 36, 4, 56, 8 },
};

static void craft_header(const char *field, const char *n)
{
	int is64 = img[EI_CLASS] == ELFCLASS64;
	unsigned long long v;
	uint64_t base = 0;
	unsigned int off, w;
	char *end;
	size_t f;

	for (f = 0; f < sizeof(header_fields) / sizeof(*header_fields); f++)
		if (!strcmp(field, header_fields[f].name))
			break;
	if (f == sizeof(header_fields) / sizeof(*header_fields))
		die("header: no such field");
	v = strtoull(n, &end, 0);
	if (!*n || *end)
		die("header: not a number");
	off = is64 ? header_fields[f].off64 : header_fields[f].off32;
	w = is64 ? header_fields[f].len64 : header_fields[f].len32;
	if (w < 8 && v >> (8 * w))
		die("header: the number does not fit the field");
	if (!strncmp(field, "sh0.", 4)) {
		for (unsigned int i = is64 ? 8 : 4; i-- > 0;)
			base = base << 8 | img[(is64 ? 40 : 32) + i];
		if (base > len || len - base < (is64 ? sizeof(Elf64_Shdr) :
						 sizeof(Elf32_Shdr)))
			die("header: section header 0 outside the file");
	}
	for (unsigned int i = 0; i < w; i++, v >>= 8)
		img[base + off + i] = (unsigned char)v;
}

static void open_both(const char *path)
{
	struct syslet_obj *obj;
	char err[512];

	obj = syslet_obj__open_file(path, err, sizeof(err));
	printf("file: %s\n", obj ? "ok" : err);
	syslet_obj__close(obj);
	obj = syslet_obj__open_mem(img, len, err, sizeof(err));
	printf("mem: %s\n", obj ? "ok" : err);
	syslet_obj__close(obj);
}

/* OLD's bytes in .strtab become NEW's, of the same length. */
static void craft_rename(const char *old, const char *new)
{
	const Elf64_Shdr *st = section(".strtab");
	const char *tab = (const char *)img + st->sh_offset;
	size_t n = strlen(old);

	if (strlen(new) != n || st->sh_offset + st->sh_size > len)
		die("rename: names of different lengths, or no .strtab");
	for (size_t off = 0; off < st->sh_size; off += strlen(tab + off) + 1)
		if (!strcmp(tab + off, old)) {
			memcpy(img + st->sh_offset + off, new, n);
			return;
		}
	die("rename: no such name in .strtab");
}

int main(int argc, char **argv)
{
	FILE *f;
	long n;

	if (argc == 3 && !strcmp(argv[1], "open")) {
		f = fopen(argv[2], "rb");
		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET))
			die("cannot read the image");
		len = (size_t)n;
		img = malloc(len + 1);
		if (!img || fread(img, 1, len, f) != len)
			die("cannot read the image");
		fclose(f);
		open_both(argv[2]);
		free(img);
		return 0;
	}
	if (!((argc == 4 && (!strcmp(argv[1], "debug") ||
			     !strcmp(argv[1], "symbols") ||
			     !strcmp(argv[1], "overlap"))) ||
	      (argc == 5 && !strcmp(argv[1], "shinfo")) ||
	      (argc == 7 && !strcmp(argv[1], "cellreloc")) ||
	      (argc == 6 && (!strcmp(argv[1], "rename") ||
			     !strcmp(argv[1], "reloc") ||
			     !strcmp(argv[1], "shlink") ||
			     !strcmp(argv[1], "header") ||
			     !strcmp(argv[1], "symsize")))))
		die("usage: craft debug|symbols|overlap IN OUT, "
		    "craft rename IN OUT OLD NEW, craft reloc IN OUT K FIELD, "
		    "craft shinfo IN OUT N, craft shlink IN OUT SECTION N, "
		    "craft symsize IN OUT NAME N, "
		    "craft header IN OUT FIELD N, "
		    "craft cellreloc IN OUT K SECTION ADDEND, or craft open IN");
	f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot read the image");
	len = (size_t)n;
	img = malloc(len);
	if (!img || fread(img, 1, len, f) != len ||
	    len < sizeof(Elf64_Ehdr) || (img[EI_CLASS] != ELFCLASS64 &&
					 (img[EI_CLASS] != ELFCLASS32 ||
					  strcmp(argv[1], "header"))))
		die("cannot read a 64-bit image");
	fclose(f);
	if (!strcmp(argv[1], "header"))
		craft_header(argv[4], argv[5]);
	else if (!strcmp(argv[1], "cellreloc"))
		craft_cellreloc(argv[4], argv[5], argv[6]);
	else if (!strcmp(argv[1], "debug"))
		craft_debug();
	else if (!strcmp(argv[1], "overlap"))
		craft_overlap();
	else if (!strcmp(argv[1], "rename"))
		craft_rename(argv[4], argv[5]);
	else if (!strcmp(argv[1], "symsize"))
		craft_symsize(argv[4], argv[5]);
	else if (!strcmp(argv[1], "shinfo"))
		craft_shinfo(argv[4]);
	else if (!strcmp(argv[1], "shlink"))
		craft_shlink(argv[4], argv[5]);
	else if (!strcmp(argv[1], "reloc"))
		craft_reloc(argv[4], argv[5]);
	else
		craft_symbols();
	f = fopen(argv[3], "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f))
		die("cannot write the image");
	free(img);
	return 0;
}
