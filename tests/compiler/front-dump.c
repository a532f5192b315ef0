/* front-dump.c: run sysletc_front() on a file and print its diagnostics, or a dump of the IR, for golden tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/compiler.h"
#include "tests/lib/slurp.h"
#include "syslet.h"

static const char *const kinds[] = { "var", "const", "param", "addr",
				     "scratch", "mem", "narrow" };
static const char *const obj_kinds[] = { "buffer", "data", "string" };
static const char *const roles[] = { "call", "arith", "copy", "test",
				     "tramp", "stop" };

static void flags(FILE *f, unsigned long fl)
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

static void bytes(FILE *f, const uint8_t *b, uint64_t n)
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

static void target(FILE *f, int t)
{
	if (t < 0)
		fputs("end", f);
	else
		fprintf(f, "a%d", t);
}

static void dump(FILE *f, const struct ir_program *p)
{
	fprintf(f, "profile %s\n", systab_profile_name(p->profile));
	for (size_t i = 0; i < p->nr_cells; i++) {
		const struct ir_cell *c = &p->cells[i];

		fprintf(f, "cell c%zu %s %s %s", i, kinds[c->kind],
			c->name ? c->name : "-", c->display);
		switch (c->kind) {
		case IR_CELL_ADDR:
			if (c->target_obj >= 0)
				fprintf(f, " -> o%d", c->target_obj);
			else
				fprintf(f, " -> c%d", c->target_cell);
			if (c->target_off)
				fprintf(f, "+%llu",
					(unsigned long long)c->target_off);
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
	for (size_t i = 0; i < p->nr_objects; i++) {
		const struct ir_object *o = &p->objects[i];

		fprintf(f, "object o%zu %s %s size %llu align %u",
			i, obj_kinds[o->kind], o->name ? o->name : "-",
			(unsigned long long)o->size, o->align);
		if (o->pad)
			fprintf(f, " pad %llu", (unsigned long long)o->pad);
		if (o->bytes) {
			fputs(" : ", f);
			bytes(f, o->bytes, o->size);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];

		fprintf(f, "atom a%zu %s %s(", i, roles[a->role],
			a->sysname ? a->sysname : "?");
		for (int j = 0; j < 6 && a->args[j] != IR_NONE; j++)
			fprintf(f, "%s%s", j ? ", " : "", cname(p, a->args[j]));
		fprintf(f, ")");
		if (a->ret != IR_NONE)
			fprintf(f, " -> %s", cname(p, a->ret));
		fprintf(f, " nr %ld ", a->nr);
		flags(f, a->flags);
		fputs(" next ", f);
		target(f, a->next);
		if (a->flags & SYSLET_SKIP_TO_NEXT_ON_STOP) {
			fputs(" skip ", f);
			target(f, a->skip);
		}
		fprintf(f, " @%u:%u \"%s\"\n", a->loc.line, a->loc.col,
			a->text ? a->text : "");
	}
	for (size_t i = 0; i < p->nr_entries; i++) {
		fprintf(f, "entry %s ", p->entries[i].name);
		target(f, p->entries[i].first_atom);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->nr_labels; i++)
		fprintf(f, "label %s a%d\n", p->labels[i].name,
			p->labels[i].atom);
}

int main(int argc, char **argv)
{
	struct sysletc_options opt = { .profile = systab_native_profile() };
	struct ir_program *p;
	struct diag d;
	const char *file = NULL;
	int ir = 0, werror = 0;
	size_t len;
	char *src;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--target=", 9)) {
			opt.profile = systab_profile_parse(argv[i] + 9);
			if (opt.profile < 0) {
				fprintf(stderr, "front-dump: unknown target '%s'\n",
					argv[i] + 9);
				return 2;
			}
		} else if (!strcmp(argv[i], "--ir")) {
			ir = 1;
		} else if (!strcmp(argv[i], "-Wall")) {
			opt.warnings = SYSLETC_W_ALL;
		} else if (!strcmp(argv[i], "-Wunused")) {
			opt.warnings |= SYSLETC_W_UNUSED;
		} else if (!strcmp(argv[i], "-Wunreachable")) {
			opt.warnings |= SYSLETC_W_UNREACHABLE;
		} else if (!strcmp(argv[i], "-Wno-call-output")) {
			opt.no_warnings |= SYSLETC_W_CALL_OUTPUT;
		} else if (!strcmp(argv[i], "-Werror")) {
			werror = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: front-dump [--target=P] [--ir] "
				"[-Wall|-Wunused|-Wunreachable] "
				"[-Wno-call-output] [-Werror] FILE\n");
			return 2;
		} else {
			file = argv[i];
		}
	}
	if (!file) {
		fprintf(stderr, "front-dump: no input file\n");
		return 2;
	}
	src = slurp(file, &len);
	if (!src) {
		fprintf(stderr, "front-dump: %s: %s\n", file, strerror(errno));
		return 2;
	}
	diag_init(&d, file, src, len, stdout);
	d.werror = werror;
	p = sysletc_front(src, len, &opt, &d);
	diag_flush(&d);
	if (p && ir)
		dump(stdout, p);
	ir_program_free(p);
	free(src);
	return d.errors ? 1 : 0;
}
