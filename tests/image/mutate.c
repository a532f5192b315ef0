/* mutate.c: a seeded mutation of a 64-bit image sysletc wrote: fields of its atoms, relocations, symbols and section headers changed as a crafted file would change them, for tests/image/mutate.sh to load, list and run. */
#define _GNU_SOURCE
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/slo-format.h"
#include "include/syslet.h"

/*
 * mutate SEED IN OUT: 1 to 4 changes, each picked by SEED's own
 * generator (the same file for the same seed on every machine):
 *  - an atom's flags (any bits), or its number among a few harmless
 *    calls, calls that do not exist and the five syslet calls: a number
 *    the test cannot predict could be kill() or unlink(), so the number
 *    is never random;
 *  - a relocation's addend (an atom's start, a cell, off by a few bytes,
 *    past the end, negative), its place or its symbol;
 *  - a word of an atom with no relocation (a raw pointer);
 *  - a symbol's value, size or section;
 *  - a section header's offset, size, link, info or entry size;
 *  - a word of the note, the debug records or the parameters;
 *  - the ELF header's section count, table offset or name table index.
 * Odd values include int's, unsigned int's and a word's bounds.
 * Cells' contents and rodata stay: their values are the calls'
 * arguments, and the test runs what it loads.
 */

static uint64_t state;

static uint64_t rnd(void)
{
	/* splitmix64: small, and the same everywhere. */
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static unsigned char *img;
static size_t len;
/* The section headers as sysletc wrote them: the data of a section is
 * found through these, whatever a change did to the live table. */
static Elf64_Shdr *orig;
static size_t norig, orig_shstrndx;

static void die(const char *msg)
{
	fprintf(stderr, "mutate: %s\n", msg);
	exit(99);
}

static Elf64_Ehdr *ehdr(void)
{
	return (Elf64_Ehdr *)img;
}

static Elf64_Shdr *shdr(size_t i)
{
	if (ehdr()->e_shoff + (i + 1) * sizeof(Elf64_Shdr) > len)
		die("section header outside the file");
	return (Elf64_Shdr *)(img + ehdr()->e_shoff) + i;
}

static Elf64_Shdr *section(const char *name)
{
	const Elf64_Shdr *names = shdr(ehdr()->e_shstrndx);

	for (size_t i = 1; i < ehdr()->e_shnum; i++) {
		Elf64_Shdr *sh = shdr(i);

		if (!strcmp((const char *)img + names->sh_offset + sh->sh_name,
			    name))
			return sh;
	}
	return NULL;
}

/* The section called @name as written (the live table may have been
 * changed already, names included); NULL when there is none. */
static const Elf64_Shdr *orig_section(const char *name)
{
	const Elf64_Shdr *names = &orig[orig_shstrndx];

	for (size_t i = 1; i < norig; i++) {
		size_t at = names->sh_offset + orig[i].sh_name;

		if (at + strlen(name) < len &&
		    !memcmp(img + at, name, strlen(name) + 1))
			return &orig[i];
	}
	return NULL;
}

/* A section of type @type as written, picked at random; NULL when there
 * is none or its data is not all in the file. */
static const Elf64_Shdr *some_section(uint32_t type)
{
	size_t n = 0, k;

	for (size_t i = 1; i < norig; i++)
		n += orig[i].sh_type == type;
	if (!n)
		return NULL;
	k = below(n);
	for (size_t i = 1; i < norig; i++)
		if (orig[i].sh_type == type && !k--)
			return orig[i].sh_offset <= len &&
			       orig[i].sh_size <= len - orig[i].sh_offset ?
			       &orig[i] : NULL;
	return NULL;
}

/* getpid, getppid, getuid, sched_yield, lseek, dup, close, read,
 * write (x86_64), numbers no kernel has, and the syslet calls. */
static const uint64_t safe_nr[] = {
	39, 110, 102, 24, 8, 32, 3, 0, 1, 999, 4096, ~0ULL, 1ULL << 63,
	SYSLET_NR_BASE, SYSLET_NR_BASE + 1, SYSLET_NR_BASE + 2,
	SYSLET_NR_BASE + 3, SYSLET_NR_BASE + 4,
};

/* The bounds a reader's arithmetic meets: int's, unsigned int's and
 * a word's. */
static const uint64_t edge[] = {
	0x7fffffffULL, 0x80000000ULL, 0xffffffffULL, 0x100000000ULL,
	0x7fffffffffffffffULL, ~0ULL,
};

static uint64_t odd_value(uint64_t near, uint64_t size)
{
	switch (below(9)) {
	case 8: return edge[below(sizeof(edge) / sizeof(edge[0]))];
	case 0: return 0;
	case 1: return near + 1 + below(7);
	case 2: return size;
	case 3: return size + 8;
	case 4: return (uint64_t)-8;
	case 5: return 1ULL << (32 + below(31));
	case 6: return near - 1;
	default: return rnd();
	}
}

static void mutate_atom(const Elf64_Shdr *atoms)
{
	size_t n = atoms->sh_size / sizeof(struct syslet_uatom);
	uint64_t *w;

	if (!n)
		return;
	w = (uint64_t *)(img + atoms->sh_offset) +
	    below(n) * (sizeof(struct syslet_uatom) / 8);
	switch (below(3)) {
	case 0:		/* flags */
		w[0] = below(2) ? below(256) : rnd();
		break;
	case 1:		/* nr */
		w[1] = safe_nr[below(sizeof(safe_nr) / sizeof(safe_nr[0]))];
		break;
	default:	/* a raw word: ret_ptr, next, an arg_ptr, private */
		w[2 + below(9)] = odd_value(0, 0);
		break;
	}
}

static void mutate_rela(const Elf64_Shdr *atoms)
{
	const Elf64_Shdr *sh = some_section(SHT_RELA);
	Elf64_Rela *r;
	size_t n;

	if (!sh)
		return;
	n = sh->sh_size / sizeof(Elf64_Rela);
	if (!n)
		return;
	r = (Elf64_Rela *)(img + sh->sh_offset) + below(n);
	switch (below(4)) {
	case 0: {	/* another atom's start, or another cell */
		size_t na = atoms->sh_size / sizeof(struct syslet_uatom);

		r->r_addend = (int64_t)(below(2) ? below(na + 1) *
					sizeof(struct syslet_uatom) :
					below(64) * 8);
		break;
	}
	case 1:
		r->r_addend = (int64_t)odd_value((uint64_t)r->r_addend,
						 atoms->sh_size);
		break;
	case 2:		/* the place: another word, or outside */
		r->r_offset = below(2) ? below(atoms->sh_size / 8 + 2) * 8 :
					 odd_value(r->r_offset, atoms->sh_size);
		break;
	default:	/* the symbol or the type */
		r->r_info = below(2) ?
			ELF64_R_INFO(below(16), ELF64_R_TYPE(r->r_info)) :
			ELF64_R_INFO(ELF64_R_SYM(r->r_info), below(12));
		break;
	}
}

static void mutate_symbol(void)
{
	const Elf64_Shdr *sh = some_section(SHT_SYMTAB);
	Elf64_Sym *s;
	size_t n;

	if (!sh)
		return;
	n = sh->sh_size / sizeof(Elf64_Sym);
	if (!n)
		return;
	s = (Elf64_Sym *)(img + sh->sh_offset) + below(n);
	switch (below(4)) {
	case 0: s->st_value = odd_value(s->st_value, 4096); break;
	case 1: s->st_size = odd_value(s->st_size, 4096); break;
	case 2: s->st_shndx = (uint16_t)below(20); break;
	default: s->st_name = (uint32_t)odd_value(s->st_name, 256); break;
	}
}

static void mutate_shdr(void)
{
	Elf64_Shdr *sh = shdr(1 + below(norig - 1));

	switch (below(6)) {
	case 0: sh->sh_offset = odd_value(sh->sh_offset, len); break;
	case 1: sh->sh_size = odd_value(sh->sh_size, len); break;
	case 2: sh->sh_link = (uint32_t)below(2) ? below(20) : rnd(); break;
	case 3: sh->sh_info = (uint32_t)below(2) ? below(20) : rnd(); break;
	case 4: sh->sh_entsize = odd_value(sh->sh_entsize, 24); break;
	default:	/* overlap the section before it */
		sh->sh_offset = sh[-1].sh_offset;
		break;
	}
}

/* A word of what describes the program rather than holds it: the note
 * (profile, format version), the debug records (atom to source line,
 * call name and role, their string offsets) or the parameters (entry,
 * name, type), 4 or 8 bytes at any place, aligned or not. */
static void mutate_meta(void)
{
	static const char *const names[] = {
		SLO_SEC_NAME_NOTE, SLO_SEC_NAME_DEBUG, SLO_SEC_NAME_PARAMS,
	};
	const Elf64_Shdr *sh;
	uint64_t v, at;
	size_t w;

	sh = orig_section(names[below(3)]);
	if (!sh)
		return;
	w = below(2) ? 8 : 4;
	if (sh->sh_offset > len || sh->sh_size > len - sh->sh_offset ||
	    sh->sh_size < w)
		return;
	at = sh->sh_offset + (below(2) ? below(sh->sh_size / w) * w :
					  below(sh->sh_size - w + 1));
	v = below(2) ? odd_value(0, sh->sh_size) : below(64);
	memcpy(img + at, &v, w);	/* little-endian: the low bytes */
}

static void mutate_ehdr(void)
{
	switch (below(3)) {
	case 0: ehdr()->e_shnum = below(2) ? 0xffff : (uint16_t)below(20); break;
	case 1: ehdr()->e_shoff = odd_value(ehdr()->e_shoff, len); break;
	default: ehdr()->e_shstrndx = below(2) ? 0xffff : (uint16_t)below(20); break;
	}
}

int main(int argc, char **argv)
{
	FILE *f;
	long size;
	const Elf64_Shdr *atoms = NULL;
	int changes;

	if (argc != 4)
		die("usage: mutate SEED IN OUT");
	state = strtoull(argv[1], NULL, 10) * 0x100000001b3ULL + 1;
	f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot read the image");
	len = (size_t)size;
	img = malloc(len);
	if (!img || fread(img, 1, len, f) != len)
		die("cannot read the image");
	fclose(f);
	if (len < sizeof(Elf64_Ehdr) || img[EI_CLASS] != ELFCLASS64)
		die("not a 64-bit image");
	norig = ehdr()->e_shnum;
	if (!norig)
		die("no sections");
	shdr(norig - 1);	/* the whole table is in the file */
	orig = malloc(norig * sizeof(*orig));
	if (!orig)
		die("out of memory");
	memcpy(orig, shdr(0), norig * sizeof(*orig));
	orig_shstrndx = ehdr()->e_shstrndx;
	if (orig_shstrndx >= norig || orig[orig_shstrndx].sh_offset > len)
		die("no section names");
	if (section(SLO_SEC_NAME_ATOMS))
		atoms = &orig[section(SLO_SEC_NAME_ATOMS) - shdr(0)];
	if (!atoms || atoms->sh_offset > len ||
	    atoms->sh_size > len - atoms->sh_offset)
		die("no atoms");
	/* A change of the ELF header ends the list: the table it moves
	 * is where the next changes would look. */
	changes = 1 + (int)below(4);
	while (changes--) {
		uint64_t k = below(23);

		if (k < 6)
			mutate_atom(atoms);
		else if (k < 12)
			mutate_rela(atoms);
		else if (k < 15)
			mutate_symbol();
		else if (k < 19)
			mutate_shdr();
		else if (k < 22)
			mutate_meta();
		else {
			mutate_ehdr();
			break;
		}
	}
	f = fopen(argv[3], "wb");
	if (!f || fwrite(img, 1, len, f) != len || fclose(f))
		die("cannot write the mutant");
	free(orig);
	free(img);
	return 0;
}
