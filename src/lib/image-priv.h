/* image-priv.h: what the loader's files share about opened images and instances; internal. */
#ifndef SYSLET_LIB_IMAGE_PRIV_H
#define SYSLET_LIB_IMAGE_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "libsyslet.h"
#include "api.h"
#include "common/hidx.h"
#include "image/describe.h"
#include "image/image.h"

struct slio_entry {
	const struct slo_symbol	*sym;
	struct syslet_param	*params;
	const struct slo_symbol	**param_syms;
	int			nr_params;
};

/* Freed instances' records kept for the next ones (image-mem.c), linked
 * through their first words; at most SLIO_SPARE_MAX. */
#define SLIO_SPARE_MAX	64
struct slio_spares {
	void			*list;
	size_t			n;
};

/* Offsets of each part inside an instance's memory (image-inst.c). */
enum { SLIO_PART_RESULTS = SLO_NR_SECTIONS, SLIO_NR_PARTS };

/* A pointer an instance holds (slio_obj_layout()): at byte @at of its
 * memory, @value from its start, or @value itself when @shared (the
 * rodata every instance shares). */
struct slio_rel {
	size_t			at;
	uintptr_t		value;
	bool			shared;
};

struct syslet_obj {
	struct slo_image	*img;
	const char		*profile_name;
	struct slio_entry	*entries;
	size_t			nr_entries;
	const struct slo_symbol	**cells;	/* VAR and PARAM symbols */
	size_t			nr_cells;
	/* The same, by their offset in the cells: syslet_inst__cell_at(). */
	const struct slo_symbol	**cells_by_off;
	/* Symbols by name, and by the part after the dot of an entry's
	 * local (count.n: n), each name once per kind of lookup: a lookup
	 * costs O(1), not a walk over them all (slio_find_sym()).
	 * short_dup[i]: another symbol has symbol i's short name. */
	struct common_hidx	by_name, by_short;
	unsigned char		*short_dup;
	long			*nr;		/* per atom, native numbering */
	/* The rodata every instance shares, read-only (slio_obj_rodata()),
	 * ro_len bytes mapped; NULL: each instance has its own copy. */
	unsigned char		*ro;
	size_t			ro_len;
	/* Every cell's name as the listing writes it (%2, 0, &cat.n),
	 * worked out on the first syslet_inst__cell_label(). */
	struct slo_names	*names;
	struct slio_spares	spares;
	/* Every instance's layout and pointers (slio_obj_layout()); not
	 * lay_ok: too large for the address space. */
	size_t			lay_off[SLIO_NR_PARTS];
	size_t			lay_size, lay_from;
	bool			lay_ok;
	struct slio_rel		*rels;
	size_t			nr_rels;
};

struct syslet_inst {
	const struct syslet_obj	*obj;
	unsigned char		*base;
	size_t			off[SLIO_NR_PARTS];
	size_t			size;
	size_t			from;		/* its first part's offset */
	struct slio_slab	*slab;		/* base is one of its slots */
	struct slio_chunk	**strs;		/* bound strings, per entry: in the
						 * same allocation, after it */
};

#define SLIO_ATOM_WORDS 11

/* image-mem.c: an instance's memory, size bytes (a multiple of the page
 * size) followed by a guard page, zeroed; NULL with errno set. */
size_t slio_page_size(void);
/* image-inst.c: the shared read-only rodata of @obj, when it can be
 * shared; -1 (errno) when it cannot be mapped. */
int slio_obj_rodata(struct syslet_obj *obj);
/* image-inst.c: every instance's layout and pointers, after
 * slio_obj_rodata(); -1 (errno) without memory. */
int slio_obj_layout(struct syslet_obj *obj);
/* A slot of @size bytes whose instance's memory begins @from bytes in:
 * zero from there on (what comes before is no instance's).  NULL with
 * errno set, and *@heap set when what failed was malloc's memory for
 * the allocator's own records rather than a mapping. */
void *slio_slot_get(size_t size, size_t from, struct slio_slab **slab,
		    struct slio_spares *spares, void **rec, bool *heap);
/* Where @spares has one, a freed instance's record goes to *@rec (left
 * as it is otherwise): taken in the same hold of the lock as the slot.
 * slio_inst_put() gives an instance's @nstrs string chunks, its slot
 * (none when @base is NULL) and its record back, the record to
 * @spares while they hold fewer than SLIO_SPARE_MAX, else to free(). */
void slio_inst_put(struct slio_chunk *const *strs, size_t nstrs,
		   struct slio_slab *slab, void *base, size_t from,
		   struct slio_spares *spares, void *rec);
void slio_spares_free(struct slio_spares *spares);
/* Copy the blobs[i] of lens[i] bytes (0: none) to read-only memory, each
 * on a word boundary, their addresses to out[i]; the chunk holding them
 * (to put), or NULL: none to copy (errno 0) or no memory. */
struct slio_chunk *slio_blobs_copy(const void *const blobs[],
				   const size_t *lens, int n, void **out);
void slio_strs_put(struct slio_chunk *chunk);

void slio_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const struct slio_entry *slio_find_entry(const struct syslet_obj *obj,
					 const char *name);
/* A symbol by name and kind, also as SYSLET.NAME when unambiguous. */
const struct slo_symbol *slio_find_sym(const struct syslet_obj *obj,
				       const char *name, int kind1, int kind2);

#endif /* SYSLET_LIB_IMAGE_PRIV_H */
