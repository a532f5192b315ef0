/* irb.h: shorthands over the IR builder of src/compiler/ir.c for the back-end tests that build programs by hand. */
#ifndef SYSLET_TESTS_IRB_H
#define SYSLET_TESTS_IRB_H

#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "common/systab.h"
#include "syslet.h"

/* A test has nothing to do without its program: out of memory ends it. */
static inline int irb_must(int i)
{
	if (i < 0)
		abort();
	return i;
}

static inline struct ir_program *irb_new(int profile)
{
	struct ir_program *p = ir_program_new(profile, "hand.syslet");

	if (!p)
		abort();
	return p;
}

static inline void irb_free(struct ir_program *p)
{
	ir_program_free(p);
}

#define irb_cell(p, kind, name, value) \
	irb_must(ir_add_cell(p, kind, name, value))
#define irb_param(p, name, entry, index, type) \
	irb_must(ir_add_param(p, name, entry, index, type))
#define irb_object(p, kind, name, bytes, size) \
	irb_must(ir_add_object(p, kind, name, bytes, size))
#define irb_addr(p, obj, cell)	irb_must(ir_add_addr(p, obj, cell))
#define irb_entry(p, name, first) irb_must(ir_add_entry(p, name, first))
#define irb_label(p, name, atom) ((void)irb_must(ir_add_label(p, name, atom)))

/* An atom calling sys by name, at line "its index + 1" for listings. */
static inline int irb_atom(struct ir_program *p, unsigned long flags,
			   const char *sys, int ret, const int *args, int next,
			   int skip, const char *text)
{
	int i = irb_must(ir_add_atom(p, flags,
				     systab_lookup((enum systab_profile)p->profile,
						   sys),
				     sys, ret, args, next, skip));
	struct ir_atom *a = &p->atoms[i];

	a->loc.line = (unsigned int)i + 1;
	a->loc.col = 1;
	if (text && !(a->text = strdup(text)))
		abort();
	return i;
}

#define ARGS(...) ((const int[]){ __VA_ARGS__, IR_NONE })
#define SKIP SYSLET_SKIP_TO_NEXT_ON_STOP

#endif /* SYSLET_TESTS_IRB_H */
