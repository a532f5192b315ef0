/* elf-write.c: write the image model as an ELF relocatable object with libelf. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "image/elf-local.h"
#include "common/systab.h"
#include "common/textbuf.h"

const char *const slo_elf_sec_names[SLO_NR_SECTIONS] = {
	[SLO_SEC_ATOMS] = SLO_SEC_NAME_ATOMS,
	[SLO_SEC_CELLS] = SLO_SEC_NAME_CELLS,
	[SLO_SEC_RODATA] = SLO_SEC_NAME_RODATA,
	[SLO_SEC_BSS] = SLO_SEC_NAME_BSS,
};

int slo_elf_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		/* A section's name from a hostile file, say, is printed. */
		for (char *c = err; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
	}
	return -1;
}

/* A string table is a text buffer of NUL-ended names: a name's offset
 * stays valid as the buffer moves; a failed table is refused whole. */
static uint32_t strbuf_add(struct text_buf *b, const char *s)
{
	size_t off = b->len;

	return text_buf_add(b, s, strlen(s) + 1) ? 0 : (uint32_t)off;
}

#define MAX_BUFS 16

struct writer {
	const struct slo_image	*img;
	Elf			*elf;
	struct text_buf		shstr, str;
	void			*bufs[MAX_BUFS];
	int			nbufs;
	size_t			symtab;		/* section index of .symtab */
	size_t			*elfidx;	/* model symbol -> symtab index */
	char			*err;
	size_t			errlen;
	int			write_errno;	/* the file's, when writing failed */
};

/* Buffers handed to libelf must live until elf_update(). */
static void *keep(struct writer *wr, size_t n)
{
	void *p;

	if (wr->nbufs == MAX_BUFS)
		return NULL;
	p = calloc(1, n ? n : 1);
	if (p)
		wr->bufs[wr->nbufs++] = p;
	return p;
}

static Elf_Scn *add_section(struct writer *wr, const char *name,
			    GElf_Word type, GElf_Xword flags, GElf_Xword align,
			    void *buf, size_t size, Elf_Type dtype)
{
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;

	/*
	 * elfutils' elf_newscn() returns the new section even when it
	 * found no memory for its header (ELF_E_NOMEM set, the header
	 * NULL), and elf_newdata() on it then crashed sysletc: the error
	 * it sets is asked, cleared first.
	 */
	(void)elf_errno();
	scn = elf_newscn(wr->elf);
	if (!scn || elf_errno() != 0 || !(d = elf_newdata(scn)) ||
	    !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align;
	d->d_off = 0;
	d->d_version = EV_CURRENT;
	sh.sh_name = strbuf_add(&wr->shstr, name);
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	if (dtype != ELF_T_BYTE)
		sh.sh_entsize = gelf_fsize(wr->elf, dtype, 1, EV_CURRENT);
	if (!gelf_update_shdr(scn, &sh))
		return NULL;
	return scn;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static void put_word(uint8_t *p, unsigned int w, uint64_t v)
{
	for (unsigned int i = 0; i < w; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static enum slo_section sym_section(enum slo_sym_kind k)
{
	switch (k) {
	case SLO_SYM_ENTRY:
	case SLO_SYM_LABEL:
		return SLO_SEC_ATOMS;
	case SLO_SYM_VAR:
	case SLO_SYM_PARAM:
		return SLO_SEC_CELLS;
	case SLO_SYM_BUFFER:
		return SLO_SEC_BSS;
	case SLO_SYM_DATA:
		return SLO_SEC_RODATA;
	}
	return SLO_NR_SECTIONS;
}

/* Reject a model that would make a broken object, before writing. */
static int check_model(struct writer *wr)
{
	const struct slo_image *img = wr->img;
	uint64_t asz = (uint64_t)SLO_ATOM_WORDS * img->word_size;

	if ((unsigned)img->profile >= SYSTAB_NR_PROFILES ||
	    systab_word_size((enum systab_profile)img->profile) != img->word_size)
		return slo_elf_error(wr->err, wr->errlen,
				     "image word size does not match its profile");
	if (img->size[SLO_SEC_ATOMS] % asz ||
	    img->size[SLO_SEC_ATOMS] / asz != img->nr_atoms)
		return slo_elf_error(wr->err, wr->errlen,
				     ".syslet.atoms is not a whole number of atoms");
	if (img->prefix && !slo_prefix_valid(img->prefix))
		return slo_elf_error(wr->err, wr->errlen,
				     "the symbol prefix is not a C identifier of at most %d characters",
				     SLO_PREFIX_MAX);
	for (int s = 0; s < SLO_SEC_BSS; s++)
		if (img->size[s] && !img->data[s])
			return slo_elf_error(wr->err, wr->errlen,
					     "section %s has no contents",
					     slo_elf_sec_names[s]);
	for (int s = 0; s < SLO_NR_SECTIONS; s++)
		if (img->align[s] & (img->align[s] - 1))
			return slo_elf_error(wr->err, wr->errlen,
					     "section %s: alignment is not a power of two",
					     slo_elf_sec_names[s]);
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];

		if ((r->where != SLO_SEC_ATOMS && r->where != SLO_SEC_CELLS) ||
		    r->offset % img->word_size ||
		    r->offset > img->size[r->where] - img->word_size ||
		    img->size[r->where] < img->word_size ||
		    (unsigned)r->target >= SLO_NR_SECTIONS ||
		    r->addend > img->size[r->target] ||
		    (img->word_size == 4 && r->addend > UINT32_MAX))
			return slo_elf_error(wr->err, wr->errlen,
					     "relocation %zu is out of range", i);
		if (i && img->relocs[i - 1].where == r->where &&
		    img->relocs[i - 1].offset >= r->offset)
			return slo_elf_error(wr->err, wr->errlen,
					     "relocations are not sorted");
	}
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];

		if (!s->name || !*s->name || s->section != sym_section(s->kind) ||
		    s->value > img->size[s->section] ||
		    s->size > img->size[s->section] - s->value)
			return slo_elf_error(wr->err, wr->errlen,
					     "symbol %s is out of range",
					     s->name ? s->name : "(null)");
		if (s->kind == SLO_SYM_PARAM &&
		    (s->entry < 0 || (size_t)s->entry >= img->nr_syms ||
		     img->syms[s->entry].kind != SLO_SYM_ENTRY))
			return slo_elf_error(wr->err, wr->errlen,
					     "parameter %s has no entry", s->name);
	}
	return 0;
}

static uint64_t sec_align(const struct slo_image *img, int s)
{
	return img->align[s] ? img->align[s] : img->word_size;
}

/* The four allocated sections, indexes 1..4 in enum order; on i386 the
 * addends go in place, so the bytes differ from the model's. */
static int add_alloc_sections(struct writer *wr)
{
	const struct slo_image *img = wr->img;
	static const GElf_Xword flags[SLO_NR_SECTIONS] = {
		SHF_ALLOC | SHF_WRITE, SHF_ALLOC | SHF_WRITE, SHF_ALLOC,
		SHF_ALLOC | SHF_WRITE,
	};

	for (int s = 0; s < SLO_NR_SECTIONS; s++) {
		uint8_t *buf = NULL;

		if (s != SLO_SEC_BSS) {
			buf = keep(wr, img->size[s]);
			if (!buf)
				return -1;
			if (img->size[s])
				memcpy(buf, img->data[s], img->size[s]);
		}
		if (s == SLO_SEC_ATOMS || s == SLO_SEC_CELLS) {
			for (size_t i = 0; i < img->nr_relocs; i++) {
				const struct slo_reloc *r = &img->relocs[i];

				if ((int)r->where == s)
					put_word(buf + r->offset, img->word_size,
						 img->word_size == 4 ? r->addend : 0);
			}
		}
		if (!add_section(wr, slo_elf_sec_names[s],
				 s == SLO_SEC_BSS ? SHT_NOBITS : SHT_PROGBITS,
				 flags[s], sec_align(img, s), buf,
				 (size_t)img->size[s], ELF_T_BYTE))
			return -1;
	}
	return 0;
}

static int add_symtab(struct writer *wr)
{
	const struct slo_image *img = wr->img;
	size_t nlocal = 1 + (img->source ? 1 : 0) + SLO_NR_SECTIONS, n, k;
	size_t symsz = img->word_size == 8 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym sym;
	void *buf;

	for (size_t i = 0; i < img->nr_syms; i++)
		nlocal += img->syms[i].kind == SLO_SYM_LABEL;
	n = 1 + (img->source ? 1 : 0) + SLO_NR_SECTIONS + img->nr_syms;
	buf = keep(wr, n * symsz);
	wr->elfidx = calloc(img->nr_syms + 1, sizeof(*wr->elfidx));
	if (!buf || !wr->elfidx)
		return -1;
	scn = add_section(wr, ".symtab", SHT_SYMTAB, 0, img->word_size, buf,
			  n * symsz, ELF_T_SYM);
	if (!scn || !(d = elf_getdata(scn, NULL)))
		return -1;
	wr->symtab = elf_ndxscn(scn);
	k = 1;
	memset(&sym, 0, sizeof(sym));
	if (img->source) {
		const char *base = strrchr(img->source, '/');

		sym.st_name = strbuf_add(&wr->str, base ? base + 1 : img->source);
		sym.st_info = GELF_ST_INFO(STB_LOCAL, STT_FILE);
		sym.st_shndx = SHN_ABS;
		gelf_update_sym(d, (int)k++, &sym);
	}
	for (int s = 0; s < SLO_NR_SECTIONS; s++) {
		memset(&sym, 0, sizeof(sym));
		sym.st_info = GELF_ST_INFO(STB_LOCAL, STT_SECTION);
		sym.st_shndx = (Elf64_Section)(1 + s);
		gelf_update_sym(d, (int)k++, &sym);
	}
	/* Locals (labels) first, then globals, each in model order. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < img->nr_syms; i++) {
			const struct slo_symbol *s = &img->syms[i];
			int local = s->kind == SLO_SYM_LABEL;
			char *name;

			if (local != !pass)
				continue;
			name = slo_prefixed_name(img, s->name);
			if (!name)
				return -1;
			memset(&sym, 0, sizeof(sym));
			sym.st_name = strbuf_add(&wr->str, name);
			free(name);
			sym.st_info = GELF_ST_INFO(local ? STB_LOCAL : STB_GLOBAL,
						   STT_OBJECT);
			sym.st_other = STV_DEFAULT;
			sym.st_shndx = (Elf64_Section)(1 + s->section);
			sym.st_value = s->value;
			sym.st_size = s->size;
			wr->elfidx[i] = k;
			gelf_update_sym(d, (int)k++, &sym);
		}
	}
	if (!gelf_getshdr(scn, &sh))
		return -1;
	sh.sh_info = (GElf_Word)nlocal;
	return gelf_update_shdr(scn, &sh) ? 0 : -1;
}

static int add_relocs(struct writer *wr, enum slo_section where)
{
	const struct slo_image *img = wr->img;
	int rela = img->word_size == 8;
	size_t n = 0, k = 0, entsz;
	char name[64];
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	void *buf;

	for (size_t i = 0; i < img->nr_relocs; i++)
		n += img->relocs[i].where == where;
	if (!n)
		return 0;
	entsz = rela ? sizeof(Elf64_Rela) : sizeof(Elf32_Rel);
	buf = keep(wr, n * entsz);
	if (!buf)
		return -1;
	snprintf(name, sizeof(name), "%s%s", rela ? ".rela" : ".rel",
		 slo_elf_sec_names[where]);
	scn = add_section(wr, name, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK,
			  img->word_size, buf, n * entsz,
			  rela ? ELF_T_RELA : ELF_T_REL);
	if (!scn || !(d = elf_getdata(scn, NULL)))
		return -1;
	for (size_t i = 0; i < img->nr_relocs; i++) {
		const struct slo_reloc *r = &img->relocs[i];
		/* Section symbols sit right after the null and file symbols. */
		size_t symi = 1 + (img->source ? 1 : 0) + r->target;

		if (r->where != where)
			continue;
		if (rela) {
			GElf_Rela re = {
				.r_offset = r->offset,
				.r_info = GELF_R_INFO(symi, R_X86_64_64),
				.r_addend = (GElf_Sxword)r->addend,
			};
			gelf_update_rela(d, (int)k++, &re);
		} else {
			GElf_Rel re = {
				.r_offset = r->offset,
				.r_info = GELF_R_INFO(symi, R_386_32),
			};
			gelf_update_rel(d, (int)k++, &re);
		}
	}
	if (!gelf_getshdr(scn, &sh))
		return -1;
	sh.sh_link = (GElf_Word)wr->symtab;
	sh.sh_info = (GElf_Word)(1 + where);
	return gelf_update_shdr(scn, &sh) ? 0 : -1;
}

static int add_note(struct writer *wr)
{
	const struct slo_image *img = wr->img;
	const char *prefix = img->prefix ? img->prefix : "";
	size_t desc = sizeof(struct slo_note_abi) + strlen(prefix) + 1;
	/* namesz, descsz, type, "syslet\0" padded to 8, descriptor padded
	 * to 4 (keep() zeroes the padding) */
	size_t size = 12 + 8 + ((desc + 3) & ~(size_t)3);
	uint8_t *p = keep(wr, size);
	const char *prof = systab_profile_name((enum systab_profile)img->profile);

	if (!p)
		return -1;
	put32(p, sizeof(SLO_NOTE_OWNER));
	put32(p + 4, (uint32_t)desc);
	put32(p + 8, SLO_NOTE_ABI);
	memcpy(p + 12, SLO_NOTE_OWNER, sizeof(SLO_NOTE_OWNER));
	/* What this writer writes, whatever version the model was read as. */
	put32(p + 20, SLO_FORMAT_VERSION);
	put32(p + 24, img->word_size);
	strncpy((char *)p + 28, prof, 15);
	memcpy(p + 20 + sizeof(struct slo_note_abi), prefix, strlen(prefix) + 1);
	return add_section(wr, SLO_SEC_NAME_NOTE, SHT_NOTE, 0, 4, p, size,
			   ELF_T_BYTE) ? 0 : -1;
}

static int add_debug(struct writer *wr)
{
	const struct slo_image *img = wr->img;
	struct text_buf st = { 0 };
	size_t hdr = sizeof(struct slo_debug_hdr);
	size_t rec = sizeof(struct slo_debug_rec), size;
	uint32_t src;
	uint8_t *p;

	if (!img->debug)
		return 0;
	strbuf_add(&st, "");
	src = img->source ? strbuf_add(&st, img->source) : 0;
	/* Strings first, so the section can be sized in one go. */
	for (size_t i = 0; i < img->nr_atoms; i++) {
		if (img->debug[i].syscall)
			strbuf_add(&st, img->debug[i].syscall);
		if (img->debug[i].text)
			strbuf_add(&st, img->debug[i].text);
		for (int k = 0; k < SLO_DEBUG_NAMES; k++)
			if (img->debug[i].name[k])
				strbuf_add(&st, img->debug[i].name[k]);
	}
	if (st.failed || img->nr_atoms > UINT32_MAX / rec) {
		free(st.s);
		return -1;
	}
	size = hdr + img->nr_atoms * rec + st.len;
	p = keep(wr, size);
	if (!p) {
		free(st.s);
		return -1;
	}
	put32(p, SLO_DEBUG_VERSION);
	put32(p + 4, (uint32_t)img->nr_atoms);
	put32(p + 8, (uint32_t)st.len);
	put32(p + 12, src);
	st.len = 1 + (img->source ? strlen(img->source) + 1 : 0);
	for (size_t i = 0; i < img->nr_atoms; i++) {
		const struct slo_debug *dr = &img->debug[i];
		uint8_t *q = p + hdr + i * rec;

		put32(q, dr->line);
		put32(q + 4, dr->col);
		put32(q + 8, (uint32_t)dr->role);
		/* Replays the offsets the first pass handed out. */
		put32(q + 12, dr->syscall ? strbuf_add(&st, dr->syscall) : 0);
		put32(q + 16, dr->text ? strbuf_add(&st, dr->text) : 0);
		for (int k = 0; k < SLO_DEBUG_NAMES; k++)
			put32(q + 20 + 4 * k,
			      dr->name[k] ? strbuf_add(&st, dr->name[k]) : 0);
	}
	memcpy(p + hdr + img->nr_atoms * rec, st.s, st.len);
	free(st.s);
	return add_section(wr, SLO_SEC_NAME_DEBUG, SHT_PROGBITS, 0, 4, p, size,
			   ELF_T_BYTE) ? 0 : -1;
}

static int add_params(struct writer *wr)
{
	const struct slo_image *img = wr->img;
	size_t n = 0, k = 0;
	uint8_t *p;

	for (size_t i = 0; i < img->nr_syms; i++)
		n += img->syms[i].kind == SLO_SYM_PARAM;
	if (!n)
		return 0;
	p = keep(wr, n * sizeof(struct slo_param_rec));
	if (!p)
		return -1;
	for (size_t i = 0; i < img->nr_syms; i++) {
		const struct slo_symbol *s = &img->syms[i];
		uint8_t *q;

		if (s->kind != SLO_SYM_PARAM)
			continue;
		q = p + k++ * sizeof(struct slo_param_rec);
		put32(q, (uint32_t)wr->elfidx[i]);
		put32(q + 4, (uint32_t)wr->elfidx[s->entry]);
		put32(q + 8, (uint32_t)s->param_index);
		put32(q + 12, (uint32_t)s->param_type);
	}
	return add_section(wr, SLO_SEC_NAME_PARAMS, SHT_PROGBITS, 0, 4, p,
			   n * sizeof(struct slo_param_rec), ELF_T_BYTE) ? 0 : -1;
}

/* String tables go last: only now are their contents complete. */
static int add_strtabs(struct writer *wr)
{
	Elf_Scn *str, *shstr;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf_Scn *sym = elf_getscn(wr->elf, wr->symtab);

	str = add_section(wr, ".strtab", SHT_STRTAB, 0, 1, NULL, 0, ELF_T_BYTE);
	shstr = add_section(wr, ".shstrtab", SHT_STRTAB, 0, 1, NULL, 0,
			    ELF_T_BYTE);
	if (!str || !shstr || !sym || wr->str.failed || wr->shstr.failed)
		return -1;
	elf_getdata(str, NULL)->d_buf = wr->str.s;
	elf_getdata(str, NULL)->d_size = wr->str.len;
	elf_getdata(shstr, NULL)->d_buf = wr->shstr.s;
	elf_getdata(shstr, NULL)->d_size = wr->shstr.len;
	if (!gelf_getshdr(sym, &sh))
		return -1;
	sh.sh_link = (GElf_Word)elf_ndxscn(str);
	if (!gelf_update_shdr(sym, &sh))
		return -1;
	/* elfutils has no elf_setshstrndx(); the index fits the header. */
	if (!gelf_getehdr(wr->elf, &eh))
		return -1;
	eh.e_shstrndx = (GElf_Half)elf_ndxscn(shstr);
	return gelf_update_ehdr(wr->elf, &eh) ? 0 : -1;
}

static int build(struct writer *wr, int fd)
{
	const struct slo_image *img = wr->img;
	int is64 = img->word_size == 8;
	GElf_Ehdr eh;

	wr->elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!wr->elf || !gelf_newehdr(wr->elf, is64 ? ELFCLASS64 : ELFCLASS32) ||
	    !gelf_getehdr(wr->elf, &eh))
		return -1;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_REL;
	eh.e_machine = is64 ? EM_X86_64 : EM_386;
	eh.e_version = EV_CURRENT;
	if (!gelf_update_ehdr(wr->elf, &eh))
		return -1;
	strbuf_add(&wr->shstr, "");
	strbuf_add(&wr->str, "");
	if (add_alloc_sections(wr) || add_symtab(wr) ||
	    add_relocs(wr, SLO_SEC_ATOMS) || add_relocs(wr, SLO_SEC_CELLS) ||
	    add_note(wr) || add_debug(wr) || add_params(wr) ||
	    !add_section(wr, ".note.GNU-stack", SHT_PROGBITS, 0, 1, NULL, 0,
			 ELF_T_BYTE) ||
	    add_strtabs(wr))
		return -1;
	errno = 0;
	if (elf_update(wr->elf, ELF_C_WRITE) >= 0)
		return 0;
	/* libelf says only "cannot write data to file": the reason is the
	 * write's, kept for the message. */
	switch (errno) {
	case ENOSPC: case EDQUOT: case EFBIG: case EIO: case EPIPE:
	case EROFS: case EBADF: case EINVAL: case EPERM: case EACCES:
		wr->write_errno = errno;
		break;
	}
	return -1;
}

int slo_image_write(const struct slo_image *img, int fd, char *err,
		    size_t errlen)
{
	struct writer wr = { .img = img, .err = err, .errlen = errlen };
	int rc;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return slo_elf_error(err, errlen, "libelf is too old");
	if (check_model(&wr))
		return -1;
	/* libelf's error is the thread's last, maybe of an image read
	 * before (the shell's): a failure of ours (keep(): out of memory)
	 * was reported as 'file has no program header'. */
	(void)elf_errno();
	rc = build(&wr, fd);
	if (rc) {
		int e = elf_errno();

		if (wr.write_errno)
			slo_elf_error(err, errlen, "%s",
				      strerror(wr.write_errno));
		else
			slo_elf_error(err, errlen, "cannot write ELF: %s",
				      e ? elf_errmsg(e) : "out of memory");
	}
	elf_end(wr.elf);
	for (int i = 0; i < wr.nbufs; i++)
		free(wr.bufs[i]);
	free(wr.shstr.s);
	free(wr.str.s);
	free(wr.elfidx);
	return rc;
}
