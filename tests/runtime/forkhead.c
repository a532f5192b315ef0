/* forkhead.c: a child made by fork() has no async head, whatever its parent had in flight, and may register its own. */
#include "helpers.h"
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

/*
 * The 2007 kernel's heads belong to the task: fork() cleared the child's
 * (async_init()), so the child's async_exec() and async_wait() failed
 * with EINVAL, its async_unregister() too, and its async_register() made
 * a head of its own.  The parent's syslets in flight went on in the
 * parent only.  Here the parent has a read in flight on its head, and a
 * second thread has a head of its own, when the main thread forks: the
 * child has no head at all, so it may also choose its backend again.
 */

#define ENTRIES 8

static struct syslet_uatom *ring[ENTRIES], *tring[ENTRIES];
static struct async_head_user ahu, tahu;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int tstate;	/* 1: registered; 2: told to unregister */

static void *other(void *arg)
{
	(void)arg;
	rt_register(&tahu, tring, ENTRIES, 2);
	pthread_mutex_lock(&mu);
	tstate = 1;
	pthread_cond_broadcast(&cv);
	while (tstate != 2)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	rt_unregister(&tahu);
	return NULL;
}

/* The child: what it finds, and a head of its own. */
static int child(const char *backend)
{
	static struct syslet_uatom *cring[ENTRIES];
	struct async_head_user cahu;
	struct syslet_uatom a, *done;
	struct rt_pipe_read pr;
	unsigned long cell = 0, *pcell = &cell, inc = 5;
	unsigned long idx = 0;
	long r = 0, w;

	alarm(10);
	rt_atom(&a, rt_umem_nr(), &r, 0, NULL, (unsigned long *)&pcell, &inc,
		NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(!done && errno == EINVAL,
		 "async_exec in the child: %p %s, want EINVAL", (void *)done,
		 strerror(errno));
	rt_check(cell == 0, "the child's atom ran on its parent's head: %lu",
		 cell);
	a.flags = SYSLET_ASYNC;
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(!done && errno == EINVAL && cell == 0,
		 "ASYNC async_exec in the child: %p %s, cell %lu",
		 (void *)done, strerror(errno), cell);
	errno = 0;
	w = sys_async_wait(1);
	rt_check(w == -1 && errno == EINVAL,
		 "async_wait in the child: %ld %s, want EINVAL", w,
		 strerror(errno));
	errno = 0;
	w = sys_async_unregister(&ahu, sizeof(ahu));
	rt_check(w == -1 && errno == EINVAL,
		 "async_unregister of the parent's head in the child: %ld %s",
		 w, strerror(errno));
	/* No head in the child's process: its backend may change. */
	rt_check(syslet_set_backend(backend) == 0,
		 "syslet_set_backend(%s) in the child: %s", backend,
		 strerror(errno));
	memset(&cahu, 0, sizeof(cahu));
	cahu.completion_ring = cring;
	cahu.ring_size_bytes = sizeof(cring);
	cahu.max_nr_threads = 2;
	errno = 0;
	w = sys_async_register(&cahu, sizeof(cahu));
	rt_check(w == 0, "the child's own async_register: %ld %s", w,
		 strerror(errno));
	if (w)
		return rt_failures;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	if (write(pr.pfd[1], "c", 1) != 1)
		rt_die("write: %s", strerror(errno));
	while (!cring[0])
		if (sys_async_wait(1))
			rt_die("async_wait in the child: %s", strerror(errno));
	rt_check(rt_drain(cring, ENTRIES, &idx, &done, 1) == 1 &&
		 done == &pr.atom && pr.ret == 1 && pr.c == 'c',
		 "the child's own syslet: completion %p (want %p), ret %ld",
		 (void *)done, (void *)&pr.atom, pr.ret);
	rt_check(!ring[0], "the child's completion went to its parent's ring");
	rt_unregister(&cahu);
	rt_pipe_read_close(&pr);
	return rt_failures;
}

int main(void)
{
	const char *backend;
	const char *san = getenv("SYSLET_SANITIZE");

	/* The sanitizers' allocator has no fork handler: a lock that a
	 * parent's thread held at fork() stays taken in the child, whose
	 * own threads then wait on it for ever (seen under check-sanitize;
	 * glibc's malloc takes its locks around fork()). */
	if (san && *san) {
		printf("SKIP: fork() with threads under a sanitizer (%s): its "
		       "allocator's locks are not reset in the child\n", san);
		return RT_SKIP;
	}
	backend = rt_init();
	struct rt_pipe_read pr;
	struct syslet_uatom *done;
	unsigned long idx = 0;
	pthread_t t;
	pid_t pid;
	int st;

	if (pthread_create(&t, NULL, other, NULL))
		rt_die("pthread_create");
	pthread_mutex_lock(&mu);
	while (tstate != 1)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	rt_register(&ahu, ring, ENTRIES, 2);
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		rt_die("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(child(backend) ? RT_FAIL : RT_PASS);
	if (waitpid(pid, &st, 0) != pid)
		rt_die("waitpid: %s", strerror(errno));
	rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "the child failed or hung (status %#x)", st);
	/* The parent's syslet went on in the parent. */
	rt_check(!ring[0], "a completion before the parent's write");
	if (write(pr.pfd[1], "p", 1) != 1)
		rt_die("write: %s", strerror(errno));
	while (!ring[0])
		if (sys_async_wait(1))
			rt_die("async_wait: %s", strerror(errno));
	rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
		 done == &pr.atom && pr.ret == 1 && pr.c == 'p',
		 "the parent's syslet: completion %p (want %p), ret %ld",
		 (void *)done, (void *)&pr.atom, pr.ret);
	rt_unregister(&ahu);
	rt_pipe_read_close(&pr);
	pthread_mutex_lock(&mu);
	tstate = 2;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	return rt_done("forkhead");
}
