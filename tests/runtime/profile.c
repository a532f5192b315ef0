/* profile.c: the ABI profiles: which ones a backend takes, and atoms numbered as on the 2007 i386 kernel run in a 32-bit program. */
#include "helpers.h"

/*
 * The seeds' kernel numbered the syslet calls 320..324 and had nothing
 * at 325 or above; below 320 its i386 numbers are today's.  The emul
 * engine runs that numbering in a 32-bit program (the same word size);
 * a 64-bit program, or a backend that cannot translate, refuses it.
 */
#define NR2007_GETPID	20
#define NR2007_WRITE	4
#define NR2007_FIRST	320	/* async_register */
#define NR2007_UMEM_ADD	324
#define NR2007_END	325	/* first number the 2007 table lacks */

static void run_2007_atoms(void)
{
	struct syslet_uatom *ring[4], a[6], *done;
	struct async_head_user ahu;
	unsigned long fd, buf, len, cell = 40, inc = 2, *p = &cell;
	long ret[6];
	char got[8] = "";
	int pfd[2];

	rt_check(!strcmp(syslet_profile_name(), "i386-2007"), "profile %s",
		 syslet_profile_name());
	rt_check(syslet_sysno(SYSLET_CALL_UMEM_ADD) == NR2007_UMEM_ADD,
		 "umem_add is %ld", syslet_sysno(SYSLET_CALL_UMEM_ADD));
	if (pipe(pfd))
		rt_die("pipe");
	rt_register(&ahu, ring, 4, -1UL);

	/* write(pfd[1], "2007", 4); getpid(); umem_add(&cell, 2): a chain
	 * of 2007 numbers, each atom running the call it names there. */
	fd = (unsigned long)pfd[1];
	buf = (unsigned long)"2007";
	len = 4;
	rt_atom(&a[0], NR2007_WRITE, &ret[0], 0, &a[1], &fd, &buf, &len);
	rt_atom(&a[1], NR2007_GETPID, &ret[1], 0, &a[2], NULL, NULL, NULL);
	rt_atom(&a[2], NR2007_UMEM_ADD, &ret[2], 0, NULL,
		(unsigned long *)&p, &inc, NULL);
	done = sys_async_exec(&a[0]);
	rt_check(done == &a[2], "chain ended at %p, not %p", (void *)done,
		 (void *)&a[2]);
	rt_check(ret[0] == 4, "write: %ld", ret[0]);
	rt_check(ret[1] == getpid(), "getpid: %ld", ret[1]);
	rt_check(ret[2] == 42 && cell == 42, "umem_add: %ld, cell %lu",
		 ret[2], cell);
	rt_check(read(pfd[0], got, 4) == 4 && !memcmp(got, "2007", 4),
		 "the pipe holds '%.4s'", got);

	/* 320..323 are the async calls themselves: denied in an atom. */
	for (long nr = NR2007_FIRST; nr < NR2007_UMEM_ADD; nr++) {
		ret[3] = 0;
		rt_atom(&a[3], (unsigned long)nr, &ret[3], 0, NULL, NULL, NULL,
			NULL);
		done = sys_async_exec(&a[3]);
		rt_check(done == &a[3] && ret[3] == -EPERM,
			 "atom %ld: %p, result %ld", nr, (void *)done, ret[3]);
	}

	/* 325 and above meant nothing in 2007, whatever they mean today
	 * (403 is clock_gettime64): -ENOSYS, which the stop test sees but
	 * which is not stored, as in 2007. */
	static const unsigned long beyond[] = { NR2007_END, 403, 1004 };
	for (size_t i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++) {
		ret[4] = 12345;
		rt_atom(&a[4], beyond[i], &ret[4], SYSLET_STOP_ON_NEGATIVE,
			&a[5], NULL, NULL, NULL);
		rt_atom(&a[5], NR2007_GETPID, &ret[5], 0, NULL, NULL, NULL,
			NULL);
		done = sys_async_exec(&a[4]);
		rt_check(done == &a[4] && ret[4] == 12345,
			 "atom %lu: stopped at %p, result %ld", beyond[i],
			 (void *)done, ret[4]);
	}
	rt_unregister(&ahu);
	close(pfd[0]);
	close(pfd[1]);
}

int main(void)
{
	int r;

	rt_init();
	rt_check(syslet_set_profile("pdp11") == -EINVAL,
		 "an unknown profile is EINVAL");
	rt_check(syslet_set_profile(sizeof(long) == 8 ? "x86_64" : "i386") == 0,
		 "the native profile is taken");

	r = syslet_set_profile("i386-2007");
	if (sizeof(long) == 8) {
		/* 4-byte atoms cannot be run by a 64-bit program. */
		rt_check(r == -ENOTSUP, "i386-2007 in 64 bits: %d", r);
		rt_check(syslet_set_profile("i386") == -ENOTSUP,
			 "i386 in 64 bits is refused too");
	} else if (r == -ENOTSUP && !rt_is_emul()) {
		printf("profile: backend %s does not translate i386-2007\n",
		       syslet_backend_name());
	} else {
		rt_check(r == 0, "i386-2007 in 32 bits: %d", r);
		if (!r)
			run_2007_atoms();
		rt_check(syslet_set_profile("i386") == 0, "back to i386");
		rt_check(syslet_set_profile("x86_64") == -ENOTSUP,
			 "x86_64 in 32 bits is refused");
	}
	return rt_done("profile");
}
