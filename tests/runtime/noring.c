/* noring.c: where io_uring_setup is refused (a container's seccomp profile), auto falls back to emul silently, and uring by name says why it cannot run. */
#include "helpers.h"

/* io_uring_setup fails with EPERM; every other call is allowed. */
static void refuse_io_uring(void)
{
	if (rt_seccomp_refuse(__NR_io_uring_setup, SECCOMP_RET_ERRNO | EPERM,
			      0)) {
		fprintf(stderr, "SKIP: no seccomp filter here: %s\n",
			strerror(errno));
		exit(RT_SKIP);
	}
}

int main(void)
{
	const char *env = getenv("SYSLET_BACKEND");
	const char *const *names = syslet_backend_list();
	int have_uring = 0;

	for (size_t i = 0; names[i]; i++)
		have_uring |= !strcmp(names[i], "uring");
	if (!have_uring) {
		fprintf(stderr, "SKIP: built without the uring backend\n");
		return RT_SKIP;
	}
	if (env && *env && strcmp(env, "auto")) {
		fprintf(stderr, "SKIP: SYSLET_BACKEND=%s\n", env);
		return RT_SKIP;
	}
	refuse_io_uring();
	rt_check(syslet_set_backend("uring") == -EPERM,
		 "uring without io_uring_setup: not EPERM");
	rt_check(syslet_backend_error() &&
		 strstr(syslet_backend_error(), "uring"),
		 "no message naming uring: %s",
		 syslet_backend_error() ? syslet_backend_error() : "(none)");
	rt_check(syslet_set_backend("auto") == 0, "auto failed: %s",
		 syslet_backend_error() ? syslet_backend_error() : "?");
	rt_check(!syslet_backend_error(), "auto left a message: %s",
		 syslet_backend_error());
	/* The kernel backend only where a patched kernel answers. */
	rt_check(!strcmp(syslet_backend_name(), "emul") ||
		 !strcmp(syslet_backend_name(), "kernel"),
		 "auto chose %s", syslet_backend_name());
	return rt_done("noring");
}
