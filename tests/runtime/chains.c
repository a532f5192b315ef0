/* chains.c: random chains run by async_exec and atom by atom with syslet_step must leave the same memory and end at the same atom. */
#include "helpers.h"
#include <stddef.h>
#include <sys/mman.h>

/*
 * async_exec runs cheap atoms on the engine's fast loop (or in the
 * kernel, on the kernel backend); syslet_step always takes the engine's
 * general path, one atom at a time.  The same random chains, run both
 * ways from the same starting memory, must give the same cells, the same
 * results and the same last atom.  Chains only point forwards (next to a
 * later atom, SKIP to the following one) so that every one ends.
 */
#define CH_ATOMS	48
#define CH_CELLS	8
#define CH_RUNS		4000

struct ch_mem {
	struct syslet_uatom	atoms[CH_ATOMS + 1];
	unsigned long		cells[CH_CELLS];
	long			rets[CH_CELLS];
	unsigned long		consts[4];
	unsigned long		badfd;		/* -1, no atom writes it */
};

static unsigned long ch_state = 0x2007c0deUL;

static unsigned long ch_rand(void)
{
	ch_state ^= ch_state << 13;
	ch_state ^= ch_state >> 7;
	ch_state ^= ch_state << 17;
	return ch_state;
}

static char *ch_hole;

/* A pointer for an argument: mostly cells and constants, sometimes NULL
 * (ends the argument list) or an unmapped page. */
static unsigned long *ch_arg(struct ch_mem *m)
{
	unsigned long r = ch_rand() % 16;

	if (r < 8)
		return &m->cells[ch_rand() % CH_CELLS];
	if (r < 12)
		return &m->consts[ch_rand() % 4];
	if (r < 15)
		return NULL;
	return (unsigned long *)(ch_hole + 8 * (ch_rand() % 8));
}

static unsigned long ch_nr(void)
{
	static const unsigned long calls[] = {
		SYS_getppid, SYS_getpid, SYS_close, SYS_getuid, SYS_dup,
	};
	unsigned long r = ch_rand() % 10;

	if (r < 5)
		return (unsigned long)rt_umem_nr();
	if (r < 9)
		return calls[ch_rand() % (sizeof(calls) / sizeof(calls[0]))];
	return 100000 + ch_rand() % 1000;	/* no such call */
}

static void ch_build(struct ch_mem *m)
{
	static const unsigned long stops[] = {
		0, 0, 0, SYSLET_STOP_ON_NONZERO, SYSLET_STOP_ON_ZERO,
		SYSLET_STOP_ON_NEGATIVE, SYSLET_STOP_ON_NON_POSITIVE,
		SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NEGATIVE,
	};

	memset(m, 0, sizeof(*m));
	for (int i = 0; i < CH_CELLS; i++)
		m->cells[i] = ch_rand() % 4 == 0 ? 0 : ch_rand() % 100;
	m->consts[0] = 0;
	m->consts[1] = 1;
	m->consts[2] = -1UL;
	m->consts[3] = 1000;
	m->badfd = -1UL;
	for (int i = 0; i < CH_ATOMS; i++) {
		struct syslet_uatom *a = &m->atoms[i];
		unsigned long r = ch_rand() % 16;

		a->nr = ch_nr();
		a->flags = stops[ch_rand() % 8];
		if (ch_rand() % 4 == 0)
			a->flags |= SYSLET_SKIP_TO_NEXT_ON_STOP;
		if (ch_rand() % 8 == 0)
			a->flags |= SYSLET_SYNC;
		r = ch_rand() % 8;
		a->ret_ptr = r < 5 ? &m->rets[ch_rand() % CH_CELLS] :
			     r < 7 ? NULL : (long *)ch_hole;
		r = ch_rand() % 16;
		if (r < 12 && i + 1 < CH_ATOMS)
			a->next = &m->atoms[i + 1 + ch_rand() %
						(CH_ATOMS - i - 1)];
		else if (r < 15)
			a->next = NULL;
		else
			a->next = (struct syslet_uatom *)(ch_hole + 64);
		for (int k = 0; k < 6; k++) {
			a->arg_ptr[k] = ch_arg(m);
			if (!a->arg_ptr[k])
				break;
		}
		/* close and dup take an fd: -1 or an unreadable one, never a
		 * real descriptor (no argument would mean fd 0). */
		if (a->nr == SYS_close || a->nr == SYS_dup) {
			char *p0 = (char *)a->arg_ptr[0];

			if (!p0 || p0 < ch_hole || p0 >= ch_hole + 4096)
				a->arg_ptr[0] = &m->badfd;
		}
	}
	/* Where SKIP from the last atom lands. */
	m->atoms[CH_ATOMS].nr = SYS_getppid;
}

/* The step side: atom by atom to the end.  Returns the last atom that ran
 * (NULL if none), *fault when an atom could not be read. */
static struct syslet_uatom *ch_step(struct syslet_uatom *u, int *fault)
{
	struct syslet_uatom *last = NULL;
	SYSLET_OPTS(syslet_event, ev);

	*fault = 0;
	while (u) {
		u = syslet_step(u, &ev);
		if (ev.end == SYSLET_END_FAULT) {
			*fault = 1;
			break;
		}
		last = ev.atom;
	}
	return last;
}

int main(void)
{
	struct syslet_uatom *ring[4] = { 0 };
	struct async_head_user ahu;
	static struct ch_mem a, b;
	int mismatches = 0;

	rt_init();
	ch_hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	if (ch_hole == MAP_FAILED)
		rt_die("mmap");
	rt_register(&ahu, ring, 4, -1UL);
	for (int run = 0; run < CH_RUNS; run++) {
		unsigned long seed = ch_state;
		struct syslet_uatom *done, *last;
		int fault;
		ptrdiff_t shift = (char *)&b - (char *)&a;

		ch_build(&a);
		/* The same chain in b: every pointer into a moved to b. */
		b = a;
		for (int i = 0; i < CH_ATOMS; i++) {
			struct syslet_uatom *x = &b.atoms[i];

#define CH_MOVE(p)                                                      \
	do {                                                            \
		if ((char *)(p) >= (char *)&a &&                        \
		    (char *)(p) < (char *)(&a + 1))                     \
			(p) = (void *)((char *)(p) + shift);            \
	} while (0)
			CH_MOVE(x->ret_ptr);
			CH_MOVE(x->next);
			for (int k = 0; k < 6; k++)
				CH_MOVE(x->arg_ptr[k]);
#undef CH_MOVE
		}
		errno = 0;
		done = sys_async_exec(&a.atoms[0]);
		if (!done && errno != EFAULT)
			rt_die("run %d (seed %#lx): async_exec: %s", run, seed,
			       strerror(errno));
		last = ch_step(&b.atoms[0], &fault);
		if ((done == NULL) != (fault != 0) ||
		    (done && (char *)done + shift != (char *)last) ||
		    memcmp(a.cells, b.cells, sizeof(a.cells)) ||
		    memcmp(a.rets, b.rets, sizeof(a.rets))) {
			if (mismatches++ < 5)
				fprintf(stderr,
					"FAIL run %d (seed %#lx): exec ended at "
					"%ld%s, step at %ld%s\n",
					run, seed,
					done ? (long)(done - a.atoms) : -1L,
					done ? "" : " (fault)",
					last ? (long)(last - b.atoms) : -1L,
					fault ? " (fault)" : "");
		}
		rt_check(ring[0] == NULL, "an inline chain queued %p",
			 (void *)ring[0]);
	}
	rt_check(mismatches == 0, "%d of %d chains differed", mismatches,
		 CH_RUNS);
	rt_unregister(&ahu);
	return rt_done("chains");
}
