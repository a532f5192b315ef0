/* noring.c: where io_uring_setup is refused (a container's seccomp profile), auto falls back to emul silently, and uring by name says why it cannot run. */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include "helpers.h"

/* io_uring_setup fails with EPERM; every other call is allowed. */
static void refuse_io_uring(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
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
