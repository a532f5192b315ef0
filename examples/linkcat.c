/* linkcat.c: examples/cat.syslet linked into a C program: the header sysletc -H wrote, one ring, one run. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <libsyslet.h>

#include "cat.h"	/* sysletc -H cat.h -o cat.slo: the prefix cat_ */

int main(int argc, char **argv)
{
	SYSLET_OPTS(syslet_ring, ring);
	struct syslet_uatom *done;
	int rc, err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	rc = syslet_ring__init(&ring, 4, -1UL);
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[0],
			syslet_backend_error() ? syslet_backend_error()
					       : strerror(-rc));
		return 2;
	}
	/* A linked image is one instance: its cells are these variables. */
	cat_cat__path = (unsigned long)argv[1];
	done = sys_async_exec(cat_cat);
	if (!done && errno) {
		perror("sys_async_exec");
		return 2;
	}
	/* It went async (a read that had to wait): its end is in the ring. */
	if (!done) {
		done = syslet_ring__wait_pop(&ring, 1);
		err = errno;
	}
	syslet_ring__exit(&ring);
	if (!done) {
		fprintf(stderr, "%s: no completion: %s\n", argv[0],
			strerror(err));
		return 2;
	}
	/* open() failed: the chain stopped there, and fd holds -errno. */
	if ((long)cat_cat__fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1],
			strerror((int)-(long)cat_cat__fd));
		return 1;
	}
	/* A read that failed (a directory: EISDIR) stops the chain at the
	 * read, and n holds -errno. */
	if (done->nr == SYS_read && (long)cat_cat__n < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1],
			strerror((int)-(long)cat_cat__n));
		return 1;
	}
	/*
	 * A write that failed stops the chain at the write (the end of the
	 * file leads to close, a write that succeeded back to the read).
	 * Its result has no cell in a linked image, so the reason is
	 * unknown.
	 */
	if (done->nr == SYS_write) {
		fprintf(stderr, "%s: write to the standard output failed\n",
			argv[0]);
		return 1;
	}
	return 0;
}
