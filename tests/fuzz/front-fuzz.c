/* front-fuzz.c: fuzz target for the front end (scanner, parser, lowering, then layout and emit); a replay/mutation driver without libFuzzer. */
#define _GNU_SOURCE	/* asprintf, open_memstream */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/systab.h"
#include "compiler/compiler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Any bytes must give diagnostics or a program, never a crash, a hang,
 * a leak or an internal error; and a program must satisfy what layout
 * relies on.
 */
static void check_program(const struct ir_program *p)
{
	for (size_t i = 0; i < p->nr_atoms; i++) {
		const struct ir_atom *a = &p->atoms[i];
		unsigned long stops = a->flags & 0x78;

		if (stops & (stops - 1))
			abort();	/* two stop flags: the kernel never stops */
		if (a->next != IR_NONE &&
		    (a->next < 0 || (size_t)a->next >= p->nr_atoms))
			abort();
		if ((a->flags & 0x80) &&
		    (a->skip < 0 || (size_t)a->skip >= p->nr_atoms))
			abort();
		for (int j = 0; j < 6 && a->args[j] != IR_NONE; j++)
			if (a->args[j] < 0 || (size_t)a->args[j] >= p->nr_cells)
				abort();
		if (a->ret != IR_NONE &&
		    (a->ret < 0 || (size_t)a->ret >= p->nr_cells))
			abort();
	}
	for (size_t i = 0; i < p->nr_entries; i++)
		if (p->entries[i].first_atom < 0 ||
		    (size_t)p->entries[i].first_atom >= p->nr_atoms)
			abort();
}

/* Whatever the front end accepts, layout and emit must turn into an
 * image that verifies: the IR contract, checked on every input. */
static void pipeline(struct ir_program *p, struct diag *d)
{
	struct slo_image *img;

	if (ir_layout(p, d))
		abort();
	img = ir_emit(p, d);
	if (!img || slo_image_verify(img, NULL, NULL))
		abort();
	slo_image_free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int profiles[] = { SYSTAB_X86_64, SYSTAB_I386_2007 };
	char *buf = NULL;
	size_t n = 0;

	for (size_t i = 0; i < 2; i++) {
		struct sysletc_options opt = { .profile = profiles[i],
						 .warnings = SYSLETC_W_ALL };
		FILE *out = open_memstream(&buf, &n);
		struct ir_program *p;
		struct diag d;

		if (!out)
			return 0;
		diag_init(&d, "fuzz.syslet", (const char *)data, size, out);
		p = sysletc_front((const char *)data, size, &opt, &d);
		if (p) {
			check_program(p);
			pipeline(p, &d);
		}
		if (!p && !d.errors)
			abort();	/* failure must always say why */
		ir_program_free(p);
		diag_flush(&d);
		fclose(out);
		/* An internal error is a bug even when reported: lowering
		 * lost atoms without a diagnostic, or layout or emit found
		 * the IR broken.  (Counted, not searched for in the text:
		 * the quoted source lines may hold any words.) */
		if (d.internal)
			abort();
		free(buf);
		buf = NULL;
	}
	return 0;
}

#ifndef SYSLET_LIBFUZZER
static int run_file(const char *path, unsigned int mutations,
		    unsigned long *runs)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf, *m;
	long len;
	uint32_t seed = 2463534242u;

	if (!f) {
		perror(path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (len < 0 || len > (1 << 20)) {
		fclose(f);
		return 0;
	}
	buf = malloc((size_t)len + 1);
	m = malloc((size_t)len + 16);
	if (!buf || !m || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		free(m);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	(*runs)++;
	/* Cheap deterministic mutations: flip, insert or drop a byte, or
	 * cut the input short; enough to walk the error paths in make check. */
	for (unsigned int i = 0; i < mutations && len > 0; i++) {
		size_t mlen = (size_t)len, at;
		static const char tokens[] = "{}();,=<>!&|+-*/\"'\n0aZ_#@\\\0";

		memcpy(m, buf, (size_t)len);
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		at = seed % (size_t)len;
		switch ((seed >> 24) % 4) {
		case 0:
			m[at] = (uint8_t)tokens[(seed >> 8) % (sizeof(tokens) - 1)];
			break;
		case 1:
			memmove(m + at + 1, m + at, mlen - at);
			m[at] = (uint8_t)tokens[(seed >> 8) % (sizeof(tokens) - 1)];
			mlen++;
			break;
		case 2:
			memmove(m + at, m + at + 1, mlen - at - 1);
			mlen--;
			break;
		default:
			mlen = at;
			break;
		}
		LLVMFuzzerTestOneInput(m, mlen);
		(*runs)++;
	}
	free(buf);
	free(m);
	return 0;
}

static int run_path(const char *path, unsigned int mutations,
		    unsigned long *runs)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	int rc = 0;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path, mutations, runs);
	dir = opendir(path);
	if (!dir) {
		perror(path);
		return -1;
	}
	while ((de = readdir(dir))) {
		char *sub;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&sub, "%s/%s", path, de->d_name) < 0)
			break;
		if (run_path(sub, mutations, runs))
			rc = -1;
		free(sub);
	}
	closedir(dir);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned int mutations = 0;
	unsigned long runs = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--mutate=", 9)) {
			mutations = (unsigned int)strtoul(argv[i] + 9, NULL, 10);
			continue;
		}
		if (run_path(argv[i], mutations, &runs))
			rc = 1;
	}
	printf("%lu inputs run\n", runs);
	return rc;
}
#endif
