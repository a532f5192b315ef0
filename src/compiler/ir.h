/* ir.h: the atom program between lowering and layout, with symbolic cells and targets. */
#ifndef SYSLET_IR_H
#define SYSLET_IR_H

/*
 * Lowering (AST -> IR) produces atoms that name cells and successor
 * atoms by index; layout orders them so that every skip target sits
 * physically right after its branch, inserting a no-op trampoline only
 * where two branches want the same physical successor; emit turns the
 * ordered program into a struct slo_image.  Each stage is a function
 * from one representation to the next and is testable alone.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "image/image.h"

#define IR_NONE (-1)

struct ir_loc {
	unsigned int	line;
	unsigned int	col;
};

enum ir_cell_kind {
	IR_CELL_VAR,		/* a named variable, file scope or local */
	IR_CELL_CONST,		/* a pooled constant: one cell per distinct value */
	IR_CELL_PARAM,		/* a typed parameter, bound by the runner */
	IR_CELL_ADDR,		/* holds the address of an object or a cell */
	IR_CELL_SCRATCH,	/* compiler temporary (copies for var OP const) */
	/*
	 * Not cells of .syslet.cells but words inside an object, which
	 * atoms point at directly: an element of a buffer or data as wide
	 * as a word (fds[1] of u32 on i386), or a piece of the widening
	 * scratch.  target_obj and target_off say where.
	 */
	IR_CELL_MEM,
	/*
	 * An element narrower than a word (u32 on x86_64).  Lowering only:
	 * an atom that reads one gets copies in front of it that widen the
	 * element into a scratch word, and points there; it never reaches
	 * layout or emit.
	 */
	IR_CELL_NARROW,
};

struct ir_cell {
	enum ir_cell_kind	kind;
	char			*name;		/* ELF symbol name, NULL if none */
	char			*display;	/* listing name: fd, $4096, &buf, "hi" */
	int64_t			value;		/* initial value */
	int			target_obj;	/* ADDR, MEM, NARROW: object or IR_NONE */
	int			target_cell;	/* IR_CELL_ADDR: cell index or IR_NONE */
	uint64_t		target_off;	/* byte offset into the target */
	unsigned int		width;		/* MEM, NARROW: element bytes */
	int			entry;		/* IR_CELL_PARAM: its entry */
	int			param_index;
	enum slo_param_type	param_type;
	struct ir_loc		loc;
};

enum ir_obj_kind {
	IR_OBJ_BUFFER,		/* zero-filled, in .syslet.bss */
	IR_OBJ_DATA,		/* initialised bytes, in .syslet.rodata */
	IR_OBJ_STRING,		/* an anonymous string literal, pooled */
};

struct ir_object {
	enum ir_obj_kind	kind;
	char			*name;		/* NULL for anonymous strings */
	uint64_t		size;
	uint64_t		pad;		/* zero bytes after it, so that a
						   word can be read at its end */
	uint8_t			*bytes;		/* size bytes; NULL for buffers */
	unsigned int		align;
	struct ir_loc		loc;
};

/*
 * One atom.  When it runs: the stop test of flags is false -> next;
 * true and SYSLET_SKIP_TO_NEXT_ON_STOP set -> skip (layout must place
 * it physically after this atom); true otherwise -> the syslet ends.
 * next == IR_NONE ends the syslet after this atom.
 */
struct ir_atom {
	unsigned long	flags;
	long		nr;		/* in the program's profile */
	char		*sysname;
	int		ret;		/* cell or IR_NONE */
	int		args[6];	/* cells; the first IR_NONE ends the list */
	int		next;
	int		skip;
	enum slo_role	role;
	struct ir_loc	loc;
	char		*text;		/* source statement for listings */
	/* How the source names what ret [0] and args [1..6] read, when
	 * that differs from the cell's display (a widened element reads
	 * the scratch word, yet holds fds[0]); owned, or NULL. */
	char		*names[7];
};

struct ir_entry {
	char		*name;
	int		first_atom;
	struct ir_loc	loc;
};

struct ir_label {
	char		*name;		/* symbol name: SYSLET.LABEL */
	int		atom;
};

/*
 * A test that may merge into the atom before it (ir_fuse): test is an
 * umem_add(&c, $0) that only reads c for its stop test, into the atom
 * that computes c and continues at test.
 */
struct ir_fuse {
	int		test;
	int		into;
};

struct ir_program {
	int			profile;	/* enum systab_profile */
	char			*source;
	struct ir_cell		*cells;
	size_t			nr_cells;
	struct ir_object	*objects;
	size_t			nr_objects;
	struct ir_atom		*atoms;
	size_t			nr_atoms;
	struct ir_entry		*entries;
	size_t			nr_entries;
	struct ir_label		*labels;
	size_t			nr_labels;
	struct ir_fuse		*fuses;		/* until ir_fuse() runs */
	size_t			nr_fuses;
	/* Room allocated, for the builder below. */
	size_t			cap_cells, cap_objects, cap_atoms;
	size_t			cap_entries, cap_labels, cap_fuses;
};

/* Free what an atom owns (its names), or a whole program and all it owns. */
void ir_atom_clear(struct ir_atom *a);
void ir_program_free(struct ir_program *p);

/*
 * Building a program: lowering uses these, and so do the tests that
 * build programs by hand.  Each adds one element, zeroed but for its
 * "none" fields (IR_NONE targets and arguments, no parameter), copies
 * the strings and bytes it is given, and returns the element's index;
 * -1 when memory ran out (the program stays whole and freeable).
 */
struct ir_program *ir_program_new(int profile, const char *source);
int ir_add_cell(struct ir_program *p, enum ir_cell_kind kind,
		const char *name, int64_t value);
/* A parameter cell: entry's index-th, of that type. */
int ir_add_param(struct ir_program *p, const char *name, int entry,
		 int index, enum slo_param_type type);
/* A cell holding the address of object obj (or of cell `cell`). */
int ir_add_addr(struct ir_program *p, int obj, int cell);
int ir_add_object(struct ir_program *p, enum ir_obj_kind kind,
		  const char *name, const void *bytes, uint64_t size);
/* args: up to 6 cells, ended early by IR_NONE (args may be NULL). */
int ir_add_atom(struct ir_program *p, unsigned long flags, long nr,
		const char *sysname, int ret, const int *args, int next,
		int skip);
int ir_add_entry(struct ir_program *p, const char *name, int first_atom);
int ir_add_label(struct ir_program *p, const char *name, int atom);
/* Atom test may merge into atom into (see ir_fuse). */
int ir_add_fuse(struct ir_program *p, int test, int into);

/*
 * Passes from a program to a tidier one (ir-pass.c); each returns 0, or
 * -1 when memory ran out (the program stays whole and freeable).
 */
/* Branch flags that test nothing, or skip to the end, made plain. */
int ir_tidy_branches(struct ir_program *p);
/* Each candidate of p->fuses that holds: into takes test's stop test
 * and successors, and test is left for ir_drop_unreachable(); the
 * list is emptied.  Targets must be resolved. */
int ir_fuse(struct ir_program *p);
/* Drop the atoms no entry reaches; number the rest in reading order
 * (labels and fusion links follow their atoms, or go with them). */
int ir_drop_unreachable(struct ir_program *p);
/* Drop the anonymous cells and objects no atom uses; renumber. */
int ir_tidy_cells(struct ir_program *p);
/* Mark in seen[] the atoms reachable from the nr_from atoms in from,
 * depth first, next before skip, appending them to order (if given) in
 * that order: how many were newly marked, or (size_t)-1. */
size_t ir_reach(const struct ir_program *p, const int *from, size_t nr_from,
		unsigned char *seen, int *order);

/* The program as text, one line per cell, object, atom, entry and
 * label (sysletc --dump=ir; the front end's golden tests). */
void ir_dump(FILE *f, const struct ir_program *p);

#endif /* SYSLET_IR_H */
