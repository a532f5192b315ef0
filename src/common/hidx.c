/* hidx.c: open-addressing hash index from hashes to table positions (see hidx.h). */
#include <stdlib.h>
#include <string.h>

#include "common/hidx.h"

long common_hidx_first(const struct common_hidx *x, uint32_t hash,
		       struct common_hidx_iter *it)
{
	it->hash = hash;
	it->at = x->cap ? hash & (x->cap - 1) : 0;
	return common_hidx_next(x, it);
}

/* Linear probing: the run of slots from the hash's home to the first
 * empty one holds every position stored under it. */
long common_hidx_next(const struct common_hidx *x,
		      struct common_hidx_iter *it)
{
	if (!x->cap)
		return -1;
	for (;;) {
		const struct common_hidx_slot *s = &x->slot[it->at];

		if (!s->pos1)
			return -1;
		it->at = (it->at + 1) & (x->cap - 1);
		if (s->hash == it->hash)
			return (long)s->pos1 - 1;
	}
}

static void hidx_put(struct common_hidx_slot *slot, size_t cap,
		     uint32_t hash, uint32_t pos1)
{
	size_t at = hash & (cap - 1);

	while (slot[at].pos1)
		at = (at + 1) & (cap - 1);
	slot[at].hash = hash;
	slot[at].pos1 = pos1;
}

int common_hidx_add(struct common_hidx *x, uint32_t hash, size_t pos)
{
	if (pos >= UINT32_MAX)
		return -1;
	/* At most half full, so probe runs stay short. */
	if (2 * (x->n + 1) > x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		struct common_hidx_slot *slot;

		if (cap > SIZE_MAX / sizeof(*slot))
			return -1;
		slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return -1;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slot[i].pos1)
				hidx_put(slot, cap, x->slot[i].hash,
					 x->slot[i].pos1);
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	hidx_put(x->slot, x->cap, hash, (uint32_t)pos + 1);
	x->n++;
	return 0;
}

void common_hidx_free(struct common_hidx *x)
{
	free(x->slot);
	memset(x, 0, sizeof(*x));
}

/* FNV-1a, then a final mix so that the low bits (the slot) depend on
 * every byte. */
static uint32_t hash_finish(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (uint32_t)h;
}

uint32_t common_hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return hash_finish(h);
}

uint32_t common_hash_str(const char *s)
{
	return common_hash_bytes(s, strlen(s));
}

uint32_t common_hash_u64(uint64_t v)
{
	return hash_finish(v * 0x9e3779b97f4a7c15ULL + 1);
}
