/* syslet-compat.h: async_head_init(), async_head_exit(), completion_ring and curr_ring_idx, the ring helpers 2007 syslet programs relied on. */
#ifndef SYSLET_COMPAT_H
#define SYSLET_COMPAT_H

/*
 * The 2007 test programs and the Hello World of the series' documentation
 * use these four names, which came with the test programs, not with the
 * kernel's headers: with this header they build with only their includes
 * changed.  Everything here is inline and
 * static, so libsyslet's interface does not grow and a program that
 * writes its own helpers never sees these.
 *
 * The ring and its index are per thread, as the kernel's heads are: a
 * thread that calls async_head_init() registers its own ring, and
 * completion_ring and curr_ring_idx name the calling thread's.  They are
 * also per source file (static): a program that reaps in a file other
 * than the one that registers should use syslet_ring__init(3) instead.
 *
 * A 2007 program ignores what these helpers return, so a failure must
 * not go unnoticed: they print why on standard error and end the
 * program with status 1.  Code that wants to handle the error itself
 * uses syslet_ring__init(3).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libsyslet.h>
#include <syslet-nr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slots in the ring; define before including to change it.  Also the
 * most cachemiss threads the head gets (max_nr_threads is -1). */
#ifndef SYSLET_COMPAT_RING_ENTRIES
#define SYSLET_COMPAT_RING_ENTRIES 1024
#endif

/* Filled by the backend in order from slot 0, wrapping; the program
 * takes completion_ring[curr_ring_idx], stores NULL there so that the
 * slot can be reused, and advances curr_ring_idx modulo
 * SYSLET_COMPAT_RING_ENTRIES. */
static __thread struct syslet_uatom
	*completion_ring[SYSLET_COMPAT_RING_ENTRIES] __attribute__((unused));
static __thread unsigned long curr_ring_idx __attribute__((unused));
static __thread struct async_head_user
	syslet_compat__head __attribute__((unused));

static inline void syslet_compat__fail(const char *who, int err)
{
	const char *why = syslet_backend_init() ? syslet_backend_error() : NULL;

	fprintf(stderr, "%s: %s\n", who, why ? why : strerror(err));
	exit(EXIT_FAILURE);
}

/* Register an empty ring for the calling thread, its index at slot 0. */
static inline void async_head_init(void)
{
	memset(completion_ring, 0, sizeof(completion_ring));
	curr_ring_idx = 0;
	syslet_compat__head.completion_ring = completion_ring;
	syslet_compat__head.ring_size_bytes = sizeof(completion_ring);
	syslet_compat__head.max_nr_threads = -1UL;
	if (sys_async_register(&syslet_compat__head,
			       sizeof(syslet_compat__head)))
		syslet_compat__fail("async_head_init", errno);
}

/* Unregister the calling thread's ring; waits for its syslets still
 * running, as the kernel does. */
static inline void async_head_exit(void)
{
	if (sys_async_unregister(&syslet_compat__head,
				 sizeof(syslet_compat__head)))
		syslet_compat__fail("async_head_exit", errno);
}

#ifdef __cplusplus
}
#endif

#endif /* SYSLET_COMPAT_H */
