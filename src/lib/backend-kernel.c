/* backend-kernel.c: placeholder kernel backend until the kernel part lands (no patched kernel answers). */
#include <config.h>
#include <errno.h>
#include <stddef.h>
#include "backend.h"

/*
 * Owned by the kernel part, which replaces this file with discovery of
 * the patched kernel's syscalls.  Until then the probe gives the true
 * answer for an unpatched kernel: not available.
 */
static int kernel_probe(void)
{
	return -ENOSYS;
}

static long kernel_register(struct async_head_user *ahu, unsigned long len)
{
	return -ENOSYS;
}

static struct syslet_uatom *kernel_exec(struct syslet_uatom *atom, long *err)
{
	*err = -ENOSYS;
	return NULL;
}

static long kernel_wait(unsigned long min_events)
{
	return -ENOSYS;
}

static long kernel_umem_add(unsigned long *uptr, unsigned long inc)
{
	return -ENOSYS;
}

const struct syslet_backend syslet_backend_kernel = {
	.name = "kernel",
	.probe = kernel_probe,
	.async_register = kernel_register,
	.async_exec = kernel_exec,
	.async_wait = kernel_wait,
	.async_unregister = kernel_register,
	.umem_add = kernel_umem_add,
};
