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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word_sizes),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
