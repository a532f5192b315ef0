/* hidx.h: a hash index from keys to positions in a table the caller keeps, so lookups cost O(1) instead of a scan. */
#ifndef SYSLET_COMMON_HIDX_H
#define SYSLET_COMMON_HIDX_H

#include <stddef.h>
#include <stdint.h>

/*
 * The index stores (hash, position) pairs in open addressing and knows
 * nothing of the keys: a lookup walks the positions stored under a hash
 * and the caller compares its own entries, so one index serves a symbol
 * table (names), a constant pool (values) or a string pool (bytes).
 * Entries are never removed; common_hidx_free() drops them all.
 *
 *	struct common_hidx_iter it;
 *	for (long i = common_hidx_first(&x, h, &it); i >= 0;
 *	     i = common_hidx_next(&x, &it))
 *		if (same(table[i], key))
 *			return i;
 */
struct common_hidx {
	struct common_hidx_slot {
		uint32_t	hash;
		uint32_t	pos1;	/* position + 1; 0: empty */
	}		*slot;
	size_t		cap;	/* 0 or a power of two */
	size_t		n;
};

struct common_hidx_iter {
	size_t		at;
	uint32_t	hash;
};

/* The first (next) position stored under hash, or -1. */
long common_hidx_first(const struct common_hidx *x, uint32_t hash,
		       struct common_hidx_iter *it);
long common_hidx_next(const struct common_hidx *x,
		      struct common_hidx_iter *it);

/* Store pos under hash: 0, or -1 when out of memory (x unchanged). */
int common_hidx_add(struct common_hidx *x, uint32_t hash, size_t pos);

/* Forget every entry and the memory (x is empty and reusable). */
void common_hidx_free(struct common_hidx *x);

/* Hashes of a byte string, of a NUL-terminated string, of integers. */
uint32_t common_hash_bytes(const void *p, size_t n);
uint32_t common_hash_str(const char *s);
uint32_t common_hash_u64(uint64_t v);

#endif /* SYSLET_COMMON_HIDX_H */
