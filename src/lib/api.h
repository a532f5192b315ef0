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

/* A function returning a count gives 0 with errno EINVAL for a null
 * object, where it has no negative value to give. */
static inline size_t api_none(void)
{
	errno = EINVAL;
	return 0;
}

/*
 * Sized structs (libsyslet(3), SIZED STRUCTS) start with the caller's
 * sizeof in sz, as libbpf's opts do.  A caller built against an older
 * header (a smaller sz) gets the fields its struct has and nothing past
 * them is touched.  One built against a newer header (a larger sz) is
 * taken only when the part we do not know is zero, as it is when the
 * caller set only the fields it knew (SYSLET_OPTS): a non-zero byte there
 * is a field we would silently ignore, so -EINVAL.  A size below sz's own
 * or above API_SZ_MAX is a caller that did not set sz; the tail is not
 * read then.
 */
#define API_SZ_MAX	4096

static inline int api_sz_ok(const void *st, size_t ours)
{
	const unsigned char *p = st;
	size_t sz;

	if (!st)
		return 0;
	memcpy(&sz, st, sizeof(sz));
	if (sz < sizeof(size_t) || sz > API_SZ_MAX)
		return 0;
	for (size_t i = ours; i < sz; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Copy our struct @src of @ours bytes into the caller's @dst, as far as
 * the caller's sz reaches; dst->sz stays the caller's, a newer caller's
 * tail stays zero (api_sz_ok checked it). */
static inline void api_sz_copy(void *dst, const void *src, size_t ours)
{
	size_t sz;

	memcpy(&sz, dst, sizeof(sz));
	memcpy((char *)dst + sizeof(sz), (const char *)src + sizeof(sz),
	       (sz < ours ? sz : ours) - sizeof(sz));
}

#endif /* SYSLET_LIB_API_H */
