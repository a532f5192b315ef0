/* failthread.c: an LD_PRELOAD shim for tests: pthread_create() of the start routine at FAILTHREAD_OFF (hex, from the executable's base) fails with EAGAIN from its FAILTHREAD_AT-th call on. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
			 void *(*)(void *), void *);

/*
 * Which threads fail is told by their start routine, a static function
 * of syslet-run (its offset from nm), so that the engine's own threads,
 * linked into the same executable, start as usual.
 */
int pthread_create(pthread_t *t, const pthread_attr_t *a,
		   void *(*f)(void *), void *arg)
{
	static create_fn real;
	static int calls;
	const char *off = getenv("FAILTHREAD_OFF");
	const char *at = getenv("FAILTHREAD_AT");
	Dl_info di;

	if (!real)
		real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	if (off && at && dladdr((void *)f, &di) &&
	    (uintptr_t)f - (uintptr_t)di.dli_fbase ==
	    strtoul(off, NULL, 16) &&
	    __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST) >= atoi(at))
		return EAGAIN;
	return real(t, a, f, arg);
}
