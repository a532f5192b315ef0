/* bnames.c: the names of backends: every one syslet_backend_list() gives is accepted or said unable to run here, never unknown; uring, in a build without it (the -m32 one), says it is not in this build rather than that no such backend exists. */
#include <errno.h>
#include "helpers.h"

int main(void)
{
	const char *const *names = syslet_backend_list();
	const char *msg;
	int have_uring = 0, err;

	for (size_t i = 0; names[i]; i++) {
		have_uring |= !strcmp(names[i], "uring");
		err = syslet_set_backend(names[i]);
		msg = syslet_backend_error();
		rt_check(err == 0 || err == -ENOSYS || err == -EPERM ||
			 err == -ENOMEM, "%s: %d", names[i], err);
		rt_check(!err || (msg && !strstr(msg, "unknown")),
			 "%s: %s", names[i], msg ? msg : "no message");
	}
	if (!have_uring) {
		err = syslet_set_backend("uring");
		msg = syslet_backend_error();
		rt_check(err == -ENOSYS, "uring: %d", err);
		rt_check(msg && strstr(msg, "'uring' is not in this build"),
			 "uring: %s", msg ? msg : "no message");
	}
	err = syslet_set_backend("nosuch");
	msg = syslet_backend_error();
	rt_check(err == -EINVAL, "nosuch: %d", err);
	rt_check(msg && strstr(msg, "unknown syslet backend 'nosuch'"),
		 "nosuch: %s", msg ? msg : "no message");
	if (syslet_set_backend(NULL))
		rt_die("auto: %s", syslet_backend_error());
	printf("%s uring\n", have_uring ? "with" : "without");
	return rt_done("bnames");
}
