/* headargs.c: async_register(), async_unregister() and umem_add() on random arguments (head and ring pointers that fault or cross the top of user space, sizes, lengths, thread limits), and a head whose fields the program changes after registering, against a model of seeds/006. */
#include "helpers.h"
#include "usertop.h"
#include <stdbool.h>
#include <sys/mman.h>

/*
 * The model is seeds/006 and nothing else:
 *
 * sys_async_register(uah, unsigned int len): len must be the head's size
 * (EINVAL), then a head already registered is EEXIST; async_head_init()
 * reads max_nr_threads, completion_ring and ring_size_bytes (any of them
 * unreadable: EFAULT), refuses a size of 0 (EINVAL), a ring whose range
 * leaves user space or wraps (access_ok: EFAULT), a size that is not a
 * multiple of a pointer (EINVAL), and then mlock()s the ring (ENOMEM for
 * a page that is not mapped or PROT_NONE; a read-only one is fine).
 * The head's three words are read once: what the program writes there
 * afterwards changes nothing, neither the ring completions go to nor the
 * thread limit (-1 is the default, any value cut to the ring's entries,
 * 0 none: an ASYNC atom then runs in the caller).
 *
 * sys_async_unregister(uah, unsigned int len): EINVAL for a wrong len or
 * no head; the head's contents, and the pointer itself, are not read.
 *
 * sys_umem_add(p, inc): EFAULT for a word that cannot be read; 0 reads;
 * else the sum, wrapping, stored and returned.  Modelled difference
 * (syslet(7)): a word that can be read but not written is EFAULT, where
 * 2007's generic version returned the sum it had not stored.
 *
 * The arena: RW pages (heads, rings, counters), one read-only page, and
 * a PROT_NONE reservation after them; rings and heads are placed so that
 * everything they reach lies in the arena, in the unmapped first page,
 * or at or past the top of user space.  headargs [SEED [ROUNDS]].
 */

#define W		sizeof(unsigned long)
#define PG		4096UL
#define NRW		80		/* RW pages: rings of more than 64 */
#define NNONE		64		/* the PROT_NONE reservation */
#define NPAGES		(NRW + 1 + NNONE)
#define RO_PAGE		NRW

static uint64_t rng;
static unsigned char *ar;		/* the arena */
static unsigned long top;		/* the top of user space */
static unsigned long seed, round_no;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned long below(unsigned long n)
{
	return n ? (unsigned long)(rnd() % n) : 0;
}

static unsigned long pgaddr(unsigned long p)
{
	return (unsigned long)ar + p * PG;
}

/* 2: readable and writable, 1: readable, 0: neither (the first page,
 * the reservation, past the top).  Every address the test makes is one
 * of these. */
static int kind(unsigned long a)
{
	unsigned long base = (unsigned long)ar;

	if (a < PG || a >= top)
		return 0;
	if (a < base || a >= base + NPAGES * PG)
		rt_die("round %lu: address %#lx outside the arena", round_no,
		       a);
	a = (a - base) / PG;
	return a < NRW ? 2 : a == RO_PAGE ? 1 : 0;
}

static bool word_ok(unsigned long a, int want)
{
	return kind(a) >= want && kind(a + W - 1) >= want;
}

/* access_ok(): the range stays below the top and does not wrap. */
static bool range_ok(unsigned long a, unsigned long len)
{
	return a + len >= a && a + len <= top;
}

/* mlock(): every page of the range mapped and not PROT_NONE. */
static bool lock_ok(unsigned long a, unsigned long len)
{
	for (unsigned long p = a & ~(PG - 1); p < a + len; p += PG)
		if (!kind(p))
			return false;
	return true;
}

static void ro_write(unsigned long a, unsigned long v)
{
	void *pg = (void *)pgaddr(RO_PAGE);

	if (mprotect(pg, PG, PROT_READ | PROT_WRITE))
		rt_die("mprotect: %s", strerror(errno));
	memcpy((void *)a, &v, W);
	if (mprotect(pg, PG, PROT_READ))
		rt_die("mprotect: %s", strerror(errno));
}

/* Write a word of the program's memory where it can be written at all. */
static void poke(unsigned long a, unsigned long v)
{
	if (word_ok(a, 2))
		memcpy((void *)a, &v, W);
	else if (word_ok(a, 1))
		ro_write(a, v);
}

/* A word-aligned address of the RW pages, @words words before the end of
 * page @p (0: its start). */
static unsigned long near_end(unsigned long p, unsigned long words)
{
	return words ? pgaddr(p + 1) - words * W : pgaddr(p);
}

/* Where a head goes: in the RW pages, straddling into the RO page or the
 * reservation, in them, NULL, or past the top. */
static unsigned long some_head(void)
{
	switch (below(8)) {
	case 0:
		return near_end(RO_PAGE - 1, 1 + below(3));
	case 1:
		return near_end(RO_PAGE, 1 + below(3));
	case 2:
		return pgaddr(RO_PAGE) + W * below(PG / W - 3);
	case 3:
		return pgaddr(RO_PAGE + 1 + below(NNONE));
	case 4:
		return below(2) ? 0 : top + W * below(3);
	default:
		return pgaddr(below(NRW / 2)) + W * below(PG / W - 3);
	}
}

/* A ring and its size, ending in the arena or past the top. */
static void some_ring(unsigned long *ring, unsigned long *size)
{
	unsigned long r, s, room;

	switch (below(7)) {
	case 0:		/* into the RO page, or the reservation */
		r = near_end(RO_PAGE - 1 + below(2), 1 + below(8));
		break;
	case 1:
		r = pgaddr(RO_PAGE + 1 + below(NNONE / 2));
		break;
	case 2: {	/* NULL, or crossing the top, or wrapping */
		unsigned long k = below(16);

		r = below(3) == 0 ? 0 : below(2) ? top - W * k :
						   (unsigned long)-W * (1 + k);
		/* Below the top only what the test knows: past it at
		 * once, or from NULL. */
		s = W * (k + 1 + below(16)) + (below(3) ? 0 : 1);
		*ring = r;
		*size = below(8) ? s : 0;
		return;
	}
	default:
		r = pgaddr(below(NRW)) + W * below(PG / W);
		break;
	}
	room = r ? (unsigned long)ar + NPAGES * PG - r : 0;
	switch (below(6)) {
	case 0:
		s = 0;
		break;
	case 1:		/* not a multiple of a pointer */
		s = W * below(64) + 1 + below(W - 1);
		break;
	case 2:		/* more than 64 pages: checked through the map */
		s = W * ((65 * PG + below(12 * PG)) / W);
		break;
	case 3:
		s = below(2) ? room : room + W;
		break;
	default:
		s = W * (1 + below(64));
		break;
	}
	if (s > room && r)
		s = room & ~(W - 1);
	*ring = r;
	*size = s;
}

/* [a, a + la) and [b, b + lb) do not overlap. */
static bool apart(unsigned long a, unsigned long la, unsigned long b,
		  unsigned long lb)
{
	return a + la <= b || b + lb <= a;
}

static long model_register(unsigned long uah, unsigned long len,
			   bool registered)
{
	unsigned long ring, size;

	if ((unsigned int)len != sizeof(struct async_head_user))
		return -EINVAL;
	if (registered)
		return -EEXIST;
	if (!word_ok(uah + 2 * W, 1) || !word_ok(uah, 1) ||
	    !word_ok(uah + W, 1))
		return -EFAULT;
	memcpy(&ring, (void *)uah, W);
	memcpy(&size, (void *)(uah + W), W);
	if (!size)
		return -EINVAL;
	if (!range_ok(ring, size))
		return -EFAULT;
	if (size % W)
		return -EINVAL;
	return lock_ok(ring, size) ? 0 : -ENOMEM;
}

static unsigned long some_len(void)
{
	unsigned long len = sizeof(struct async_head_user);

	switch (below(8)) {
	case 0:
		return len + 1 - 2 * below(2);
	case 1:
		return below(2) ? 0 : (unsigned long)rnd();
	case 2:
		/* 2007's len is an unsigned int */
		return sizeof(long) == 8 ? (unsigned long)(rnd() << 32) +
						   (below(2) ? len : 0)
					 : len;
	default:
		return len;
	}
}

static void check(long ret, long want, const char *what)
{
	long got = ret == -1 ? -errno : ret;

	rt_check(got == want, "seed %#lx round %lu: %s gave %ld, 2007 %ld",
		 seed, round_no, what, got, want);
}

static unsigned long umem_nr;
/* What the rounds reached: register's answers, scribbled heads and the
 * syslets of theirs that went async. */
static unsigned long n_einval, n_eexist, n_efault, n_enomem, n_scrib,
		     n_async;

/*
 * The head is registered with a ring of @n RW entries at @ring and
 * thread limit @maxthr; the program writes new values into it (another
 * ring, size and limit), then runs ASYNC umem_add syslets one at a time:
 * each comes back inline or through the registered ring's next slot,
 * never anywhere else, and inline always where the limit was 0.
 */
static void scribbled_head(unsigned long uah, unsigned long *ring,
			   unsigned long n, unsigned long maxthr)
{
	unsigned long *other = (unsigned long *)pgaddr(NRW - 4);
	unsigned long cnt = 0, one = 1, *pc = &cnt, idx = 0, threads;
	struct syslet_uatom a;
	long r;
	int k = 1 + (int)below(6);

	n_scrib++;
	memset(other, 0, 4 * PG - W);
	threads = maxthr == (unsigned long)-1 ? 1024 : maxthr;
	if (threads > n)
		threads = n;
	poke(uah, (unsigned long)other);
	poke(uah + W, below(2) ? 3 * PG : below(2) ? 0 : 7);
	poke(uah + 2 * W, below(2) ? (unsigned long)-1 : below(2) ? 0 : 64);
	for (int i = 0; i < k; i++) {
		struct syslet_uatom *done;

		rt_atom(&a, umem_nr, &r, SYSLET_ASYNC, NULL,
			(unsigned long *)&pc, &one, NULL);
		errno = 0;
		done = sys_async_exec(&a);
		if (!done && errno)
			rt_die("seed %#lx round %lu: async_exec: %s", seed,
			       round_no, strerror(errno));
		if (!done) {
			n_async++;
			rt_check(threads > 0, "seed %#lx round %lu: max_nr_"
				 "threads %ld (cut to %lu), rewritten after "
				 "async_register: an ASYNC atom went async",
				 seed, round_no, (long)maxthr, threads);
			rt_wait_slot((struct syslet_uatom **)&ring[idx], 0);
			done = (struct syslet_uatom *)ring[idx];
			ring[idx] = 0;
			idx = (idx + 1) % n;
		}
		rt_check(done == &a, "seed %#lx round %lu: the syslet came "
			 "back as %p, not %p (ring slot %lu)", seed, round_no,
			 (void *)done, (void *)&a, idx);
	}
	rt_check(cnt == (unsigned long)k, "seed %#lx round %lu: %d ASYNC "
		 "umem_add syslets counted %lu", seed, round_no, k, cnt);
	for (unsigned long i = 0; i < 4 * PG / W - 1; i++)
		if (other[i]) {
			rt_check(0, "seed %#lx round %lu: a completion went to "
				 "the ring the program wrote into the head "
				 "after async_register (word %lu: %#lx)",
				 seed, round_no, i, other[i]);
			break;
		}
}

static void umem_round(void)
{
	unsigned long p, v = (unsigned long)rnd(), inc, before = 0, after;
	long want, got;

	switch (below(5)) {
	case 0:
		p = near_end(RO_PAGE - 1 + below(2), below(2));
		p -= below(2) ? W / 2 : 0;	/* straddling */
		break;
	case 1:
		p = pgaddr(RO_PAGE) + W * below(PG / W);
		break;
	case 2:
		p = below(2) ? pgaddr(RO_PAGE + 1) : below(2) ? 0 : top;
		break;
	default:
		p = pgaddr(below(NRW)) + W * below(PG / W);
		break;
	}
	inc = below(3) == 0 ? 0 : below(2) ? -v + below(3) - 1 :
					     (unsigned long)rnd();
	poke(p, v);
	if (word_ok(p, 1))
		memcpy(&before, (void *)p, W);
	if (!word_ok(p, 1))
		want = -EFAULT;
	else if (!inc)
		want = (long)before;
	else if (!word_ok(p, 2))
		want = -EFAULT;		/* the modelled difference */
	else
		want = (long)(before + inc);
	got = sys_umem_add((unsigned long *)p, inc);
	rt_check(got == want, "seed %#lx round %lu: umem_add(%#lx, %#lx) of "
		 "%#lx gave %ld, 2007 %ld", seed, round_no, p, inc, before,
		 got, want);
	if (word_ok(p, 1)) {
		memcpy(&after, (void *)p, W);
		rt_check(after == (want == -EFAULT || !inc ? before :
			 before + inc), "seed %#lx round %lu: umem_add(%#lx, "
			 "%#lx) left %#lx", seed, round_no, p, inc, after);
	}
}

int main(int argc, char **argv)
{
	unsigned long rounds = 3000, heads = 0;
	const char *bk = rt_init();

	seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 0x5eed0006;
	rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : rounds;
	rng = seed ? seed : 1;
	top = rt_user_top();
	if (!top) {
		fprintf(stderr, "SKIP: the top of user space is not known\n");
		return RT_SKIP;
	}
	umem_nr = rt_umem_nr();
	ar = mmap(NULL, NPAGES * PG, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ar == MAP_FAILED)
		rt_die("mmap: %s", strerror(errno));
	if (mprotect(ar + RO_PAGE * PG, PG, PROT_READ) ||
	    mprotect(ar + (RO_PAGE + 1) * PG, NNONE * PG, PROT_NONE))
		rt_die("mprotect: %s", strerror(errno));
	for (round_no = 0; round_no < rounds; round_no++) {
		unsigned long uah = some_head(), len = some_len(), ring, size;
		unsigned long maxthr, good = pgaddr(NRW - 6);
		bool reg = below(4) == 0, head;
		long want, ret;

		if (below(4) == 0) {
			umem_round();
			continue;
		}
		if (reg) {
			/* A head registered already, from a good structure:
			 * EEXIST, but only after the length. */
			struct async_head_user *g = (void *)good;

			memset(g, 0, 2 * PG);
			g->completion_ring = (void *)(good + 64);
			g->ring_size_bytes = 8 * W;
			g->max_nr_threads = (unsigned long)-1;
			if (sys_async_register(g, sizeof(*g)))
				rt_die("seed %#lx round %lu: a good head: %s",
				       seed, round_no, strerror(errno));
		}
		some_ring(&ring, &size);
		maxthr = below(3) == 0 ? (unsigned long)-1 : below(2) ?
					 below(4) : (unsigned long)rnd();
		if (uah == good || (uah >= good && uah < good + 2 * PG))
			uah = pgaddr(0);
		poke(uah, ring);
		poke(uah + W, size);
		poke(uah + 2 * W, maxthr);
		want = model_register(uah, len, reg);
		n_einval += want == -EINVAL;
		n_eexist += want == -EEXIST;
		n_efault += want == -EFAULT;
		n_enomem += want == -ENOMEM;
		ret = sys_async_register((struct async_head_user *)uah, len);
		check(ret, want, "async_register");
		if ((ret == 0) != (want == 0)) {
			while (!sys_async_unregister(NULL, sizeof(
				struct async_head_user)))
				;
			continue;
		}
		head = reg || !want;
		if (!want) {
			heads++;
			/* A ring of RW entries, apart from the head and from
			 * the ring written into it later: completions can be
			 * checked. */
			if (kind(ring) == 2 && kind(ring + size - 1) == 2 &&
			    size <= 64 * W && apart(ring, size, uah, 3 * W) &&
			    apart(ring, size, pgaddr(NRW - 4), 4 * PG) &&
			    apart(uah, 3 * W, pgaddr(NRW - 4), 4 * PG)) {
				memset((void *)ring, 0, size);
				scribbled_head(uah, (unsigned long *)ring,
					       size / W, maxthr);
			}
		}
		/* async_unregister: the length, then a head; the pointer
		 * is never read. */
		len = some_len();
		want = (unsigned int)len != sizeof(struct async_head_user) ?
			       -EINVAL : head ? 0 : -EINVAL;
		ret = sys_async_unregister((struct async_head_user *)
						   some_head(), len);
		check(ret, want, "async_unregister");
		if (ret == 0)
			head = false;
		ret = sys_async_unregister(NULL, sizeof(struct async_head_user));
		check(ret, head ? 0 : -EINVAL, "async_unregister(NULL) after");
	}
	printf("headargs: seed %#lx, %lu rounds: register 0 %lu, EINVAL %lu, "
	       "EEXIST %lu, EFAULT %lu, ENOMEM %lu; %lu heads rewritten, "
	       "%lu syslets async (backend %s)\n", seed, rounds, heads,
	       n_einval, n_eexist, n_efault, n_enomem, n_scrib, n_async, bk);
	return rt_done("headargs");
}
