/* calls.c: the public sys_async_*() and sys_umem_add() calls, routed to the selected backend. */
#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "libsyslet.h"
#include "backend.h"
#include "once.h"

/*
 * 2007's do_exit() began with async_exit(): a task that ended with its
 * head registered tore it down as async_unregister() does, waiting for
 * the chains it had in flight and their completions, before its memory
 * (a ring on its stack) went away.  The user-space engines keep a head
 * in the thread that registered it, so a thread that ends with one
 * registered (pthread_exit(), or its start routine returning) unregisters
 * it as it ends; without that its pool stayed parked for ever and late
 * completions went to a ring that may be gone.  The kernel backend's
 * kernel does this itself (backend.h: observed is the user-space ones).
 */
static pthread_key_t calls_exit_key;
static struct lib_once calls_exit_once = LIB_ONCE_INIT;
static int calls_exit_ok;

static void calls_thread_exit(void *arg)
{
	const struct backend *b = arg;
	struct async_head_user ahu;

	memset(&ahu, 0, sizeof(ahu));
	b->async_unregister(&ahu, sizeof(ahu));
}

static void calls_exit_init(void)
{
	calls_exit_ok = !pthread_key_create(&calls_exit_key,
					    calls_thread_exit);
}

/* This thread's head is registered (@b) or not (NULL) from now on. */
static void calls_exit_track(const struct backend *b)
{
	if (b && !b->observed)
		return;
	lib_once(&calls_exit_once, calls_exit_init);
	if (calls_exit_ok)
		(void)pthread_setspecific(calls_exit_key, (void *)b);
}

/* The seeds' user-space convention: -1 and errno, as syscall(2) gives. */
static long user_ret(long ret)
{
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

long sys_async_register(struct async_head_user *ahu, unsigned long len)
{
	long err = 0;
	const struct backend *b = backend_get(&err);
	long ret = b ? b->async_register(ahu, len) : err;

	if (!ret)
		calls_exit_track(b);
	return user_ret(ret);
}

struct syslet_uatom *sys_async_exec(struct syslet_uatom *atom)
{
	long err = 0;
	const struct backend *b = backend_get(&err);
	struct syslet_uatom *done = NULL;

	if (b)
		done = b->async_exec(atom, &err);
	/* NULL is both "went async" and "failed": errno tells them apart. */
	errno = (int)-err;
	return err ? NULL : done;
}

static long lib_ret(long ret)
{
	if (ret < 0)
		errno = (int)-ret;
	return ret;
}

long syslet_exec_batch(struct syslet_uatom *const *atoms, size_t n,
		       struct syslet_uatom **done, int *errs)
{
	long err = 0;
	const struct backend *b = backend_get(&err);
	size_t i;

	/* The library's convention: -errno, and errno set. */
	if (!b)
		return lib_ret(err);
	if (n && (!atoms || !done || !errs))
		return lib_ret(-EINVAL);
	if (b->async_exec_batch)
		return lib_ret(b->async_exec_batch(atoms, n, done, errs));
	for (i = 0; i < n; i++) {
		err = 0;
		done[i] = b->async_exec(atoms[i], &err);
		if (err == -EINVAL && !i)
			return lib_ret(err);	/* no ring */
		if (err)
			done[i] = NULL;
		errs[i] = (int)-err;
	}
	return (long)i;
}

long sys_async_wait(unsigned long min_wait_events)
{
	long err = 0;
	const struct backend *b = backend_get(&err);

	return user_ret(b ? b->async_wait(min_wait_events) : err);
}

long sys_async_unregister(struct async_head_user *ahu, unsigned long len)
{
	long err = 0;
	const struct backend *b = backend_get(&err);
	long ret = b ? b->async_unregister(ahu, len) : err;

	if (!ret && b && b->observed)
		calls_exit_track(NULL);
	return user_ret(ret);
}

long sys_umem_add(unsigned long *uptr, unsigned long inc)
{
	long err = 0;
	const struct backend *b = backend_get(&err);
	long ret = b ? b->umem_add(uptr, inc) : err;

	/* The raw kernel value: a counter may legitimately hold -1. */
	if (ret == -EFAULT || !b)
		errno = (int)-ret;
	return ret;
}
