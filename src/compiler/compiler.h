/* compiler.h: the compiler library: source text -> IR -> laid-out image, used by sysletc, syslet-run and the shell. */
#ifndef SYSLET_COMPILER_H
#define SYSLET_COMPILER_H

/*
 * Stages, each a function from one representation to the next:
 *
 *   sysletc_front()   grammar/ (scan, parse -> AST) + lowering -> IR,
 *                     itself a chain (lower.c, lower-ir.c): ast_parse,
 *                     sysletc_check (check.c: what statements say
 *                     without their names' meaning: loops, labels,
 *                     modifiers, parameter types, unreachable code),
 *                     sysletc_resolve (resolve.c: what declarations say
 *                     on their own: redefinitions, predefined names,
 *                     parameter counts, element types),
 *                     lower_file (AST -> IR, targets as placeholders,
 *                     and the checks that need the names' meaning),
 *                     then lower_finish: target and label resolution,
 *                     ir_tidy_branches, the lost-atom check,
 *                     ir_drop_unreachable, ir_tidy_cells (ir-pass.c)
 *   ir_layout()       order atoms so every skip target follows its
 *                     branch; insert trampolines where unavoidable
 *   ir_emit()         IR -> struct slo_image, then slo_image_verify()
 *   sysletc_compile() all three, for callers that want an image
 *
 * Errors are records queued in struct diag (file:line:col with caret),
 * all of a file in one run; a stage returns NULL / -1 when d->errors > 0,
 * and the caller prints them (diag_flush()) where and when it wants.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grammar/diag.h"
#include "compiler/ir.h"
#include "image/image.h"

struct sysletc_options {
	int		profile;	/* enum systab_profile */
	unsigned int	warnings;	/* SYSLETC_W_* bits enabled by -W */
	unsigned int	no_warnings;	/* and disabled by -Wno- */
};

#define SYSLETC_W_UNUSED	0x1u	/* unused var, buffer, data, label */
#define SYSLETC_W_UNREACHABLE	0x2u	/* statements after stop/goto/break */
#define SYSLETC_W_CALL_OUTPUT	0x4u	/* &var given to a call that writes
					   more than that word (pipe) */
#define SYSLETC_W_SIZEOF_STR	0x8u	/* sizeof() of a str parameter: a
					   word, not the string's length */
#define SYSLETC_W_CALL_INPUT	0x10u	/* data laid out for the other
					   word size, read as a struct */
#define SYSLETC_W_ALL		0xffu
/* On unless disabled: a zeroed struct sysletc_options has them. */
#define SYSLETC_W_DEFAULT	(SYSLETC_W_CALL_OUTPUT | SYSLETC_W_SIZEOF_STR | \
				 SYSLETC_W_CALL_INPUT)

/*
 * Built-in names (builtins.c): one row each, for lowering and for the
 * shell's completion.  The language's keywords are grammar/words.h.
 */
enum sysletc_builtin_kind {
	SYSLETC_B_DATA,		/* a data constructor: u32(x), htons(x), ... */
	SYSLETC_B_CALL,		/* a pseudo-call: syscall(NR, ...) */
};

struct sysletc_builtin {
	const char	*name;
	unsigned int	kind;		/* enum sysletc_builtin_kind */
	unsigned int	size;		/* bytes of the item; 0: a word */
	bool		big;		/* stored big endian (network order) */
	bool		elem;		/* also an element type: u32 a[4]; */
	unsigned char	min_args, max_args;
};

const struct sysletc_builtin *sysletc_builtins(size_t *n);
const struct sysletc_builtin *sysletc_builtin_find(const char *name);
/* The names of one kind (only element types if elem_only) as a list for
 * a message, "a, b or c", into buf; returns the length it needs. */
size_t sysletc_builtin_list(char *buf, size_t len, unsigned int kind,
			    bool elem_only);

/* sysletc_words() (sysletc.h, builtins.c): the keywords
 * (grammar/words.c), the built-ins above and the predefined constants
 * (common/consts.c). */

struct ast_file;

/* The front end's first pass after parsing (check.c): every diagnostic
 * about a syslet's statements that needs no symbol table; -1 if it
 * reported an error.  Lowering relies on it and does not repeat them. */
int sysletc_check(const struct ast_file *f, const struct sysletc_options *opt,
		  struct diag *d);

/* The next (resolve.c): what the declarations say on their own: names
 * declared twice in a scope or predefined, parameter counts, element
 * types; -1 if it reported an error.  Lowering leaves the refused
 * declarations out without repeating why. */
int sysletc_resolve(const struct ast_file *f,
		    const struct sysletc_options *opt, struct diag *d);
/* A predefined constant (O_RDONLY, AF_INET, EAGAIN ...): its value. */
bool sysletc_predefined(const char *name, int64_t *v);

/* Front end: parse and lower one source.  Owned by grammar/ + lower.c. */
struct ir_program *sysletc_front(const char *src, size_t len,
				 const struct sysletc_options *opt,
				 struct diag *d);

/* Back end. */
int ir_layout(struct ir_program *p, struct diag *d);
struct slo_image *ir_emit(const struct ir_program *p, struct diag *d);

/* The whole pipeline; NULL on error (the diagnostics queued in d). */
struct slo_image *sysletc_compile(const char *src, size_t len,
				  const struct sysletc_options *opt,
				  struct diag *d);

#endif /* SYSLET_COMPILER_H */
