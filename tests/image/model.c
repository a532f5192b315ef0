/* model.c: word access, relocation and symbol lookup of struct slo_image. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "image/image.h"

static struct slo_image *image_with_cells(unsigned int w, size_t n)
{
	struct slo_image *img = slo_image_new(w, 0);

	assert_non_null(img);
	img->data[SLO_SEC_CELLS] = calloc(n, w);
	img->size[SLO_SEC_CELLS] = n * w;
	return img;
}

static void test_word_sizes(void **state)
{
	assert_null(slo_image_new(3, 0));
	for (unsigned int w = 4; w <= 8; w += 4) {
		struct slo_image *img = image_with_cells(w, 2);

		slo_image_set_word(img, SLO_SEC_CELLS, w, 0x1122334455667788ULL);
		uint64_t want = w == 4 ? 0x55667788ULL : 0x1122334455667788ULL;

		assert_int_equal(slo_image_word(img, SLO_SEC_CELLS, w), want);
		/* little endian on disk */
		assert_int_equal(img->data[SLO_SEC_CELLS][w], 0x88);
		assert_int_equal(slo_image_word(img, SLO_SEC_CELLS, 0), 0);
		slo_image_free(img);
	}
}

static void test_out_of_range(void **state)
{
	struct slo_image *img = image_with_cells(8, 1);

	/* Partial and far-away words neither read garbage nor write. */
	slo_image_set_word(img, SLO_SEC_CELLS, 4, ~0ULL);
	slo_image_set_word(img, SLO_SEC_CELLS, UINT64_MAX - 2, ~0ULL);
	slo_image_set_word(img, SLO_SEC_BSS, 0, ~0ULL);
	assert_int_equal(slo_image_word(img, SLO_SEC_CELLS, 0), 0);
	assert_int_equal(slo_image_word(img, SLO_SEC_CELLS, 8), 0);
	assert_int_equal(slo_image_word(img, SLO_SEC_ATOMS, 0), 0);
	slo_image_free(img);
}

static void test_lookup(void **state)
{
	struct slo_image *img = image_with_cells(4, 4);
	struct slo_reloc r = { SLO_SEC_CELLS, 8, SLO_SEC_BSS, 16 };
	struct slo_symbol syms[2] = {
		{ .name = strdup("cat"), .kind = SLO_SYM_ENTRY },
		{ .name = strdup("cat.fd"), .kind = SLO_SYM_VAR, .value = 4 },
	};

	img->relocs = malloc(sizeof(r));
	*img->relocs = r;
	img->nr_relocs = 1;
	img->syms = malloc(sizeof(syms));
	memcpy(img->syms, syms, sizeof(syms));
	img->nr_syms = 2;

	assert_non_null(slo_image_reloc_at(img, SLO_SEC_CELLS, 8));
	assert_null(slo_image_reloc_at(img, SLO_SEC_CELLS, 4));
	assert_null(slo_image_reloc_at(img, SLO_SEC_ATOMS, 8));
	assert_int_equal(slo_image_find(img, "cat.fd", -1)->value, 4);
	assert_null(slo_image_find(img, "cat.fd", SLO_SYM_ENTRY));
	assert_non_null(slo_image_find(img, "cat", SLO_SYM_ENTRY));
	assert_null(slo_image_find(img, "dog", -1));
	slo_image_free(img);
}

/* Two x86_64 atoms: getpid() -> cells[1], then getppid(); atom 0 -> atom 1. */
static struct slo_image *two_atoms(void)
{
	struct slo_image *img = image_with_cells(8, 2);
	static const struct slo_reloc r[] = {
		{ SLO_SEC_ATOMS, 2 * 8, SLO_SEC_CELLS, 8 },	/* ret_ptr */
		{ SLO_SEC_ATOMS, 3 * 8, SLO_SEC_ATOMS, 88 },	/* next */
		{ SLO_SEC_ATOMS, 4 * 8, SLO_SEC_CELLS, 0 },	/* arg_ptr[0] */
	};

	img->profile = 2; /* x86_64 */
	img->data[SLO_SEC_ATOMS] = calloc(2, 88);
	img->size[SLO_SEC_ATOMS] = 2 * 88;
	img->nr_atoms = 2;
	img->data[SLO_SEC_RODATA] = calloc(1, 8);
	img->size[SLO_SEC_RODATA] = 8;
	slo_image_set_word(img, SLO_SEC_ATOMS, 8, 39);
	slo_image_set_word(img, SLO_SEC_ATOMS, 88 + 8, 110);
	img->relocs = malloc(sizeof(r));
	memcpy(img->relocs, r, sizeof(r));
	img->nr_relocs = 3;
	return img;
}

static int count(struct slo_image *img)
{
	int n = slo_image_verify(img, NULL, NULL);

	slo_image_free(img);
	return n;
}

static void test_verify(void **state)
{
	struct slo_image *img;

	assert_int_equal(count(two_atoms()), 0);

	img = two_atoms();	/* two stop flags never stop */
	slo_image_set_word(img, SLO_SEC_ATOMS, 0, 0x08 | 0x20);
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* fork is denied */
	slo_image_set_word(img, SLO_SEC_ATOMS, 88 + 8, 57);
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* skip from the last atom leaves the image */
	slo_image_set_word(img, SLO_SEC_ATOMS, 88, 0x20 | 0x80);
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* an absolute pointer nobody relocates */
	slo_image_set_word(img, SLO_SEC_ATOMS, 88 + 5 * 8, 0xdeadbeef);
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* results never go to read-only data */
	img->relocs[0].target = SLO_SEC_RODATA;
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* next into the middle of an atom */
	img->relocs[1].addend = 8;
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* an argument past the end of the cells */
	img->relocs[2].addend = 12;
	assert_int_equal(count(img), 1);

	img = two_atoms();	/* flags and nr are plain words */
	img->relocs[0].offset = 0;
	assert_int_equal(count(img), 1);
	img = two_atoms();
	img->relocs[0].offset = 8;
	assert_int_equal(count(img), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word_sizes),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_verify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
