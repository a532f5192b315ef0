/* ringmem.c: the ring's memory at async_register: outside user space EFAULT, unmapped or inaccessible ENOMEM (mlock's answer), read-only accepted, locked until unregister on the kernel backend, as in 2007. */
#include "helpers.h"
#include <pthread.h>
#include <sys/mman.h>

/*
 * 2007's async_head_init() checked the ring with access_ok() (EFAULT
 * only for an address outside user space) and then pinned it with
 * sys_mlock(), returning mlock's error: ENOMEM where part of the ring is
 * not mapped (today's mlock also says so for PROT_NONE pages).  mlock
 * does not care whether the pages are writable: a read-only ring is
 * registered, and its completions can never be stored (2007 dropped
 * them; our backends keep them until async_unregister drops them).  The
 * kernel backend does exactly this; the user-space engines must give
 * the same answers.
 */

static long try_register(void *ring, unsigned long bytes)
{
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = bytes,
		.max_nr_threads = -1UL,
	};
	long r;

	errno = 0;
	r = sys_async_register(&ahu, sizeof(ahu));
	if (!r && sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("async_unregister: %s", strerror(errno));
	return r ? -errno : 0;
}

static int feed_fd;

static void *feed(void *arg)
{
	(void)arg;
	usleep(20000);
	if (write(feed_fd, "r", 1) != 1)
		rt_die("write: %s", strerror(errno));
	return NULL;
}

/* A read-only ring: registered; a syslet goes async and ends, its
 * completion finds no slot it can store into, and nothing is lost
 * silently or crashes; unregister still works. */
static void read_only_ring(unsigned char *page)
{
	struct syslet_uatom **ring = (struct syslet_uatom **)page;
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = 4 * sizeof(*ring),
		.max_nr_threads = -1UL,
	};
	struct syslet_uatom *done;
	struct rt_pipe_read pr;
	struct syslet_uatom a;
	unsigned long cell = 0, inc = 1, *p = &cell;
	pthread_t t;
	long r;

	r = sys_async_register(&ahu, sizeof(ahu));
	rt_check(r == 0, "a read-only ring: %s; 2007 (mlock) accepts it",
		 strerror(errno));
	if (r)
		return;
	/* A syslet that never blocks queues nothing: as with any ring. */
	rt_atom(&a, rt_umem_nr(), NULL, 0, NULL, (unsigned long *)&p, &inc,
		NULL);
	errno = 0;
	done = sys_async_exec(&a);
	rt_check(done == &a && !errno, "inline syslet: %p %s", (void *)done,
		 strerror(errno));
	rt_pipe_read_init(&pr);
	rt_pipe_read_exec(&pr);
	feed_fd = pr.pfd[1];
	if (pthread_create(&t, NULL, feed, NULL))
		rt_die("pthread_create");
	rt_check(sys_async_wait(1) == 0, "wait: %s", strerror(errno));
	pthread_join(t, NULL);
	for (int i = 0; i < 5000 && pr.ret != 1; i++)
		usleep(1000);
	rt_check(pr.ret == 1, "the read gave %ld", pr.ret);
	rt_check(sys_async_unregister(&ahu, sizeof(ahu)) == 0,
		 "unregister: %s", strerror(errno));
	for (int i = 0; i < 4; i++)
		rt_check(!ring[i], "slot %d of a read-only ring holds %p", i,
			 (void *)ring[i]);
	rt_pipe_read_close(&pr);
}

/* VmLck of /proc/self/status, in kB; -1 when it cannot be read. */
static long vm_locked_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * 2007's async_head_init() mlock()ed the ring and its async_head_exit()
 * munlock()ed it (seeds/006: sys_mlock, sys_munlock).  With the kernel
 * backend a registered ring is locked, and unlocked at unregister, also
 * where the program had locked that page itself before (munlock has no
 * count): sys_async_unregister(3) says so.  The user-space backends
 * lock nothing, so the program's own lock stays.
 */
static void ring_lock(long pg)
{
	struct async_head_user ahu;
	unsigned char *m;
	long base, r;
	int kernel = !strcmp(syslet_backend_name(), "kernel");

	m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	memset(m, 0, 2 * (size_t)pg);
	base = vm_locked_kb();
	if (base < 0) {
		printf("ringmem: no VmLck in /proc/self/status: the ring's "
		       "lock not checked\n");
		munmap(m, 2 * (size_t)pg);
		return;
	}
	/* A ring the program did not lock: locked while registered. */
	memset(&ahu, 0, sizeof(ahu));
	ahu.completion_ring = (struct syslet_uatom **)m;
	ahu.ring_size_bytes = 8 * sizeof(void *);
	ahu.max_nr_threads = -1UL;
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("async_register: %s", strerror(errno));
	r = vm_locked_kb();
	rt_check(r == base + (kernel ? pg / 1024 : 0),
		 "VmLck with a ring registered: %ld kB, was %ld; 2007 "
		 "mlock()ed the ring (kernel backend only)", r, base);
	rt_unregister(&ahu);
	r = vm_locked_kb();
	rt_check(r == base, "VmLck after async_unregister: %ld kB, was %ld; "
		 "2007 munlock()ed the ring", r, base);
	/* A ring on a page the program locked itself. */
	if (mlock(m + pg, (size_t)pg)) {
		printf("ringmem: mlock: %s: the program's own lock not "
		       "checked\n", strerror(errno));
		munmap(m, 2 * (size_t)pg);
		return;
	}
	if (vm_locked_kb() != base + pg / 1024) {
		/* A sanitizer's mlock() locks nothing (its interceptor). */
		printf("ringmem: mlock locked nothing here: the program's own "
		       "lock not checked\n");
		munmap(m, 2 * (size_t)pg);
		return;
	}
	ahu.completion_ring = (struct syslet_uatom **)(m + pg);
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("async_register: %s", strerror(errno));
	rt_unregister(&ahu);
	r = vm_locked_kb();
	rt_check(r == base + (kernel ? 0 : pg / 1024),
		 "VmLck after async_unregister of a ring the program had "
		 "locked: %ld kB, was %ld before its mlock; 2007's munlock "
		 "undid it (kernel backend), the user-space backends lock "
		 "nothing", r, base);
	munmap(m, 2 * (size_t)pg);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m;
	long r;

	rt_init();
	/* [rw][unmapped][none][ro] */
	m = mmap(NULL, 4 * (size_t)pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	if (munmap(m + pg, (size_t)pg) ||
	    mprotect(m + 2 * pg, (size_t)pg, PROT_NONE) ||
	    mprotect(m + 3 * pg, (size_t)pg, PROT_READ))
		rt_die("munmap/mprotect: %s", strerror(errno));

	r = try_register(m, 8 * sizeof(void *));
	rt_check(r == 0, "a writable ring: %s", strerror((int)-r));
	/* Unless something mapped the hole since (a sanitizer's allocator
	 * may): msync() says ENOMEM for an unmapped page. */
	if (msync(m + pg, (size_t)pg, MS_ASYNC) == 0) {
		printf("ringmem: the hole was mapped again: unmapped rings "
		       "not checked\n");
	} else {
		r = try_register(m + pg, 8 * sizeof(void *));
		rt_check(r == -ENOMEM, "an unmapped ring: %s; 2007 gives "
			 "mlock's ENOMEM", strerror((int)-r));
		r = try_register(m + pg - 4 * sizeof(void *),
				 8 * sizeof(void *));
		rt_check(r == -ENOMEM, "a ring running into an unmapped page: "
			 "%s; 2007 gives mlock's ENOMEM", strerror((int)-r));
	}
	r = try_register(m + 2 * pg, 8 * sizeof(void *));
	rt_check(r == -ENOMEM, "a PROT_NONE ring: %s; mlock gives ENOMEM",
		 strerror((int)-r));
#if defined(__x86_64__)
	/* access_ok() fails: past the top of user space (47 bits; a CPU
	 * with 5-level paging may give a kernel more). */
	if (system("grep -qw la57 /proc/cpuinfo 2>/dev/null") != 0) {
	r = try_register((void *)0x800000000000UL, 8 * sizeof(void *));
	rt_check(r == -EFAULT, "a ring past user space: %s; 2007 gives "
		 "EFAULT", strerror((int)-r));
	r = try_register((void *)(0x800000000000UL - 4 * sizeof(void *)),
			 8 * sizeof(void *));
	rt_check(r == -EFAULT, "a ring ending past user space: %s; 2007 "
		 "gives EFAULT", strerror((int)-r));
	}
#endif
	read_only_ring(m + 3 * pg);
	ring_lock(pg);
	return rt_done("ringmem");
}
