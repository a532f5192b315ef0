/* seedhead.c: the order of the head's checks in seeds/006 (len before EEXIST before reading the head, a size of 0 before the ring's range), async_unregister never reading its head, async_exec of NULL, and an atom whose last word lies past the end of user space (copy_uatom()'s access_ok of the whole atom: EFAULT). */
#include <sys/mman.h>
#include "helpers.h"
#include "usertop.h"

/*
 * Each expected value is read off seeds/006-patch-syslets-core-code.patch:
 * sys_async_register() checks len, then t->ah (EEXIST), then
 * async_head_init() get_user()s the three words (EFAULT), refuses a size
 * of 0 (EINVAL) before access_ok() of the ring (EFAULT);
 * sys_async_unregister() checks len and t->ah and never reads uah;
 * sys_async_exec() runs exec_atom(), whose copy_uatom() fails with EFAULT
 * first of all when access_ok(VERIFY_WRITE, uatom, sizeof(*uatom)) does:
 * the range of the whole atom, private included, must lie in user space,
 * whether or not the words are read.
 */

static void head_order(void)
{
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = sizeof(ring),
		.max_nr_threads = -1UL,
	};
	struct async_head_user other = ahu;
	void *none;
	long r;

	none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));

	/* Not registered: async_exec() is EINVAL before it reads the
	 * atom (NULL is no EFAULT yet). */
	errno = 0;
	rt_check(!sys_async_exec(NULL) && errno == EINVAL,
		 "exec NULL unregistered: errno %d", errno);
	/* The head is read before anything else is checked in it. */
	r = sys_async_register(NULL, sizeof(ahu));
	rt_check(r == -1 && errno == EFAULT, "register NULL: %ld %d", r, errno);
	r = sys_async_register(none, sizeof(ahu));
	rt_check(r == -1 && errno == EFAULT, "register PROT_NONE: %ld %d", r,
		 errno);
	/* A wrong len is EINVAL before the head is read. */
	r = sys_async_register(NULL, sizeof(ahu) + 1);
	rt_check(r == -1 && errno == EINVAL, "register NULL, len+1: %ld %d",
		 r, errno);
	/* A size of 0 is EINVAL before the ring's range is checked. */
	other.completion_ring = (struct syslet_uatom **)(-4096UL);
	other.ring_size_bytes = 0;
	r = sys_async_register(&other, sizeof(other));
	rt_check(r == -1 && errno == EINVAL, "size 0, ring past user space: "
		 "%ld %d", r, errno);

	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("register: %s", strerror(errno));
	/* Registered: len first (EINVAL, not EEXIST), then EEXIST before
	 * the head is read (NULL, PROT_NONE, a bad ring: all EEXIST). */
	r = sys_async_register(&ahu, sizeof(ahu) - 1);
	rt_check(r == -1 && errno == EINVAL, "registered, len-1: %ld %d", r,
		 errno);
	r = sys_async_register(NULL, sizeof(ahu));
	rt_check(r == -1 && errno == EEXIST, "registered, NULL: %ld %d", r,
		 errno);
	r = sys_async_register(none, sizeof(ahu));
	rt_check(r == -1 && errno == EEXIST, "registered, PROT_NONE: %ld %d",
		 r, errno);
	r = sys_async_register(&other, sizeof(other));
	rt_check(r == -1 && errno == EEXIST, "registered, size 0: %ld %d", r,
		 errno);

	/* async_exec(NULL): copy_uatom() faults, -EFAULT, nothing queued. */
	errno = 0;
	rt_check(!sys_async_exec(NULL) && errno == EFAULT,
		 "exec NULL: errno %d", errno);
	rt_check(!ring[0], "exec NULL queued %p", (void *)ring[0]);

	/* Unregister never reads its head: NULL, or one that is not the
	 * registered one, unregisters the calling thread's. */
	r = sys_async_unregister(NULL, sizeof(ahu) + 1);
	rt_check(r == -1 && errno == EINVAL, "unregister NULL, len+1: %ld %d",
		 r, errno);
	r = sys_async_unregister(NULL, sizeof(ahu));
	rt_check(r == 0, "unregister NULL: %ld %s", r, strerror(errno));
	if (r) {
		if (sys_async_unregister(&ahu, sizeof(ahu)))
			rt_die("unregister: %s", strerror(errno));
	}
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("register again: %s", strerror(errno));
	r = sys_async_unregister(none, sizeof(ahu));
	rt_check(r == 0, "unregister PROT_NONE: %ld %s", r, strerror(errno));
	if (r && sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("unregister: %s", strerror(errno));
	munmap(none, 4096);
}

/*
 * The page below the top of user space, with an atom at its end: a
 * getppid() whose words up to arg_ptr[0] (NULL) fit below the top and
 * whose last words do not.  2007: access_ok() of the whole atom fails,
 * EFAULT, the call is not made and nothing is stored.  Then the same atom
 * one word lower (private still past the top) and one that fits whole.
 */
static void top_atom(void)
{
	const unsigned long top = rt_user_top();
	static struct syslet_uatom *ring[4];
	struct async_head_user ahu = {
		.completion_ring = ring,
		.ring_size_bytes = sizeof(ring),
		.max_nr_threads = -1UL,
	};
	const size_t S = sizeof(struct syslet_uatom);
	const size_t W = sizeof(unsigned long);
	unsigned long pg = top - 4096;
	long res = 7;
	void *m;

	if (!top) {
		printf("top atom: SKIP: mmap(MAP_FIXED_NOREPLACE) does not "
		       "tell where user space ends here\n");
		return;
	}
	m = mmap((void *)pg, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m == MAP_FAILED || m != (void *)pg) {
		printf("top atom: SKIP: the page below %#lx cannot be mapped "
		       "(%s)\n", top, m == MAP_FAILED ? strerror(errno) :
		       "mapped elsewhere");
		if (m != MAP_FAILED)
			munmap(m, 4096);
		return;
	}
	/* A ring that ends past the top: async_head_init()'s access_ok()
	 * of the whole ring, EFAULT; one that ends at the top is taken. */
	{
		struct async_head_user edge = {
			.completion_ring = (struct syslet_uatom **)(top - sizeof(ring) + sizeof(ring[0])),
			.ring_size_bytes = sizeof(ring),
			.max_nr_threads = -1UL,
		};

		errno = 0;
		rt_check(sys_async_register(&edge, sizeof(edge)) == -1 &&
			 errno == EFAULT, "a ring one slot past the top of "
			 "user space: errno %d (want EFAULT)", errno);
		if (!errno)
			sys_async_unregister(&edge, sizeof(edge));
		edge.completion_ring = (struct syslet_uatom **)(top - sizeof(ring));
		memset((void *)(top - sizeof(ring)), 0, sizeof(ring));
		errno = 0;
		rt_check(!sys_async_register(&edge, sizeof(edge)),
			 "a ring ending at the top of user space: errno %d",
			 errno);
		if (!errno && sys_async_unregister(&edge, sizeof(edge)))
			rt_die("unregister: %s", strerror(errno));
	}
	if (sys_async_register(&ahu, sizeof(ahu)))
		rt_die("register: %s", strerror(errno));

	for (size_t cut = 1; cut <= 2; cut++) {
		/* The last @cut words (private, then arg_ptr[5]) past top;
		 * arg_ptr[0] is NULL, so no word past the top is read. */
		struct syslet_uatom *a =
			(struct syslet_uatom *)(top - S + cut * W);
		struct syslet_uatom *done;

		memset(a, 0, S - cut * W);
		a->nr = SYS_getppid;
		a->ret_ptr = &res;
		res = 7;
		errno = 0;
		done = sys_async_exec(a);
		rt_check(!done && errno == EFAULT,
			 "atom %zu word(s) past the top of user space: "
			 "returned %p, errno %d (want NULL, EFAULT)", cut,
			 (void *)done, errno);
		rt_check(res == 7, "atom %zu word(s) past the top ran: "
			 "stored %ld", cut, res);
	}
	/* The same chain led there by next from an atom that fits: it
	 * ends with EFAULT too, and its first atom ran. */
	{
		struct syslet_uatom *b = (struct syslet_uatom *)(top - S + W);
		struct syslet_uatom *a = (struct syslet_uatom *)(pg);
		long r0 = 7;

		memset(b, 0, S - W);
		b->nr = SYS_getppid;
		b->ret_ptr = &res;
		res = 7;
		rt_atom(a, SYS_getppid, &r0, 0, b, NULL, NULL, NULL);
		errno = 0;
		rt_check(!sys_async_exec(a) && errno == EFAULT,
			 "next past the top: errno %d", errno);
		rt_check(r0 == getppid() && res == 7,
			 "next past the top: first %ld, second %ld", r0, res);
	}
	/* Whole below the top: it runs. */
	{
		struct syslet_uatom *a = (struct syslet_uatom *)(top - S);
		struct syslet_uatom *done;

		rt_atom(a, SYS_getppid, &res, 0, NULL, NULL, NULL, NULL);
		res = 7;
		errno = 0;
		done = sys_async_exec(a);
		rt_check(done == a && res == getppid(),
			 "atom ending at the top: %p (%d), stored %ld",
			 (void *)done, errno, res);
	}
	rt_check(!ring[0], "something queued: %p", (void *)ring[0]);
	if (sys_async_unregister(&ahu, sizeof(ahu)))
		rt_die("unregister: %s", strerror(errno));
	munmap(m, 4096);
}

int main(void)
{
	rt_init();
	head_order();
	top_atom();
	return rt_done("seedhead");
}
