/* ring.c: helpers to register and pop the completion ring, whatever backend fills it. */
#include <config.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "libsyslet.h"
#include "api.h"
#include "backend.h"

int syslet_ring_init(struct syslet_ring *ring, unsigned long entries,
		     unsigned long max_threads)
{
	memset(ring, 0, sizeof(*ring));
	if (!entries || entries > (~0UL / sizeof(void *)))
		return api_err(-EINVAL);
	ring->slots = calloc(entries, sizeof(*ring->slots));
	if (!ring->slots)
		return api_err(-ENOMEM);
	ring->entries = entries;
	ring->head.completion_ring = ring->slots;
	ring->head.ring_size_bytes = entries * sizeof(*ring->slots);
	ring->head.max_nr_threads = max_threads;
	if (sys_async_register(&ring->head, sizeof(ring->head))) {
		int err = -errno;

		free(ring->slots);
		ring->slots = NULL;
		return api_err(err);
	}
	ring->registered = 1;
	return 0;
}

void syslet_ring_exit(struct syslet_ring *ring)
{
	if (ring->registered)
		sys_async_unregister(&ring->head, sizeof(ring->head));
	ring->registered = 0;
	free(ring->slots);
	ring->slots = NULL;
}

struct syslet_uatom *syslet_ring_peek(const struct syslet_ring *ring)
{
	if (!ring->slots)
		return NULL;
	return __atomic_load_n(&ring->slots[ring->head_idx], __ATOMIC_ACQUIRE);
}

struct syslet_uatom *syslet_ring_pop(struct syslet_ring *ring)
{
	struct syslet_uatom *a = syslet_ring_peek(ring);
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

struct syslet_uatom *syslet_ring_wait_pop(struct syslet_ring *ring,
					  unsigned long n, long *err)
{
	struct syslet_uatom *a = syslet_ring_pop(ring);

	*err = 0;
	if (a)
		return a;
	if (sys_async_wait(n)) {
		*err = -errno;
		return NULL;
	}
	return syslet_ring_pop(ring);
}
