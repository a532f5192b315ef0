/* keyctl.c: keyctl(KEYCTL_JOIN_SESSION_KEYRING) in an atom runs on a worker even inline, so the caller's session keyring stays (syslet(7) DIFFERENCES). */
#include "helpers.h"

/*
 * keyctl() is not refused, and emul and uring take it for a call that may
 * block: even the first atom of a syslet moves to a worker, which joins
 * the new session keyring, while the 2007 kernel ran the atom in the
 * caller and changed the caller's.  This pins what syslet(7) says: the
 * call runs (a keyring ID), async_exec() returns NULL, and the caller's
 * session keyring is the one it had.  Skips where the kernel has no
 * keyrings for us, and on the kernel backend (atoms run in the caller).
 */

#define KEYCTL_GET_KEYRING_ID		0
#define KEYCTL_JOIN_SESSION_KEYRING	1
#define KEY_SPEC_SESSION_KEYRING	-3

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	unsigned long op = KEYCTL_JOIN_SESSION_KEYRING;
	unsigned long name = (unsigned long)"syslet-keyctl-test";
	struct syslet_uatom a, *done;
	unsigned long idx = 0;
	long before, after, ret = 0;

	if (!strcmp(rt_init(), "kernel")) {
		printf("SKIP: the kernel backend runs the atom in the caller\n");
		return RT_SKIP;
	}
	before = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
			 KEY_SPEC_SESSION_KEYRING, 1);
	if (before < 0) {
		printf("SKIP: no session keyring here: %s\n", strerror(errno));
		return RT_SKIP;
	}
	rt_register(&ahu, ring, 8, 2);
	rt_atom(&a, SYS_keyctl, &ret, 0, NULL, &op, &name, NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(!done && !errno, "keyctl did not go to a worker: %p %s",
		 (void *)done, strerror(errno));
	while (!done && !__atomic_load_n(&ring[idx], __ATOMIC_ACQUIRE))
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	rt_drain(ring, 8, &idx, NULL, 0);
	rt_check(ret > 0 && ret != before,
		 "the atom did not join a new session keyring: %ld", ret);
	after = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
			KEY_SPEC_SESSION_KEYRING, 0);
	rt_check(after == before,
		 "the caller's session keyring changed: %ld, was %ld", after,
		 before);
	rt_unregister(&ahu);
	return rt_done("keyctl");
}
