/* lower.h: state and helpers shared by the lowering pass (AST -> IR), split over lower*.c. */
#ifndef SYSLET_LOWER_H
#define SYSLET_LOWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hidx.h"
#include "compiler/compiler.h"
#include "compiler/ir.h"
#include "grammar/ast.h"
#include "grammar/diag.h"

/*
 * Targets.  While lowering, a successor is an int: an atom index (>= 0),
 * LOWER_END (the syslet ends there; == IR_NONE), or a placeholder
 * (<= -2) that is bound later, for loop heads and labels whose first
 * atom is not known yet.  Statements are lowered back to front, each
 * given the target that follows it, so most targets are atoms already.
 */
#define LOWER_END	IR_NONE

enum lower_sym_kind {
	LSYM_CONST,
	LSYM_VAR,
	LSYM_PARAM,
	LSYM_BUFFER,
	LSYM_DATA,
	LSYM_SYSLET,
};

enum lower_eval_state { LEVAL_TODO, LEVAL_BUSY, LEVAL_DONE, LEVAL_BAD };

struct lower_sym {
	const char		*name;		/* borrowed from the AST */
	enum lower_sym_kind	kind;
	struct ast_decl		*decl;
	int			cell;		/* VAR, PARAM */
	int			obj;		/* BUFFER, DATA */
	int64_t			value;		/* CONST */
	bool			value_big;	/* CONST: value is (uint64_t)
						   value, from 2^63 up */
	uint64_t		size;		/* BUFFER, DATA: sizeof */
	uint64_t		len;		/* DATA: len (no final NUL) */
	unsigned int		elem;		/* BUFFER, DATA: element bytes */
	const char		*elem_name;	/* BUFFER, DATA: "u32"; PARAM:
						   its named type, or NULL */
	enum lower_eval_state	state;
	unsigned int		used;
	bool			local;
	bool			early;		/* use-before-declaration told */
};

struct lower_symtab {
	struct lower_sym	*v;
	size_t			n, cap;
	struct common_hidx	index;		/* name -> position in v */
};

struct lower_label {
	const char	*name;
	int		ph;		/* its placeholder */
	bool		defined;
	struct ast_loc	loc;
};

/* How the last atom of an operation continues: its stop flags (at most
 * one), where it goes when the test is false (next) and when it is true
 * and SKIP is set (skip). */
struct lower_branch {
	unsigned long	flags;
	int		next;
	int		skip;
};

/* An assignment that a following `if` may fuse into (see lower.c). */
struct lower_fuse {
	int			cell;		/* the variable it writes */
	int			op;		/* '=' or AST_OP_* */
	struct ast_expr		*lhs, *rhs;	/* rhs NULL for ++/-- */
	struct ast_loc		loc;		/* the assignment, for atoms */
	struct ast_loc		text;		/* its statement, for listings */
	unsigned int		mods;
	bool			used;		/* the if tests it: */
	int			test;		/* with this atom */
};

struct lower {
	struct diag			*d;
	const struct sysletc_options	*opt;
	int				profile;
	unsigned int			word;
	const char			*src;
	size_t				len;
	struct ir_program		*p;
	/* The pools, so that every use finds its cell or string at once:
	 * value -> constant cell, (object, cell, offset) -> address cell,
	 * bytes -> string object. */
	struct common_hidx		const_index, addr_index, str_index;
	bool				oom;
	unsigned int			eval_depth;
	size_t				suggest_budget;	/* names compared */

	/* Placeholders: bound target, or LOWER_PH_UNBOUND. */
	int				*ph;
	size_t				nr_ph, cap_ph;

	/* Targets the lowering leaves behind on purpose (see lower_drop). */
	int				*dropped;
	size_t				nr_dropped, cap_dropped;
	unsigned int			errors_at_start;

	struct lower_symtab		globals;
	struct lower_symtab		locals;

	/* The syslet being lowered. */
	struct ast_decl			*syslet;
	int				entry;
	int				scratch;
	int				widen;	/* object narrow reads go
						   through, or -1 */
	struct lower_label		*labels;
	size_t				nr_labels, cap_labels_l;
	struct common_hidx		label_index;	/* name -> labels[] */
	int				brk, cont;
	bool				in_loop;
	unsigned int			mods;	/* SYSLET_ASYNC etc. */
	/* Names for the next atom's fields (ir_atom.names), taken over by
	 * lower_atom(). */
	char				*names[7];
	struct ast_loc			text;	/* statement being lowered */
};

#define LOWER_PH_UNBOUND	(-1000000)
/* Names compared for "did you mean" suggestions in one file: some
 * 10 ms of edit distances. */
#define LOWER_SUGGEST_BUDGET	100000
/* Bounds the recursion through constants defined by later constants. */
#define LOWER_MAX_EVAL_DEPTH	256

/* lower-ir.c: building the program. */
void lower_oom(struct lower *L);
int lower_cell(struct lower *L, enum ir_cell_kind kind, const char *name,
	       const char *display, int64_t value, struct ast_loc loc);
int lower_const_cell(struct lower *L, int64_t v);
int lower_addr_cell(struct lower *L, int obj, int cell, uint64_t off,
		    const char *display);
int lower_string_obj(struct lower *L, const char *s, size_t n,
		     struct ast_loc loc);
int lower_object(struct lower *L, enum ir_obj_kind kind, const char *name,
		 uint64_t size, uint8_t *bytes, unsigned int align,
		 struct ast_loc loc);
int lower_atom(struct lower *L, long nr, const char *sysname, int ret,
	       const int *args, unsigned int nargs, enum slo_role role,
	       struct ast_loc loc, struct lower_branch br);
int lower_umem_add(struct lower *L, int ptr_cell, int inc_cell, int ret,
		   enum slo_role role, struct ast_loc loc,
		   struct lower_branch br);
/* A word inside object obj that atoms point at; pooled. */
int lower_mem_cell(struct lower *L, int obj, uint64_t off, unsigned int width,
		   const char *display);
/* An element narrower than a word, read through a widening copy. */
int lower_narrow_cell(struct lower *L, int obj, uint64_t off,
		      unsigned int width, const char *display);
int lower_ph_new(struct lower *L);
int lower_ph_bind(struct lower *L, int ph, int target, struct ast_loc loc,
		  const char *what);
int lower_resolve(struct lower *L, int t);
/*
 * Say that nothing will branch to target from here, on purpose: the
 * statements after stop, break, continue or goto, the side of a constant
 * condition that is never taken, what follows a loop without a way out.
 * lower_finish() drops the atoms no entry reaches; an atom that is
 * neither reached nor left behind this way was lost by a path that
 * returned the wrong target, which is an internal error unless an error
 * was reported.
 */
void lower_drop(struct lower *L, int target);
int lower_scratch(struct lower *L);
int lower_finish(struct lower *L);
char *lower_text(struct lower *L, struct ast_loc loc);
char *lower_strdup(struct lower *L, const char *s);
char *lower_fmt(struct lower *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* lower.c */
void lower_error(struct lower *L, struct ast_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void lower_warn(struct lower *L, unsigned int wbit, struct ast_loc loc,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void lower_note(struct lower *L, struct ast_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct lower_branch lower_plain(int next);

/* lower-expr.c: names, constants and operands. */
struct lower_sym *lower_lookup(struct lower *L, const char *name,
			       struct ast_loc use);
/* 1: constant (*v set); 0: not a compile-time constant; -1: error given. */
int lower_eval(struct lower *L, const struct ast_expr *e, int64_t *v);
/* Like lower_eval, but a non-constant is an error saying `what`. */
int lower_eval_must(struct lower *L, const struct ast_expr *e, int64_t *v,
		    const char *what);
bool lower_fits_word(struct lower *L, int64_t v, struct ast_loc loc);
void lower_undeclared(struct lower *L, struct ast_loc loc, const char *name);
/* An argument: the cell an atom points at.  -1 after an error. */
int lower_operand(struct lower *L, const struct ast_expr *e);
/* The variable or parameter cell e names, or -1 (reported as `what`). */
int lower_lvalue(struct lower *L, const struct ast_expr *e, const char *what);
/* e names a variable or parameter, or an element an atom can write
 * (no report); its cell or -1. */
int lower_var_cell(struct lower *L, const struct ast_expr *e);
/* The cell of element e (AST_INDEX): MEM for one as wide as a word,
 * NARROW for a narrower one; -1 after an error. */
int lower_element(struct lower *L, const struct ast_expr *e);
/* Element size of a type name (u8 ... word), or 0 when it is not one
 * (sysletc_resolve() reported it). */
unsigned int lower_elem_type(struct lower *L, const char *type);
bool lower_is_simple(struct lower *L, const struct ast_expr *e);
const char *lower_op_name(int op);

/* lower-data.c: data objects. */
int lower_data(struct lower *L, struct lower_sym *s);
void lower_buffer(struct lower *L, struct lower_sym *s);

/* lower-call.c: system calls. */
int lower_call(struct lower *L, const struct ast_expr *e, int ret,
	       struct lower_branch br);

/* lower-cond.c: conditions and assignments. */
int lower_cond(struct lower *L, const struct ast_expr *e, int t, int f,
	       struct lower_fuse *fuse);
int lower_assign(struct lower *L, int cell, int op, const struct ast_expr *lhs,
		 const struct ast_expr *rhs, struct ast_loc loc,
		 struct lower_branch br);
int lower_expr_stmt(struct lower *L, const struct ast_expr *e, int succ);

#endif /* SYSLET_LOWER_H */
