/* uring-probe.c: choosing the uring backend probes io_uring without leaving the thread's io-wq smaller than the kernel makes it for the program's own rings. */
#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <pthread.h>
#include "helpers.h"

/*
 * A thread's io-wq comes with the first ring the thread sets up, its
 * workers for bounded work (regular files) limited to that ring's
 * entries, and to 4 per CPU.  The probe is the first ring of the thread
 * that chooses the backend: a probe ring of 4 entries left 4 workers to
 * every ring the thread set up after it, on a machine where the kernel
 * gives 4 per CPU.
 */

/* The calling thread's limit of bounded io-wq workers, read through a
 * ring of @entries (the query changes nothing); -errno if it cannot be
 * read here. */
static long bound_workers(unsigned int entries)
{
	struct io_uring_params p;
	unsigned int w[2] = { 0, 0 };
	long fd, r;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, entries, &p);
	if (fd < 0)
		return -errno;
	r = syscall(__NR_io_uring_register, (int)fd,
		    IORING_REGISTER_IOWQ_MAX_WORKERS, w, 2);
	if (r < 0)
		r = -errno;
	close((int)fd);
	return r < 0 ? r : (long)w[0];
}

static long fresh;

/* A thread that has set up no ring before: the kernel's own limit. */
static void *fresh_thread(void *arg)
{
	fresh = bound_workers(*(unsigned int *)arg);
	return NULL;
}

int main(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int entries;
	long after;
	pthread_t th;

	if (cpus < 1 || cpus > 1024)
		cpus = 1;
	entries = 4 * (unsigned int)cpus;
	if (syslet_set_backend("uring")) {
		fprintf(stderr, "SKIP: %s\n", syslet_backend_error());
		return RT_SKIP;
	}
	/* The probe ran in this thread; no head yet (a head sets the
	 * limit from its max_nr_threads, as documented). */
	after = bound_workers(entries);
	if (pthread_create(&th, NULL, fresh_thread, &entries))
		rt_die("pthread_create: %s", strerror(errno));
	pthread_join(th, NULL);
	if (after == -EINVAL || fresh == -EINVAL) {
		fprintf(stderr, "SKIP: no IORING_REGISTER_IOWQ_MAX_WORKERS "
			"here (Linux 5.15)\n");
		return RT_SKIP;
	}
	rt_check(after > 0 && fresh > 0, "reading the limit: %ld, %ld",
		 after, fresh);
	rt_check(after == fresh,
		 "bounded io-wq workers after the probe: %ld, in a thread "
		 "without it: %ld (%ld CPUs)", after, fresh, cpus);
	return rt_done("uring-probe");
}
