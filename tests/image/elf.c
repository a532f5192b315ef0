/* elf.c: the .slo writer and reader: round trip, and clean errors on truncated or corrupt files. */
#define _GNU_SOURCE	/* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sample.h"

static FILE *devnull;

static const int profiles[] = { SYSTAB_I386_2007, SYSTAB_I386, SYSTAB_X86_64 };

/* Write img to an anonymous file and return its bytes. */
static uint8_t *to_bytes(const struct slo_image *img, size_t *len)
{
	char err[256] = "";
	FILE *f = tmpfile();
	uint8_t *buf;
	long n;

	assert_non_null(f);
	if (slo_image_write(img, fileno(f), err, sizeof(err)))
		fail_msg("write: %s", err);
	n = lseek(fileno(f), 0, SEEK_END);
	assert_true(n > 0);
	buf = malloc((size_t)n);
	assert_int_equal(pread(fileno(f), buf, (size_t)n, 0), n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void assert_same(const struct slo_image *a, const struct slo_image *b)
{
	assert_int_equal(a->word_size, b->word_size);
	assert_int_equal(a->profile, b->profile);
	assert_int_equal(a->nr_atoms, b->nr_atoms);
	for (int s = 0; s < SLO_NR_SECTIONS; s++) {
		assert_int_equal(a->size[s], b->size[s]);
		if (s != SLO_SEC_BSS && a->size[s])
			assert_memory_equal(a->data[s], b->data[s], a->size[s]);
	}
	assert_int_equal(b->align[SLO_SEC_BSS], 32);
	assert_int_equal(a->nr_relocs, b->nr_relocs);
	for (size_t i = 0; i < a->nr_relocs; i++) {
		assert_int_equal(a->relocs[i].where, b->relocs[i].where);
		assert_int_equal(a->relocs[i].offset, b->relocs[i].offset);
		assert_int_equal(a->relocs[i].target, b->relocs[i].target);
		assert_int_equal(a->relocs[i].addend, b->relocs[i].addend);
	}
	assert_int_equal(a->nr_syms, b->nr_syms);
	for (size_t i = 0; i < a->nr_syms; i++) {
		const struct slo_symbol *x = &a->syms[i], *y = &b->syms[i];

		assert_string_equal(x->name, y->name);
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->section, y->section);
		assert_int_equal(x->value, y->value);
		assert_int_equal(x->size, y->size);
		if (x->kind == SLO_SYM_PARAM) {
			assert_int_equal(x->entry, y->entry);
			assert_int_equal(x->param_index, y->param_index);
			assert_int_equal(x->param_type, y->param_type);
		}
	}
	assert_string_equal(a->source, b->source);
	for (size_t i = 0; i < a->nr_atoms; i++) {
		assert_int_equal(a->debug[i].line, b->debug[i].line);
		assert_int_equal(a->debug[i].col, b->debug[i].col);
		assert_int_equal(a->debug[i].role, b->debug[i].role);
		assert_string_equal(a->debug[i].syscall, b->debug[i].syscall);
		if (a->debug[i].text)
			assert_string_equal(a->debug[i].text, b->debug[i].text);
		else
			assert_null(b->debug[i].text);
	}
}

static void test_roundtrip(void **state)
{
	for (size_t p = 0; p < sizeof(profiles) / sizeof(*profiles); p++) {
		struct slo_image *img = sample_image(profiles[p]), *back;
		char err[256] = "";
		size_t len;
		uint8_t *buf;

		assert_int_equal(slo_image_verify(img, NULL, NULL), 0);
		buf = to_bytes(img, &len);
		back = slo_image_read_mem(buf, len, err, sizeof(err));
		if (!back)
			fail_msg("read: %s", err);
		assert_same(img, back);
		/* The reader's reloc lookup bisects the sorted table. */
		assert_non_null(slo_image_reloc_at(back, SLO_SEC_ATOMS,
						   3 * img->word_size));
		assert_null(slo_image_reloc_at(back, SLO_SEC_ATOMS,
					       2 * 11 * img->word_size +
						       3 * img->word_size));
		slo_image_free(back);
		slo_image_free(img);
		free(buf);
	}
}

/* Every failure is one line of text, never empty, never a crash. */
static void expect_clean(const uint8_t *buf, size_t len, int may_succeed)
{
	char err[256];
	struct slo_image *img;

	memset(err, 0, sizeof(err));
	img = slo_image_read_mem(buf, len, err, sizeof(err));
	if (img) {
		if (!may_succeed)
			fail_msg("accepted a truncated image of %zu bytes", len);
		/* Whatever got through obeys the contract, and prints. */
		assert_int_equal(slo_image_verify(img, NULL, NULL), 0);
		slo_image_list(img, devnull);
		slo_image_dot(img, devnull);
		slo_image_header(img, "X_H", devnull);
		slo_image_free(img);
		return;
	}
	assert_true(err[0] != '\0');
	assert_null(strchr(err, '\n'));
}

static void test_truncated(void **state)
{
	for (size_t p = 0; p < sizeof(profiles) / sizeof(*profiles); p++) {
		struct slo_image *img = sample_image(profiles[p]);
		size_t len;
		uint8_t *buf;

		/* One of them with a symbol prefix, as sysletc writes. */
		if (profiles[p] == SYSTAB_X86_64)
			img->prefix = strdup("pfx");
		buf = to_bytes(img, &len);
		for (size_t n = 0; n < len; n++) {
			/* A copy of exactly n bytes, so valgrind sees overreads. */
			uint8_t *cut = malloc(n ? n : 1);

			memcpy(cut, buf, n);
			expect_clean(cut, n, 0);
			free(cut);
		}
		expect_clean(buf, len, 1);
		free(buf);
		slo_image_free(img);
	}
}

static void test_corrupt(void **state)
{
	static const uint8_t patterns[] = { 0xff, 0x00, 0x80, 0x01, 0x7f };
	/* Under valgrind one pattern is enough to catch bad reads. */
	size_t npat = getenv("SLO_TEST_QUICK") ? 1 : sizeof(patterns);

	for (size_t p = 0; p < sizeof(profiles) / sizeof(*profiles); p++) {
		struct slo_image *img = sample_image(profiles[p]);
		size_t len;
		uint8_t *buf;

		if (profiles[p] == SYSTAB_X86_64)
			img->prefix = strdup("pfx");
		buf = to_bytes(img, &len);
		for (size_t off = 0; off < len; off++) {
			for (size_t k = 0; k < npat; k++) {
				uint8_t old = buf[off];

				buf[off] = k ? patterns[k] : old ^ patterns[k];
				expect_clean(buf, len, 1);
				buf[off] = old;
			}
		}
		free(buf);
		slo_image_free(img);
	}
}

static void test_foreign(void **state)
{
	struct slo_image *img = sample_image(SYSTAB_X86_64);
	char err[256];
	size_t len;
	uint8_t *buf = to_bytes(img, &len);
	FILE *self;

	buf[16] = 2; /* ET_EXEC */
	assert_null(slo_image_read_mem(buf, len, err, sizeof(err)));
	assert_non_null(strstr(err, "relocatable"));
	buf[16] = 1;
	buf[18] = 40; /* EM_ARM */
	assert_null(slo_image_read_mem(buf, len, err, sizeof(err)));
	assert_non_null(strstr(err, "machine"));
	free(buf);
	assert_null(slo_image_read_mem("#!/bin/sh\n", 10, err, sizeof(err)));
	assert_string_equal(err, "not an ELF file");
	/* This very test program is ELF but no syslet image. */
	self = fopen("/proc/self/exe", "rb");
	if (self) {
		static uint8_t exe[1 << 20];
		size_t n = fread(exe, 1, sizeof(exe), self);

		fclose(self);
		assert_null(slo_image_read_mem(exe, n, err, sizeof(err)));
	}
	assert_null(slo_image_read_file("/nonexistent/x.slo", err, sizeof(err)));
	assert_non_null(strstr(err, "No such file"));
	slo_image_free(img);
}

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The header of the section called name in an ELF image's bytes. */
static uint8_t *section_header(uint8_t *b, const char *name)
{
	int is64 = b[4] == 2;
	unsigned int w = is64 ? 8 : 4, ent = is64 ? 64 : 40;
	uint64_t shoff = le(b + (is64 ? 40 : 32), w);
	unsigned int shnum = (unsigned int)le(b + (is64 ? 60 : 48), 2);
	unsigned int shstr = (unsigned int)le(b + (is64 ? 62 : 50), 2);
	uint64_t stroff = le(b + shoff + shstr * ent + (is64 ? 24 : 16), w);

	for (unsigned int i = 0; i < shnum; i++) {
		uint8_t *h = b + shoff + (uint64_t)i * ent;

		if (!strcmp((char *)b + stroff + le(h, 4), name))
			return h;
	}
	fail_msg("no section %s", name);
	return NULL;
}

/* Set sh_size (field 0) or sh_offset (1) of the section called name. */
static void set_section_field(uint8_t *b, const char *name, int field,
			      uint64_t v)
{
	int is64 = b[4] == 2;
	unsigned int w = is64 ? 8 : 4;
	uint8_t *h = section_header(b, name);
	unsigned int at = field ? (is64 ? 24 : 16) : (is64 ? 32 : 20);

	for (unsigned int k = 0; k < w; k++)
		h[at + k] = (uint8_t)(v >> (8 * k));
}

static uint64_t section_field(uint8_t *b, const char *name, int field)
{
	int is64 = b[4] == 2;
	uint8_t *h = section_header(b, name);

	return le(h + (field ? (is64 ? 24 : 16) : (is64 ? 32 : 20)),
		  is64 ? 8 : 4);
}

static void set_section_size(uint8_t *b, const char *name, uint64_t size)
{
	set_section_field(b, name, 0, size);
}

/* A few bytes of image may not ask for more than a source could: the
 * size of .syslet.bss (no bytes in the file) is held to the limit
 * sysletc applies, as is every other size the reader takes. */
static void test_limits(void **state)
{
	for (size_t p = 0; p < sizeof(profiles) / sizeof(*profiles); p++) {
		struct slo_image *img = sample_image(profiles[p]), *back;
		char err[256];
		size_t len;
		uint8_t *buf = to_bytes(img, &len);

		set_section_size(buf, ".syslet.bss", 1ULL << 30);
		assert_null(slo_image_read_mem(buf, len, err, sizeof(err)));
		assert_string_equal(err, "section .syslet.bss holds 1073741824 "
				    "bytes, more than the 67108864 an image "
				    "may hold");
		set_section_size(buf, ".syslet.bss", SLO_MAX_BSS + 1ULL);
		assert_null(slo_image_read_mem(buf, len, err, sizeof(err)));
		/* The limit itself is fine. */
		set_section_size(buf, ".syslet.bss", SLO_MAX_BSS);
		back = slo_image_read_mem(buf, len, err, sizeof(err));
		assert_non_null(back);
		assert_int_equal(back->size[SLO_SEC_BSS], SLO_MAX_BSS);
		slo_image_free(back);
		free(buf);

		/* The model's checks, which the writer's caller and the
		 * reader share: an object, a parameter too many. */
		img->syms[5].size = SLO_MAX_OBJECT + 1ULL;
		img->size[SLO_SEC_BSS] = SLO_MAX_OBJECT + 1ULL;
		assert_true(slo_image_verify(img, NULL, NULL) > 0);
		img->syms[5].size = 64;
		img->size[SLO_SEC_BSS] = 64;
		assert_int_equal(slo_image_verify(img, NULL, NULL), 0);
		img->syms[2].param_index = SLO_MAX_PARAMS;
		assert_true(slo_image_verify(img, NULL, NULL) > 0);
		slo_image_free(img);
	}
}

/* Sections that share bytes of the file load as copies but are no
 * image sysletc or a linker writes: cells whose initial values are the
 * atoms, a string table inside the symbols.  Refused by name. */
static void test_overlap(void **state)
{
	static const char *const pairs[][2] = {
		{ ".syslet.cells", ".syslet.atoms" },
		{ ".syslet.atoms", ".syslet.cells" },
		{ ".strtab", ".symtab" },
		{ ".syslet.rodata", ".note.syslet" },
	};

	for (size_t p = 0; p < sizeof(profiles) / sizeof(*profiles); p++) {
		struct slo_image *img = sample_image(profiles[p]);
		char err[256];
		size_t len;
		uint8_t *buf = to_bytes(img, &len);

		for (size_t k = 0; k < sizeof(pairs) / sizeof(*pairs); k++) {
			const char *moved = pairs[k][0], *onto = pairs[k][1];
			uint64_t old = section_field(buf, moved, 1);

			/* Inside the other, as far as both sizes allow. */
			set_section_field(buf, moved, 1,
					  section_field(buf, onto, 1));
			assert_null(slo_image_read_mem(buf, len, err,
						       sizeof(err)));
			assert_non_null(strstr(err, moved));
			assert_non_null(strstr(err, onto));
			assert_non_null(strstr(err, " overlap in the file"));
			set_section_field(buf, moved, 1, old);
		}
		/* A section over the ELF header. */
		set_section_field(buf, ".syslet.cells", 1, 8);
		assert_null(slo_image_read_mem(buf, len, err, sizeof(err)));
		assert_string_equal(err, "section .syslet.cells overlaps the "
				    "ELF header");
		free(buf);
		slo_image_free(img);
	}
}

static void test_write_rejects(void **state)
{
	struct slo_image *img = sample_image(SYSTAB_I386);
	char err[256];
	FILE *f = tmpfile();

	img->relocs[0].offset = 3; /* not word aligned */
	assert_int_equal(slo_image_write(img, fileno(f), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "relocation"));
	img->relocs[0].offset = 2 * 4;
	img->profile = SYSTAB_X86_64; /* 4-byte words on a 64-bit profile */
	assert_int_equal(slo_image_write(img, fileno(f), err, sizeof(err)), -1);
	fclose(f);
	slo_image_free(img);
}

/* Offset of the syslet ABI note's descriptor in an image's bytes. */
static size_t note_desc(const uint8_t *buf, size_t len)
{
	static const char owner[8] = "syslet";

	for (size_t off = 12; off + 8 <= len; off++)
		if (!memcmp(buf + off, owner, 8) && buf[off - 12] == 7 &&
		    buf[off - 4] == SLO_NOTE_ABI)
			return off + 8;
	fail_msg("no ABI note");
	return 0;
}

static struct slo_image *read_back(const uint8_t *buf, size_t len, char *err)
{
	memset(err, 0, 256);
	return slo_image_read_mem(buf, len, err, 256);
}

/* The ELF names carry the prefix, the model's do not; format 2 records
 * it in the note, and format 1 images (no prefix) still read. */
static void test_prefix(void **state)
{
	for (size_t p = 0; p < sizeof(profiles) / sizeof(*profiles); p++) {
		struct slo_image *img = sample_image(profiles[p]), *back;
		char err[256];
		size_t len, desc;
		uint8_t *buf, *v;

		img->prefix = strdup("pfx");
		buf = to_bytes(img, &len);
		assert_non_null(memmem(buf, len, "pfx_cat\0", 8));
		assert_non_null(memmem(buf, len, "pfx_cat.fd\0", 11));
		assert_null(memmem(buf, len, "\0cat\0", 5));
		back = read_back(buf, len, err);
		if (!back)
			fail_msg("read: %s", err);
		assert_same(img, back);
		assert_string_equal(back->prefix, "pfx");
		assert_int_equal(back->format_version, 2);
		assert_non_null(slo_image_find(back, "cat", SLO_SYM_ENTRY));
		slo_image_free(back);

		desc = note_desc(buf, len);
		assert_int_equal(buf[desc - 16], 28);	/* descsz: 24 + "pfx" */
		assert_memory_equal(buf + desc + 24, "pfx", 4);
		/* Another prefix than the symbols': every name is wrong. */
		buf[desc + 26] = 'y';
		assert_null(read_back(buf, len, err));
		assert_non_null(strstr(err, "does not start with the image's prefix pfy_"));
		buf[desc + 26] = '-';
		assert_null(read_back(buf, len, err));
		assert_non_null(strstr(err, "not a C identifier"));
		buf[desc + 26] = 'x';
		buf[desc + 27] = 'x';	/* no NUL */
		assert_null(read_back(buf, len, err));
		assert_non_null(strstr(err, "NUL-terminated"));
		buf[desc + 27] = 0;
		buf[desc] = 3;
		assert_null(read_back(buf, len, err));
		assert_non_null(strstr(err, "format version 3, this reader knows 1 to 2"));
		free(buf);

		/* Without a prefix, made format 1 as sysletc 0.1 wrote it. */
		free(img->prefix);
		img->prefix = NULL;
		v = to_bytes(img, &len);
		assert_non_null(memmem(v, len, "\0cat\0", 5));
		desc = note_desc(v, len);
		assert_int_equal(v[desc - 16], 25);
		v[desc] = 1;
		assert_null(read_back(v, len, err));
		assert_non_null(strstr(err, "ABI note of the wrong size"));
		v[desc - 16] = 24;
		back = read_back(v, len, err);
		if (!back)
			fail_msg("read format 1: %s", err);
		assert_same(img, back);
		assert_null(back->prefix);
		assert_int_equal(back->format_version, 1);
		slo_image_free(back);
		free(v);

		img->prefix = strdup("9lives");
		assert_int_equal(slo_image_write(img, -1, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "prefix"));
		slo_image_free(img);
	}
}

static char *print(struct slo_image *img, int which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (which == 0)
		slo_image_list(img, f);
	else if (which == 1)
		slo_image_dot(img, f);
	else
		slo_image_header(img, "HOSTILE_H", f);
	fclose(f);
	return buf;
}

/* Names from a hostile image never reach a header as code, a graph as
 * syntax or a terminal as control bytes. */
static void test_printers_hostile(void **state)
{
	struct slo_image *img = sample_image(SYSTAB_X86_64);
	char *out;

	free(img->syms[3].name);
	img->syms[3].name = strdup("x\"); evil(\"\n\033[2J");
	free(img->debug[0].text);
	img->debug[0].text = strdup("line\none\033]0;title\007");
	out = print(img, 2);
	assert_null(strstr(out, "evil"));
	free(out);
	out = print(img, 0);
	assert_null(strchr(out, '\033'));
	assert_null(strstr(out, "line\none"));
	free(out);
	out = print(img, 1);
	assert_null(strchr(out, '\033'));
	assert_null(strstr(out, "x\"); evil"));
	free(out);
	slo_image_free(img);
}

int main(void)
{
	devnull = fopen("/dev/null", "w");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_write_rejects),
		cmocka_unit_test(test_printers_hostile),
		cmocka_unit_test(test_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
