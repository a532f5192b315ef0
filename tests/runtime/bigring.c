/* bigring.c: registering a ring of 2^27 slots (1 GiB, syslet-run --ring=134217728) costs no page of it, and a ring with a hole or a PROT_NONE page in it is still refused with ENOMEM, as mlock(2) refuses it (seeds/006 async_head_init(): sys_mlock of the ring). */
#include <sys/mman.h>
#include <sys/resource.h>
#include "helpers.h"

#define SLOTS	(1UL << 27)
#define BYTES	(SLOTS * sizeof(void *))

/* Minor faults taken so far, and the peak resident size in KiB. */
static void usage_now(long *minflt, long *maxrss)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		rt_die("getrusage: %s", strerror(errno));
	*minflt = ru.ru_minflt;
	*maxrss = ru.ru_maxrss;
}

/* Register @ring of @bytes: 0 or errno. */
static int try_register(void *ring, unsigned long bytes)
{
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = bytes,
		.max_nr_threads = -1UL,
	};

	if (sys_async_register(&ahu, sizeof(ahu)))
		return errno;
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("sys_async_unregister: %s", strerror(errno));
	return 0;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE), f0, f1, r0, r1;
	const char *b = rt_init();
	char *ring;
	int e;

	/* The kernel backend locks the ring (mlock: every page in memory,
	 * or RLIMIT_MEMLOCK's ENOMEM); the user-space engines only check
	 * that it is there. */
	if (!strcmp(b, "kernel")) {
		printf("SKIP: the kernel backend locks the ring in memory\n");
		return RT_SKIP;
	}
	ring = mmap(NULL, BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ring == MAP_FAILED) {
		printf("SKIP: no 1 GiB of address space: %s\n",
		       strerror(errno));
		return RT_SKIP;
	}

	usage_now(&f0, &r0);
	e = try_register(ring, BYTES);
	usage_now(&f1, &r1);
	rt_check(!e, "a 1 GiB ring: %s", strerror(e));
	/* Page by page it took 262,144 faults (4 KiB pages) or, with
	 * transparent huge pages, a gigabyte of memory. */
	rt_check(f1 - f0 < 4096, "registering took %ld minor faults",
		 f1 - f0);
	rt_check(r1 - r0 < 65536, "registering grew the resident size by "
		 "%ld KiB", r1 - r0);

	/* A PROT_NONE page in the middle, then a hole there. */
	if (mprotect(ring + BYTES / 2, (size_t)page, PROT_NONE))
		rt_die("mprotect: %s", strerror(errno));
	e = try_register(ring, BYTES);
	rt_check(e == ENOMEM, "a PROT_NONE page in the ring: %s, expected "
		 "ENOMEM", e ? strerror(e) : "registered");
	if (munmap(ring + BYTES / 2, (size_t)page))
		rt_die("munmap: %s", strerror(errno));
	e = try_register(ring, BYTES);
	rt_check(e == ENOMEM, "a hole in the ring: %s, expected ENOMEM",
		 e ? strerror(e) : "registered");
	/* The half before the hole is a whole ring. */
	e = try_register(ring, BYTES / 2);
	rt_check(!e, "the ring's first half: %s", strerror(e));
	/* The last page unreadable: the range's end is checked too. */
	if (mprotect(ring + BYTES / 2 - page, (size_t)page, PROT_NONE))
		rt_die("mprotect: %s", strerror(errno));
	e = try_register(ring, BYTES / 2);
	rt_check(e == ENOMEM, "the last page PROT_NONE: %s, expected ENOMEM",
		 e ? strerror(e) : "registered");
	munmap(ring, BYTES);
	return rt_done("bigring");
}
