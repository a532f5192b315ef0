/* api.h: how libsyslet's public functions report (-errno and errno) and fill sized structs; internal. */
#ifndef SYSLET_LIB_API_H
#define SYSLET_LIB_API_H

#include <errno.h>
#include <stddef.h>
#include <string.h>

/*
 * A function returning int gives 0 (or a count) or -errno, and leaves
 * the same value in errno, so that a caller may use either, as libbpf
 * does: return api_err(-ENOENT).
 */
static inline int api_err(int err)
{
	if (err < 0)
		errno = -err;
	return err;
}

/* A function returning a pointer gives NULL with errno set. */
static inline void *api_null(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

/*
 * Sized structs (libsyslet(3), EXTENSIBLE STRUCTS) start with the
 * caller's sizeof in sz.  Any size that holds sz is taken: a caller
 * built against an older header gets the fields its struct has, one
 * built against a newer header gets zeros past ours.  A size no struct
 * of ours will reach is a caller that did not set sz.
 */
#define API_SZ_MAX	4096

static inline int api_sz_ok(const void *st)
{
	size_t sz;

	if (!st)
		return 0;
	memcpy(&sz, st, sizeof(sz));
	return sz >= sizeof(size_t) && sz <= API_SZ_MAX;
}

/* Copy our struct @src of @ours bytes into the caller's @dst, as far as
 * the caller's sz reaches, zeroing the rest of the caller's struct;
 * dst->sz stays the caller's. */
static inline void api_sz_copy(void *dst, const void *src, size_t ours)
{
	size_t sz;

	memcpy(&sz, dst, sizeof(sz));
	memcpy((char *)dst + sizeof(sz), (const char *)src + sizeof(sz),
	       (sz < ours ? sz : ours) - sizeof(sz));
	if (sz > ours)
		memset((char *)dst + ours, 0, sz - ours);
}

#endif /* SYSLET_LIB_API_H */
