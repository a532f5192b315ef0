/* ir.c: the IR's builder, its printer (--dump=ir) and freeing, shared by lowering, the back end and the tests that build programs by hand. */
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/ir.h"
#include "syslet.h"

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
	free(p->fuses);
	free(p->source);
	free(p);
}

/* ---- Building ----------------------------------------------------------- */

struct ir_program *ir_program_new(int profile, const char *source)
{
	struct ir_program *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->profile = profile;
	if (source && !(p->source = strdup(source))) {
		free(p);
		return NULL;
	}
	return p;
}

/* Room for one more element of size sz in *v (n used, *cap allocated):
 * the new element, zeroed, or NULL. */
static void *grow(void **v, size_t n, size_t *cap, size_t sz)
{
	if (n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		void *nv = realloc(*v, nc * sz);

		if (!nv)
			return NULL;
		*v = nv;
		*cap = nc;
	}
	return memset((char *)*v + n * sz, 0, sz);
}

/* A copy of s (NULL stays NULL); *ok cleared when memory ran out. */
static char *dup_or(const char *s, int *ok)
{
	char *r;

	if (!s)
		return NULL;
	r = strdup(s);
	if (!r)
		*ok = 0;
	return r;
}

int ir_add_cell(struct ir_program *p, enum ir_cell_kind kind,
		const char *name, int64_t value)
{
	struct ir_cell *c = grow((void **)&p->cells, p->nr_cells,
				 &p->cap_cells, sizeof(*c));
	int ok = 1;

	if (!c)
		return -1;
	c->kind = kind;
	c->name = dup_or(name, &ok);
	if (!ok)
		return -1;
	c->value = value;
	c->target_obj = IR_NONE;
	c->target_cell = IR_NONE;
	c->entry = IR_NONE;
	c->param_index = -1;
	c->param_type = SLO_PARAM_NONE;
	return (int)p->nr_cells++;
}

int ir_add_param(struct ir_program *p, const char *name, int entry,
		 int index, enum slo_param_type type)
{
	int c = ir_add_cell(p, IR_CELL_PARAM, name, 0);

	if (c >= 0) {
		p->cells[c].entry = entry;
		p->cells[c].param_index = index;
		p->cells[c].param_type = type;
	}
	return c;
}

int ir_add_addr(struct ir_program *p, int obj, int cell)
{
	int c = ir_add_cell(p, IR_CELL_ADDR, NULL, 0);

	if (c >= 0) {
		p->cells[c].target_obj = obj;
		p->cells[c].target_cell = cell;
	}
	return c;
}

int ir_add_object(struct ir_program *p, enum ir_obj_kind kind,
		  const char *name, const void *bytes, uint64_t size)
{
	struct ir_object *o = grow((void **)&p->objects, p->nr_objects,
				   &p->cap_objects, sizeof(*o));
	int ok = 1;

	if (!o)
		return -1;
	o->kind = kind;
	o->size = size;
	o->align = kind == IR_OBJ_BUFFER ? 16 : 1;
	o->name = dup_or(name, &ok);
	if (ok && bytes) {
		o->bytes = malloc(size ? size : 1);
		if (o->bytes)
			memcpy(o->bytes, bytes, size);
		else
			ok = 0;
	}
	if (!ok) {
		free(o->name);
		return -1;
	}
	return (int)p->nr_objects++;
}

int ir_add_atom(struct ir_program *p, unsigned long flags, long nr,
		const char *sysname, int ret, const int *args, int next,
		int skip)
{
	struct ir_atom *a = grow((void **)&p->atoms, p->nr_atoms,
				 &p->cap_atoms, sizeof(*a));
	int ok = 1, k = 0;

	if (!a)
		return -1;
	a->sysname = dup_or(sysname, &ok);
	if (!ok)
		return -1;
	a->flags = flags;
	a->nr = nr;
	a->ret = ret;
	for (int i = 0; i < 6; i++)
		a->args[i] = IR_NONE;
	while (args && k < 6 && args[k] != IR_NONE) {
		a->args[k] = args[k];
		k++;
	}
	a->next = next;
	a->skip = skip;
	a->role = SLO_ROLE_CALL;
	return (int)p->nr_atoms++;
}

int ir_add_entry(struct ir_program *p, const char *name, int first_atom)
{
	struct ir_entry *e = grow((void **)&p->entries, p->nr_entries,
				  &p->cap_entries, sizeof(*e));
	int ok = 1;

	if (!e)
		return -1;
	e->name = dup_or(name, &ok);
	if (!ok)
		return -1;
	e->first_atom = first_atom;
	return (int)p->nr_entries++;
}

int ir_add_label(struct ir_program *p, const char *name, int atom)
{
	struct ir_label *l = grow((void **)&p->labels, p->nr_labels,
				  &p->cap_labels, sizeof(*l));
	int ok = 1;

	if (!l)
		return -1;
	l->name = dup_or(name, &ok);
	if (!ok)
		return -1;
	l->atom = atom;
	return (int)p->nr_labels++;
}

int ir_add_fuse(struct ir_program *p, int test, int into)
{
	struct ir_fuse *f = grow((void **)&p->fuses, p->nr_fuses,
				 &p->cap_fuses, sizeof(*f));

	if (!f)
		return -1;
	f->test = test;
	f->into = into;
	return (int)p->nr_fuses++;
}

/* ---- Printing ----------------------------------------------------------- */

static const char *const cell_kinds[] = { "var", "const", "param", "addr",
					  "scratch", "mem", "narrow" };
static const char *const obj_kinds[] = { "buffer", "data", "string" };
static const char *const roles[] = { "call", "arith", "copy", "test",
				     "tramp", "stop" };

static void dump_flags(FILE *f, unsigned long fl)
{
	static const struct { unsigned long bit; const char *name; } names[] = {
		{ SYSLET_ASYNC, "ASYNC" }, { SYSLET_SYNC, "SYNC" },
		{ SYSLET_NO_COMPLETE, "NO_COMPLETE" },
		{ SYSLET_STOP_ON_NONZERO, "STOP_ON_NONZERO" },
		{ SYSLET_STOP_ON_ZERO, "STOP_ON_ZERO" },
		{ SYSLET_STOP_ON_NEGATIVE, "STOP_ON_NEGATIVE" },
		{ SYSLET_STOP_ON_NON_POSITIVE, "STOP_ON_NON_POSITIVE" },
		{ SYSLET_SKIP_TO_NEXT_ON_STOP, "SKIP" },
	};
	int first = 1;

	fputc('[', f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (fl & names[i].bit) {
			fprintf(f, "%s%s", first ? "" : "|", names[i].name);
			first = 0;
		}
	fputc(']', f);
}

static void dump_bytes(FILE *f, const uint8_t *b, uint64_t n)
{
	for (uint64_t i = 0; i < n && i < 48; i++)
		fprintf(f, "%s%02x", i ? " " : "", b[i]);
	if (n > 48)
		fputs(" ...", f);
}

static const char *cname(const struct ir_program *p, int c)
{
	if (c < 0 || (size_t)c >= p->nr_cells)
		return "?";
	return p->cells[c].display ? p->cells[c].display : "?";
}

static void dump_target(FILE *f, int t)
{
	if (t < 0)
		fputs("end", f);
	else
		fprintf(f, "a%d", t);
}

static const char *name_of(const char *const *v, size_t n, unsigned int k)
{
	return k < n ? v[k] : "?";
}

static void dump_cell(FILE *f, size_t i, const struct ir_cell *c)
{
	fprintf(f, "cell c%zu %s %s %s", i,
		name_of(cell_kinds, sizeof(cell_kinds) / sizeof(*cell_kinds),
			c->kind),
		c->name ? c->name : "-", c->display ? c->display : "?");
	switch (c->kind) {
	case IR_CELL_ADDR:
		if (c->target_obj >= 0)
			fprintf(f, " -> o%d", c->target_obj);
		else
			fprintf(f, " -> c%d", c->target_cell);
		if (c->target_off)
			fprintf(f, "+%llu", (unsigned long long)c->target_off);
		break;
	case IR_CELL_MEM:
	case IR_CELL_NARROW:
		fprintf(f, " -> o%d+%llu width %u", c->target_obj,
			(unsigned long long)c->target_off, c->width);
		break;
	case IR_CELL_PARAM:
		fprintf(f, " entry %d #%d %s", c->entry, c->param_index,
			c->param_type == SLO_PARAM_STR ? "str" :
			c->param_type == SLO_PARAM_SOCKADDR_IN ?
			"sockaddr_in" : "int");
		break;
	default:
		fprintf(f, " = %lld", (long long)c->value);
		break;
	}
	fputc('\n', f);
}

void ir_dump(FILE *f, const struct ir_program *p)
{
	const char *prof = systab_profile_name(p->profile);

	fprintf(f, "profile %s\n", prof ? prof : "?");
	for (size_t i = 0; i < p->nr_cells; i++)
		dump_cell(f, i, &p->cells[i]);
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];

		fprintf(f, "object o%zu %s %s size %llu align %u", i,
			name_of(obj_kinds, sizeof(obj_kinds) / sizeof(*obj_kinds),
				o->kind),
			o->name ? o->name : "-", (unsigned long long)o->size,
			o->align);
		if (o->pad)
			fprintf(f, " pad %llu", (unsigned long long)o->pad);
		if (o->bytes) {
			fputs(" : ", f);
			dump_bytes(f, o->bytes, o->size);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];

		fprintf(f, "atom a%zu %s %s(", i,
			name_of(roles, sizeof(roles) / sizeof(*roles), a->role),
			a->sysname ? a->sysname : "?");
		for (int j = 0; j < 6 && a->args[j] != IR_NONE; j++)
			fprintf(f, "%s%s", j ? ", " : "", cname(p, a->args[j]));
		fprintf(f, ")");
		if (a->ret != IR_NONE)
			fprintf(f, " -> %s", cname(p, a->ret));
		fprintf(f, " nr %ld ", a->nr);
		dump_flags(f, a->flags);
		fputs(" next ", f);
		dump_target(f, a->next);
		if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
			fputs(" skip ", f);
			dump_target(f, a->skip);
		}
		fprintf(f, " @%u:%u \"%s\"\n", a->loc.line, a->loc.col,
			a->text ? a->text : "");
	}
	for (size_t i = 0; i < p->nr_entries; i++) {
		fprintf(f, "entry %s ", p->entries[i].name);
		dump_target(f, p->entries[i].first_atom);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->nr_labels; i++)
		fprintf(f, "label %s a%d\n", p->labels[i].name,
			p->labels[i].atom);
	for (size_t i = 0; i < p->nr_fuses; i++)
		fprintf(f, "fuse a%d into a%d\n", p->fuses[i].test,
			p->fuses[i].into);
}
