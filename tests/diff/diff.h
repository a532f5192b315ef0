/* diff.h: the differential test's arena, graphs and outcomes, shared by the reference (ref.c), the generator (gen.c) and the driver (diff.c). */
#ifndef DIFF_H
#define DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <syslet.h>

/*
 * Every graph lives in one arena of DIFF_NPAGES pages, always at the same
 * address, inside a larger PROT_NONE reservation so that pointers a little
 * outside it are known to fault.  The pages keep their protections for
 * the whole run; a second, always writable mapping of the same memory
 * (the alias) is how the driver loads a graph and reads the outcome, so
 * that read-only pages can hold generated atoms and cells without an
 * mprotect() per graph.
 */
enum diff_page_kind { DIFF_NONE = 0, DIFF_RO = 1, DIFF_RW = 3 };

enum {
	DIFF_PG_A0,	/* RW: atoms (their nr and flags may be rewritten) */
	DIFF_PG_A1,	/* RW: atoms, ending at the gap below or not */
	DIFF_PG_GAP1,	/* unmapped */
	DIFF_PG_B,	/* RO: fixed atoms, then pointer and constant cells */
	DIFF_PG_D0,	/* RW: fuel cells, data cells, read buffers */
	DIFF_PG_D1,
	DIFF_PG_GAP2,	/* unmapped */
	DIFF_PG_R,	/* RO: values */
	DIFF_NPAGES,
};

#define DIFF_GUARD	16	/* PROT_NONE pages each side of the arena */
#define DIFF_RING	4	/* ring slots */
#define DIFF_PIPE_MAX	65536	/* what a pipe holds by default */
#define DIFF_NFUEL	8	/* fuel cells at the start of D */
#define DIFF_MAX_ATOMS	32	/* atoms of one graph, at most */

/* The pipes atoms may read and write; every end but blk's is
 * non-blocking, and no call of a graph ever blocks, so the outcome does
 * not depend on timing.  pread64 and pwrite64 of the blocking pipe (blk):
 * a pipe has no file position, so they answer ESPIPE (or EINVAL) at once,
 * and an engine that took their offset for the file position would move
 * its bytes, or wait, where io_uring waits for a blocking descriptor.
 * read and write of it only where they cannot wait (the reference makes
 * the graph unsafe otherwise): the uring engine gives them to io_uring. */
struct diff_fds {
	int	in_rd, in_wr;		/* refilled before each run */
	int	out_rd, out_wr;		/* captured after each run */
	int	empty_rd, empty_wr;	/* starts empty: -EAGAIN, captured */
	int	eof_rd;			/* writer closed: read gives 0 */
	int	epipe_wr;		/* reader closed: -EPIPE */
	int	blk_rd, blk_wr;		/* blocking; DIFF_BLK_FILL bytes */
	int	late_rd, late_wr;	/* blocking, empty: see below */
	int	tight_rd, tight_wr;	/* blocking, one page, full: below */
};

#define DIFF_BLK_FILL	8		/* bytes in blk at each start */

/*
 * The late pipe: blocking and empty at each start, so that a read of it
 * waits and the syslet goes to a cachemiss thread there, mid-chain.  Its
 * writer is the test's: once async_exec() has returned NULL (never
 * before), the driver writes DIFF_LATE_FEED bytes in one write, which a
 * pipe makes visible all at once.  Until then the pipe is empty and any
 * read of it waits; from then on it holds what the feed left.  So what
 * every read of it gives does not depend on when the feed came, and the
 * reference, which runs alone, writes the feed where the syslet first
 * waits for it (or at its end, if it went async without reading it).
 * Atoms may read it only: a write into it would race with the feed.
 * A SYNC read of it sleeps in the caller, inside async_exec(): there a
 * thread of the driver writes the feed once it sees the caller asleep
 * in that read (/proc/self/task/TID/syscall), and not again after.
 */
#define DIFF_LATE_FEED	100
extern const unsigned char diff_late_feed[DIFF_LATE_FEED];

/*
 * The tight pipe: blocking, its capacity cut to one page (F_SETPIPE_SZ),
 * and at each start holding a page but the graph's room (diff_graph's
 * tight_room: 0, a pipe that is full, up to a page, an empty one), in
 * one write.  Atoms write it: a write of more than the room sleeps (pipe(7):
 * up to PIPE_BUF bytes go in whole, never partly; more than PIPE_BUF go
 * partly and the write sleeps for the rest, the room of a one-page pipe
 * being never more than PIPE_BUF), so the syslet goes to a cachemiss
 * thread there, mid-chain, as at a read of the late pipe.  Its reader is
 * the test's: once async_exec() has returned NULL (never before), a
 * thread of the driver reads everything the pipe gets until the syslet
 * ended; a SYNC write that sleeps in the caller is drained once the
 * caller is seen asleep in it (as the late pipe's feeder).  What the
 * pipe got, the fill and then every write in order, does not depend on
 * when the reading began, and a blocking write returns its whole length
 * once read: the outcome compares the stream's length and hash.  Atoms
 * may not read it (that would race with the test's reader).
 */
#define DIFF_TIGHT_MAX	65536		/* a write's length, at most */

/* The byte at offset @i of the tight pipe's fill. */
static inline unsigned char diff_tight_byte(unsigned long i)
{
	return (unsigned char)(i * 7 + 3);
}

/* FNV-1a, 64 bits: the tight pipe's stream. */
static inline uint64_t diff_hash(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

#define DIFF_HASH0	0xcbf29ce484222325ULL

struct diff_arena {
	unsigned char	*base;		/* what atoms point into */
	unsigned char	*alias;		/* the same pages, writable */
	unsigned long	page;		/* page size */
	unsigned long	size;		/* DIFF_NPAGES pages */
	unsigned long	resv_lo, resv_hi; /* the reservation, arena inside */
	unsigned char	prot[DIFF_NPAGES];
	struct diff_fds	fd;
	/* The ABI: umem_add's number and NR_syscalls (the first number past
	 * the table), from syslet_sysno(). */
	unsigned long	umem_nr, nr_syscalls;
	/* /proc shows a thread's call: a SYNC read of the late pipe can
	 * be fed (diff.c's feeder), else such a graph is unsafe. */
	bool		proc_syscall;
	/* The tight pipe's capacity: a page, or 0 where F_SETPIPE_SZ
	 * would not make it so (every write of it is then unsafe). */
	unsigned long	tight_cap;
	/* A SYNC write of it that sleeps in the caller can be drained:
	 * /proc shows the caller in that write (for the kernel, asleep in
	 * async_exec() at pipe_write, /proc/TID/wchan). */
	bool		tight_sync_ok;
	/* Where user space ends for access_ok() (TASK_SIZE), found by the
	 * reference on its own (ref_user_top()), and the page below it,
	 * mapped read-write by the test where it could be (0: not): an
	 * atom there may end at the top or past it. */
	unsigned long	user_top, top_pg;
	/* access_ok() lets every buffer through, REF_TOP_GUESS's too: a
	 * 32-bit process under a 64-bit kernel (ref.c, ref_probe()). */
	bool		access_ok_all;
};

/* A generated graph: the arena's initial content and how to start it. */
struct diff_graph {
	unsigned char	*image;		/* size bytes, copied to the alias */
	unsigned long	entry;		/* the first atom */
	unsigned int	in_fill;	/* bytes in the input pipe at start */
	unsigned char	in_data[256];
	bool		ring_junk;	/* the next ring slot is still full */
	unsigned int	tight_room;	/* room in the tight pipe at start */
	unsigned int	natoms;		/* atoms generated (for the dump) */
	unsigned long	atom[DIFF_MAX_ATOMS];
	/* The atom in the page below the top (ar->top_pg): its words below
	 * the top, from top_at on. */
	unsigned long	top_at;
	unsigned long	top_words[11];
};

/* Where a chain ended, as async_exec() and the ring tell it. */
struct diff_outcome {
	unsigned long	ret;		/* async_exec()'s atom, or 0 */
	int		err;		/* errno when it returned NULL */
	/* The ring after the syslet ended, and after the stale slot (if
	 * any) was cleared and async_wait(0) called. */
	unsigned long	ring1[DIFF_RING], ring2[DIFF_RING];
	unsigned char	*mem;		/* the arena at the end */
	unsigned long	top_mem[11];	/* the top page's atom at the end */
	size_t		in_len, out_len, empty_len;
	int		blk_len;	/* bytes in blk at the end */
	int		late_len;	/* bytes in the late pipe at the end */
	unsigned char	*in_left, *out, *empty, *blk; /* DIFF_PIPE_MAX each */
	unsigned char	late[DIFF_LATE_FEED];
	/* Everything the tight pipe got: its bytes and their hash. */
	unsigned long	tight_len;
	uint64_t	tight_hash;
	unsigned long	atoms;		/* reference only: atoms run */
	int		end;		/* reference only: enum ref_end */
	bool		async;		/* reference only: it went async */
	/* Reference only: the last atom that ran (0: none) and whether it
	 * asked for no completion; the reads and writes that ran (calls
	 * that may block, where a backend may go async). */
	unsigned long	last;
	bool		last_nc;
	unsigned long	io_calls;
	/* Reference only: the syslet waited for the late pipe's feed (in
	 * the caller: that is where it went async). */
	bool		late_waited;
	/* Reference only: a SYNC read of it waited in the caller (the
	 * driver's feeder writes the feed then); the feed was written. */
	bool		late_sync, late_fed;
	/* Reference only: the syslet went async at a write of the tight
	 * pipe that sleeps; a SYNC one slept in the caller (the driver
	 * drains it then); the draining began. */
	bool		tight_waited, tight_sync, tight_drained;
};

/* How the reference saw a chain end (for the summary). */
enum ref_end { REF_END_NULL, REF_END_STOP, REF_END_FAULT, REF_NR_ENDS };

/* The reference's verdict on a graph. */
enum ref_status {
	REF_OK,		/* ran to its end: compare */
	REF_UNSAFE,	/* would touch memory or make a call the test cannot
			 * predict or allow: not run anywhere else */
	REF_ENDLESS,	/* still running after REF_MAX_ATOMS atoms */
};

#define REF_MAX_ATOMS	4096

/* The ring as the reference sees it: the slots, the index of the next
 * one, and a completion waiting for a slot the user has not cleared. */
struct ref_ring {
	unsigned long	slot[DIFF_RING];
	unsigned int	idx;
	bool		waiting;
	unsigned long	waiting_atom;
};

/* ref.c: the first address past user space, for access_ok(): TASK_SIZE,
 * found by mmap(MAP_FIXED_NOREPLACE); 0 where the kernel does not say. */
unsigned long ref_user_top(void);

/* ref.c: run the graph now in the arena, as the 2007 kernel would; the
 * first @no_thread ASYNC atoms find no parked thread (they run in the
 * caller). */
enum ref_status ref_run(const struct diff_arena *ar, unsigned long entry,
			unsigned long no_thread, struct ref_ring *ring,
			struct diff_outcome *out, const char **why);
/* How the running kernel's access_ok() treats the addresses the
 * reference takes for kernel space (after arena_init's pipes). */
void ref_probe(struct diff_arena *ar);
/* The ring's user clears a slot and makes a library call: a completion
 * that waited for that slot goes in (the modelled difference). */
void ref_ring_cleared(struct ref_ring *ring);

/* gen.c: the graph number @index of @seed. */
void gen_graph(const struct diff_arena *ar, uint64_t seed,
	       unsigned long index, struct diff_graph *g);
/* A readable description of the graph's atoms as they are in @mem (an
 * image of the arena), for a mismatch report. */
void gen_dump(const struct diff_arena *ar, const struct diff_graph *g,
	      const unsigned char *mem, FILE *out);

/* Address of page @pg of the arena (in the test's view). */
static inline unsigned long diff_pg(const struct diff_arena *ar, int pg)
{
	return (unsigned long)ar->base + (unsigned long)pg * ar->page;
}

#endif /* DIFF_H */
