/* ringhead.c: syslet_ring__init() on a ring the thread has registered, and syslet_ring__exit() from a thread or child that has no head, leave the ring working: the EEXIST init wiped the live ring (its completions lost, never to be unregistered), the exit freed slots the backend went on filling. */
#include "helpers.h"
#include <sys/wait.h>

/*
 * A head is the registering thread's (seeds/006: t->ah).  A second
 * sys_async_register() of the thread fails with EEXIST and changes
 * nothing; async_unregister() in a thread without a head fails with
 * EINVAL and changes nothing: the first thread's syslets still complete
 * into its ring.  The helpers must keep both answers harmless: the ring
 * stays set up, and its slots stay allocated while the backend may
 * write into them.  A pipe read in flight shows where its completion
 * goes.
 */

static SYSLET_OPTS(syslet_ring, ring);

/* The read in flight, completed by a write: popped from @r. */
static void check_completes(struct syslet_ring *r, struct rt_pipe_read *pr,
			    const char *what)
{
	struct syslet_uatom *done;

	if (write(pr->pfd[1], "w", 1) != 1)
		rt_die("write: %s", strerror(errno));
	errno = 0;
	done = syslet_ring__wait_pop(r, 1);
	rt_check(done == &pr->atom && pr->ret == 1,
		 "%s: wait_pop gave %p (errno %d), the read is %p and stored "
		 "%ld: its completion reaches the ring", what, (void *)done,
		 errno, (void *)&pr->atom, pr->ret);
	close(pr->pfd[0]);
	close(pr->pfd[1]);
}

static void check_init_twice(void)
{
	SYSLET_OPTS(syslet_ring, other);
	struct syslet_uatom **slots;
	struct rt_pipe_read pr;

	if (syslet_ring__init(&ring, 8, -1UL))
		rt_die("syslet_ring__init: %s", strerror(errno));
	slots = ring.slots;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	rt_check_err(syslet_ring__init(&ring, 8, -1UL), EEXIST);
	rt_check(ring.slots == slots && ring.registered == 1 &&
		 ring.entries == 8,
		 "init again: slots %p (were %p), registered %d, entries %lu: "
		 "the live ring is kept", (void *)ring.slots, (void *)slots,
		 ring.registered, ring.entries);
	/* Another ring of the same thread: refused, and not set up. */
	rt_check_err(syslet_ring__init(&other, 8, -1UL), EEXIST);
	rt_check(!other.slots && !other.registered,
		 "another ring: slots %p, registered %d",
		 (void *)other.slots, other.registered);
	check_completes(&ring, &pr, "init again");
	syslet_ring__exit(&ring);
	rt_check(!ring.slots && !ring.registered, "exit: slots %p, "
		 "registered %d", (void *)ring.slots, ring.registered);
	/* Unregistered now: a ring may be set up again. */
	rt_check(syslet_ring__init(&ring, 8, -1UL) == 0,
		 "init after exit: %s", strerror(errno));
	syslet_ring__exit(&ring);
}

static int exit_errno;

static void *exit_main(void *arg)
{
	(void)arg;
	errno = 0;
	syslet_ring__exit(&ring);
	exit_errno = errno;
	return NULL;
}

static void check_exit_elsewhere(void)
{
	struct syslet_uatom **slots;
	struct rt_pipe_read pr;
	pthread_t t;
	pid_t pid;
	int st;

	if (syslet_ring__init(&ring, 8, -1UL))
		rt_die("syslet_ring__init: %s", strerror(errno));
	slots = ring.slots;
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	if (pthread_create(&t, NULL, exit_main, NULL))
		rt_die("pthread_create");
	pthread_join(t, NULL);
	rt_check(exit_errno == EINVAL && ring.slots == slots &&
		 ring.registered == 1,
		 "exit in a thread without a head: errno %d, slots %p (were "
		 "%p), registered %d: left registered, not freed", exit_errno,
		 (void *)ring.slots, (void *)slots, ring.registered);

	/* A child has no head: its exit changes nothing of the parent's,
	 * and it may set up a ring of its own in the same struct. */
	pid = fork();
	if (pid < 0)
		rt_die("fork: %s", strerror(errno));
	if (!pid) {
		errno = 0;
		syslet_ring__exit(&ring);
		if (errno != EINVAL || ring.slots != slots)
			_exit(2);
		if (syslet_ring__init(&ring, 4, -1UL) || ring.entries != 4)
			_exit(3);
		syslet_ring__exit(&ring);
		_exit(ring.slots || ring.registered ? 4 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		rt_die("waitpid: %s", strerror(errno));
	rt_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "child: status %#x (2: exit freed or no EINVAL, 3: no ring of "
		 "its own, 4: its exit left it set up)", st);

	check_completes(&ring, &pr, "exit in another thread");
	rt_check(ring.slots == slots, "the owner's ring moved");
	syslet_ring__exit(&ring);
	rt_check(!ring.slots && !ring.registered,
		 "the owner's exit: slots %p, registered %d",
		 (void *)ring.slots, ring.registered);
}

int main(void)
{
	rt_init();
	alarm(20);
	check_init_twice();
	check_exit_elsewhere();
	return rt_done("ringhead");
}
