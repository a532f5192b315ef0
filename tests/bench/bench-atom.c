/* bench-atom.c: the cost of one atom: umem_add atoms, getppid atoms, and bare getppid syscalls. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "libsyslet.h"

/*
 * Every cost is the best of many short samples (some tens of
 * microseconds each), so that on a loaded machine a sample that was not
 * preempted is among them; a chain's samples and the bare call's are
 * taken in turn, so that both see the same machine.
 *
 * The samples are taken in ROUNDS rounds, every backend in turn in each,
 * so that each backend's samples span the whole atom phase (a second or
 * so), not a slice of it of its own: the CPU itself runs slower in spells
 * of up to a second.  On the development VM a umem_add atom costs 13-14
 * ns in one instead of 7-8, on either engine, and a plain C loop of ALU
 * work timed in the same samples slows down too; a load on the VM's other
 * CPU does not cause it (most likely the host's other hardware thread of
 * the core).  Measured one backend after the other, the backend whose
 * slice a spell covered missed the < 10 ns target.
 */
#define SAMPLES		300
#define ROUNDS		10
#define UMEM_RUNS	10000UL		/* atom executions per sample */
#define UMEM_CYCLE	1000		/* distinct atoms, chained in a cycle */
#define UMEM_WARM	0.01		/* s of untimed runs before a round's */
#define PPID_CHAIN	200		/* getppid atoms in one straight chain */
/* The same calls as one chain too big for the caches (8.8 MB of atoms):
 * what a syslet that size costs, memory included. */
#define PPID_COLD_CHAIN	100000
#define PPID_COLD_SAMPLES 10		/* one a round */

/*
 * A syslet cannot count getppid calls itself, so the umem_add chain is
 * a cycle of atoms that each take one from a counter and stop at zero,
 * and the getppid chain is a straight one, run several times.
 */
static struct syslet_uatom *umem_cycle(unsigned long *counter,
				       unsigned long *cells)
{
	struct syslet_uatom *a = calloc(UMEM_CYCLE, sizeof(*a));

	if (!a)
		return NULL;
	cells[0] = (unsigned long)counter;
	cells[1] = -1UL;
	for (int i = 0; i < UMEM_CYCLE; i++) {
		a[i].flags = SYSLET_STOP_ON_ZERO;
		a[i].nr = (unsigned long)syslet_sysno(SYSLET_CALL_UMEM_ADD);
		a[i].arg_ptr[0] = &cells[0];
		a[i].arg_ptr[1] = &cells[1];
		a[i].next = &a[(i + 1) % UMEM_CYCLE];
	}
	return a;
}

static struct syslet_uatom *ppid_chain(long *ret, int n)
{
	struct syslet_uatom *a = calloc((size_t)n, sizeof(*a));

	if (!a)
		return NULL;
	for (int i = 0; i < n; i++) {
		a[i].nr = SYS_getppid;
		a[i].ret_ptr = ret;
		a[i].next = i + 1 < n ? &a[i + 1] : NULL;
	}
	return a;
}

/* Run a syslet to its end, inline or not. */
static int run_to_end(struct syslet_uatom *first,
		      struct syslet_uatom **ring, size_t entries)
{
	errno = 0;
	if (sys_async_exec(first))
		return 0;
	if (errno) {
		perror("bench: async_exec");
		return -1;
	}
	/* It went to a cachemiss thread: wait for its one completion. */
	for (;;) {
		for (size_t i = 0; i < entries; i++)
			if (ring[i]) {
				ring[i] = NULL;
				return 0;
			}
		sys_async_wait(1);
	}
}

/* One sample of @n bare getppid calls, in seconds. */
static double bare_sample(long n)
{
	double t0 = bench_now();
	long ret = 0;

	for (long i = 0; i < n; i++)
		ret += syscall(SYS_getppid);
	t0 = bench_now() - t0;
	if (ret == 42)
		fputc(' ', stderr);	/* keep the calls */
	return t0;
}

#define ONE_BATCH	100

/* ns per one-atom syslet, best of @samples runs of ONE_BATCH of them:
 * *exec by async_exec each, *batch by one syslet_exec_batch. */
static int time_one(int samples, double *exec, double *batch)
{
	struct syslet_uatom *a = calloc(ONE_BATCH, sizeof(*a));
	struct syslet_uatom **at = calloc(ONE_BATCH, sizeof(*at));
	struct syslet_uatom **done = calloc(ONE_BATCH, sizeof(*done));
	int *errs = calloc(ONE_BATCH, sizeof(*errs));
	double t0, be = 1e9, bb = 1e9;
	long ret = 0;
	int status = -1;

	if (!a || !at || !done || !errs)
		goto out;
	for (int i = 0; i < ONE_BATCH; i++) {
		a[i].nr = SYS_getppid;
		a[i].ret_ptr = &ret;
		at[i] = &a[i];
	}
	for (int rep = 0; rep < samples; rep++) {
		t0 = bench_now();
		for (int i = 0; i < ONE_BATCH; i++)
			if (sys_async_exec(&a[i]) != &a[i])
				goto out;
		t0 = bench_now() - t0;
		be = t0 < be ? t0 : be;
		t0 = bench_now();
		if (syslet_exec_batch(at, ONE_BATCH, done, errs) != ONE_BATCH)
			goto out;
		t0 = bench_now() - t0;
		bb = t0 < bb ? t0 : bb;
	}
	*exec = be * 1e9 / ONE_BATCH;
	*batch = bb * 1e9 / ONE_BATCH;
	status = ret == getppid() ? 0 : -1;
out:
	if (status)
		fprintf(stderr, "bench: one-atom syslets did not run inline\n");
	free(a);
	free(at);
	free(done);
	free(errs);
	return status;
}

/* ns per atom of @chain (@n atoms), best of @samples runs; with @bare,
 * a sample of as many bare calls after each, *bare their best. */
static int time_chain(struct syslet_uatom *chain, int n, int samples,
		      struct syslet_uatom **ring, const long *ret, double *ns,
		      double *bare)
{
	double t0, best = 1e9, bbest = 1e9;

	for (int rep = 0; rep < samples; rep++) {
		t0 = bench_now();
		if (run_to_end(chain, ring, 4))
			return -1;
		t0 = bench_now() - t0;
		best = t0 < best ? t0 : best;
		if (bare) {
			t0 = bare_sample(n);
			bbest = t0 < bbest ? t0 : bbest;
		}
	}
	if (*ret != getppid()) {
		fprintf(stderr, "bench: getppid atoms returned %ld\n", *ret);
		return -1;
	}
	*ns = best * 1e9 / n;
	if (bare)
		*bare = bbest * 1e9 / n;
	return 0;
}

double bench_bare_syscall(void)
{
	double best = 1e9;

	for (int rep = 0; rep < SAMPLES; rep++) {
		double t = bare_sample(PPID_CHAIN);

		best = t < best ? t : best;
	}
	return best * 1e9 / PPID_CHAIN;
}

/* The chains every backend runs, and what they read and write. */
struct atom_set {
	struct syslet_uatom	*cyc, *chain, *cold;
	unsigned long		counter, cells[2];
	long			ret;
};

/* One run of the umem_add cycle, UMEM_RUNS atoms; its seconds. */
static double umem_sample(struct atom_set *s, struct syslet_uatom **ring)
{
	double t0;

	s->counter = UMEM_RUNS;
	t0 = bench_now();
	if (run_to_end(s->cyc, ring, 4))
		return -1;
	t0 = bench_now() - t0;
	if (s->counter != 0) {
		fprintf(stderr, "bench: umem_add chain left %lu\n",
			s->counter);
		return -1;
	}
	return t0;
}

/*
 * ns per umem_add atom, best of @samples runs of UMEM_RUNS.  After a
 * wait, or after the other measurements' syscalls, the CPU comes up to
 * speed over 3-5 ms, in steps (here 10-11 ns a umem_add atom in the
 * first ms, 8.5 in the third, 7-7.5 after a busy loop): the same chain
 * runs untimed for UMEM_WARM first, so that what is timed is what an atom
 * costs at the speed a long chain of them runs at.
 */
static int time_umem(struct atom_set *s, int samples,
		     struct syslet_uatom **ring, double *ns)
{
	double t0, best = 1e9, start = bench_now();

	while (bench_now() - start < UMEM_WARM)
		if (umem_sample(s, ring) < 0)
			return -1;
	for (int rep = 0; rep < samples; rep++) {
		t0 = umem_sample(s, ring);
		if (t0 < 0)
			return -1;
		best = t0 < best ? t0 : best;
	}
	*ns = best * 1e9 / UMEM_RUNS;
	return 0;
}

/* One round on @backend: a share of every measurement's samples. */
static int atom_round(const char *backend, struct atom_set *s,
		      struct bench_atom_costs *c)
{
	struct syslet_uatom *ring[4] = { 0 };
	struct async_head_user ahu = { ring, sizeof(ring), -1UL };
	int status = -1;

	if (syslet_set_backend(backend)) {
		fprintf(stderr, "bench: %s\n", syslet_backend_error() ?
			syslet_backend_error() : backend);
		return -1;
	}
	if (sys_async_register(&ahu, sizeof(ahu))) {
		perror("bench: atoms");
		return -1;
	}
	if (time_umem(s, SAMPLES / ROUNDS, ring, &c->umem) ||
	    time_chain(s->chain, PPID_CHAIN, SAMPLES / ROUNDS, ring, &s->ret,
		       &c->getppid_atom, &c->getppid_bare) ||
	    time_chain(s->cold, PPID_COLD_CHAIN, PPID_COLD_SAMPLES / ROUNDS,
		       ring, &s->ret, &c->getppid_cold, NULL) ||
	    time_one(SAMPLES / ROUNDS, &c->one_exec, &c->one_batch))
		goto out;
	status = 0;
out:
	sys_async_unregister(&ahu, sizeof(ahu));
	return status;
}

/* Nothing measured on that backend. */
static void atom_costs_none(struct bench_atom_costs *c)
{
	c->umem = c->getppid_atom = c->getppid_cold = c->getppid_bare = -1;
}

static void keep_min(double *best, double v)
{
	if (v < *best)
		*best = v;
}

int bench_atoms(const char *const *backends, size_t n,
		struct bench_atom_costs *c)
{
	struct atom_set s = { .ret = 0 };
	bool ok[8];
	int status = -1;

	if (n > 8)
		n = 8;
	for (size_t b = 0; b < n; b++) {
		atom_costs_none(&c[b]);
		ok[b] = true;
	}
	s.cyc = umem_cycle(&s.counter, s.cells);
	s.chain = ppid_chain(&s.ret, PPID_CHAIN);
	s.cold = ppid_chain(&s.ret, PPID_COLD_CHAIN);
	if (!s.cyc || !s.chain || !s.cold) {
		perror("bench: atoms");
		goto out;
	}
	for (int round = 0; round < ROUNDS; round++)
		for (size_t b = 0; b < n; b++) {
			struct bench_atom_costs r;

			if (!ok[b])
				continue;
			if (atom_round(backends[b], &s, &r)) {
				ok[b] = false;
				atom_costs_none(&c[b]);
				continue;
			}
			r.umem_round_max = r.umem;
			if (!round) {
				c[b] = r;
				continue;
			}
			if (r.umem > c[b].umem_round_max)
				c[b].umem_round_max = r.umem;
			keep_min(&c[b].umem, r.umem);
			keep_min(&c[b].getppid_atom, r.getppid_atom);
			keep_min(&c[b].getppid_cold, r.getppid_cold);
			keep_min(&c[b].getppid_bare, r.getppid_bare);
			keep_min(&c[b].one_exec, r.one_exec);
			keep_min(&c[b].one_batch, r.one_batch);
		}
	status = 0;
out:
	free(s.cyc);
	free(s.chain);
	free(s.cold);
	return status;
}
