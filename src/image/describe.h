/* describe.h: names for atoms, cells and flags, shared by the listing, graph and header printers. */
#ifndef SYSLET_IMAGE_DESCRIBE_H
#define SYSLET_IMAGE_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

#include "common/textbuf.h"
#include "image/image.h"

#define SLO_ATOM_FIELDS 11
enum { SLO_W_FLAGS, SLO_W_NR, SLO_W_RET, SLO_W_NEXT, SLO_W_ARG0 };

uint64_t slo_atom_size(const struct slo_image *img);
uint64_t slo_atom_word(const struct slo_image *img, size_t atom, int field);
/* Atom index of a pointer field's target, or -1 when NULL. */
long slo_atom_target(const struct slo_image *img, size_t atom, int field);

/* The entry symbol whose atoms include `atom`, or NULL. */
const struct slo_symbol *slo_entry_of(const struct slo_image *img,
				      size_t atom);
/* Symbol of `kind` (or any kind for -1) defined exactly at sec+off. */
const struct slo_symbol *slo_sym_at(const struct slo_image *img,
				    enum slo_section sec, uint64_t off,
				    int kind);

/* "stop-on-negative|skip", or "-" for none. */
void slo_describe_flags(uint64_t flags, struct text_buf *t);
/*
 * Names of the cells, worked out once per printout: a cell is shown as
 * the source named it (fd, 4096, "text", buf, &n), or as %N (its index)
 * when it is an unnamed cell that receives a result (a scratch copy).
 */
struct slo_sym_index;

struct slo_names {
	const struct slo_image	*img;
	size_t			nr_cells;
	char			**cell;		/* display name of each cell */
	const struct slo_symbol	**sym;		/* its symbol, or NULL */
	uint8_t			*written;	/* some atom's result */
	long			*ref;		/* the cell it holds &of, or -1 */
	/*
	 * What the printers look up per atom and per symbol, worked out
	 * once so that a printout costs time linear in the image (indexes
	 * into img->syms, -1 for none):
	 */
	long			*entry_of;	/* atom -> its entry */
	long			*at_first;	/* atom -> first symbol there */
	long			*at_next;	/* symbol -> next at its atom */
	long			*param_first;	/* entry -> parameter 0, 1... */
	long			*param_next;	/* parameter -> the next one */
	struct slo_sym_index	*by_addr;	/* per section, for targets */
	/* Where objects in .syslet.rodata start (symbols and pointer
	 * targets), sorted: an anonymous string runs to the next one. */
	uint64_t		*ro_start;
	size_t			nr_ro_start;
};

int slo_names_init(struct slo_names *n, const struct slo_image *img);
/* slo_entry_of() from the index: the entry symbol owning atom, or NULL. */
const struct slo_symbol *slo_names_entry_of(const struct slo_names *n,
					    size_t atom);
/* Symbols at an atom's offset, in symbol order: for (long i =
 * n->at_first[atom]; i >= 0; i = n->at_next[i]).  Parameters of an
 * entry by position, then symbol order: param_first[entry], param_next. */
void slo_names_free(struct slo_names *n);
/* A symbol name without the "entry." prefix when it is local to entry. */
const char *slo_short_name(const char *name, const struct slo_symbol *entry);
/* What a pointer field of an atom points at, for arguments and ret. */
void slo_describe_ptr(const struct slo_names *n, size_t atom, int field,
		      const struct slo_symbol *entry, struct text_buf *t);
/* The syscall name of an atom: its debug record, else the table. */
const char *slo_atom_syscall(const struct slo_image *img, size_t atom);
/* "fd = open(path, 0)" */
void slo_describe_call(const struct slo_names *n, size_t atom,
		       struct text_buf *t);
/* "int", "str", "sockaddr_in". */
const char *slo_param_type_name(enum slo_param_type t);
/* Role names: call, arith, copy, test, trampoline, stop. */
const char *slo_role_name(enum slo_role r);
/* n bytes in C string syntax, NULs included ("a\0b\n"). */
void slo_quote(const uint8_t *s, size_t n, struct text_buf *t);

#endif /* SYSLET_IMAGE_DESCRIBE_H */
