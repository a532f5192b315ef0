/* backend.h: what libsyslet asks of each backend (emul, kernel, ...); internal. */
#ifndef SYSLET_BACKEND_H
#define SYSLET_BACKEND_H

#include "syslet.h"

/*
 * Every entry point has the kernel's return convention: a negative
 * errno value on failure (never errno itself), as sys_* would return.
 * libsyslet's public sys_async_*() wrappers translate that to the
 * seeds' user-space convention (-1 and errno) where the seeds did.
 */
struct syslet_backend {
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
	long		(*async_wait)(unsigned long min_events);
	long		(*async_unregister)(struct async_head_user *ahu,
					    unsigned long len);
	long		(*umem_add)(unsigned long *uptr, unsigned long inc);
};

extern const struct syslet_backend syslet_backend_emul;
extern const struct syslet_backend syslet_backend_kernel;

#endif /* SYSLET_BACKEND_H */
