/* link-main.c: linked with the handmade cat image; checks the pointers the linker filled in. */
#include <stdio.h>
#include <string.h>

#include "cat.h"

/* What the header says about the image, checked as it is compiled. */
_Static_assert(cat__nr_atoms == 7, "seven atoms");
_Static_assert(sizeof(cat) == 7 * sizeof(struct syslet_uatom),
	       "the entry's array holds its atoms");
_Static_assert(cat__nr_params == 1 && cat__param_path == 0, "one parameter");
_Static_assert(cat__again__atom == 1, "the label's atom");
_Static_assert(sizeof(struct cat_slo_h_cells) ==
	       CAT_SLO_H_NR_CELLS * sizeof(unsigned long),
	       "the cells' struct is one word a cell");

static int bad;

#define check(c)                                                         \
	do {                                                             \
		if (!(c)) {                                              \
			fprintf(stderr, "link-main: %s is false\n", #c); \
			bad = 1;                                         \
		}                                                        \
	} while (0)

int main(void)
{
	struct cat_slo_h_cells *cells = (struct cat_slo_h_cells *)&cat__path;

	/* next pointers, as laid out: open read close write add write write */
	check(cat[0].next == &cat[1]);
	check(cat[1].next == &cat[3]);
	check(cat[2].next == &cat[5]);
	check(cat[4].next == &cat[1]);
	check(cat[6].next == NULL);
	/* the skip of read lands on close, the atom after it in memory */
	check(cat[1].flags ==
	      (SYSLET_STOP_ON_NON_POSITIVE | SYSLET_SKIP_TO_NEXT_ON_STOP));
	check(cat[0].flags == SYSLET_STOP_ON_NEGATIVE);
	/* results and arguments point at the named cells */
	check(cat[0].ret_ptr == (long *)&cat__fd);
	check(cat[0].arg_ptr[0] == &cat__path);
	check(cat[0].arg_ptr[2] == NULL);
	check(cat[1].ret_ptr == (long *)&cat__n);
	check(cat[2].ret_ptr == NULL);
	check(cat__fd == (unsigned long)-1);
	/* address cells hold relocated addresses of buffers, data, cells */
	check(*cat[1].arg_ptr[1] == (unsigned long)buf);
	check(*cat[1].arg_ptr[2] == sizeof(buf));
	check(*cat[4].arg_ptr[0] == (unsigned long)&total);
	check(!strcmp((const char *)*cat[5].arg_ptr[1], "hello\n"));
	check(!strcmp((const char *)*cat[6].arg_ptr[1], "bye\n"));
	check(!memcmp(greeting, "hello\n", sizeof(greeting)));
	/* the cells' struct lies over the cells */
	check(&cells->cat__fd == &cat__fd);
	check(&cells->total == &total);
	check(cat[0].nr == (unsigned long)(sizeof(long) == 8 ? 2 : 5));
	return bad;
}
