/* image.h: the in-memory model of a .slo syslet image, and its ELF reader/writer. */
#ifndef SYSLET_IMAGE_H
#define SYSLET_IMAGE_H

/*
 * One model serves both directions: the compiler fills it and writes an
 * ELF relocatable object; the runtime and `sysletc -d` read an object
 * back into it.  The listing (`-S` == `-d`), the graph (`--dot`) and the
 * C header (`-H`) are all printed from this model, so a compiled program
 * and its image can never disagree.
 *
 * Layout of the ELF object (ELFCLASS32/EM_386 or ELFCLASS64/EM_X86_64,
 * ET_REL, little endian):
 *   .syslet.atoms   PROGBITS, WA, align word: packed struct syslet_uatom
 *                   in the target's word size, pointer fields zero in
 *                   the file and filled by relocations
 *   .syslet.cells   PROGBITS, WA, align word: one word per cell (vars,
 *                   pooled constants, parameters, address cells, scratch)
 *   .syslet.rodata  PROGBITS, A: string literals and `data` objects
 *   .syslet.bss     NOBITS, WA: buffers
 *   .rel[a].syslet.atoms / .rel[a].syslet.cells: R_386_32 / R_X86_64_64
 *                   against the section symbols.  On i386 they are
 *                   SHT_REL named .rel.syslet.* with the addend in place
 *                   (as the i386 ABI wants and ld requires); on x86_64
 *                   SHT_RELA named .rela.syslet.*
 *   .symtab/.strtab: a global STT_OBJECT symbol per entry (st_value = its
 *                   first atom in .syslet.atoms, st_size = its atoms) and
 *                   per named cell, buffer and data object (names below)
 *   .note.syslet    SHT_NOTE, owner "syslet", type SLO_NOTE_ABI: struct
 *                   slo_note_abi
 *   .syslet.params  PROGBITS, no alloc: a struct slo_param_rec per
 *                   parameter (absent when there are none)
 *   .note.GNU-stack empty, so linking it never asks for an executable stack
 *   .syslet.debug   PROGBITS, no alloc: struct slo_debug_hdr, then
 *                   records, then a string table (see slo-format.h)
 *
 * Symbol names: entries by their syslet name; file-scope cells, buffers
 * and data by their name; locals and parameters as "SYSLET.NAME" (so
 * `cat.fd`); pooled constants and scratch cells get no symbol.  Goto
 * labels are local symbols ("SYSLET.LABEL"), listed first as ELF wants
 * locals before globals; everything else is global.
 *
 * In the ELF file every one of those names carries the image's prefix
 * and an underscore (`cat_buf`, `cat_cat.fd`), so that two images can be
 * linked into one program; the ABI note records the prefix.  The model
 * holds the names without it: the writer adds it, the reader strips it,
 * and everything else (listings, lookups by name, the runner) sees the
 * names the source wrote.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slo-format.h"

enum slo_section {
	SLO_SEC_ATOMS,
	SLO_SEC_CELLS,
	SLO_SEC_RODATA,
	SLO_SEC_BSS,
	SLO_NR_SECTIONS,
};

/* A pointer-sized field at `offset` of section `where` holding the
 * address of `target` + `addend`. */
struct slo_reloc {
	enum slo_section	where;
	uint64_t		offset;
	enum slo_section	target;
	uint64_t		addend;
};

enum slo_sym_kind {
	SLO_SYM_ENTRY,		/* a syslet: value = byte offset of its first atom */
	SLO_SYM_VAR,		/* a cell in .syslet.cells */
	SLO_SYM_PARAM,		/* a parameter cell, bound by the runner */
	SLO_SYM_BUFFER,		/* in .syslet.bss */
	SLO_SYM_DATA,		/* in .syslet.rodata */
	SLO_SYM_LABEL,		/* a goto label: value = byte offset of its atom */
};

enum slo_param_type {
	SLO_PARAM_NONE,
	SLO_PARAM_INT,		/* the cell holds the integer */
	SLO_PARAM_STR,		/* the cell holds a pointer to a NUL-terminated string */
	SLO_PARAM_SOCKADDR_IN,	/* the cell holds a pointer to a struct
				   sockaddr_in (16 bytes), from "HOST:PORT" */
};

struct slo_symbol {
	char			*name;		/* as in the ELF symtab */
	enum slo_sym_kind	kind;
	enum slo_section	section;
	uint64_t		value;		/* byte offset in section */
	uint64_t		size;		/* bytes */
	/* For SLO_SYM_PARAM: its entry (index into syms), position, type. */
	int			entry;
	int			param_index;
	enum slo_param_type	param_type;
};

/* Atom roles, for listings and traces: why the compiler emitted it. */
enum slo_role {
	SLO_ROLE_CALL,		/* a syscall statement */
	SLO_ROLE_ARITH,		/* umem_add lowering of += -= ++ -- = */
	SLO_ROLE_COPY,		/* scratch copy for `var OP const` tests */
	SLO_ROLE_TEST,		/* a test of a variable (umem_add(&v, 0)) */
	SLO_ROLE_TRAMPOLINE,	/* a no-op placed so a skip lands right */
	SLO_ROLE_STOP,		/* the atom that ends the syslet (stop) */
	SLO_NR_ROLES,
};

/* Per-atom debug record (one per atom, in atom order). */
struct slo_debug {
	uint32_t	line;
	uint32_t	col;
	enum slo_role	role;
	char		*syscall;	/* name as written or resolved */
	char		*text;		/* the source statement, trimmed, or NULL */
	/* How the source named the word a pointer field reaches when that
	 * word is inside an object (fds[1]), else NULL: [0] for ret_ptr,
	 * [1 + i] for arg_ptr[i]. */
	char		*name[SLO_DEBUG_NAMES];
};

struct slo_image {
	unsigned int	word_size;	/* 4 or 8 */
	int		profile;	/* enum systab_profile */
	uint32_t	format_version;	/* SLO_FORMAT_VERSION */

	/* Section contents; bss has only a size. */
	uint8_t		*data[SLO_NR_SECTIONS];
	uint64_t	size[SLO_NR_SECTIONS];

	/* Section alignment in bytes; 0 means the word size. */
	uint64_t	align[SLO_NR_SECTIONS];

	/* Sorted by (where, offset): slo_image_reloc_at() bisects. */
	struct slo_reloc	*relocs;
	size_t			nr_relocs;
	struct slo_symbol	*syms;
	size_t			nr_syms;

	/* nr_atoms == size[SLO_SEC_ATOMS] / (11 * word_size) */
	size_t			nr_atoms;
	struct slo_debug	*debug;		/* nr_atoms records, or NULL */
	char			*source;	/* source file name, or NULL */
	char			*prefix;	/* of the ELF names; NULL: none */
};

struct slo_image *slo_image_new(unsigned int word_size, int profile);
/* The most bytes section s may hold in an image of this word size
 * (the limits of slo-format.h). */
uint64_t slo_section_max(enum slo_section s, unsigned int word_size);
void slo_image_free(struct slo_image *img);

/* Word access in a section, in the image's word size (little endian). */
uint64_t slo_image_word(const struct slo_image *img, enum slo_section s,
			uint64_t offset);
void slo_image_set_word(struct slo_image *img, enum slo_section s,
			uint64_t offset, uint64_t value);
/* Establish the (where, offset) order of relocs after filling them. */
void slo_image_sort_relocs(struct slo_image *img);
/* The relocation at (where, offset), or NULL if the field is not a pointer. */
const struct slo_reloc *slo_image_reloc_at(const struct slo_image *img,
					   enum slo_section where,
					   uint64_t offset);

/* Symbol prefixes: is s one (a C identifier of at most SLO_PREFIX_MAX
 * bytes, or "" for none)?  The default for an image written to path, as
 * bpftool names a skeleton: the base name up to its first dot, with
 * what cannot be in an identifier made '_' ("my-cat.slo": "my_cat"). */
bool slo_prefix_valid(const char *s);
char *slo_prefix_of_path(const char *path);
/* "PREFIX_NAME" (or NAME without a prefix), allocated; NULL: no memory. */
char *slo_prefixed_name(const struct slo_image *img, const char *name);

/* Symbols: lookup by name and kind (kind < 0: any). */
const struct slo_symbol *slo_image_find(const struct slo_image *img,
					const char *name, int kind);

/*
 * Writing and reading ELF.  On failure both return -1 and put a one-line
 * message (no trailing newline) into err.  The reader validates every
 * section, symbol, relocation and debug record before trusting it, so a
 * truncated, foreign or hostile file is an error, never a crash.
 */
int slo_image_write(const struct slo_image *img, int fd, char *err,
		    size_t errlen);
/* The reader also runs slo_image_verify(): what it returns obeys the
 * layout contract. */
struct slo_image *slo_image_read_mem(const void *buf, size_t len, char *err,
				     size_t errlen);
struct slo_image *slo_image_read_file(const char *path, char *err,
				      size_t errlen);

/* Checks of the layout contract: no atom with two stop flags, every
 * pointer inside the image, no denied syscall; and of the format's
 * limits (slo-format.h) on sections, objects, symbols and parameters.
 * Returns the number of problems, each reported through report(). */
int slo_image_verify(const struct slo_image *img,
		     void (*report)(void *ctx, size_t atom, const char *msg),
		     void *ctx);

/* Printers: the annotated listing (sysletc -S and -d), graphviz, C header.
 * The listing: -1 when a line of it could not be made for want of memory
 * (it says "; out of memory" in its place), else 0. */
int slo_image_list(const struct slo_image *img, FILE *out);
/* The same listing a line at a time (no newline), with the part it is
 * in and the atom it lists (-1: none). */
enum slo_list_part {
	SLO_LIST_HEADER,	/* "; profile ...", "; source ..." */
	SLO_LIST_ATOMS,		/* entries, labels, atoms */
	SLO_LIST_CELLS,
	SLO_LIST_OBJECTS,
};
typedef void (*slo_list_fn)(const char *line, enum slo_list_part part,
			    long atom, void *ctx);
int slo_image_list_lines(const struct slo_image *img, slo_list_fn fn,
			 void *ctx);
void slo_image_dot(const struct slo_image *img, FILE *out);
void slo_image_header(const struct slo_image *img, const char *guard,
		      FILE *out);
/* 1 if the C library this process runs with defines a symbol @name
 * (stdin, printf, errno): a C program that links an image defining it
 * too gets one of the two, and its header cannot declare it. */
int slo_libc_defines(const char *name);

#endif /* SYSLET_IMAGE_H */
