/* ringtwice.c: syslet_ring__init() on a ring already set up fails with EEXIST and leaves it as it was: the syslet in flight still completes into it, and syslet_ring__exit() unregisters it (a second ring of the thread fails the same way). */
#include "helpers.h"

int main(void)
{
	SYSLET_OPTS(syslet_ring, ring);
	SYSLET_OPTS(syslet_ring, other);
	struct rt_pipe_read pr;
	struct syslet_uatom **slots;
	struct syslet_uatom *done;

	rt_init();
	if (syslet_ring__init(&ring, 4, -1UL))
		rt_die("syslet_ring__init: %s", strerror(errno));
	slots = ring.slots;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);

	rt_check_err(syslet_ring__init(&ring, 8, -1UL), EEXIST);
	rt_check(ring.slots == slots && ring.entries == 4 && ring.registered,
		 "the ring was changed: slots %p (was %p), %lu entries, registered %d",
		 (void *)ring.slots, (void *)slots, ring.entries,
		 ring.registered);
	rt_check_err(syslet_ring__init(&other, 8, -1UL), EEXIST);

	if (write(pr.pfd[1], "x", 1) != 1)
		rt_die("write: %s", strerror(errno));
	errno = 0;
	done = syslet_ring__wait_pop(&ring, 1);
	rt_check(done == &pr.atom && pr.ret == 1,
		 "the completion was not in the ring: %p (errno %d), ret %ld",
		 (void *)done, errno, pr.ret);
	syslet_ring__exit(&ring);
	/* Unregistered: the thread may register a ring again. */
	rt_check(syslet_ring__init(&other, 8, -1UL) == 0,
		 "after syslet_ring__exit: %s", strerror(errno));
	syslet_ring__exit(&other);
	return rt_done("ringtwice");
}
