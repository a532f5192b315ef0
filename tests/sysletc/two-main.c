/* two-main.c: two images that both define buf, msg, count and run, linked into one program through their prefixes, each run once. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <libsyslet.h>

#include "two-a.h"	/* the default prefix, from two-a.slo: two_a_ */
#include "two-b.h"	/* sysletc --prefix=beta: beta_ */

/* What the headers say about the images, checked as they are compiled. */
_Static_assert(sizeof(two_a_buf) == 8 && sizeof(beta_buf) == 16,
	       "each image's own buf");
_Static_assert(two_a_run__nr_atoms == 4 && beta_run__nr_atoms == 4,
	       "four atoms in each run");
/* The cells' structs keep the source's names. */
_Static_assert(sizeof(struct two_a_h_cells) ==
	       TWO_A_H_NR_CELLS * sizeof(unsigned long),
	       "the cells' struct is one word a cell");
_Static_assert(offsetof(struct two_b_h_cells, count) == 0,
	       "count is two-b's first cell");

static int failures;

#define check(c)							\
	do {								\
		if (!(c)) {						\
			fprintf(stderr, "two-main: %s is false\n", #c);	\
			failures++;					\
		}							\
	} while (0)

/* Run one linked entry to its end; the last atom's result, or -1. */
static int run(struct syslet_uatom *entry, struct syslet_ring *ring)
{
	struct syslet_uatom *done = sys_async_exec(entry);

	if (!done && errno) {
		perror("sys_async_exec");
		return -1;
	}
	if (!done)
		done = syslet_ring__wait_pop(ring, 1);
	return done ? 0 : -1;
}

int main(void)
{
	SYSLET_OPTS(syslet_ring, ring);
	int in[2], out[2];
	char got[64] = "", buf2[3];
	unsigned long two_a_count2, two_a_n2;
	ssize_t n;
	int err;

	err = syslet_ring__init(&ring, 4, -1UL);
	if (err) {
		fprintf(stderr, "SKIP: no backend: %s\n", strerror(-err));
		return 77;
	}
	if (pipe(in) || pipe(out))
		return 99;

	/* Each image is its own instance: its cells, its buffer. */
	two_a_run__in = (unsigned long)in[0];
	two_a_run__out = (unsigned long)out[1];
	beta_run__in = (unsigned long)in[0];
	beta_run__out = (unsigned long)out[1];

	check(write(in[1], "one", 3) == 3);
	check(run(two_a_run, &ring) == 0);
	check(write(in[1], "two", 3) == 3);
	check(run(beta_run, &ring) == 0);
	check(two_a_run__n == 3 && beta_run__n == 3);
	check(two_a_count == 1 && beta_count == 2);
	check(!memcmp(two_a_buf, "one", 3) && !memcmp(beta_buf, "two", 3));
	check(write(in[1], "xy", 2) == 2);
	check(run(two_a_run, &ring) == 0);
	two_a_count2 = two_a_count;
	two_a_n2 = two_a_run__n;
	memcpy(buf2, two_a_buf, sizeof(buf2));
	syslet_ring__exit(&ring);

	close(out[1]);
	n = read(out[0], got, sizeof(got) - 1);
	check(n > 0 && !strcmp(got, "one from a\ntwo from b\nxy from a\n"));
	check(!strcmp((const char *)two_a_msg, " from a\n"));
	check(!strcmp((const char *)beta_msg, " from b\n"));
	check(!strcmp(TWO_A_H_PREFIX, "two_a") && !strcmp(TWO_B_H_PREFIX, "beta"));
	/* A linked image is one instance: the second run of two_a's entry
	 * counted in the same cell, and read into the same buffer. */
	check(two_a_count2 == 2 && two_a_n2 == 2 && !memcmp(buf2, "xye", 3));
	if (!failures)
		printf("two images: %s", got);
	return failures ? 1 : 0;
}
