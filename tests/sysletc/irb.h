/* irb.h: build IR programs by hand for the back-end tests (no front end needed). */
#ifndef SYSLET_TESTS_IRB_H
#define SYSLET_TESTS_IRB_H

#include <stdlib.h>
#include <string.h>

#include "compiler/compiler.h"
#include "common/systab.h"
#include "syslet.h"

#define IRB_CAP 256

static inline struct ir_program *irb_new(int profile)
{
	struct ir_program *p = calloc(1, sizeof(*p));

	p->profile = profile;
	p->source = strdup("hand.syslet");
	p->cells = calloc(IRB_CAP, sizeof(*p->cells));
	p->objects = calloc(IRB_CAP, sizeof(*p->objects));
	p->atoms = calloc(IRB_CAP, sizeof(*p->atoms));
	p->entries = calloc(IRB_CAP, sizeof(*p->entries));
	p->labels = calloc(IRB_CAP, sizeof(*p->labels));
	return p;
}

/* Hand-built programs own their strings as the front end's do. */
static inline void irb_free(struct ir_program *p)
{
	ir_program_free(p);
}

static inline int irb_cell(struct ir_program *p, enum ir_cell_kind kind,
			   const char *name, int64_t value)
{
	struct ir_cell *c = &p->cells[p->nr_cells];

	c->kind = kind;
	c->name = name ? strdup(name) : NULL;
	c->value = value;
	c->target_obj = IR_NONE;
	c->target_cell = IR_NONE;
	c->entry = IR_NONE;
	return (int)p->nr_cells++;
}

static inline int irb_param(struct ir_program *p, const char *name, int entry,
			    int index, enum slo_param_type type)
{
	int c = irb_cell(p, IR_CELL_PARAM, name, 0);

	p->cells[c].entry = entry;
	p->cells[c].param_index = index;
	p->cells[c].param_type = type;
	return c;
}

static inline int irb_object(struct ir_program *p, enum ir_obj_kind kind,
			     const char *name, const void *bytes, uint64_t size)
{
	struct ir_object *o = &p->objects[p->nr_objects];

	o->kind = kind;
	o->name = name ? strdup(name) : NULL;
	o->size = size;
	o->align = kind == IR_OBJ_BUFFER ? 16 : 1;
	if (bytes) {
		o->bytes = malloc(size);
		memcpy(o->bytes, bytes, size);
	}
	return (int)p->nr_objects++;
}

/* A cell holding the address of object obj (or of cell `cell`). */
static inline int irb_addr(struct ir_program *p, int obj, int cell)
{
	int c = irb_cell(p, IR_CELL_ADDR, NULL, 0);

	p->cells[c].target_obj = obj;
	p->cells[c].target_cell = cell;
	return c;
}

/* args: up to 6 cells, ended by IR_NONE. */
static inline int irb_atom(struct ir_program *p, unsigned long flags,
			   const char *sys, int ret, const int *args, int next,
			   int skip, const char *text)
{
	struct ir_atom *a = &p->atoms[p->nr_atoms];
	int k = 0;

	a->flags = flags;
	a->sysname = strdup(sys);
	a->nr = systab_lookup((enum systab_profile)p->profile, sys);
	a->ret = ret;
	for (int i = 0; i < 6; i++)
		a->args[i] = IR_NONE;
	while (args && args[k] != IR_NONE && k < 6) {
		a->args[k] = args[k];
		k++;
	}
	a->next = next;
	a->skip = skip;
	a->role = SLO_ROLE_CALL;
	a->loc.line = (unsigned)p->nr_atoms + 1;
	a->loc.col = 1;
	a->text = text ? strdup(text) : NULL;
	return (int)p->nr_atoms++;
}

static inline int irb_entry(struct ir_program *p, const char *name, int first)
{
	p->entries[p->nr_entries].name = strdup(name);
	p->entries[p->nr_entries].first_atom = first;
	return (int)p->nr_entries++;
}

static inline void irb_label(struct ir_program *p, const char *name, int atom)
{
	p->labels[p->nr_labels].name = strdup(name);
	p->labels[p->nr_labels].atom = atom;
	p->nr_labels++;
}

#define ARGS(...) ((const int[]){ __VA_ARGS__, IR_NONE })
#define SKIP SYSLET_SKIP_TO_NEXT_ON_STOP

#endif /* SYSLET_TESTS_IRB_H */
