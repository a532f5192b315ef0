/* ring.c: helpers to register and pop the completion ring, whatever backend fills it. */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "libsyslet.h"
#include "api.h"
#include "backend.h"

/* The fields of the first layout, which every caller's ring holds; a
 * field added later is used only where ring->sz holds it. */
#define RING_SZ_MIN (offsetof(struct syslet_ring, registered) + \
		     sizeof(((struct syslet_ring *)0)->registered))

/*
 * A failed init leaves @ring not set up (peek and pop answer EINVAL),
 * except a ring this library set up and marked registered: clearing it
 * (on EEXIST, the thread having a head already, maybe this very ring;
 * or on a bad entries) lost its slots, its completions and its record
 * of being registered, so that syslet_ring__exit() could never
 * unregister it again.  So nothing is written until the registration
 * succeeded, from a copy of the head: no backend keeps the head's
 * address (2007's async_head_init() read its three words once).  The
 * registration decides whether it may be set up, not the ring's own
 * record: in a child made by fork(), or in another thread, a copy
 * marked registered belongs to no head there, and is set up anew.
 */
static int ring_init_err(struct syslet_ring *ring, int err)
{
	size_t sz = ring->sz;

	if (!(ring->registered == 1 && ring->slots)) {
		memset(ring, 0, sz);
		ring->sz = sz;
	}
	return api_err(err);
}

int syslet_ring__init(struct syslet_ring *ring, unsigned long entries,
		      unsigned long max_threads)
{
	struct async_head_user head;
	struct syslet_uatom **slots;
	size_t sz;

	if (!api_sz_ok(ring, sizeof(*ring)) || ring->sz < RING_SZ_MIN)
		return api_err(-EINVAL);
	sz = ring->sz;
	if (!entries || entries > (~0UL / sizeof(void *)))
		return ring_init_err(ring, -EINVAL);
	slots = calloc(entries, sizeof(*slots));
	if (!slots)
		return ring_init_err(ring, -ENOMEM);
	head.completion_ring = slots;
	head.ring_size_bytes = entries * sizeof(*slots);
	head.max_nr_threads = max_threads;
	if (sys_async_register(&head, sizeof(head))) {
		int err = -errno;

		free(slots);
		return ring_init_err(ring, err);
	}
	memset(ring, 0, sz);
	ring->sz = sz;
	ring->head = head;
	ring->slots = slots;
	ring->entries = entries;
	ring->registered = 1;
	return 0;
}

/*
 * A head is the registering thread's: another thread (or a child made
 * by fork()) has none, and its unregister fails.  The slots are then
 * left alone, and the ring registered, as the backend may still write
 * completions into them: freeing them here handed the backend memory
 * that malloc() gave to someone else.
 */
void syslet_ring__exit(struct syslet_ring *ring)
{
	if (!ring)
		return;
	if (ring->registered &&
	    sys_async_unregister(&ring->head, sizeof(ring->head)))
		return;
	ring->registered = 0;
	free(ring->slots);
	ring->slots = NULL;
}

struct syslet_uatom *syslet_ring__peek(const struct syslet_ring *ring)
{
	struct syslet_uatom *a;

	if (!ring || !ring->slots)
		return api_null(EINVAL);
	a = __atomic_load_n(&ring->slots[ring->head_idx], __ATOMIC_ACQUIRE);
	return a ? a : api_null(EAGAIN);
}

struct syslet_uatom *syslet_ring__pop(struct syslet_ring *ring)
{
	struct syslet_uatom *a = syslet_ring__peek(ring);
	long err;
	const struct backend *b;

	if (!a)
		return NULL;
	__atomic_store_n(&ring->slots[ring->head_idx], NULL, __ATOMIC_RELEASE);
	if (++ring->head_idx == ring->entries)
		ring->head_idx = 0;
	b = backend_get(&err);
	if (b && b->ring_freed)
		b->ring_freed();
	return a;
}

/*
 * async_wait(n) counts only the completions after its own call (2007's
 * events_left): one that goes into the slot between the pop that found
 * it empty and the wait would not end the wait, and with another syslet
 * busy for good the program would sleep beside it.  Where the backend
 * can, the wait itself looks at the slot as it starts counting.
 */
struct syslet_uatom *syslet_ring__wait_pop(struct syslet_ring *ring,
					   unsigned long n)
{
	struct syslet_uatom *a = syslet_ring__pop(ring);
	const struct backend *b;
	long err = 0;

	if (a || errno != EAGAIN)
		return a;
	b = backend_get(&err);
	if (b && b->async_wait_slot) {
		err = b->async_wait_slot(n, &ring->slots[ring->head_idx]);
		if (err)
			return api_null((int)err);
	} else if (sys_async_wait(n)) {
		return NULL;
	}
	a = syslet_ring__pop(ring);
	/* async_wait returned without a completion: nothing is busy, so
	 * nothing will come (as wait(2) says when no child is left). */
	return a || errno != EAGAIN ? a : api_null(ECHILD);
}
