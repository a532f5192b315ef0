/* backend.h: what libsyslet asks of each backend (emul, kernel, ...); internal. */
#ifndef SYSLET_BACKEND_H
#define SYSLET_BACKEND_H

#include <stdbool.h>
#include "syslet.h"

/*
 * Every entry point has the kernel's return convention: a negative
 * errno value on failure (never errno itself), as sys_* would return.
 * libsyslet's public sys_async_*() wrappers translate that to the
 * seeds' user-space convention (-1 and errno) where the seeds did.
 */
struct backend {
	const char	*name;		/* "emul", "kernel", ... */
	/* 0 when usable here, else a negative errno (e.g. -ENOSYS). */
	int		(*probe)(void);
	long		(*async_register)(struct async_head_user *ahu,
					  unsigned long len);
	/* Returns the last atom run when the syslet completed inline, NULL
	 * when it went to a cachemiss thread (or on error, with *err set
	 * to a negative errno; *err is 0 otherwise). */
	struct syslet_uatom *(*async_exec)(struct syslet_uatom *atom,
					   long *err);
	/* Optional (NULL: async_exec one by one): syslet_exec_batch(),
	 * with the kernel's return convention. */
	long		(*async_exec_batch)(struct syslet_uatom *const *atoms,
					    size_t n, struct syslet_uatom **done,
					    int *errs);
	long		(*async_wait)(unsigned long min_events);
	/* Optional: async_wait() that returns 0 at once when *@slot holds
	 * an atom when it starts counting, checked where completions go
	 * into the ring (syslet_ring__wait_pop(): a completion that came
	 * after its look at the slot is not counted).  NULL: async_wait. */
	long		(*async_wait_slot)(unsigned long min_events,
					   struct syslet_uatom *const *slot);
	long		(*async_unregister)(struct async_head_user *ahu,
					    unsigned long len);
	long		(*umem_add)(unsigned long *uptr, unsigned long inc);
	/* Optional (NULL: the profile's SYSLET_NR_BASE numbering): the
	 * number atoms use for a syslet call (enum syslet_call), e.g. as
	 * discovered from the patched kernel; -1 when it has none. */
	long		(*sysno)(int call);
	/* Optional: the ABI profile atoms are numbered for changed
	 * (enum systab_profile); 0 or -ENOTSUP when this backend cannot
	 * run it.  NULL: only the native profile. */
	int		(*set_profile)(int profile);
	/* Optional: the user cleared ring slots (syslet_ring__pop), a chance
	 * to deliver completions that found their slot full. */
	void		(*ring_freed)(void);
	/* Its atoms run through the shared interpreter, which reports
	 * them to the trace callback and the statistics. */
	bool		observed;
	/* Optional: heads registered now (the backend cannot change then). */
	int		(*registered)(void);
};

/* Internal helpers shared by the library's files (hidden). */
const struct backend *backend_get(long *err);

extern const struct backend emul_backend;
extern const struct backend kernel_backend;
extern const struct backend uring_backend;

/* Every backend, in the order auto tries them (backend.c). */
extern const struct backend *const backend_table[];

#endif /* SYSLET_BACKEND_H */
