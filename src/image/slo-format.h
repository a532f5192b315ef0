/* slo-format.h: on-disk records of the .slo note and debug sections. */
#ifndef SYSLET_SLO_FORMAT_H
#define SYSLET_SLO_FORMAT_H

#include <stdint.h>

/*
 * 2: the ABI note's descriptor is followed by the symbol prefix (below);
 * 1: no prefix (symbols named as in the source).  Readers take both.
 */
#define SLO_FORMAT_VERSION	2
#define SLO_FORMAT_VERSION_MIN	1

/*
 * Limits of the format, one definition for both sides: sysletc refuses a
 * program that would go past them, with a message, and every reader
 * refuses an image that does, so that a few bytes of image can never ask
 * for more than a source could (.syslet.bss has a size and no bytes).
 */
#define SLO_MAX_OBJECT		(64u << 20)	/* one buffer or data object */
#define SLO_MAX_BSS		(64u << 20)	/* all buffers, with padding */
#define SLO_MAX_RODATA		(64u << 20)	/* all data and strings */
#define SLO_MAX_ATOMS		(1u << 20)
#define SLO_MAX_CELLS		(1u << 20)
#define SLO_MAX_SYMBOLS		(1u << 22)	/* entries, cells, objects, labels */
#define SLO_MAX_PARAMS		16		/* parameters of one entry */
#define SLO_NOTE_OWNER		"syslet"	/* namesz 7 with the NUL */
#define SLO_NOTE_ABI		1

#define SLO_SEC_NAME_ATOMS	".syslet.atoms"
#define SLO_SEC_NAME_CELLS	".syslet.cells"
#define SLO_SEC_NAME_RODATA	".syslet.rodata"
#define SLO_SEC_NAME_BSS	".syslet.bss"
#define SLO_SEC_NAME_DEBUG	".syslet.debug"
#define SLO_SEC_NAME_NOTE	".note.syslet"
#define SLO_SEC_NAME_PARAMS	".syslet.params"

/* Descriptor of the ABI note; all fields little endian.  From format 2
 * on it goes on with the prefix of every symbol name, NUL-terminated
 * (descsz counts it, the NUL included): "cat" names the cell buf
 * "cat_buf" in .symtab; "" means no prefix.  The prefix is a C identifier
 * of at most SLO_PREFIX_MAX bytes. */
struct slo_note_abi {
	uint32_t	format_version;	/* SLO_FORMAT_VERSION */
	uint32_t	word_size;	/* 4 or 8 */
	char		profile[16];	/* "i386-2007", "i386", "x86_64", NUL padded */
};

#define SLO_PREFIX_MAX		64

/* .syslet.debug: header, nr_atoms records, then strtab_size bytes of
 * NUL-terminated strings; offsets index that string table (0 = none,
 * the table starts with a NUL). */
struct slo_debug_hdr {
	uint32_t	version;	/* SLO_FORMAT_VERSION */
	uint32_t	nr_atoms;
	uint32_t	strtab_size;
	uint32_t	source;		/* string offset of the source file name */
};

struct slo_debug_rec {
	uint32_t	line;
	uint32_t	col;
	uint32_t	role;		/* enum slo_role */
	uint32_t	syscall;	/* string offset */
	uint32_t	text;		/* string offset */
	/* Version 3: names of the words inside objects that ret_ptr and
	 * arg_ptr[0..5] reach (element fds[1]), string offsets or 0. */
	uint32_t	name[7];
};

/* The debug header's version: 1 and 2 (the image formats that wrote
 * it) had records without name[], 20 bytes, which readers still take. */
#define SLO_DEBUG_VERSION	3
#define SLO_DEBUG_REC_V1	20
#define SLO_DEBUG_NAMES		7

/* .syslet.params: one record per parameter cell, so a runner knows
 * what to bind; symbol indexes are into .symtab. */
struct slo_param_rec {
	uint32_t	sym;		/* the parameter's cell symbol */
	uint32_t	entry;		/* the entry symbol it belongs to */
	uint32_t	index;		/* position in the parameter list */
	uint32_t	type;		/* enum slo_param_type */
};

#endif /* SYSLET_SLO_FORMAT_H */
