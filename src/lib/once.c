/* once.c: the lock behind lib_once(), and fork() kept out of an initialisation under way. */
#define _GNU_SOURCE
#include <pthread.h>
#include "once.h"

static pthread_mutex_t once_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void once_prepare(void)
{
	pthread_mutex_lock(&once_lock);
}

static void once_parent(void)
{
	pthread_mutex_unlock(&once_lock);
}

/* The child's thread has a new TID, which is not the owner glibc
 * recorded: the lock is made anew rather than unlocked (EPERM). */
static void once_child(void)
{
	pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

	once_lock = fresh;
}

/*
 * Registered as the library is loaded, so that no initialisation can
 * run before fork() knows to wait for it (registering costs no system
 * call; glibc drops it again should the library be unloaded).
 */
__attribute__((constructor)) static void once_atfork(void)
{
	(void)pthread_atfork(once_prepare, once_parent, once_child);
}

void lib_once_slow(struct lib_once *o, void (*fn)(void))
{
	pthread_mutex_lock(&once_lock);
	if (!__atomic_load_n(&o->done, __ATOMIC_RELAXED)) {
		fn();
		__atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&once_lock);
}
