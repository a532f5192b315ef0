/* exechead.c: a program that execve()s itself from a thread with a head and syslets in flight starts without a head, registers one and runs syslets, and inherits no descriptor of the engine. */
#include "helpers.h"
#include <dirent.h>
#include <fcntl.h>

/*
 * 2007's execve() left the task its head: only copy_process() and
 * do_exit() touched t->ah (seeds/004), and de_thread() killed the
 * cachemiss threads, so the new program's async_register() failed with
 * EEXIST and its syslets completed into the old ring's address, now
 * memory of the new image.  Here the new image starts without a head,
 * as a fork() child does: it registers one, and a syslet that goes
 * async completes into its ring.  The exec is made by a second thread
 * while both it and the main thread have a read in flight, and every
 * descriptor the engines opened is closed by the exec: the new image
 * has only those the old one had without FD_CLOEXEC.
 */

#define ENTRIES	8

static struct syslet_uatom *ring[ENTRIES];
static char **args;

/* The new image: argv[2] lists the descriptors it may have. */
static int after_exec(const char *allowed)
{
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	unsigned long idx = 0;
	struct syslet_uatom *done = NULL;
	pthread_t t;
	struct dirent *d;
	DIR *dir;

	/* Before the library opens any of its own. */
	dir = opendir("/proc/self/fd");
	if (!dir)
		rt_die("/proc/self/fd: %s", strerror(errno));
	while ((d = readdir(dir))) {
		char want[16];
		int fd = atoi(d->d_name);

		if (d->d_name[0] == '.' || fd == dirfd(dir))
			continue;
		snprintf(want, sizeof(want), ",%d,", fd);
		rt_check(strstr(allowed, want), "descriptor %d, not one the "
			 "old image left open (%s), came through the exec",
			 fd, allowed);
	}
	closedir(dir);
	rt_init();
	errno = 0;
	memset(ring, 0, sizeof(ring));
	ahu.completion_ring = ring;
	ahu.ring_size_bytes = sizeof(ring);
	ahu.max_nr_threads = 2;
	rt_check(sys_async_register(&ahu, sizeof(ahu)) == 0,
		 "async_register after the exec: %s", strerror(errno));
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	rt_pipe_write_late(&pr, &t);
	rt_wait_slot(&ring[idx], 1);
	rt_pipe_write_join(t);
	rt_check(rt_drain(ring, ENTRIES, &idx, &done, 1) == 1 &&
		 done == &pr.atom && pr.ret == 1 && pr.c == 'w',
		 "the new image's read: completion %p, ret %ld",
		 (void *)done, pr.ret);
	rt_unregister(&ahu);
	rt_pipe_read_close(&pr);
	return rt_done("exechead");
}

/* The second thread: a head of its own, a read in flight, the exec. */
static void *exec_thread(void *arg)
{
	static struct syslet_uatom *tring[ENTRIES];
	static struct rt_pipe_read pr;
	struct async_head_user ahu;
	char allowed[1024] = ",";
	struct dirent *d;
	DIR *dir;

	(void)arg;
	rt_register(&ahu, tring, ENTRIES, 2);
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	dir = opendir("/proc/self/fd");
	if (!dir)
		rt_die("/proc/self/fd: %s", strerror(errno));
	while ((d = readdir(dir))) {
		int fd = atoi(d->d_name), fl;
		size_t n = strlen(allowed);

		if (d->d_name[0] == '.' || fd == dirfd(dir))
			continue;
		fl = fcntl(fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC) && n + 16 < sizeof(allowed))
			snprintf(allowed + n, sizeof(allowed) - n, "%d,", fd);
	}
	closedir(dir);
	execl("/proc/self/exe", args[0], "after-exec", allowed, (char *)NULL);
	rt_die("execl /proc/self/exe: %s", strerror(errno));
	return NULL;
}

int main(int argc, char **argv)
{
	struct async_head_user ahu;
	struct rt_pipe_read pr;
	pthread_t t;

	if (argc == 3 && !strcmp(argv[1], "after-exec"))
		return after_exec(argv[2]);
	args = argv;
	rt_init();
	rt_register(&ahu, ring, ENTRIES, 2);
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	if (pthread_create(&t, NULL, exec_thread, NULL))
		rt_die("pthread_create");
	pthread_join(t, NULL);
	rt_die("the exec returned");
}
