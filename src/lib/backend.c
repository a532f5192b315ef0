/* backend.c: choosing the backend ($SYSLET_BACKEND, syslet_set_backend) and the ABI profile. */
#include <config.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/quote.h"
#include "libsyslet.h"
#include "api.h"
#include "backend.h"
#include "emul.h"
#include "common/systab.h"
#include "once.h"

/*
 * Every backend, in the order auto tries them: the patched kernel, then
 * io_uring, then the user-space engine that runs anywhere.  A new engine
 * is its own file and one line here.  (The uring engine needs liburing,
 * which the -m32 test build of the library does not have.)
 */
const struct backend *const backend_table[] = {
	&kernel_backend,
#if defined(HAVE_LIBURING) && !defined(__i386__)
	&uring_backend,
#endif
	&emul_backend,
	NULL,
};

#define NR_BACKENDS (sizeof(backend_table) / sizeof(backend_table[0]))

/* The project's backends that this build lacks: named, they say so,
 * rather than that the user typed a name that does not exist. */
static const char *const backend_missing[] = {
#if !defined(HAVE_LIBURING) || defined(__i386__)
	"uring",
#endif
	NULL,
};

static const char *backend_names[NR_BACKENDS + 1];
static struct lib_once names_once = LIB_ONCE_INIT;

static void names_init(void)
{
	size_t n = 0;

	backend_names[n++] = "auto";
	for (size_t i = 0; backend_table[i]; i++)
		backend_names[n++] = backend_table[i]->name;
	backend_names[n] = NULL;
}

static pthread_mutex_t backend_lock = PTHREAD_MUTEX_INITIALIZER;
/* Read without the lock on every call, so kept in one atomic pointer. */
static const struct backend *backend_cur;
static int backend_err;			/* why the last choice failed */
static char backend_msg[160];
static int profile_cur = -1;		/* -1: native */

const char *const *syslet_backend_list(void)
{
	lib_once(&names_once, names_init);
	return backend_names;
}

#define SHOWN_MAX 40

/*
 * @origin names where @name came from when the program did not choose
 * it (the environment): a name the user never typed must say where it
 * was set, or the message sends them to the wrong place.  With @commit
 * false the backend is only checked, and the one in use stays.
 */
static int choose(const char *name, const char *origin, bool commit)
{
	const struct backend *b = NULL;
	const char *from = origin ? " from " : "";
	char shown[SHOWN_MAX + 4] = "";
	int err;

	if (!origin)
		origin = "";

	if (!name || !*name || !strcmp(name, "auto")) {
		/* The first that can run here; the last one always can. */
		for (size_t i = 0; backend_table[i]; i++) {
			b = backend_table[i];
			if (!backend_table[i + 1] || b->probe() == 0)
				break;
		}
	} else {
		for (size_t i = 0; backend_table[i]; i++)
			if (!strcmp(name, backend_table[i]->name))
				b = backend_table[i];
	}
	/* The name as the message shows it (libsyslet(3), Errors): control
	 * bytes as '?', and short enough that the list of names fits. */
	if (!b && name) {
		size_t n = strlen(name);

		snprintf(shown, sizeof(shown), "%.*s%s",
			 (int)(n > SHOWN_MAX ? SHOWN_MAX : n), name,
			 n > SHOWN_MAX ? "..." : "");
		common_unctrl(shown, strlen(shown), 0);
	}
	for (size_t i = 0; !b && backend_missing[i]; i++) {
		if (strcmp(name, backend_missing[i]))
			continue;
		snprintf(backend_msg, sizeof(backend_msg),
			 "syslet backend '%s'%s%s is not in this build of "
			 "libsyslet (%s)", shown, from, origin,
#ifdef __i386__
			 "it runs 64-bit programs only"
#else
			 "configure found no liburing that links"
#endif
			 );
		return -ENOSYS;
	}
	if (!b) {
		const char *const *n = syslet_backend_list();
		size_t len;

		len = (size_t)snprintf(backend_msg, sizeof(backend_msg),
				       "unknown syslet backend '%s'%s%s "
				       "(expected ", shown, from, origin);
		for (size_t i = 0; n[i] && len < sizeof(backend_msg); i++)
			len += (size_t)snprintf(backend_msg + len,
						sizeof(backend_msg) - len,
						"%s%s", n[i],
						!n[i + 1] ? ")" :
						!n[i + 2] ? " or " : ", ");
		return -EINVAL;
	}
	err = b->probe();
	if (err) {
		snprintf(backend_msg, sizeof(backend_msg),
			 "syslet backend '%s'%s%s is not available here: %s%s",
			 b->name, name && *name ? from : "",
			 name && *name ? origin : "", strerror(-err),
			 b == &kernel_backend ?
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
	if (commit)
		__atomic_store_n(&backend_cur, b, __ATOMIC_RELEASE);
	return 0;
}

int syslet_set_backend(const char *name)
{
	int err;

	pthread_mutex_lock(&backend_lock);
	if (backend_cur && backend_cur->registered &&
	    backend_cur->registered() > 0) {
		err = -EBUSY;
	} else {
		err = choose(name, NULL, true);
		backend_err = err;
	}
	pthread_mutex_unlock(&backend_lock);
	return api_err(err);
}

int syslet_backend_check(const char *name)
{
	int err;

	pthread_mutex_lock(&backend_lock);
	err = choose(name, NULL, false);
	pthread_mutex_unlock(&backend_lock);
	return api_err(err);
}

int syslet_backend_init(void)
{
	int err;

	pthread_mutex_lock(&backend_lock);
	if (__atomic_load_n(&backend_cur, __ATOMIC_ACQUIRE))
		err = 0;
	else
		err = backend_err = choose(getenv("SYSLET_BACKEND"),
					   "SYSLET_BACKEND", true);
	pthread_mutex_unlock(&backend_lock);
	return api_err(err);
}

const char *syslet_backend_error(void)
{
	return backend_msg[0] ? backend_msg : NULL;
}

const struct backend *backend_get(long *err)
{
	const struct backend *b;
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
	long err = 0;
	const struct backend *b = backend_get(&err);

	return b ? b->name : api_null((int)err);
}

int syslet_set_profile(const char *name)
{
	const struct backend *b;
	int p = name ? systab_profile_parse(name) : -1;
	int err = 0;
	long e;

	if (p < 0)
		return api_err(-EINVAL);
	b = backend_get(&e);
	pthread_mutex_lock(&backend_lock);
	if (b && p != (int)systab_native_profile())
		err = b->set_profile ? b->set_profile(p) : -ENOTSUP;
	else if (b && b->set_profile)
		err = b->set_profile(p);
	if (!err)
		profile_cur = p;
	pthread_mutex_unlock(&backend_lock);
	return api_err(err);
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
	const struct backend *b = backend_get(&err);
	int p = profile_cur;
	long nr;

	if ((unsigned)call >= SYSLET_NR_CALLS)
		return api_err(-EINVAL);
	if (b && b->sysno)
		nr = b->sysno(call);
	else
		nr = systab_syslet_nr(p < 0 ? systab_native_profile()
					    : (enum systab_profile)p, call);
	return nr < 0 ? api_err(-ENOSYS) : nr;
}
