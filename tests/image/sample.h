/* sample.h: a small hand-built image (open/read/write/close) for the image tests. */
#ifndef SYSLET_TESTS_IMAGE_SAMPLE_H
#define SYSLET_TESTS_IMAGE_SAMPLE_H

#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "common/systab.h"
#include "syslet.h"

/*
 * cat(str path): fd = open(path, 0) stop-on-negative; loop: n = read(fd,
 * buf, 64) stop-on-non-positive|skip -> close; write(1, buf, n) -> loop;
 * close(fd).  Cells: 0 path, 1 fd, 2 n, 3 $0, 4 $64, 5 &buf, 6 $1,
 * 7 "hi" (address of rodata).
 */
enum { S_PATH, S_FD, S_N, S_C0, S_C64, S_BUF, S_C1, S_HI, S_NCELLS };

static inline void sample_atom(struct slo_image *img, size_t i,
			       unsigned long flags, const char *sys, int ret,
			       const int *args, int next)
{
	unsigned int w = img->word_size;
	uint64_t base = i * 11 * w;
	struct slo_reloc *r = &img->relocs[img->nr_relocs];

	slo_image_set_word(img, SLO_SEC_ATOMS, base, flags);
	slo_image_set_word(img, SLO_SEC_ATOMS, base + w,
			   (uint64_t)systab_lookup(img->profile, sys));
	if (ret >= 0)
		*r++ = (struct slo_reloc){ SLO_SEC_ATOMS, base + 2 * w,
					   SLO_SEC_CELLS, (uint64_t)ret * w };
	if (next >= 0)
		*r++ = (struct slo_reloc){ SLO_SEC_ATOMS, base + 3 * w,
					   SLO_SEC_ATOMS, (uint64_t)next * 11 * w };
	for (int a = 0; args[a] >= 0; a++)
		*r++ = (struct slo_reloc){ SLO_SEC_ATOMS, base + (4 + a) * w,
					   SLO_SEC_CELLS, (uint64_t)args[a] * w };
	img->nr_relocs = (size_t)(r - img->relocs);
	img->debug[i] = (struct slo_debug){ (uint32_t)(10 + i), 5,
					    SLO_ROLE_CALL, strdup(sys), NULL };
}

static inline void sample_sym(struct slo_image *img, const char *name,
			      enum slo_sym_kind kind, enum slo_section sec,
			      uint64_t value, uint64_t size)
{
	struct slo_symbol *s = &img->syms[img->nr_syms++];

	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->kind = kind;
	s->section = sec;
	s->value = value;
	s->size = size;
	s->entry = -1;
	s->param_index = -1;
}

static inline struct slo_image *sample_image(int profile)
{
	unsigned int w = systab_word_size(profile);
	struct slo_image *img = slo_image_new(w, profile);
	static const int a_open[] = { S_PATH, S_C0, -1 };
	static const int a_read[] = { S_FD, S_BUF, S_C64, -1 };
	static const int a_write[] = { S_C1, S_BUF, S_N, -1 };
	static const int a_close[] = { S_FD, -1 };

	img->nr_atoms = 4;
	img->size[SLO_SEC_ATOMS] = 4 * 11 * w;
	img->data[SLO_SEC_ATOMS] = calloc(4, 11 * w);
	img->size[SLO_SEC_CELLS] = S_NCELLS * w;
	img->data[SLO_SEC_CELLS] = calloc(S_NCELLS, w);
	img->size[SLO_SEC_RODATA] = 3;
	img->data[SLO_SEC_RODATA] = (uint8_t *)strdup("hi");
	img->size[SLO_SEC_BSS] = 64;
	img->align[SLO_SEC_BSS] = 32;
	img->relocs = calloc(32, sizeof(*img->relocs));
	img->debug = calloc(4, sizeof(*img->debug));
	img->source = strdup("tests/cat.syslet");
	slo_image_set_word(img, SLO_SEC_CELLS, S_C64 * w, 64);
	slo_image_set_word(img, SLO_SEC_CELLS, S_C1 * w, 1);
	slo_image_set_word(img, SLO_SEC_CELLS, S_FD * w, (uint64_t)-1);

	sample_atom(img, 0, SYSLET_STOP_ON_NEGATIVE, "open", S_FD, a_open, 1);
	sample_atom(img, 1,
		    SYSLET_STOP_ON_NON_POSITIVE | SYSLET_SKIP_TO_NEXT_ON_STOP,
		    "read", S_N, a_read, 3);
	sample_atom(img, 2, 0, "close", -1, a_close, -1);
	sample_atom(img, 3, 0, "write", -1, a_write, 1);
	img->debug[0].text = strdup("fd = open(path, 0);");
	img->debug[2].role = SLO_ROLE_STOP;
	img->relocs[img->nr_relocs++] = (struct slo_reloc){
		SLO_SEC_CELLS, S_BUF * w, SLO_SEC_BSS, 0 };
	img->relocs[img->nr_relocs++] = (struct slo_reloc){
		SLO_SEC_CELLS, S_HI * w, SLO_SEC_RODATA, 0 };
	slo_image_sort_relocs(img);

	img->syms = calloc(8, sizeof(*img->syms));
	sample_sym(img, "cat.again", SLO_SYM_LABEL, SLO_SEC_ATOMS, 11 * w, 0);
	sample_sym(img, "cat", SLO_SYM_ENTRY, SLO_SEC_ATOMS, 0, 4 * 11 * w);
	sample_sym(img, "cat.path", SLO_SYM_PARAM, SLO_SEC_CELLS, 0, w);
	img->syms[2].entry = 1;
	img->syms[2].param_index = 0;
	img->syms[2].param_type = SLO_PARAM_STR;
	sample_sym(img, "cat.fd", SLO_SYM_VAR, SLO_SEC_CELLS, S_FD * w, w);
	sample_sym(img, "cat.n", SLO_SYM_VAR, SLO_SEC_CELLS, S_N * w, w);
	sample_sym(img, "buf", SLO_SYM_BUFFER, SLO_SEC_BSS, 0, 64);
	sample_sym(img, "greeting", SLO_SYM_DATA, SLO_SEC_RODATA, 0, 3);
	return img;
}

#endif /* SYSLET_TESTS_IMAGE_SAMPLE_H */
