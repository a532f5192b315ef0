/* elf-read.c: read a .slo ELF object into the image model, trusting nothing in it. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "image/elf-local.h"
#include "common/readfile.h"
#include "common/systab.h"

/* Far above anything sysletc writes, far below what would hurt; the
 * sizes of the syslet sections are those of slo-format.h. */
#define MAX_SECTIONS	256
#define MAX_ALIGN	(1ULL << 16)

enum { SEC_REL_ATOMS, SEC_REL_CELLS };

struct reader {
	Elf			*elf;
	uint8_t			*buf;
	size_t			len;
	unsigned int		w;
	size_t			shnum, shstrndx;
	size_t			sec[SLO_NR_SECTIONS];	/* ELF index, 0 if absent */
	size_t			symtab, strtab, note, debug, params;
	Elf_Data		*symdata;
	size_t			nsyms;
	size_t			nlocals;	/* .symtab's sh_info */
	size_t			*symmap;	/* ELF symbol -> model index */
	size_t			strsize;	/* .strtab's */
	size_t			names_left;	/* bytes of names still to copy */
	struct slo_image	*img;
	char			*err;
	size_t			errlen;
};

#define NO_SYM ((size_t)-1)

/*
 * sysletc's writer stores each name and each debug string once, so what
 * the reader copies out of a string table adds up to that table's size.
 * A crafted image can point every symbol or debug record at one long
 * string: 20,000 records naming a 340 KB string ask for 61 GB from a
 * 6 MB file.  The copies may take STR_SHARE times their table and a
 * little more (room for a linker that merges tails), no more: cost stays
 * linear in the file.
 */
#define STR_SHARE	4
#define STR_SLACK	65536

static size_t str_budget(size_t table)
{
	return table > (SIZE_MAX - STR_SLACK) / STR_SHARE ? SIZE_MAX :
	       table * STR_SHARE + STR_SLACK;
}

/* Take @n bytes of copies from *@left: false when that leaves none. */
static bool str_take(size_t *left, size_t n)
{
	if (n > *left)
		return false;
	*left -= n;
	return true;
}

#define bad(rd, ...) slo_elf_error((rd)->err, (rd)->errlen, __VA_ARGS__)

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t get_word(const uint8_t *p, unsigned int w)
{
	uint64_t v = 0;

	for (unsigned int i = w; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/*
 * Before libelf sees the buffer: identification, header and section
 * header table must be what an ET_REL object of ours can be, and lie
 * inside the buffer.
 */
static int check_header(struct reader *rd)
{
	const uint8_t *b = rd->buf;
	size_t ehsz, shentsz, phentsz;
	uint64_t shoff, phoff, entry;
	unsigned int shnum, shentsize, shstrndx, machine, type;
	unsigned int ehsize, phentsize, phnum;
	uint32_t version, flags;

	if (rd->len < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG))
		return bad(rd, "not an ELF file");
	if (b[EI_CLASS] == ELFCLASS32) {
		rd->w = 4;
		ehsz = sizeof(Elf32_Ehdr);
		shentsz = sizeof(Elf32_Shdr);
		phentsz = sizeof(Elf32_Phdr);
	} else if (b[EI_CLASS] == ELFCLASS64) {
		rd->w = 8;
		ehsz = sizeof(Elf64_Ehdr);
		shentsz = sizeof(Elf64_Shdr);
		phentsz = sizeof(Elf64_Phdr);
	} else {
		return bad(rd, "unknown ELF class %u", b[EI_CLASS]);
	}
	if (b[EI_DATA] != ELFDATA2LSB)
		return bad(rd, "not a little-endian ELF file");
	if (b[EI_VERSION] != EV_CURRENT)
		return bad(rd, "unknown ELF version %u", b[EI_VERSION]);
	if (rd->len < ehsz)
		return bad(rd, "truncated ELF header");
	type = get16(b + 16);
	machine = get16(b + 18);
	if (type != ET_REL)
		return bad(rd, "not a relocatable object (ELF type %u)", type);
	if (rd->w == 4 && machine != EM_386)
		return bad(rd, "wrong machine %u for a 32-bit image (want EM_386)",
			   machine);
	if (rd->w == 8 && machine != EM_X86_64)
		return bad(rd, "wrong machine %u for a 64-bit image (want EM_X86_64)",
			   machine);
	version = get32(b + 20);
	if (rd->w == 4) {
		entry = get32(b + 24);
		phoff = get32(b + 28);
		shoff = get32(b + 32);
		flags = get32(b + 36);
		ehsize = get16(b + 40);
		phentsize = get16(b + 42);
		phnum = get16(b + 44);
		shentsize = get16(b + 46);
		shnum = get16(b + 48);
		shstrndx = get16(b + 50);
	} else {
		entry = get_word(b + 24, 8);
		phoff = get_word(b + 32, 8);
		shoff = get_word(b + 40, 8);
		flags = get32(b + 48);
		ehsize = get16(b + 52);
		phentsize = get16(b + 54);
		phnum = get16(b + 56);
		shentsize = get16(b + 58);
		shnum = get16(b + 60);
		shstrndx = get16(b + 62);
	}
	/*
	 * What an x86 relocatable object holds, as sysletc, gcc -c and
	 * ld -r write it; libelf would take most of the rest as it comes.
	 * The identification's padding is left alone, as the gABI asks.
	 */
	if (b[EI_OSABI] != ELFOSABI_NONE && b[EI_OSABI] != ELFOSABI_GNU)
		return bad(rd, "ELF OS ABI %u, not System V (0) or GNU (3)",
			   b[EI_OSABI]);
	if (b[EI_ABIVERSION])
		return bad(rd, "ELF ABI version %u, not 0", b[EI_ABIVERSION]);
	if (version != EV_CURRENT)
		return bad(rd, "ELF version %u in the header, not %u", version,
			   EV_CURRENT);
	if (ehsize != ehsz)
		return bad(rd, "ELF header size %u, not the %zu of its class",
			   ehsize, ehsz);
	if (entry)
		return bad(rd, "entry point %#llx in a relocatable object",
			   (unsigned long long)entry);
	if (flags)
		return bad(rd, "ELF flags %#x, where this machine defines none",
			   flags);
	if (phnum || phoff)
		return bad(rd, "program headers in a relocatable object (%u at offset %llu)",
			   phnum, (unsigned long long)phoff);
	/* No program headers: 0 (as gcc and ld write) or the class's. */
	if (phentsize && phentsize != phentsz)
		return bad(rd, "program header size %u, not 0 or the %zu of its class",
			   phentsize, phentsz);
	if (shentsize != shentsz)
		return bad(rd, "bad section header size %u", shentsize);
	if (shnum < 2 || shnum > MAX_SECTIONS)
		return bad(rd, "bad number of sections %u", shnum);
	if (shoff > rd->len || (rd->len - shoff) / shentsz < shnum)
		return bad(rd, "truncated file: section headers past the end");
	if (shstrndx == SHN_UNDEF || shstrndx >= shnum)
		return bad(rd, "bad section name table index %u", shstrndx);
	/*
	 * Section 0 (SHN_UNDEF) is all zeros.  Only extended numbering
	 * stores anything there (the count in sh_size, the name table's
	 * index in sh_link, past 0xff00 sections), and an image has at
	 * most MAX_SECTIONS: a nonzero field is an image nothing wrote.
	 */
	for (size_t i = 0; i < shentsz; i++)
		if (b[shoff + i])
			return bad(rd, "section header 0 is not all zeros");
	rd->shnum = shnum;
	rd->shstrndx = shstrndx;
	return 0;
}

static int find_alloc_section(const char *name)
{
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		if (!strcmp(name, slo_elf_sec_names[s]))
			return s;
	return -1;
}

static int claim(struct reader *rd, size_t *slot, size_t i, const char *name)
{
	if (*slot)
		return bad(rd, "duplicate section %s", name);
	*slot = i;
	return 0;
}

/*
 * No two sections share bytes of the file, nor does one hold the ELF
 * header: sysletc and every linker lay them apart.  The reader copies
 * each section, so an overlap would load, but cells whose initial
 * values are the atoms' bytes, or a symbol table that is also a string
 * table, are an image nothing wrote; it is refused by name.
 */
static int check_overlaps(struct reader *rd)
{
	size_t ehsize = rd->w == 8 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	GElf_Shdr a, b;

	for (size_t i = 1; i < rd->shnum; i++)
		if (gelf_getshdr(elf_getscn(rd->elf, i), &a) &&
		    a.sh_type != SHT_NOBITS && a.sh_size &&
		    a.sh_offset < ehsize)
			return bad(rd, "section %s overlaps the ELF header",
				   elf_strptr(rd->elf, rd->shstrndx, a.sh_name));
	for (size_t i = 1; i < rd->shnum; i++) {
		if (!gelf_getshdr(elf_getscn(rd->elf, i), &a))
			return bad(rd, "section %zu: unreadable header", i);
		if (a.sh_type == SHT_NOBITS || !a.sh_size)
			continue;
		for (size_t j = i + 1; j < rd->shnum; j++) {
			if (!gelf_getshdr(elf_getscn(rd->elf, j), &b))
				return bad(rd, "section %zu: unreadable header",
					   j);
			if (b.sh_type == SHT_NOBITS || !b.sh_size ||
			    a.sh_offset >= b.sh_offset + b.sh_size ||
			    b.sh_offset >= a.sh_offset + a.sh_size)
				continue;
			return bad(rd, "sections %s and %s overlap in the file",
				   elf_strptr(rd->elf, rd->shstrndx, a.sh_name),
				   elf_strptr(rd->elf, rd->shstrndx, b.sh_name));
		}
	}
	return 0;
}

/* Name every section, check it lies in the file, and find ours. */
static int scan_sections(struct reader *rd)
{
	static const GElf_Xword want_flags[SLO_NR_SECTIONS] = {
		SHF_ALLOC | SHF_WRITE, SHF_ALLOC | SHF_WRITE, SHF_ALLOC,
		SHF_ALLOC | SHF_WRITE,
	};

	for (size_t i = 1; i < rd->shnum; i++) {
		Elf_Scn *scn = elf_getscn(rd->elf, i);
		GElf_Shdr sh;
		const char *name;
		int s;

		if (!scn || !gelf_getshdr(scn, &sh))
			return bad(rd, "section %zu: unreadable header", i);
		name = elf_strptr(rd->elf, rd->shstrndx, sh.sh_name);
		if (!name)
			return bad(rd, "section %zu: bad name", i);
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > rd->len || sh.sh_size > rd->len - sh.sh_offset))
			return bad(rd, "truncated file: section %s past the end",
				   name);
		if (sh.sh_addralign & (sh.sh_addralign - 1) ||
		    sh.sh_addralign > MAX_ALIGN)
			return bad(rd, "section %s: bad alignment", name);
		s = find_alloc_section(name);
		if (s >= 0) {
			GElf_Word type = s == SLO_SEC_BSS ? SHT_NOBITS : SHT_PROGBITS;

			if (sh.sh_type != type ||
			    (sh.sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR)) !=
				    want_flags[s])
				return bad(rd, "section %s: wrong type or flags", name);
			/* Before anything is allocated: .syslet.bss has a
			 * size and no bytes, so the file cannot bound it. */
			if (sh.sh_size > slo_section_max((enum slo_section)s,
							 rd->w))
				return bad(rd, "section %s holds %llu bytes, "
					   "more than the %llu an image may "
					   "hold", name,
					   (unsigned long long)sh.sh_size,
					   (unsigned long long)slo_section_max(
						   (enum slo_section)s, rd->w));
			if (claim(rd, &rd->sec[s], i, name))
				return -1;
			rd->img->align[s] = sh.sh_addralign;
		} else if (sh.sh_type == SHT_SYMTAB) {
			if (claim(rd, &rd->symtab, i, ".symtab"))
				return -1;
		} else if (!strcmp(name, SLO_SEC_NAME_NOTE)) {
			if (sh.sh_type != SHT_NOTE)
				return bad(rd, "section %s: not a note", name);
			if (claim(rd, &rd->note, i, name))
				return -1;
		} else if (!strcmp(name, SLO_SEC_NAME_DEBUG)) {
			if (claim(rd, &rd->debug, i, name))
				return -1;
		} else if (!strcmp(name, SLO_SEC_NAME_PARAMS)) {
			if (claim(rd, &rd->params, i, name))
				return -1;
		} else if (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_DYNAMIC) {
			return bad(rd, "section %s: not in a relocatable object",
				   name);
		}
	}
	if (!rd->note)
		return bad(rd, "not a syslet image (no %s section)",
			   SLO_SEC_NAME_NOTE);
	if (!rd->sec[SLO_SEC_ATOMS] || !rd->sec[SLO_SEC_CELLS])
		return bad(rd, "no %s or %s section", SLO_SEC_NAME_ATOMS,
			   SLO_SEC_NAME_CELLS);
	if (!rd->symtab)
		return bad(rd, "no symbol table");
	return check_overlaps(rd);
}

static Elf_Data *raw(struct reader *rd, size_t idx, size_t *size)
{
	Elf_Scn *scn = elf_getscn(rd->elf, idx);
	Elf_Data *d = scn ? elf_rawdata(scn, NULL) : NULL;

	*size = d ? d->d_size : 0;
	if (d && d->d_size && !d->d_buf)
		return NULL;
	return d;
}

/* Format 1 has no prefix; from 2 on the descriptor ends with it. */
static int read_prefix(struct reader *rd, uint32_t version,
		       const uint8_t *desc, uint32_t descsz)
{
	const char *pfx = (const char *)desc + sizeof(struct slo_note_abi);
	size_t room = descsz - sizeof(struct slo_note_abi);

	if (version < 2) {
		if (room)
			return bad(rd, "%s: ABI note of the wrong size",
				   SLO_SEC_NAME_NOTE);
		return 0;
	}
	if (!room || memchr(pfx, 0, room) != pfx + room - 1)
		return bad(rd, "%s: the symbol prefix is not one NUL-terminated string",
			   SLO_SEC_NAME_NOTE);
	if (!slo_prefix_valid(pfx))
		return bad(rd, "%s: the symbol prefix is not a C identifier of at most %d characters",
			   SLO_SEC_NAME_NOTE, SLO_PREFIX_MAX);
	if (*pfx) {
		rd->img->prefix = strdup(pfx);
		if (!rd->img->prefix)
			return bad(rd, "out of memory");
	}
	return 0;
}

/* The ABI note: which profile and word size the image was made for. */
static int read_note(struct reader *rd)
{
	size_t size, off = 0;
	Elf_Data *d = raw(rd, rd->note, &size);
	const uint8_t *p;

	if (!d)
		return bad(rd, "%s: unreadable", SLO_SEC_NAME_NOTE);
	p = d->d_buf;
	while (size - off >= 12) {
		uint32_t namesz = get32(p + off), descsz = get32(p + off + 4);
		uint32_t type = get32(p + off + 8);
		uint64_t nameal = ((uint64_t)namesz + 3) & ~3ULL;
		uint64_t descal = ((uint64_t)descsz + 3) & ~3ULL;
		const uint8_t *name = p + off + 12, *desc = name + nameal;
		char prof[17];
		int profile;
		uint32_t version;

		if (nameal > size - off - 12 || descal > size - off - 12 - nameal)
			return bad(rd, "%s: truncated note", SLO_SEC_NAME_NOTE);
		off += 12 + nameal + descal;
		if (namesz != sizeof(SLO_NOTE_OWNER) ||
		    memcmp(name, SLO_NOTE_OWNER, namesz) || type != SLO_NOTE_ABI)
			continue;
		if (descsz < sizeof(struct slo_note_abi))
			return bad(rd, "%s: ABI note of the wrong size",
				   SLO_SEC_NAME_NOTE);
		version = get32(desc);
		if (version < SLO_FORMAT_VERSION_MIN ||
		    version > SLO_FORMAT_VERSION)
			return bad(rd, "image format version %u, this reader knows %u to %u",
				   version, SLO_FORMAT_VERSION_MIN,
				   SLO_FORMAT_VERSION);
		if (read_prefix(rd, version, desc, descsz))
			return -1;
		memcpy(prof, desc + 8, 16);
		prof[16] = 0;
		profile = systab_profile_parse(prof);
		if (profile < 0)
			return bad(rd, "unknown ABI profile in image");
		if (get32(desc + 4) != rd->w ||
		    systab_word_size((enum systab_profile)profile) != rd->w)
			return bad(rd, "ABI profile %s does not match the ELF class",
				   prof);
		rd->img->word_size = rd->w;
		rd->img->profile = profile;
		rd->img->format_version = version;
		return 0;
	}
	return bad(rd, "%s: no syslet ABI note", SLO_SEC_NAME_NOTE);
}

static int read_alloc(struct reader *rd)
{
	struct slo_image *img = rd->img;
	uint64_t asz = (uint64_t)SLO_ATOM_WORDS * rd->w;

	for (int s = 0; s < SLO_NR_SECTIONS; s++) {
		size_t size;
		Elf_Data *d;
		GElf_Shdr sh;

		if (!rd->sec[s])
			continue;
		if (s == SLO_SEC_BSS) {
			if (!gelf_getshdr(elf_getscn(rd->elf, rd->sec[s]), &sh))
				return bad(rd, "%s: unreadable", slo_elf_sec_names[s]);
			img->size[s] = sh.sh_size;
			continue;
		}
		d = raw(rd, rd->sec[s], &size);
		if (!d)
			return bad(rd, "%s: unreadable", slo_elf_sec_names[s]);
		img->data[s] = malloc(size ? size : 1);
		if (!img->data[s])
			return bad(rd, "out of memory");
		if (size)
			memcpy(img->data[s], d->d_buf, size);
		img->size[s] = size;
	}
	if (img->size[SLO_SEC_ATOMS] % asz)
		return bad(rd, "%s is not a whole number of atoms",
			   SLO_SEC_NAME_ATOMS);
	if (img->size[SLO_SEC_CELLS] % rd->w)
		return bad(rd, "%s is not a whole number of cells",
			   SLO_SEC_NAME_CELLS);
	img->nr_atoms = img->size[SLO_SEC_ATOMS] / asz;
	return 0;
}

static int section_of(const struct reader *rd, size_t shndx)
{
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		if (rd->sec[s] && rd->sec[s] == shndx)
			return s;
	return -1;
}

static int open_symtab(struct reader *rd)
{
	Elf_Scn *scn = elf_getscn(rd->elf, rd->symtab);
	GElf_Shdr sh, strsh;
	size_t entsz = gelf_fsize(rd->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *sd;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_entsize != entsz ||
	    sh.sh_size % entsz)
		return bad(rd, ".symtab: bad entry size");
	if (sh.sh_link == 0 || sh.sh_link >= rd->shnum ||
	    !gelf_getshdr(elf_getscn(rd->elf, sh.sh_link), &strsh) ||
	    strsh.sh_type != SHT_STRTAB)
		return bad(rd, ".symtab: bad string table link");
	sd = raw(rd, sh.sh_link, &(size_t){ 0 });
	if (!sd || !strsh.sh_size ||
	    ((const char *)sd->d_buf)[strsh.sh_size - 1] != '\0')
		return bad(rd, ".strtab: not NUL-terminated");
	rd->strtab = sh.sh_link;
	rd->strsize = strsh.sh_size;
	rd->names_left = str_budget(strsh.sh_size);
	rd->symdata = elf_getdata(scn, NULL);
	if (!rd->symdata || rd->symdata->d_size != sh.sh_size)
		return bad(rd, ".symtab: unreadable");
	rd->nsyms = sh.sh_size / entsz;
	if (!rd->nsyms)
		return bad(rd, ".symtab: empty");
	/* The ELF rule: locals first, sh_info one past the last of them. */
	if (sh.sh_info > rd->nsyms)
		return bad(rd, ".symtab's sh_info %llu is past its %zu symbols",
			   (unsigned long long)sh.sh_info, rd->nsyms);
	rd->nlocals = sh.sh_info;
	/* Besides the image's own: the null, file and section symbols. */
	if (rd->nsyms > (size_t)SLO_MAX_SYMBOLS + 2 + MAX_SECTIONS)
		return bad(rd, ".symtab: %zu symbols, more than an image may "
			   "have", rd->nsyms);
	rd->symmap = malloc(rd->nsyms * sizeof(*rd->symmap));
	if (!rd->symmap)
		return bad(rd, "out of memory");
	return 0;
}

/* A linker takes the locals as sh_info says: one reason, naming the
 * first symbol on the wrong side of it. */
static int bad_local(struct reader *rd, size_t i, const char *name,
		     int local)
{
	/* Not yet checked as the image's own names are: shown only when
	 * printable. */
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e) {
			name = "";
			break;
		}
	if (!rd->nlocals)
		return bad(rd, "symbol %zu%s%s is local, but .symtab's sh_info says that it has no locals",
			   i, *name ? " " : "", name);
	return bad(rd, "symbol %zu%s%s is %slocal, but .symtab's sh_info says that its locals are symbols 0 to %zu",
		   i, *name ? " " : "", name, local ? "" : "not ",
		   rd->nlocals - 1);
}

static int read_symbols(struct reader *rd)
{
	struct slo_image *img = rd->img;

	if (open_symtab(rd))
		return -1;
	img->syms = calloc(rd->nsyms, sizeof(*img->syms));
	if (!img->syms)
		return bad(rd, "out of memory");
	for (size_t i = 0; i < rd->nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		int bind, type, s;
		struct slo_symbol *out;

		rd->symmap[i] = NO_SYM;
		if (!gelf_getsym(rd->symdata, (int)i, &sym))
			return bad(rd, "symbol %zu: unreadable", i);
		name = elf_strptr(rd->elf, rd->strtab, sym.st_name);
		if (!name)
			return bad(rd, "symbol %zu: bad name", i);
		bind = GELF_ST_BIND(sym.st_info);
		type = GELF_ST_TYPE(sym.st_info);
		if ((bind == STB_LOCAL) != (i < rd->nlocals))
			return bad_local(rd, i, name, bind == STB_LOCAL);
		if (i == 0 || type == STT_FILE)
			continue;
		/* sysletc writes identifiers, dots and underscores: a name
		 * is printed in messages, listings and traces. */
		for (const char *c = name; *c; c++)
			if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
				return bad(rd, "symbol %zu: a byte of its name is not printable ASCII",
					   i);
		if (sym.st_shndx == SHN_UNDEF)
			return bad(rd, "undefined symbol %s: images are self-contained",
				   name);
		s = sym.st_shndx < SHN_LORESERVE ? section_of(rd, sym.st_shndx) : -1;
		if (type == STT_SECTION)
			continue;
		if (s < 0) {
			if (bind == STB_LOCAL)
				continue;
			return bad(rd, "symbol %s is outside the syslet sections",
				   name);
		}
		if (!*name)
			return bad(rd, "symbol %zu has no name", i);
		if (type != STT_OBJECT && type != STT_NOTYPE)
			return bad(rd, "symbol %s: unexpected type %d", name, type);
		if (sym.st_value > img->size[s] ||
		    sym.st_size > img->size[s] - sym.st_value)
			return bad(rd, "symbol %s lies outside its section", name);
		if (bind == STB_LOCAL && s != SLO_SEC_ATOMS)
			continue;
		if (img->prefix) {
			size_t np = strlen(img->prefix);

			if (strncmp(name, img->prefix, np) || name[np] != '_' ||
			    !name[np + 1])
				return bad(rd, "symbol %s does not start with the image's prefix %s_",
					   name, img->prefix);
			name += np + 1;
		}
		out = &img->syms[img->nr_syms];
		if (!str_take(&rd->names_left, strlen(name) + 1))
			return bad(rd, ".strtab: the symbols' names would take more than %d times the table's %zu bytes (sysletc stores each once)",
				   STR_SHARE, rd->strsize);
		out->name = strdup(name);
		if (!out->name)
			return bad(rd, "out of memory");
		rd->symmap[i] = img->nr_syms++;
		out->section = (enum slo_section)s;
		out->value = sym.st_value;
		out->size = sym.st_size;
		out->entry = -1;
		out->param_index = -1;
		switch (s) {
		case SLO_SEC_ATOMS:
			out->kind = bind == STB_LOCAL ? SLO_SYM_LABEL : SLO_SYM_ENTRY;
			if (sym.st_value % ((uint64_t)SLO_ATOM_WORDS * rd->w))
				return bad(rd, "symbol %s is not at an atom", name);
			/* Its atoms are counted from its size (the listing's
			 * names, sysletc -H's NAME__nr_atoms). */
			if (out->kind == SLO_SYM_ENTRY &&
			    (!sym.st_size ||
			     sym.st_size % ((uint64_t)SLO_ATOM_WORDS * rd->w)))
				return bad(rd, "entry %s spans %llu bytes, not one or more whole atoms of %u",
					   name, (unsigned long long)sym.st_size,
					   SLO_ATOM_WORDS * rd->w);
			break;
		case SLO_SEC_CELLS:
			out->kind = SLO_SYM_VAR;
			if (sym.st_value % rd->w)
				return bad(rd, "symbol %s is not at a cell", name);
			/* A cell is one machine word: the ABI's arguments
			 * and results, syslet_inst__cell()'s unsigned long,
			 * the shell's print and set.  The language has no
			 * wider or narrower one. */
			if (sym.st_size != rd->w)
				return bad(rd, "cell %s spans %llu bytes, not one cell of %u",
					   name, (unsigned long long)sym.st_size,
					   rd->w);
			break;
		case SLO_SEC_BSS:
			out->kind = SLO_SYM_BUFFER;
			break;
		default:
			out->kind = SLO_SYM_DATA;
			break;
		}
	}
	return 0;
}

static int read_params(struct reader *rd)
{
	struct slo_image *img = rd->img;
	size_t size;
	Elf_Data *d;
	const uint8_t *p;

	if (!rd->params)
		return 0;
	d = raw(rd, rd->params, &size);
	if (!d || size % sizeof(struct slo_param_rec))
		return bad(rd, "%s: bad size", SLO_SEC_NAME_PARAMS);
	p = d->d_buf;
	for (size_t off = 0; off < size; off += sizeof(struct slo_param_rec)) {
		uint32_t sym = get32(p + off), entry = get32(p + off + 4);
		uint32_t index = get32(p + off + 8), type = get32(p + off + 12);
		struct slo_symbol *s;
		size_t e;

		/* Records name symbols by their index, which a relinking
		 * changes (ld -r puts its own section symbols first): say
		 * so, rather than only that an index is wrong. */
		if (sym >= rd->nsyms || rd->symmap[sym] == NO_SYM ||
		    entry >= rd->nsyms || rd->symmap[entry] == NO_SYM ||
		    img->syms[rd->symmap[sym]].kind != SLO_SYM_VAR ||
		    img->syms[rd->symmap[entry]].kind != SLO_SYM_ENTRY)
			return bad(rd, "%s: parameter record %zu names symbols "
				   "%u and %u, which are not a cell and its "
				   "syslet: the symbols were renumbered after "
				   "sysletc wrote the image (as ld -r does); "
				   "compile the source again",
				   SLO_SEC_NAME_PARAMS,
				   off / sizeof(struct slo_param_rec) + 1,
				   (unsigned)sym, (unsigned)entry);
		s = &img->syms[rd->symmap[sym]];
		e = rd->symmap[entry];
		if ((type != SLO_PARAM_INT && type != SLO_PARAM_STR &&
		     type != SLO_PARAM_SOCKADDR_IN) || index >= SLO_MAX_PARAMS)
			return bad(rd, "%s: parameter %s: bad type or position",
				   SLO_SEC_NAME_PARAMS, s->name);
		s->kind = SLO_SYM_PARAM;
		s->entry = (int)e;
		s->param_index = (int)index;
		s->param_type = (enum slo_param_type)type;
	}
	/* Each entry's parameters must be numbered 0..n-1 without repeats:
	 * slo_image_verify() checks that, sorting them, in O(n log n). */
	return 0;
}

static int read_one_rel(struct reader *rd, Elf_Data *d, size_t k, int rela,
			enum slo_section where, struct slo_reloc *out)
{
	struct slo_image *img = rd->img;
	GElf_Rela re;
	GElf_Rel rl;
	GElf_Sym sym;
	uint64_t symi, type, addend;
	int t;

	if (rela) {
		if (!gelf_getrela(d, (int)k, &re))
			return bad(rd, "relocation %zu: unreadable", k);
	} else {
		if (!gelf_getrel(d, (int)k, &rl))
			return bad(rd, "relocation %zu: unreadable", k);
		re.r_offset = rl.r_offset;
		re.r_info = rl.r_info;
		re.r_addend = 0;
	}
	symi = GELF_R_SYM(re.r_info);
	type = GELF_R_TYPE(re.r_info);
	if (type != (rd->w == 4 ? R_386_32 : R_X86_64_64))
		return bad(rd, "relocation %zu in %s: unsupported type %u", k,
			   slo_elf_sec_names[where], (unsigned)type);
	if (re.r_offset > img->size[where] ||
	    img->size[where] - re.r_offset < rd->w)
		return bad(rd, "relocation %zu in %s: offset out of range", k,
			   slo_elf_sec_names[where]);
	/* Every pointer of an atom or a cell is a whole word. */
	if (re.r_offset % rd->w)
		return bad(rd, "relocation %zu in %s: offset %#llx is not at a word",
			   k, slo_elf_sec_names[where],
			   (unsigned long long)re.r_offset);
	/*
	 * Of an atom's words only ret_ptr, next, arg_ptr[] and private are
	 * pointers; copy_uatom() reads flags and nr as they are, so a
	 * relocation there would run with an address where the model (and
	 * every check of it) holds zero.
	 */
	if (where == SLO_SEC_ATOMS) {
		uint64_t asz = (uint64_t)SLO_ATOM_WORDS * rd->w;
		uint64_t word = re.r_offset % asz / rd->w;

		if (word < 2)
			return bad(rd, "relocation %zu in %s: atom %llu's %s holds no pointer",
				   k, slo_elf_sec_names[where],
				   (unsigned long long)(re.r_offset / asz),
				   word ? "nr" : "flags");
	}
	if (symi == 0 || symi >= rd->nsyms ||
	    !gelf_getsym(rd->symdata, (int)symi, &sym))
		return bad(rd, "relocation %zu in %s: bad symbol", k,
			   slo_elf_sec_names[where]);
	t = sym.st_shndx < SHN_LORESERVE ? section_of(rd, sym.st_shndx) : -1;
	if (t < 0)
		return bad(rd, "relocation %zu in %s: target outside the image",
			   k, slo_elf_sec_names[where]);
	/* i386 keeps the addend in the field; the model keeps it aside. */
	addend = rela ? (uint64_t)re.r_addend
		      : get_word(img->data[where] + re.r_offset, rd->w);
	if (rela && re.r_addend < 0)
		return bad(rd, "relocation %zu in %s: negative addend", k,
			   slo_elf_sec_names[where]);
	if (sym.st_value > img->size[t] || addend > img->size[t] - sym.st_value)
		return bad(rd, "relocation %zu in %s: points outside %s", k,
			   slo_elf_sec_names[where], slo_elf_sec_names[t]);
	out->where = where;
	out->offset = re.r_offset;
	out->target = (enum slo_section)t;
	out->addend = sym.st_value + addend;
	return 0;
}

static int read_relocs(struct reader *rd)
{
	struct slo_image *img = rd->img;
	size_t cap = 0;

	for (size_t i = 1; i < rd->shnum; i++) {
		Elf_Scn *scn = elf_getscn(rd->elf, i);
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n, entsz;
		int where, rela;

		if (!gelf_getshdr(scn, &sh))
			return bad(rd, "section %zu: unreadable header", i);
		if (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA)
			continue;
		rela = sh.sh_type == SHT_RELA;
		if (rela != (rd->w == 8))
			return bad(rd, "section %zu: %s relocations on this machine",
				   i, rela ? "RELA" : "REL");
		if (sh.sh_link != rd->symtab)
			return bad(rd, "section %zu: relocations whose sh_link %u is not the symbol table (section %zu)",
				   i, (unsigned)sh.sh_link, rd->symtab);
		where = section_of(rd, sh.sh_info);
		if (where != SLO_SEC_ATOMS && where != SLO_SEC_CELLS)
			return bad(rd, "section %zu: relocations for a section that has no pointers",
				   i);
		entsz = gelf_fsize(rd->elf, rela ? ELF_T_RELA : ELF_T_REL, 1,
				   EV_CURRENT);
		if (sh.sh_entsize != entsz || sh.sh_size % entsz)
			return bad(rd, "section %zu: bad relocation entry size", i);
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / entsz;
		if (n && (!d || d->d_size != sh.sh_size))
			return bad(rd, "section %zu: unreadable", i);
		if (n > cap - img->nr_relocs) {
			struct slo_reloc *r;

			cap = img->nr_relocs + n;
			r = realloc(img->relocs, cap * sizeof(*r));
			if (!r)
				return bad(rd, "out of memory");
			img->relocs = r;
		}
		for (size_t k = 0; k < n; k++)
			if (read_one_rel(rd, d, k, rela, (enum slo_section)where,
					 &img->relocs[img->nr_relocs++]))
				return -1;
	}
	slo_image_sort_relocs(img);
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];

		if (i && r->where == r[-1].where && r->offset == r[-1].offset)
			return bad(rd, "two relocations of %s+%#llx",
				   slo_elf_sec_names[r->where],
				   (unsigned long long)r->offset);
	}
	/* The model holds pointer fields as zero and the target aside. */
	for (size_t i = 0; i < img->nr_relocs; i++)
		slo_image_set_word(img, img->relocs[i].where,
				   img->relocs[i].offset, 0);
	return 0;
}

/* Debug strings, what can go wrong with them: an offset past the table,
 * copies past the budget (str_budget()), no memory. */
enum { DBG_OK, DBG_RANGE, DBG_SHARED, DBG_NOMEM };

static char *debug_str(const uint8_t *tab, uint32_t size, uint32_t off,
		       size_t *left, int *ok)
{
	char *s;

	if (!off || *ok != DBG_OK)
		return NULL;
	if (off >= size) {
		*ok = DBG_RANGE;
		return NULL;
	}
	if (!str_take(left, strlen((const char *)tab + off) + 1)) {
		*ok = DBG_SHARED;
		return NULL;
	}
	s = strdup((const char *)tab + off);
	if (!s)
		*ok = DBG_NOMEM;
	/* As sysletc stores them: no byte a terminal would take for a
	 * command reaches one through a trace or a stop message. */
	for (char *c = s; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return s;
}

static int read_debug(struct reader *rd)
{
	struct slo_image *img = rd->img;
	size_t size, hdr = sizeof(struct slo_debug_hdr);
	size_t rec = sizeof(struct slo_debug_rec);
	const uint8_t *p, *tab;
	uint32_t nr, strsz, version;
	Elf_Data *d;
	size_t left;
	int ok = DBG_OK;

	if (!rd->debug)
		return 0;
	d = raw(rd, rd->debug, &size);
	if (!d || size < hdr)
		return bad(rd, "%s: truncated", SLO_SEC_NAME_DEBUG);
	p = d->d_buf;
	nr = get32(p + 4);
	strsz = get32(p + 8);
	/* Formats 1 and 2 wrote 20-byte records; 3 added the names. */
	version = get32(p);
	if (version >= SLO_FORMAT_VERSION_MIN && version < SLO_DEBUG_VERSION)
		rec = SLO_DEBUG_REC_V1;
	else if (version != SLO_DEBUG_VERSION)
		return bad(rd, "%s: unknown version %u", SLO_SEC_NAME_DEBUG,
			   version);
	if (nr != img->nr_atoms)
		return bad(rd, "%s: %u records for %zu atoms", SLO_SEC_NAME_DEBUG,
			   nr, img->nr_atoms);
	if ((size - hdr) / rec < nr || size - hdr - nr * rec != strsz)
		return bad(rd, "%s: sizes do not add up", SLO_SEC_NAME_DEBUG);
	tab = p + hdr + nr * rec;
	if (!strsz || tab[0] || tab[strsz - 1])
		return bad(rd, "%s: bad string table", SLO_SEC_NAME_DEBUG);
	left = str_budget(strsz);
	img->source = debug_str(tab, strsz, get32(p + 12), &left, &ok);
	img->debug = calloc(nr ? nr : 1, sizeof(*img->debug));
	if (!img->debug)
		return bad(rd, "out of memory");
	for (uint32_t i = 0; i < nr && ok == DBG_OK; i++) {
		const uint8_t *q = p + hdr + (size_t)i * rec;
		struct slo_debug *dr = &img->debug[i];

		dr->line = get32(q);
		dr->col = get32(q + 4);
		if (get32(q + 8) >= SLO_NR_ROLES)
			return bad(rd, "%s: atom %u: unknown role",
				   SLO_SEC_NAME_DEBUG, i);
		dr->role = (enum slo_role)get32(q + 8);
		dr->syscall = debug_str(tab, strsz, get32(q + 12), &left,
					&ok);
		dr->text = debug_str(tab, strsz, get32(q + 16), &left, &ok);
		for (int k = 0; version == SLO_DEBUG_VERSION &&
				k < SLO_DEBUG_NAMES; k++)
			dr->name[k] = debug_str(tab, strsz,
						get32(q + 20 + 4 * k), &left,
						&ok);
	}
	if (ok == DBG_RANGE)
		return bad(rd, "%s: string offset out of range",
			   SLO_SEC_NAME_DEBUG);
	if (ok == DBG_SHARED)
		return bad(rd, "%s: the records' strings would take more than %d times the table's %u bytes (sysletc stores each once)",
			   SLO_SEC_NAME_DEBUG, STR_SHARE, strsz);
	if (ok == DBG_NOMEM)
		return bad(rd, "out of memory");
	return 0;
}

struct first_problem {
	char	*err;
	size_t	errlen;
	int	seen;
};

static void note_problem(void *ctx, size_t atom, const char *msg)
{
	struct first_problem *fp = ctx;

	if (fp->seen++)
		return;
	if (atom == (size_t)-1)
		slo_elf_error(fp->err, fp->errlen, "%s", msg);
	else
		slo_elf_error(fp->err, fp->errlen, "atom %zu: %s", atom, msg);
}

struct slo_image *slo_image_read_mem(const void *buf, size_t len, char *err,
				     size_t errlen)
{
	struct reader rd = { .len = len, .err = err, .errlen = errlen };
	struct first_problem fp = { err, errlen, 0 };
	int rc = -1;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		bad(&rd, "libelf is too old");
		return NULL;
	}
	/* A file is held to the limit as it is read; a buffer, before it
	 * is copied (it may be as large as the caller's memory). */
	if (len > COMMON_MAX_IMAGE) {
		common_read_too_large(err, errlen, COMMON_MAX_IMAGE);
		return NULL;
	}
	/* libelf may write to a private buffer; the caller's stays intact. */
	rd.buf = malloc(len ? len : 1);
	rd.img = slo_image_new(8, SYSTAB_X86_64);
	if (!rd.buf || !rd.img) {
		bad(&rd, "out of memory");
		goto out;
	}
	if (len)
		memcpy(rd.buf, buf, len);
	if (check_header(&rd))
		goto out;
	errno = 0;
	rd.elf = elf_memory((char *)rd.buf, len);
	if (!rd.elf) {
		/* check_header() found an ELF header: libelf refused what
		 * is past it, or had no memory for its descriptor (malloc
		 * said ENOMEM; libelf names no error of its own for it),
		 * which is no verdict on the file. */
		if (errno == ENOMEM)
			bad(&rd, "out of memory");
		else
			bad(&rd, "not an ELF file: %s", elf_errmsg(-1));
		goto out;
	}
	if (elf_kind(rd.elf) != ELF_K_ELF) {
		bad(&rd, "not an ELF file: %s", elf_errmsg(-1));
		goto out;
	}
	if (scan_sections(&rd) || read_note(&rd) || read_alloc(&rd) ||
	    read_symbols(&rd) || read_params(&rd) || read_relocs(&rd) ||
	    read_debug(&rd))
		goto out;
	if (slo_image_verify(rd.img, note_problem, &fp))
		goto out;
	rc = 0;
out:
	if (rd.elf)
		elf_end(rd.elf);
	free(rd.buf);
	free(rd.symmap);
	if (rc) {
		slo_image_free(rd.img);
		return NULL;
	}
	return rd.img;
}

struct slo_image *slo_image_read_file(const char *path, char *err,
				      size_t errlen)
{
	struct slo_image *img;
	size_t len;
	char *buf;

	/* A path is a path here: "-" is not the caller's standard input. */
	if (common_read_input(COMMON_PATH_NOT_STDIN(path), COMMON_ELF, &buf,
			      &len, NULL, err, errlen))
		return NULL;
	img = slo_image_read_mem(buf, len, err, errlen);
	free(buf);
	return img;
}
