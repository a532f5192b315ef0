/* gen.c: the differential test's generator of random atom graphs (flags, next pointers, faults, fuel-bounded loops). */
#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/syscall.h>

#include "diff.h"

/*
 * One graph is a few atoms in the RW atom pages (whose nr and flags other
 * atoms may rewrite), a few in the read-only page, the cells they point
 * at, and the start.  What is random: every flag (two stop flags, SKIP,
 * ASYNC, SYNC, NO_COMPLETE, unknown bits), next pointers (on, back through
 * fuel gates, to garbage), the calls (getppid, umem_add with increments
 * chosen to land on -4, -11, -512, -EFAULT..., the test's pipes, read
 * and written at the file position and at an offset (pread64, pwrite64:
 * a pipe has no file position), the late pipe (a read of it waits, and
 * the syslet goes to a cachemiss thread mid-chain: diff.h), the tight
 * pipe (full or nearly: a write of more than its room sleeps, and the
 * syslet goes async there; lengths around the room and PIPE_BUF), numbers
 * past the table and in its holes, denied calls), argument and result
 * pointers (unmapped, read-only, page-straddling, misaligned, into other
 * atoms, past the top of user space or across it), and where the atoms
 * sit (misaligned, the last one cut by an unmapped page after its NULL
 * argument pointer, one in the page below the top of user space that ends
 * at the top or past it).  Reads land in the atoms too, with input that
 * holds atom-like words, so a graph rewrites itself while it runs.
 *
 * Every loop passes through a gate: an atom that takes one from its own
 * fuel cell and stops once that is not positive.  Nothing else targets
 * the fuel cells or the gates, so every graph ends; the reference's limit
 * on atoms is only a backstop.
 */

#define W	sizeof(unsigned long)
#define S	sizeof(struct syslet_uatom)

struct gen {
	const struct diff_arena	*ar;
	struct diff_graph	*g;
	uint64_t		rng;
	unsigned long		pcell;		/* next free pointer/const cell */
	unsigned long		p_end;
	unsigned int		na, nb;		/* atoms in A, in B */
	bool			gate[DIFF_MAX_ATOMS];
	unsigned int		nfuel;
};

/* splitmix64: small, and the same sequence everywhere. */
static uint64_t rnd(struct gen *G)
{
	uint64_t z = (G->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long below(struct gen *G, unsigned long n)
{
	return n ? (unsigned long)(rnd(G) % n) : 0;
}

/* True with probability pct percent. */
static bool chance(struct gen *G, unsigned int pct)
{
	return below(G, 100) < pct;
}

static unsigned long pg(struct gen *G, int p)
{
	return diff_pg(G->ar, p);
}

static void put(struct gen *G, unsigned long addr, unsigned long val)
{
	unsigned long off = addr - (unsigned long)G->ar->base;

	if (off + W <= G->ar->size)
		memcpy(G->g->image + off, &val, W);
}

static unsigned long get(struct gen *G, unsigned long addr)
{
	unsigned long off = addr - (unsigned long)G->ar->base, v = 0;

	if (off + W <= G->ar->size)
		memcpy(&v, G->g->image + off, W);
	return v;
}

/* A new read-only cell holding @v (the pointer and constant cells). */
static unsigned long pcell(struct gen *G, unsigned long v)
{
	unsigned long a;

	if (G->pcell + W > G->p_end)
		G->pcell = pg(G, DIFF_PG_B) + G->ar->page / 2;
	a = G->pcell;
	G->pcell += W;
	put(G, a, v);
	return a;
}

/* Values that make stop tests and errno look-alikes interesting. */
static const long specials[] = {
	0, 1, -1, 2, -2, -4, -11, -14, -512, -513, -4095, -4096, 4096,
	LONG_MAX, LONG_MIN, 100, -100,
};

static unsigned long some_value(struct gen *G)
{
	switch (below(G, 4)) {
	case 0:
		return (unsigned long)specials[below(G, sizeof(specials) /
						   sizeof(specials[0]))];
	case 1:
		return below(G, 16);
	case 2:
		return (unsigned long)rnd(G);
	default:
		return below(G, 1000) - 500;
	}
}

/* An address that faults: unmapped pages of the arena or around it, the
 * first page, kernel space. */
static unsigned long bad_addr(struct gen *G)
{
	const struct diff_arena *ar = G->ar;

	switch (below(G, 6)) {
	case 0:
		return pg(G, DIFF_PG_GAP1) + below(G, ar->page);
	case 1:
		return pg(G, DIFF_PG_GAP2) + below(G, ar->page);
	case 2:
		return ar->resv_lo + below(G, (unsigned long)DIFF_GUARD *
						 ar->page - W);
	case 3:
		return 8 * below(G, 64);
	case 4:
		/* At the top of user space (TASK_SIZE, which the
		 * reference found): past it, or a word across it. */
		if (ar->user_top && chance(G, 50))
			return chance(G, 50) ? ar->user_top + 8 * below(G, 64)
					     : ar->user_top - 1 - below(G, W - 1);
#if defined(__x86_64__)
		return chance(G, 50) ? 0xffff888000000000UL + 8 * below(G, 99)
				     : 0x8000000000000000UL;
#else
		return 0xfffff000UL + 8 * below(G, 64);
#endif
	default:
		return pg(G, DIFF_PG_D1 + 1) + ar->page * DIFF_NPAGES;
	}
}

/* A word of D that is not a fuel cell, aligned or not. */
static unsigned long d_word(struct gen *G, bool misaligned)
{
	unsigned long lo = pg(G, DIFF_PG_D0) + DIFF_NFUEL * W;
	unsigned long n = 2 * G->ar->page - DIFF_NFUEL * W - W;

	return lo + (misaligned ? below(G, n) : below(G, n / W) * W);
}

/* An A atom's nr or flags word, not a gate's. */
static unsigned long atom_word(struct gen *G)
{
	for (int tries = 0; tries < 4; tries++) {
		unsigned int i = (unsigned int)below(G, G->na);

		if (!G->gate[i])
			return G->g->atom[i] + (chance(G, 50) ? 0 : W);
	}
	return d_word(G, false);
}

/* Any word of an A atom but a gate's: its pointers too (ret_ptr, next,
 * arg_ptr[]), which 2007 read once, into its copy, before the call; a
 * store into the atom that runs changes only its later runs. */
static unsigned long any_atom_word(struct gen *G)
{
	for (int tries = 0; tries < 4; tries++) {
		unsigned int i = (unsigned int)below(G, G->na);

		if (!G->gate[i])
			return G->g->atom[i] + W * below(G, 10);
	}
	return d_word(G, false);
}

/* Where a result or a umem_add goes: mostly data, sometimes somewhere a
 * store faults or that is another atom's number or flags. */
static unsigned long target(struct gen *G)
{
	unsigned long k = 1 + below(G, W - 1);

	switch (below(G, 40)) {
	case 0:
		return d_word(G, true);
	case 1:
		return any_atom_word(G);
	case 2:
		return pg(G, DIFF_PG_D0) - k;	/* read-only | writable */
	case 3:
		return pg(G, DIFF_PG_GAP2) - k;	/* writable | unmapped */
	case 4:
		return pg(G, DIFF_PG_R) + W * below(G, G->ar->page / W);
	case 5:
		return bad_addr(G);
	case 6:
	case 7:
	case 8:
		return atom_word(G);
	case 9:
		return pg(G, DIFF_PG_B) + G->ar->page / 2 +
		       W * below(G, G->ar->page / 2 / W);
	default:
		return d_word(G, false);
	}
}

/* Where an argument is read from: mostly a cell of its own, sometimes
 * data other atoms write, rarely somewhere that cannot be read. */
static unsigned long arg_source(struct gen *G, unsigned long v)
{
	unsigned long r = below(G, 100);

	if (r < 1)
		return chance(G, 50) ? bad_addr(G) :
		       G->g->atom[below(G, G->na + G->nb)] + W * below(G, 11);
	if (r < 2)
		return pg(G, DIFF_PG_GAP2) - 1 - below(G, W - 1);
	if (r < 6)
		return pg(G, DIFF_PG_D0) - 1 - below(G, W - 1);
	if (r < 12)
		return pg(G, DIFF_PG_R) + W * below(G, G->ar->page / W);
	if (r < 26)
		return d_word(G, chance(G, 30));
	return pcell(G, v);
}

/* A buffer for a read (into D, or partly off it) or a write (anywhere). */
static unsigned long buffer(struct gen *G, bool for_read)
{
	const struct diff_arena *ar = G->ar;
	unsigned long lo = pg(G, DIFF_PG_D0) + DIFF_NFUEL * W;

	switch (below(G, 10)) {
	case 0:
		return pg(G, DIFF_PG_GAP2) - below(G, 64);
	case 1:
		return bad_addr(G);
	case 2:
		/* Into the atoms themselves: a read rewrites the graph
		 * while it runs, the next fetch sees what came. */
		if (for_read && chance(G, 50))
			return G->g->atom[below(G, G->na)] + below(G, S);
		return for_read ? pg(G, DIFF_PG_R) + below(G, 64)
				: pg(G, (int)below(G, DIFF_NPAGES)) +
					  below(G, ar->page - 256);
	default:
		return lo + below(G, 2 * ar->page - DIFF_NFUEL * W - 300);
	}
}

static unsigned long length(struct gen *G)
{
	static const unsigned long lens[] = { 0, 1, 7, 8, 13, 64, 200 };

	return lens[below(G, sizeof(lens) / sizeof(lens[0]))];
}

/* A write of the tight pipe: around its rooms and PIPE_BUF (a page). */
static unsigned long tight_length(struct gen *G)
{
	unsigned long p = G->ar->page;
	const unsigned long lens[] = { 0, 1, 1, 13, 13, 200, 200, 64,
				       p - 1, p, p + 1, p + 904, 2 * p };

	return lens[below(G, sizeof(lens) / sizeof(lens[0]))];
}

/* Room left in the tight pipe at the start: mostly none. */
static unsigned int tight_room(struct gen *G)
{
	unsigned long p = G->ar->page;
	const unsigned long rooms[] = { 0, 0, 0, 0, 1, 13, 200, 904, p - 1,
					p };

	return (unsigned int)rooms[below(G, sizeof(rooms) / sizeof(rooms[0]))];
}

static unsigned long some_fd(struct gen *G, bool for_read)
{
	const struct diff_fds *f = &G->ar->fd;
	static const long bad[] = { -1, 4096, 99999, 0x7fffffff };

	unsigned long hi = 0;

	if (chance(G, 10))
		return (unsigned long)bad[below(G, 4)];
	/* On 64 bits, sometimes with the upper half set: read() and write()
	 * take an unsigned int, the kernel drops it. */
	if (sizeof(long) > 4 && chance(G, 5))
		hi = ((unsigned long)1 << 31) << 1;
	if (for_read) {
		const int fds[] = { f->in_rd, f->in_rd, f->in_rd, f->eof_rd,
				    f->empty_rd, f->out_wr, f->epipe_wr };
		return hi | (unsigned long)fds[below(G, 7)];
	} else {
		const int fds[] = { f->out_wr, f->out_wr, f->out_wr,
				    f->epipe_wr, f->empty_wr, f->in_rd,
				    f->in_wr };
		return hi | (unsigned long)fds[below(G, 7)];
	}
}

/*
 * Mostly one of the non-blocking pipes (some_fd()); sometimes the blocking
 * pipe, which a read or write reaches only where it cannot wait (the
 * reference makes such a graph unsafe otherwise): a call on a blocking
 * descriptor is one the uring engine gives io_uring, whose completion
 * the driver takes (stored, tested, SKIP) in the caller or, after a
 * hand-off, on the ring's completion path.
 */
static unsigned long blk_or_fd(struct gen *G, bool for_read)
{
	const struct diff_fds *f = &G->ar->fd;

	/* The tight pipe (diff.h): a write of more than its room sleeps,
	 * and the syslet goes async mid-chain; reads get its write end
	 * (EBADF at once): one of it would race with the test's reader. */
	if (chance(G, for_read ? 3 : 16))
		return (unsigned long)f->tight_wr;
	if (chance(G, 12))
		return (unsigned long)(for_read ? f->blk_rd : f->blk_wr);
	/* The late pipe: a read waits there until the driver's feed, and
	 * the syslet goes async mid-chain (diff.h).  Writes get its read
	 * end (EBADF at once): one into it would race with the feed. */
	if (chance(G, 14))
		return (unsigned long)f->late_rd;
	return some_fd(G, for_read);
}

enum kind {
	K_GETPPID, K_GETPID, K_UMEM, K_READ, K_WRITE, K_CLOSE, K_PAST,
	K_HOLE, K_DENIED, K_PREAD, K_PWRITE,
};

static enum kind some_kind(struct gen *G)
{
	unsigned long r = below(G, 100);

	if (r < 21)
		return K_GETPPID;
	if (r < 23)
		return K_PREAD;
	if (r < 25)
		return K_PWRITE;
	if (r < 30)
		return K_GETPID;
	if (r < 65)
		return K_UMEM;
	if (r < 72)
		return K_READ;
	if (r < 79)
		return K_WRITE;
	if (r < 84)
		return K_CLOSE;
	if (r < 91)
		return K_PAST;
	if (r < 97)
		return K_HOLE;
	return K_DENIED;
}

static unsigned long past_nr(struct gen *G)
{
	unsigned long n = G->ar->nr_syscalls;
	/* A known number with bits above 32 (on 64 bits): 2007 compared
	 * the whole word with NR_syscalls. */
	unsigned long hi = sizeof(long) > 4 ? (((unsigned long)1 << 31) << 1)
					    : n;
	const unsigned long v[] = { n, n + 1, n + 1000, 0x7fffffffUL,
				    -1UL, -2UL, 1UL << 31, n * 2,
				    hi | SYS_getppid, hi | G->ar->umem_nr };

	return v[below(G, sizeof(v) / sizeof(v[0]))];
}

static unsigned long hole_nr(struct gen *G)
{
#if defined(__x86_64__)
	static const unsigned long v[] = { 335, 400, 423, 600, 777, 999 };
#else
	static const unsigned long v[] = { 222, 223, 251, 285, 387, 392, 415,
					   600, 999 };
#endif
	return v[below(G, sizeof(v) / sizeof(v[0]))];
}

/* A call of the deny list: mostly the async calls, sometimes exit_group
 * or one that changes the calling task alone (prctl: PR_SET_SECCOMP). */
static unsigned long denied_nr(struct gen *G)
{
	static const long per_task[] = {
		SYS_setuid, SYS_setresuid, SYS_setgroups, SYS_capset,
		SYS_seccomp, SYS_unshare, SYS_setns, SYS_set_tid_address,
		SYS_set_robust_list, SYS_rseq, SYS_sigaltstack, SYS_arch_prctl,
		SYS_set_thread_area, SYS_landlock_restrict_self, SYS_prctl,
#if !defined(__x86_64__)
		SYS_setuid32, SYS_setresgid32, SYS_vm86,
#endif
	};
	unsigned long r = below(G, 10);

	if (r < 6)
		return G->ar->umem_nr - 1 - below(G, 4);
	if (r < 8)
		return SYS_exit_group;
	return (unsigned long)per_task[below(G, sizeof(per_task) /
					      sizeof(per_task[0]))];
}

static unsigned long some_flags(struct gen *G)
{
	static const unsigned long stops[] = {
		SYSLET_STOP_ON_NONZERO, SYSLET_STOP_ON_ZERO,
		SYSLET_STOP_ON_NEGATIVE, SYSLET_STOP_ON_NON_POSITIVE,
	};
	unsigned long f = 0, r = below(G, 20);

	if (chance(G, 6))
		f |= SYSLET_ASYNC;
	if (chance(G, 10))
		f |= SYSLET_SYNC;
	if (chance(G, 15))
		f |= SYSLET_NO_COMPLETE;
	if (r >= 14 && r <= 18)
		f |= stops[below(G, 4)];
	else if (r == 19)
		f |= stops[below(G, 4)] | stops[below(G, 4)] |
		     (below(G, 16) << 3);
	if (chance(G, 45))
		f |= SYSLET_SKIP_TO_NEXT_ON_STOP;
	if (chance(G, 4))
		f |= (unsigned long)rnd(G) & ~SYSLET_FLAGS_MASK;
	return f;
}

/* Argument pointers: @n real ones from @src, then NULL, then words that
 * must never be read (they point nowhere). */
static void set_args(struct gen *G, unsigned long atom, unsigned int n,
		     const unsigned long *src)
{
	for (unsigned int i = 0; i < 6; i++) {
		unsigned long p = i < n ? src[i] : i == n ? 0 : bad_addr(G);

		put(G, atom + (4 + i) * W, p);
	}
	put(G, atom + 10 * W, (unsigned long)rnd(G));	/* private */
}

/* An increment that takes the word at @t (if we know it) to a special. */
static unsigned long increment_for(struct gen *G, unsigned long t)
{
	unsigned long cur = get(G, t);

	if (chance(G, 60))
		return (unsigned long)specials[below(G, sizeof(specials) /
						   sizeof(specials[0]))] - cur;
	if (chance(G, 30))
		return 0;
	return some_value(G);
}

static unsigned long some_next(struct gen *G, unsigned int i)
{
	unsigned int n = G->na + G->nb, r = (unsigned int)below(G, 100);

	if (r < 6)
		return 0;
	if (r < 55)
		return i + 1 < n ? G->g->atom[i + 1] : 0;
	if (r < 70 && i + 1 < n)
		return G->g->atom[i + 1 + below(G, n - i - 1)];
	if (r < 93) {
		/* Back (or to itself): only through a gate. */
		for (int tries = 0; tries < 8; tries++) {
			unsigned int j = (unsigned int)below(G, i + 1);

			if (G->gate[j])
				return G->g->atom[j];
		}
		return i + 1 < n ? G->g->atom[i + 1] : 0;
	}
	switch (below(G, 6)) {
	case 0:
		return bad_addr(G);
	case 1:
		/* The filler after the atoms (all ones: an atom that ends). */
		return G->g->atom[G->na - 1] + S;
	case 2:
		return pg(G, DIFF_PG_GAP1) - W * (1 + below(G, 10));
	case 3:
		return G->nb ? G->g->atom[n - 1] + S : bad_addr(G);
	default:
		return i + 1 < n ? G->g->atom[i + 1] : 0;
	}
}

static void gen_atom(struct gen *G, unsigned int i, unsigned int cut_args)
{
	const struct diff_arena *ar = G->ar;
	unsigned long a = G->g->atom[i], src[6], nr, flags, ret;
	unsigned int n = 0;
	enum kind k;

	if (G->gate[i]) {
		unsigned long fuel = pg(G, DIFF_PG_D0) + W * below(G, DIFF_NFUEL);

		src[0] = pcell(G, fuel);
		src[1] = pcell(G, -1UL);
		put(G, a, SYSLET_STOP_ON_NON_POSITIVE |
			       (chance(G, 10) ? SYSLET_NO_COMPLETE : 0));
		put(G, a + W, ar->umem_nr);
		put(G, a + 2 * W, chance(G, 50) ? 0 : d_word(G, false));
		put(G, a + 3 * W, some_next(G, i));
		set_args(G, a, 2, src);
		return;
	}
	k = some_kind(G);
	flags = some_flags(G);
	ret = chance(G, 15) ? 0 : target(G);
	switch (k) {
	case K_UMEM: {
		unsigned long t = target(G);

		nr = ar->umem_nr;
		n = chance(G, 85) ? 2 : (unsigned int)below(G, 7);
		/* The pointer itself: a cell that holds the target, or one
		 * that cannot be read, or a value that may point anywhere. */
		src[0] = chance(G, 92) ? pcell(G, t) :
			 chance(G, 50) ? bad_addr(G) :
					 pg(G, DIFF_PG_R) +
						 W * below(G, G->ar->page / W);
		src[1] = arg_source(G, increment_for(G, t));
		for (unsigned int j = 2; j < 6; j++)
			src[j] = arg_source(G, some_value(G));
		break;
	}
	case K_READ:
	case K_WRITE: {
		unsigned long fd = blk_or_fd(G, k == K_READ);

		nr = k == K_READ ? SYS_read : SYS_write;
		n = chance(G, 90) ? 3 : (unsigned int)below(G, 7);
		src[0] = chance(G, 98) ? pcell(G, fd)
				       : arg_source(G, some_value(G));
		if (k == K_WRITE && fd == (unsigned long)ar->fd.tight_wr) {
			/* Around the room (tight_room) and PIPE_BUF, from
			 * the readable pages B, D0 and D1. */
			unsigned long len = tight_length(G);

			src[1] = pcell(G, chance(G, 97) ?
				       pg(G, DIFF_PG_B) +
					       below(G, 3 * ar->page - len) :
				       bad_addr(G));
			src[2] = pcell(G, len);
		} else {
			src[1] = chance(G, 95) ?
				 pcell(G, buffer(G, k == K_READ)) : bad_addr(G);
			src[2] = chance(G, 95) ? pcell(G, length(G))
					       : arg_source(G, length(G));
		}
		for (unsigned int j = 3; j < 6; j++)
			src[j] = arg_source(G, some_value(G));
		break;
	}
	case K_PREAD:
	case K_PWRITE: {
		/* pread64 and pwrite64 of the test's pipes, which have no
		 * file position: ESPIPE, unless the offset is negative
		 * (EINVAL) or the descriptor bad, and the pipe untouched.
		 * i386 splits the offset into two words, low first. */
		static const unsigned long offs[] = {
			0, 1, 4096, -1UL, -4096UL, 0x7fffffffUL,
		};

		nr = k == K_PREAD ? SYS_pread64 : SYS_pwrite64;
		n = chance(G, 90) ? (W == 8 ? 4 : 5) : (unsigned int)below(G, 7);
		src[0] = pcell(G, !chance(G, 50) ? some_fd(G, k == K_PREAD) :
				  k == K_PREAD ? (unsigned long)ar->fd.blk_rd :
						 (unsigned long)ar->fd.blk_wr);
		src[1] = pcell(G, buffer(G, k == K_PREAD));
		src[2] = pcell(G, length(G));
		src[3] = pcell(G, offs[below(G, sizeof(offs) /
						sizeof(offs[0]))]);
		src[4] = pcell(G, chance(G, 80) ? 0 : some_value(G));
		src[5] = arg_source(G, some_value(G));
		break;
	}
	case K_CLOSE: {
		static const unsigned long bad[] = {
			-1UL, 4096, 99999, 0x7fffffffUL,
			(unsigned long)((1ULL << (8 * W - 1)) | 5000),
		};

		nr = SYS_close;
		n = 1;
		src[0] = pcell(G, bad[below(G, 5)]);
		break;
	}
	default:
		nr = k == K_GETPPID ? SYS_getppid :
		     k == K_GETPID ? SYS_getpid :
		     k == K_PAST ? past_nr(G) :
		     k == K_HOLE ? hole_nr(G) : denied_nr(G);
		n = (unsigned int)below(G, 7);
		for (unsigned int j = 0; j < 6; j++)
			src[j] = arg_source(G, some_value(G));
		if (nr == SYS_prctl) {
			/* PR_SET_SECCOMP; on 64 bits, half the time with
			 * the upper half set, which the kernel drops. */
			unsigned long hi = sizeof(long) > 4 && chance(G, 50) ?
					   ((unsigned long)1 << 31) << 1 : 0;

			src[0] = pcell(G, hi | 22);
			n = n ? n : 1;
		}
		break;
	}
	if (cut_args < 6 && n > cut_args)
		n = cut_args;
	put(G, a, flags);
	put(G, a + W, nr);
	put(G, a + 2 * W, ret);
	put(G, a + 3 * W, some_next(G, i));
	set_args(G, a, n, src);
}

/*
 * An atom in the page below the top of user space: a getppid() whose last
 * @cut words lie past the top, 0 to 3 (private, then arg_ptr[5], ...),
 * its arg_ptr[0] NULL, so that no word past the top is read.  2007's
 * copy_uatom() checked the whole atom with access_ok(): it runs only when
 * it ends at the top.  The entry, or the next of an A atom, points to it;
 * its own next ends the chain or faults.
 */
static void gen_top_atom(struct gen *G)
{
	const struct diff_arena *ar = G->ar;
	unsigned long cut = below(G, 4), *w = G->g->top_words;

	G->g->top_at = ar->user_top - S + cut * W;
	for (int i = 0; i < 11; i++)
		w[i] = ~0UL;
	w[0] = some_flags(G) & ~(unsigned long)SYSLET_ASYNC;
	w[1] = SYS_getppid;
	w[2] = chance(G, 20) ? 0 : d_word(G, false);
	w[3] = chance(G, 70) ? 0 : bad_addr(G);
	w[4] = 0;
	if (chance(G, 50) || !G->na)
		G->g->entry = G->g->top_at;
	else
		put(G, G->g->atom[below(G, G->na)] + 3 * W, G->g->top_at);
}

static void fill(struct gen *G, int p, unsigned long off, unsigned long len,
		 int byte)
{
	memset(G->g->image + (unsigned long)p * G->ar->page + off, byte, len);
}

void gen_graph(const struct diff_arena *ar, uint64_t seed,
	       unsigned long index, struct diff_graph *g)
{
	struct gen G = { .ar = ar, .g = g };
	unsigned long page = ar->page, a_lo, b_lo, cut = 6;
	unsigned int i, n;

	G.rng = seed ^ (0xd1b54a32d192ed03ULL * (index + 1));
	memset(g->image, 0, ar->size);
	/* Filler of all ones: as an atom it has every stop flag (never
	 * stops), a number past any table and a next that faults. */
	fill(&G, DIFF_PG_A0, 0, 2 * page, 0xff);
	fill(&G, DIFF_PG_B, 0, page, 0xff);
	G.pcell = pg(&G, DIFF_PG_B) + page / 2;
	G.p_end = pg(&G, DIFF_PG_B) + page;
	/* Fuel, then data. */
	for (i = 0; i < DIFF_NFUEL; i++)
		put(&G, pg(&G, DIFF_PG_D0) + i * W, 2 + below(&G, 8));
	for (unsigned long o = DIFF_NFUEL * W; o < 2 * page; o += W)
		put(&G, pg(&G, DIFF_PG_D0) + o, some_value(&G));
	for (unsigned long o = 0; o < page; o += W)
		put(&G, pg(&G, DIFF_PG_R) + o,
		    chance(&G, 20) ? d_word(&G, false) : some_value(&G));
	/* Unused pointer and constant cells: values too. */
	for (unsigned long o = page / 2; o < page; o += W)
		put(&G, pg(&G, DIFF_PG_B) + o, some_value(&G));

	/* Where the atoms go. */
	G.na = 1 + (unsigned int)below(&G, 24);
	G.nb = chance(&G, 40) ? (unsigned int)below(&G, 5) : 0;
	n = G.na + G.nb;
	switch (below(&G, 10)) {
	case 0: case 1: case 2:
		/* The last A atom ends where the unmapped page begins:
		 * after its NULL argument pointer, or before it; with six
		 * argument pointers, after them or after private (never
		 * read: access_ok() only checked its range). */
		cut = below(&G, 7);
		a_lo = pg(&G, DIFF_PG_GAP1) - (G.na - 1) * S -
		       (4 + cut + (chance(&G, 85) ? 1 : 0)) * W;
		break;
	default:
		a_lo = pg(&G, DIFF_PG_A0) +
		       below(&G, 2 * page - G.na * S - S);
		if (chance(&G, 70))
			a_lo &= ~(W - 1);
		break;
	}
	b_lo = pg(&G, DIFF_PG_B) + below(&G, page / 2 - (G.nb + 1) * S);
	for (i = 0; i < G.na; i++)
		g->atom[i] = a_lo + i * S;
	for (i = 0; i < G.nb; i++)
		g->atom[G.na + i] = b_lo + i * S;
	for (i = 0; i < n; i++)
		G.gate[i] = i > 0 && chance(&G, 15);
	for (i = 0; i < n; i++)
		gen_atom(&G, i, i == G.na - 1 ? (unsigned int)cut : 6);
	g->natoms = n;

	switch (below(&G, 20)) {
	case 0:
		g->entry = bad_addr(&G);
		break;
	case 1: case 2: case 3:
		g->entry = g->atom[below(&G, n)];
		break;
	default:
		g->entry = g->atom[0];
		break;
	}
	g->in_fill = (unsigned int)below(&G, sizeof(g->in_data) + 1);
	for (i = 0; i < sizeof(g->in_data); i++)
		g->in_data[i] = (unsigned char)rnd(&G);
	/* Sometimes words an atom could be made of (reads land in the
	 * atoms too): flags, numbers, the graph's atoms, NULL. */
	if (chance(&G, 30))
		for (i = 0; i + W <= sizeof(g->in_data); i += W) {
			unsigned long w;

			switch (below(&G, 5)) {
			case 0:
				w = some_flags(&G);
				break;
			case 1:
				w = chance(&G, 50) ? SYS_getppid : ar->umem_nr;
				break;
			case 2:
				w = g->atom[below(&G, n)];
				break;
			case 3:
				w = 0;
				break;
			default:
				w = some_value(&G);
				break;
			}
			memcpy(g->in_data + i, &w, W);
		}
	g->ring_junk = chance(&G, 5);
	g->tight_room = tight_room(&G);
	g->top_at = 0;
	if (ar->top_pg && chance(&G, 10))
		gen_top_atom(&G);
}

static const char *flag_names(unsigned long f, char *buf, size_t len)
{
	static const char *const names[] = {
		"ASYNC", "SYNC", "NO_COMPLETE", "STOP_NONZERO", "STOP_ZERO",
		"STOP_NEG", "STOP_NONPOS", "SKIP",
	};
	size_t o = 0;

	buf[0] = 0;
	for (int b = 0; b < 8; b++)
		if (f & (1UL << b))
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      o ? "|" : "", names[b]);
	if (f & ~SYSLET_FLAGS_MASK)
		snprintf(buf + o, len - o, "%s%#lx", o ? "|" : "",
			 f & ~SYSLET_FLAGS_MASK);
	return buf;
}

void gen_dump(const struct diff_arena *ar, const struct diff_graph *g,
	      const unsigned char *mem, FILE *out)
{
	fprintf(out, "  entry %#lx; arena %p, page %lu; in_fill %u; tight "
		"pipe's room %u%s\n",
		g->entry, (void *)ar->base, ar->page, g->in_fill, g->tight_room,
		g->ring_junk ? "; next ring slot full" : "");
	for (unsigned int i = 0; i < g->natoms; i++) {
		unsigned long a = g->atom[i], w[11], off;
		char fb[160];

		off = a - (unsigned long)ar->base;
		for (int j = 0; j < 11; j++) {
			w[j] = 0;
			if (off + (j + 1) * W <= ar->size)
				memcpy(&w[j], mem + off + j * W, W);
		}
		fprintf(out, "  [%u] %#lx: nr %lu (%#lx) flags %s ret %#lx "
			"next %#lx args", i, a, w[1], w[1],
			flag_names(w[0], fb, sizeof(fb)), w[2], w[3]);
		for (int j = 0; j < 6 && w[4 + j]; j++) {
			unsigned long v = 0, vo = w[4 + j] -
						  (unsigned long)ar->base;

			if (vo + W <= ar->size)
				memcpy(&v, mem + vo, W);
			fprintf(out, " %#lx(=%#lx)", w[4 + j], v);
		}
		fputc('\n', out);
	}
}
