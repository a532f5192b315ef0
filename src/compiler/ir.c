/* ir.c: freeing IR programs, shared by the front end that builds them and the tests that build them by hand. */
#include <stdlib.h>

#include "compiler/ir.h"

void ir_atom_clear(struct ir_atom *a)
{
	free(a->sysname);
	free(a->text);
	a->sysname = NULL;
	a->text = NULL;
	for (int k = 0; k < 7; k++) {
		free(a->names[k]);
		a->names[k] = NULL;
	}
}

void ir_program_free(struct ir_program *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_cells; i++) {
		free(p->cells[i].name);
		free(p->cells[i].display);
	}
	for (size_t i = 0; i < p->nr_objects; i++) {
		free(p->objects[i].name);
		free(p->objects[i].bytes);
	}
	for (size_t i = 0; i < p->nr_atoms; i++)
		ir_atom_clear(&p->atoms[i]);
	for (size_t i = 0; i < p->nr_entries; i++)
		free(p->entries[i].name);
	for (size_t i = 0; i < p->nr_labels; i++)
		free(p->labels[i].name);
	free(p->cells);
	free(p->objects);
	free(p->atoms);
	free(p->entries);
	free(p->labels);
	free(p->source);
	free(p);
}
