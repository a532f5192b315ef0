/* obj-fuzz.c: libFuzzer target: any bytes through libsyslet's syslet_obj__open_mem() and, when accepted, every accessor, an instance and its binding. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsyslet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The reader's own target (read-fuzz.c) stops at the image model; this
 * one goes on through what libsyslet adds before anything runs: its
 * checks of symbols and relocations, the native numbering, the symbol
 * index, the listing, and an instance (relocated, bound, each object and
 * cell touched at both ends, each atom's result read).  Nothing runs.
 */

static void count_line(const struct syslet_list_line *line, void *ctx)
{
	*(size_t *)ctx += strlen(line->text);
}

/* A value each parameter's type takes, so that binding gets through. */
static const char *arg_for(enum syslet_param_type t)
{
	return t == SYSLET_PARAM_INT ? "7" :
	       t == SYSLET_PARAM_SOCKADDR_IN ? "127.0.0.1:9" : "s";
}

static void bind_entries(const struct syslet_obj *obj,
			 struct syslet_inst *inst)
{
	char err[256];

	for (size_t e = 0; e < syslet_obj__entry_count(obj); e++) {
		const char *name = syslet_obj__entry_name(obj, e);
		int np = syslet_obj__entry_params(obj, name);
		char *argv[16];
		struct syslet_uatom *a;
		long res;

		for (int k = 0; k < np && k < 16; k++) {
			struct syslet_param p = { .sz = sizeof(p) };

			if (syslet_obj__entry_param(obj, name, (size_t)k, &p))
				__builtin_trap();	/* counted, not there */
			argv[k] = (char *)arg_for(p.type);
		}
		if (np >= 0 && np <= 16)
			syslet_inst__bind(inst, name, np, argv, err,
					  sizeof(err));
		a = syslet_inst__entry(inst, name);
		if (a && syslet_inst__result(inst, a, &res))
			__builtin_trap();	/* its own entry atom */
	}
}

static void touch_instance(const struct syslet_obj *obj,
			   struct syslet_inst *inst)
{
	for (size_t i = 0; i < syslet_obj__sym_count(obj); i++) {
		struct syslet_sym_info si = { .sz = sizeof(si) };
		const volatile unsigned char *p;
		unsigned char first;
		size_t sz = 0;

		if (syslet_obj__sym_info(obj, i, &si))
			__builtin_trap();
		p = syslet_inst__object(inst, si.name, &sz);
		/* Data may be read-only: read both ends. */
		if (p && sz)
			first = p[0] ^ p[sz - 1];
		(void)first;
		if (syslet_inst__cell(inst, si.name))
			*syslet_inst__cell(inst, si.name) += 1;
	}
	for (size_t i = 0; i < syslet_obj__atom_count(obj); i++) {
		struct syslet_atom_info ai = { .sz = sizeof(ai) };
		struct syslet_uatom *a = syslet_inst__atom(inst, i);
		long res;

		if (!a || syslet_inst__atom_index(inst, a) != (long)i ||
		    syslet_inst__atom_info(inst, a, &ai) ||
		    syslet_inst__result(inst, a, &res))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct syslet_obj *obj;
	struct syslet_inst *inst;
	char err[256];
	size_t chars = 0;

	obj = syslet_obj__open_mem(data, size, err, sizeof(err));
	if (!obj)
		return 0;
	syslet_obj__list(obj, count_line, &chars);
	for (size_t i = 0; i < syslet_obj__atom_count(obj); i++) {
		struct syslet_atom_info ai = { .sz = sizeof(ai) };

		if (syslet_obj__atom_info(obj, i, &ai))
			__builtin_trap();
	}
	for (size_t i = 0; i < syslet_obj__cell_count(obj); i++)
		if (!syslet_obj__cell_name(obj, i))
			__builtin_trap();
	for (size_t i = 0; i < syslet_obj__sym_count(obj); i++) {
		struct syslet_sym_info si = { .sz = sizeof(si) };

		if (!syslet_obj__sym_info(obj, i, &si))
			syslet_obj__find_atom(obj, si.name);
	}
	inst = syslet_obj__instantiate(obj, err, sizeof(err));
	if (inst) {
		bind_entries(obj, inst);
		touch_instance(obj, inst);
		syslet_inst__free(inst);
	}
	syslet_obj__close(obj);
	return 0;
}

#ifndef SYSLET_LIBFUZZER
/* Built without libFuzzer: replays the files it is given (make check). */
#include "fuzz-replay.h"
#endif
