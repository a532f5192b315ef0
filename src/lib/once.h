/* once.h: one-time initialisation that costs no system call (pthread_once() wakes a futex after every first run). */
#ifndef SYSLET_ONCE_H
#define SYSLET_ONCE_H

#include <stdint.h>

/*
 * glibc's pthread_once() ends every first run with a FUTEX_WAKE, waiters
 * or not: six of the library's seven were a system call each in a
 * one-file syslet-run --each, which made 86 in all.  This one takes a
 * mutex, which costs nothing uncontended, and holds it over the
 * initialisation; fork() waits for an initialisation under way
 * (pthread_atfork), so that a child never finds one half done.  An
 * initialisation may start another (the lock is recursive), not wait
 * for a thread that starts one.
 */
struct lib_once {
	uint32_t	done;
};

#define LIB_ONCE_INIT	{ 0 }

void lib_once_slow(struct lib_once *o, void (*fn)(void));

static inline void lib_once(struct lib_once *o, void (*fn)(void))
{
	if (!__atomic_load_n(&o->done, __ATOMIC_ACQUIRE))
		lib_once_slow(o, fn);
}

#endif
