/* backend.c: choosing the backend ($SYSLET_BACKEND, syslet_set_backend) and the ABI profile. */
#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libsyslet.h"
#include "backend.h"
#include "emul.h"
#include "common/systab.h"

static const char *const backend_names[] = { "auto", "kernel", "emul", NULL };

static pthread_mutex_t backend_lock = PTHREAD_MUTEX_INITIALIZER;
/* Read without the lock on every call, so kept in one atomic pointer. */
static const struct syslet_backend *backend_cur;
static int backend_err;			/* why the last choice failed */
static char backend_msg[160];
static int profile_cur = -1;		/* -1: native */

const char *const *syslet_backend_list(void)
{
	return backend_names;
}

static int choose(const char *name)
{
	const struct syslet_backend *b = NULL;
	int err;

	if (!name || !*name || !strcmp(name, "auto")) {
		b = syslet_backend_kernel.probe() == 0 ? &syslet_backend_kernel
						     : &syslet_backend_emul;
	} else if (!strcmp(name, "kernel")) {
		b = &syslet_backend_kernel;
	} else if (!strcmp(name, "emul")) {
		b = &syslet_backend_emul;
	} else {
		snprintf(backend_msg, sizeof(backend_msg),
			 "unknown syslet backend '%s' (expected auto, kernel or emul)",
			 name);
		return -EINVAL;
	}
	err = b->probe();
	if (err) {
		snprintf(backend_msg, sizeof(backend_msg),
			 "syslet backend '%s' is not available here: %s%s",
			 b->name, strerror(-err),
			 b == &syslet_backend_kernel ?
				 " (no patched kernel answers)" : "");
		return err;
	}
	if (profile_cur >= 0 && profile_cur != (int)systab_native_profile()) {
		err = b->set_profile ? b->set_profile(profile_cur) : -ENOTSUP;
		if (err) {
			snprintf(backend_msg, sizeof(backend_msg),
				 "syslet backend '%s' cannot run profile %s",
				 b->name, systab_profile_name(profile_cur));
			return err;
		}
	}
	backend_msg[0] = '\0';
	__atomic_store_n(&backend_cur, b, __ATOMIC_RELEASE);
	return 0;
}

int syslet_set_backend(const char *name)
{
	int err;

	pthread_mutex_lock(&backend_lock);
	if (backend_cur && syslet_emul_registered_heads() > 0 &&
	    backend_cur == &syslet_backend_emul) {
		err = -EBUSY;
	} else {
		err = choose(name);
		backend_err = err;
	}
	pthread_mutex_unlock(&backend_lock);
	return err;
}

int syslet_backend_init(void)
{
	int err;

	pthread_mutex_lock(&backend_lock);
	if (__atomic_load_n(&backend_cur, __ATOMIC_ACQUIRE))
		err = 0;
	else
		err = backend_err = choose(getenv("SYSLET_BACKEND"));
	pthread_mutex_unlock(&backend_lock);
	return err;
}

const char *syslet_backend_error(void)
{
	return backend_msg[0] ? backend_msg : NULL;
}

const struct syslet_backend *syslet__backend(long *err)
{
	const struct syslet_backend *b;
	int e;

	b = __atomic_load_n(&backend_cur, __ATOMIC_ACQUIRE);
	if (b)
		return b;
	e = syslet_backend_init();
	if (e) {
		*err = e;
		return NULL;
	}
	return __atomic_load_n(&backend_cur, __ATOMIC_ACQUIRE);
}

const char *syslet_backend_name(void)
{
	long err;
	const struct syslet_backend *b = syslet__backend(&err);

	return b ? b->name : NULL;
}

int syslet_set_profile(const char *name)
{
	const struct syslet_backend *b;
	int p = systab_profile_parse(name);
	int err = 0;
	long e;

	if (p < 0)
		return -EINVAL;
	b = syslet__backend(&e);
	pthread_mutex_lock(&backend_lock);
	if (b && p != (int)systab_native_profile())
		err = b->set_profile ? b->set_profile(p) : -ENOTSUP;
	else if (b && b->set_profile)
		err = b->set_profile(p);
	if (!err)
		profile_cur = p;
	pthread_mutex_unlock(&backend_lock);
	return err;
}

const char *syslet_profile_name(void)
{
	int p = profile_cur;

	return systab_profile_name(p < 0 ? systab_native_profile()
					 : (enum systab_profile)p);
}

long syslet_sysno(enum syslet_call call)
{
	long err;
	const struct syslet_backend *b = syslet__backend(&err);
	int p = profile_cur;

	if ((unsigned)call >= SYSLET_NR_CALLS)
		return -1;
	if (b && b->sysno)
		return b->sysno(call);
	return systab_syslet_nr(p < 0 ? systab_native_profile()
				      : (enum systab_profile)p, call);
}
