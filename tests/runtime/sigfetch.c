/* sigfetch.c: seeds/006 exec_atom() looks for a signal after each atom, before it fetches the next one: a caught signal ends the syslet at the atom that raised it even when its next (or SKIP's atom + 1) cannot be read, where a blocked, ignored or default-ignored one lets the fetch fault (-EFAULT); copy_uatom() reads arg_ptr[] up to the first NULL and never private. */
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include "helpers.h"

static volatile sig_atomic_t sf_caught;

static void sf_handler(int sig)
{
	(void)sig;
	sf_caught++;
}

enum sf_how { SF_CAUGHT, SF_BLOCKED, SF_IGNORED, SF_DEFAULT };

static const char *const sf_names[] = {
	"caught", "blocked", "ignored", "ignored by default"
};

/*
 * One atom, tgkill() of this thread with @sig, whose way on leads to
 * unreadable memory @bad: its next, or with @skip a stop on its result 0
 * and SKIP to the atom after it, which ends the page.  A caught signal
 * ends the chain there (async_exec returns the atom); otherwise the
 * next fetch faults and async_exec fails with EFAULT, the call made.
 */
static void sf_case(char *page, enum sf_how how, bool skip)
{
	int sig = how == SF_DEFAULT ? SIGWINCH : SIGUSR1;
	struct sigaction sa, old;
	sigset_t m, oldm;
	static unsigned long pid, tid, s;
	static long ret;
	struct syslet_uatom *a, *done;
	int e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = how == SF_IGNORED ? SIG_IGN :
			how == SF_DEFAULT ? SIG_DFL : sf_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old))
		rt_die("sigaction: %s", strerror(errno));
	sigemptyset(&m);
	sigaddset(&m, sig);
	if (sigprocmask(how == SF_BLOCKED ? SIG_BLOCK : SIG_UNBLOCK, &m,
			&oldm))
		rt_die("sigprocmask: %s", strerror(errno));
	pid = (unsigned long)getpid();
	tid = (unsigned long)syscall(SYS_gettid);
	s = (unsigned long)sig;
	/* With SKIP, the atom is the page's last: atom + 1 is unmapped. */
	a = (struct syslet_uatom *)(page + 4096 - sizeof(*a));
	rt_atom(a, SYS_tgkill, &ret, skip ? SYSLET_STOP_ON_ZERO |
		SYSLET_SKIP_TO_NEXT_ON_STOP : 0,
		skip ? NULL : (struct syslet_uatom *)(page + 4096), &pid,
		&tid, &s);
	ret = -12345;
	sf_caught = 0;
	errno = 0;
	done = sys_async_exec(a);
	e = done ? 0 : errno;
	if (how == SF_CAUGHT)
		rt_check(done == a && ret == 0 && sf_caught == 1,
			 "%s SIGUSR1%s: async_exec %p (%s), tgkill stored %ld, "
			 "handler ran %d: the syslet ends at the atom, before "
			 "its next is fetched", sf_names[how],
			 skip ? ", SKIP" : "", (void *)done, strerror(e), ret,
			 (int)sf_caught);
	else
		rt_check(!done && e == EFAULT && ret == 0 && !sf_caught,
			 "%s signal %d%s: async_exec %p (%s), tgkill stored "
			 "%ld: the next fetch faults", sf_names[how], sig,
			 skip ? ", SKIP" : "", (void *)done, strerror(e), ret);
	/* A blocked one is still pending: taken back before it acts. */
	if (how == SF_BLOCKED) {
		sa.sa_handler = SIG_IGN;
		sigaction(sig, &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &oldm, NULL);
	sigaction(sig, &old, NULL);
}

/*
 * copy_uatom(): nr, ret_ptr, flags and next, then arg_ptr[0], [1], ...
 * up to the first NULL; private never.  An atom whose words past that
 * NULL lie in an unmapped page runs; one cut before next faults.
 */
static void sf_fetch_end(char *page)
{
	static unsigned long x;
	static long ret;
	const size_t w = sizeof(long);

	for (int k = 1; k <= 6; k++) {
		/* The first 4 words, then k argument words, the last of
		 * them NULL, then the end of the page; k == 6: all six
		 * pointers set, private alone unmapped. */
		size_t words = 4 + (size_t)k;
		struct syslet_uatom *a = (struct syslet_uatom *)
			(page + 4096 - words * w);
		struct syslet_uatom *done;
		int e;

		memset(a, 0, words * w);
		a->nr = SYS_getppid;
		a->ret_ptr = &ret;
		for (int i = 0; i < (k == 6 ? 6 : k - 1); i++)
			a->arg_ptr[i] = &x;
		ret = -12345;
		errno = 0;
		done = sys_async_exec(a);
		e = done ? 0 : errno;
		rt_check(done == a && ret == (long)getppid(),
			 "%d argument pointer word(s) readable%s: async_exec "
			 "%p (%s), stored %ld: the fetch stops at the first "
			 "NULL", k, k == 6 ? " (private not)" : "",
			 (void *)done, strerror(e), ret);
	}
	/* Cut before next, and before arg_ptr[0]: the fetch faults, the
	 * call is not made. */
	for (int words = 3; words <= 4; words++) {
		struct syslet_uatom *a = (struct syslet_uatom *)
			(page + 4096 - (size_t)words * w);
		struct syslet_uatom *done;

		memset(a, 0, (size_t)words * w);
		a->nr = SYS_getppid;
		a->ret_ptr = &ret;
		ret = -12345;
		errno = 0;
		done = sys_async_exec(a);
		rt_check(!done && errno == EFAULT && ret == -12345,
			 "an atom of %d readable words: async_exec %p (%s), "
			 "stored %ld", words, (void *)done, strerror(errno),
			 ret);
	}
}

int main(void)
{
	static struct syslet_uatom *ring[8];
	struct async_head_user ahu;
	char *p;

	rt_init();
	alarm(30);
	p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + 4096, 4096))
		rt_die("mmap: %s", strerror(errno));
	rt_register(&ahu, ring, 8, -1UL);
	for (int how = SF_CAUGHT; how <= SF_DEFAULT; how++) {
		sf_case(p, (enum sf_how)how, false);
		sf_case(p, (enum sf_how)how, true);
	}
	sf_fetch_end(p);
	for (int i = 0; i < 8; i++)
		rt_check(!ring[i], "slot %d holds %p: every syslet ran inline",
			 i, (void *)ring[i]);
	rt_unregister(&ahu);
	return rt_done("sigfetch");
}
