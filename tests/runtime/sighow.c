/* sighow.c: an rt_sigprocmask atom reads its how as the call's int, inline and after a hand-off: (1 << 32) | SIG_BLOCK blocks. */
#include <signal.h>
#include "helpers.h"

/*
 * rt_sigprocmask(int how, ...): 2007's __exec_atom() passed the atom's
 * six words to the call, and a 64-bit kernel's syscall wrapper keeps
 * the low 32 bits of an int argument, so how = (1 << 32) | SIG_BLOCK
 * is SIG_BLOCK there.  The engines do an rt_sigprocmask atom
 * themselves, on the program's mask inline and on the chain's copy of
 * it on a worker (kernel-patch 0021): each must read how as the call
 * does.  A 32-bit program has no upper half; the same atoms run.
 */

#define SIGSET_BYTES 8	/* the kernel's sigset_t on x86 */

static struct rt_ring8 ring;

static unsigned long wide(unsigned long how)
{
	return (unsigned long)((1ULL << 32) | how);
}

/* The kernel's sigset with @sig in it, as words of this ABI. */
static void kset(unsigned long *w, int sig)
{
	memset(w, 0, SIGSET_BYTES);
	w[(sig - 1) / (8 * sizeof(long))] |=
		1UL << ((sig - 1) % (8 * sizeof(long)));
}

static int kset_has(const unsigned long *w, int sig)
{
	return !!(w[(sig - 1) / (8 * sizeof(long))] &
		  (1UL << ((sig - 1) % (8 * sizeof(long)))));
}

int main(void)
{
	unsigned long set[SIGSET_BYTES / sizeof(long)];
	unsigned long old[SIGSET_BYTES / sizeof(long)];
	unsigned long x[4], a_how, a_set, a_old, a_size = SIGSET_BYTES;
	unsigned long b_how = SIG_BLOCK, b_null = 0, b_old;
	struct syslet_uatom a[3], *done;
	struct async_head_user ahu;
	long r[3];
	sigset_t cur;
	int went = 0;

	rt_init();
	rt_register(&ahu, ring.slot, 8, -1UL);

	/* Inline, in the program's thread: the program's mask. */
	kset(set, SIGUSR1);
	x[0] = wide(SIG_BLOCK);
	x[1] = (unsigned long)set;
	x[2] = 0;
	x[3] = SIGSET_BYTES;
	r[0] = rt_run1(&ring, SYS_rt_sigprocmask, x, 4);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	rt_check(r[0] == 0 && sigismember(&cur, SIGUSR1),
		 "inline rt_sigprocmask((1 << 32) | SIG_BLOCK): %ld, SIGUSR1 "
		 "%sblocked", r[0], sigismember(&cur, SIGUSR1) ? "" : "not ");

	/*
	 * After a hand-off (SYSLET_ASYNC before the first atom): the wide
	 * SIG_BLOCK of SIGUSR2, then a look at the chain's mask.  A hand-off
	 * needs a parked thread: up to 20 tries until one went async.
	 */
	kset(set, SIGUSR2);
	a_how = wide(SIG_BLOCK);
	a_set = (unsigned long)set;
	a_old = 0;
	b_old = (unsigned long)old;
	rt_atom(&a[0], SYS_getppid, &r[0], SYSLET_ASYNC, &a[1], NULL, NULL,
		NULL);
	memset(&a[1], 0, sizeof(a[1]));
	a[1].nr = SYS_rt_sigprocmask;
	a[1].ret_ptr = &r[1];
	a[1].next = &a[2];
	a[1].arg_ptr[0] = &a_how;
	a[1].arg_ptr[1] = &a_set;
	a[1].arg_ptr[2] = &a_old;
	a[1].arg_ptr[3] = &a_size;
	a[2] = a[1];
	a[2].ret_ptr = &r[2];
	a[2].next = NULL;
	a[2].arg_ptr[0] = &b_how;
	a[2].arg_ptr[1] = &b_null;
	a[2].arg_ptr[2] = &b_old;
	for (int i = 0; i < 20 && !went; i++) {
		r[0] = r[1] = r[2] = -12345;
		memset(old, 0, sizeof(old));
		errno = 0;
		done = sys_async_exec(&a[0]);
		if (errno)
			rt_die("async_exec: %s", strerror(errno));
		if (!done) {
			went = 1;
			rt_wait_slot(&ring.slot[ring.next], 1);
			done = ring.slot[ring.next];
			ring.slot[ring.next] = NULL;
			ring.next = (ring.next + 1) % 8;
		}
		rt_check(done == &a[2], "the chain ended at atom %ld",
			 done ? (long)(done - a) : -1L);
		rt_check(r[1] == 0 && r[2] == 0 && kset_has(old, SIGUSR2),
			 "%s: rt_sigprocmask((1 << 32) | SIG_BLOCK): %ld, the "
			 "chain's mask then: %ld, SIGUSR2 %sin it",
			 went ? "after a hand-off" : "inline", r[1], r[2],
			 kset_has(old, SIGUSR2) ? "" : "not ");
		if (!went)
			usleep(10000);
	}
	if (!went)
		printf("sighow: no chain went async in 20 tries\n");
	rt_unregister(&ahu);
	return rt_done("sighow");
}
