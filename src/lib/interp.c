/* interp.c: the interpreter's fast loop (atoms that never block, nobody observing), its signal test and fault injection, shared by the engines. */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "api.h"
#include "interp.h"

/* Signals whose default action is to do nothing: the kernel never makes
 * them pending unless they are blocked, as they are while atoms run. */
static bool ignored_by_default(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH ||
	       sig == SIGCONT;
}

/* Whether @sig, delivered now, would do anything: run a handler, or a
 * default action other than ignoring it. */
static bool signal_acts(int sig)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa))
		return true;
	if (sa.sa_handler == SIG_IGN)
		return false;
	if (sa.sa_handler != SIG_DFL)
		return true;
	return !ignored_by_default(sig);
}

/*
 * The signals pending for this thread alone, bit N - 1 for signal N: the
 * kernel keeps them apart from the process's (SigPnd and ShdPnd in
 * /proc/thread-self/status), which sigpending() joins.  Read only once
 * sigpending() showed one that would act, so rarely; all ones when it
 * cannot be read (every pending signal then counts, as before).
 */
static uint64_t thread_pending(void)
{
	static const char key[] = "\nSigPnd:";
	char buf[4096], *at;
	ssize_t n = 0, r;
	int fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return ~(uint64_t)0;
	while (n < (ssize_t)sizeof(buf) - 1 &&
	       (r = read(fd, buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	at = strstr(buf, key);
	if (!at)
		return ~(uint64_t)0;
	return (uint64_t)strtoull(at + sizeof(key) - 1, NULL, 16);
}

/*
 * Signals sent to this thread alone that the program blocks (@sigs, bits
 * of signals 1 to 64), where this thread runs a syslet that went async:
 * the program's.  Taken from this thread and sent to the process, as the
 * kernel port sends a signal for a worker alone to the thread group
 * (kernel-patch/README): it then waits for the program to unblock it,
 * where it stayed pending on a thread that never would.  A queued
 * signal keeps its value where the kernel lets rt_sigqueueinfo() say so
 * (a code below 0, not tkill's); otherwise it goes as kill() sends it.
 */
static void forward_to_process(uint64_t sigs)
{
	while (sigs) {
		int sig = __builtin_ctzll(sigs) + 1;
		struct timespec zero = { 0, 0 };
		sigset_t one;
		siginfo_t si;

		sigs &= sigs - 1;
		/* The C library's own (SIGCANCEL, SIGSETXID) stay put. */
		if (sig >= 32 && sig < SIGRTMIN)
			continue;
		sigemptyset(&one);
		if (sigaddset(&one, sig))
			continue;
		/* A thread's own queue comes before the process's. */
		if (sigtimedwait(&one, &si, &zero) != sig)
			continue;
		if (si.si_code < 0 && si.si_code != SI_TKILL &&
		    !syscall(SYS_rt_sigqueueinfo, getpid(), sig, &si))
			continue;
		kill(getpid(), sig);
	}
}

bool interp_signal_pending_for(const sigset_t *user_mask, bool own_only)
{
	sigset_t pend;
	unsigned long p[sizeof(sigset_t) / sizeof(long)];
	unsigned long m[sizeof(sigset_t) / sizeof(long)];
	const unsigned int bits = 8 * sizeof(long);
	uint64_t acting = 0, held = 0, own;

	if (sigpending(&pend))
		return false;
	/* The kernel's sigset is the first _NSIG bits of glibc's. */
	memcpy(p, &pend, sizeof(p));
	memcpy(m, user_mask, sizeof(m));
	for (size_t i = 0; i < (NSIG - 1 + bits - 1) / bits; i++) {
		unsigned long todo = p[i] & ~m[i];

		/* Pending, blocked by the program: a worker's own go to it. */
		if (own_only && i * bits < 64)
			held |= (uint64_t)(p[i] & m[i]) << (i * bits);
		while (todo) {
			unsigned int b = (unsigned int)__builtin_ctzl(todo);
			unsigned int sig = (unsigned int)(i * bits + b) + 1;

			todo &= todo - 1;
			if (!signal_acts((int)sig))
				continue;
			if (!own_only || sig > 64)
				return true;
			acting |= (uint64_t)1 << (sig - 1);
		}
	}
	if (!acting && !held)
		return false;
	own = thread_pending();
	/* ~0: unknown, and none is taken then. */
	if (own != ~(uint64_t)0 && (held & own))
		forward_to_process(held & own);
	return acting && (acting & own);
}

bool interp_signal_pending(const sigset_t *user_mask)
{
	return interp_signal_pending_for(user_mask, false);
}

/*
 * Atoms whose call @tab marks EMUL_P_INLINE (run in place) or
 * EMUL_P_UMEM, one after the other, with the fetch, store, stop and SKIP
 * rules of the full loop but nothing else, so that a chain of cheap
 * calls costs what the calls cost.  Anything else (an ASYNC atom, a
 * number past the table, another policy, an unreadable word) is left to
 * the engine's full loop: *fp->up is then that atom, not run.
 */
struct syslet_uatom *interp_fast(struct interp_fast *fp)
{
	const unsigned char *tab = fp->tab;
	unsigned long nrs = fp->nr_syscalls;
	struct syslet_uatom *u = fp->up, *last = NULL;
	/* Locals, not *fp: they stay in registers across the syscalls. */
	unsigned long nsys = 0, numem = 0, lflags = fp->last_flags;
	unsigned int budget = fp->budget;
	unsigned long left = fp->limit;
	bool failed = false;
	struct emul_atom a;
	long ret;

	fp->done = false;
	fp->signalled = false;
	for (;;) {
		unsigned long p, v;

		/* copy_uatom() as straight-line loads; any fault, or an
		 * atom past the end of user space, leaves the atom to the
		 * full loop, which reports it. */
		if (__builtin_expect(!emul_range_ok(u, sizeof(*u)), 0))
			goto out;
		EMUL_GET_OR_GOTO(p, INTERP_UFIELD(u, flags), out);
		a.flags = p;
		EMUL_GET_OR_GOTO(p, INTERP_UFIELD(u, nr), out);
		a.nr = p;
		if ((a.flags & SYSLET_ASYNC) || a.nr >= nrs)
			break;
		EMUL_GET_OR_GOTO(p, INTERP_UFIELD(u, ret_ptr), out);
		a.ret_ptr = (long *)p;
		EMUL_GET_OR_GOTO(p, INTERP_UFIELD(u, next), out);
		a.next = (struct syslet_uatom *)p;
		a.args[0] = a.args[1] = a.args[2] = 0;
		a.args[3] = a.args[4] = a.args[5] = 0;
#define INTERP_FAST_ARG(i)                                              \
		EMUL_GET_OR_GOTO(p, INTERP_UARG(u, i), out);              \
		if (!p)                                                 \
			goto fetched;                                   \
		EMUL_GET_OR_GOTO(v, p, out);                            \
		a.args[i] = v
		INTERP_FAST_ARG(0);
		INTERP_FAST_ARG(1);
		INTERP_FAST_ARG(2);
		INTERP_FAST_ARG(3);
		INTERP_FAST_ARG(4);
		INTERP_FAST_ARG(5);
#undef INTERP_FAST_ARG
fetched:
		if (__builtin_expect(tab[a.nr] == EMUL_P_INLINE, 1)) {
			ret = emul_raw_syscall(&a);
			nsys++;
			budget = budget > INTERP_SIG_SYSCALL ?
				 budget - INTERP_SIG_SYSCALL : 0;
			/* A failed call may have raised a signal (SIGPIPE):
			 * look now.  The value itself never says "signal". */
			if (__builtin_expect((unsigned long)ret > -4096UL, 0)) {
				budget = 0;
				failed = true;
			}
		} else if (tab[a.nr] == EMUL_P_UMEM) {
			ret = interp_umem((unsigned long *)a.args[0],
					  a.args[1]);
			numem++;
			budget = budget ? budget - 1 : 0;
		} else {
			break;
		}
		last = u;
		lflags = a.flags;
		if (a.ret_ptr && emul_put(a.ret_ptr, (unsigned long)ret))
			ret = -EFAULT;
		if (__builtin_expect(budget == 0, 0)) {
			budget = INTERP_SIG_BUDGET;
			if (fp->user_mask && (failed || !fp->raised_only) &&
			    interp_signal_pending_for(fp->user_mask,
						      fp->own_only)) {
				fp->signalled = true;
				fp->done = true;
				u = NULL;
				break;
			}
			failed = false;
		}
		if (__builtin_expect(!(a.flags & SYSLET_STOP_MASK), 1))
			u = a.next;
		else if (interp_goes_on(a.flags, ret))
			u = a.next;
		else if (a.flags & SYSLET_SKIP_TO_NEXT_ON_STOP)
			u = interp_after(u);
		else
			u = NULL;
		if (!u) {
			fp->done = true;
			break;
		}
		if (__builtin_expect(--left == 0, 0))
			break;
	}
out:
	fp->nsys += nsys;
	fp->numem += numem;
	fp->budget = budget;
	fp->last_flags = lflags;
	fp->up = u;
	return last;
}

/* ---- Fault injection ----------------------------------------------------- */

struct interp_inject *interp_inject_tab;
static pthread_mutex_t interp_inject_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every table ever published, newest first: replaced ones stay readable
 * (a chain may hold one) and reachable. */
static struct interp_inject *interp_inject_all;

bool interp_inject_hit(struct interp_inject *t, unsigned long nr, long *ret)
{
	struct interp_rule *r;
	unsigned long long n;

	if (nr >= t->n || !t->rule[nr].step)
		return false;
	r = &t->rule[nr];
	n = __atomic_add_fetch(&r->calls, 1, __ATOMIC_RELAXED);
	if (n < r->first || (r->last && n > r->last) ||
	    (n - r->first) % r->step)
		return false;
	__atomic_add_fetch(&r->injected, 1, __ATOMIC_RELAXED);
	*ret = r->ret;
	return true;
}

/*
 * Rule @i of the caller's array, whose elements are @sz bytes long (its
 * sizeof), into @r as this library's struct; false when the element is
 * not a sized struct of that size (api.h).
 */
static bool inject_rule(const struct syslet_inject *rules, size_t sz,
			size_t i, struct syslet_inject *r)
{
	const unsigned char *e = (const unsigned char *)rules + i * sz;
	size_t esz;

	memset(r, 0, sizeof(*r));
	if (!api_sz_ok(e, sizeof(*r)))
		return false;
	memcpy(&esz, e, sizeof(esz));
	if (esz != sz)
		return false;
	memcpy(r, e, sz < sizeof(*r) ? sz : sizeof(*r));
	return true;
}

int syslet_set_inject(const struct syslet_inject *rules, size_t n)
{
	const struct backend *b;
	struct interp_inject *t = NULL;
	struct syslet_inject r;
	unsigned long top = 0;
	size_t sz = 0;
	long err;

	b = backend_get(&err);
	if (!b)
		return api_err((int)err);
	/* The kernel runs its atoms itself: no rule would ever apply. */
	if (!b->observed)
		return api_err(-ENOTSUP);
	err = emul_init();
	if (err)
		return api_err((int)err);
	if (n) {
		if (!rules || !api_sz_ok(rules, sizeof(r)))
			return api_err(-EINVAL);
		sz = rules->sz;
	}
	for (size_t i = 0; i < n; i++) {
		if (!inject_rule(rules, sz, i, &r) ||
		    r.nr >= emul_prof->nr_syscalls || !r.first ||
		    !r.step || (r.last && r.last < r.first))
			return api_err(-EINVAL);
		if (r.nr + 1 > top)
			top = r.nr + 1;
	}
	if (n) {
		t = calloc(1, sizeof(*t) + top * sizeof(t->rule[0]));
		if (!t)
			return api_err(-ENOMEM);
		t->n = top;
		for (size_t i = 0; i < n; i++) {
			struct interp_rule *ir;

			inject_rule(rules, sz, i, &r);
			ir = &t->rule[r.nr];
			ir->ret = r.ret;
			ir->first = r.first;
			ir->last = r.last;
			ir->step = r.step;
		}
	}
	pthread_mutex_lock(&interp_inject_lock);
	if (t) {
		t->older = interp_inject_all;
		interp_inject_all = t;
	}
	__atomic_store_n(&interp_inject_tab, t, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&interp_inject_lock);
	return 0;
}

int syslet_get_inject(struct syslet_inject *rules, size_t max)
{
	struct interp_inject *t;
	size_t k = 0, sz = 0;

	if (max) {
		if (!api_sz_ok(rules, sizeof(*rules)))
			return api_err(-EINVAL);
		sz = rules->sz;
	}

	pthread_mutex_lock(&interp_inject_lock);
	t = interp_inject_tab;
	for (unsigned long nr = 0; t && nr < t->n; nr++) {
		const struct interp_rule *r = &t->rule[nr];

		if (!r->step)
			continue;
		if (k < max) {
			struct syslet_inject o = { .sz = sizeof(o) };
			unsigned char *e = (unsigned char *)rules + k * sz;

			o.nr = nr;
			o.ret = r->ret;
			o.first = r->first;
			o.last = r->last;
			o.step = r->step;
			o.calls = __atomic_load_n(&r->calls, __ATOMIC_RELAXED);
			o.injected = __atomic_load_n(&r->injected,
						     __ATOMIC_RELAXED);
			/* Every element is the caller's struct: its sz,
			 * and its tail past ours zero. */
			if (k)
				memset(e, 0, sz);
			memcpy(e, &sz, sizeof(sz));
			api_sz_copy(e, &o, sizeof(o));
		}
		k++;
	}
	pthread_mutex_unlock(&interp_inject_lock);
	return k > INT_MAX ? INT_MAX : (int)k;
}
