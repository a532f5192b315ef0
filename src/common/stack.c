/* stack.c: run main on a stack deep enough whatever `ulimit -s` says (see stack.h). */
#define _GNU_SOURCE	/* pthread_getattr_default_np */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include "common/stack.h"

/* Four times what the deepest program sysletc accepts needs (measured:
 * 1008 KiB for 3,984 nested do-loops), for the syslet-run shell's own
 * frames above the compiler's and for libraries we do not control. */
#define STACK_MAIN	(4UL << 20)
/* As the engines' workers: enough for a trace line or a diagnostic. */
#define STACK_THREAD	(256UL << 10)

struct stack_call {
	int	(*fn)(int argc, char **argv);
	int	argc;
	char	**argv;
	sigset_t mask;
	int	rc;
};

static void *stack_thread(void *p)
{
	struct stack_call *c = p;

	pthread_sigmask(SIG_SETMASK, &c->mask, NULL);
	c->rc = c->fn(c->argc, c->argv);
	return NULL;
}

/* glibc sizes the threads it makes without a size after the limit the
 * program started with: 16 KiB under `ulimit -s 16`. */
static void stack_thread_default(void)
{
	pthread_attr_t attr;
	size_t sz;

	if (pthread_getattr_default_np(&attr))
		return;
	if (!pthread_attr_getstacksize(&attr, &sz) && sz < STACK_THREAD &&
	    !pthread_attr_setstacksize(&attr, STACK_THREAD))
		pthread_setattr_default_np(&attr);
	pthread_attr_destroy(&attr);
}

/* Whether the first thread's stack may grow to STACK_MAIN, after raising
 * the soft limit as far as the hard one allows.  The kernel reads the
 * limit when the stack grows, and left at least 128 MiB below the stack
 * for it when the program started, whatever the limit was then. */
static int stack_enough(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_STACK, &rl))
		return 1;	/* nothing better to do than to try */
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= STACK_MAIN)
		return 1;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= STACK_MAIN) {
		rl.rlim_cur = STACK_MAIN;
		return !setrlimit(RLIMIT_STACK, &rl);
	}
	return 0;
}

int common_stack_main(int (*fn)(int argc, char **argv), int argc,
		      char **argv)
{
	struct stack_call c = { fn, argc, argv, { { 0 } }, 0 };
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all;
	int err;

	stack_thread_default();
	if (stack_enough())
		return fn(argc, argv);
	if (pthread_attr_init(&attr))
		return fn(argc, argv);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &c.mask);
	err = pthread_attr_setstacksize(&attr, STACK_MAIN) ?:
	      pthread_create(&t, &attr, stack_thread, &c);
	pthread_attr_destroy(&attr);
	if (err) {
		/* No room for it (ulimit -v): the small stack it is. */
		pthread_sigmask(SIG_SETMASK, &c.mask, NULL);
		return fn(argc, argv);
	}
	pthread_join(t, NULL);
	return c.rc;
}
