/* kstate.c: guest tests of per-thread state across hand-offs and between atoms: I/O port permissions, prctl settings, io_uring rings and their task work. */
#include "kt.h"
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <linux/io_uring.h>

/* ---- I/O ports ---------------------------------------------------- */

/* Port 0x80, the POST diagnostic port: reading it does nothing. */
#define KT_PORT 0x80

static sigjmp_buf kt_port_jmp;

static void kt_port_fault(int sig)
{
	(void)sig;
	siglongjmp(kt_port_jmp, 1);
}

/*
 * 1 when this thread may read @port from user space, 0 when the read
 * faults (SIGSEGV: the TSS's I/O bitmap refuses it).
 */
static int kt_port_ok(unsigned short port)
{
	struct sigaction sa = { .sa_handler = kt_port_fault }, old;
	volatile int ok = 0;
	unsigned char v;

	sigaction(SIGSEGV, &sa, &old);
	if (!sigsetjmp(kt_port_jmp, 1)) {
		__asm__ volatile("inb %w1, %b0" : "=a"(v) : "Nd"(port));
		ok = 1;
	}
	sigaction(SIGSEGV, &old, NULL);
	return ok;
}

/* 0 when the case can run: root, and a kernel with ioperm()/iopl(). */
static int kt_ports_usable(void)
{
	long r;

	if (geteuid() != 0)
		return kt_skip("not root");
	r = kt_sys(SYS_ioperm, 0, 0, 0, 0);
	if (r == -ENOSYS)
		return kt_skip("no ioperm() (CONFIG_X86_IOPL_IOPERM)");
	if (kt_port_ok(KT_PORT)) {
		kt_note("port 0x%x readable before ioperm()", KT_PORT);
		return KT_FAIL;
	}
	return 0;
}

/*
 * One atom that sleeps @ms: it hands the user context off.  Returns 0
 * when async_exec returned NULL (it went async), and the atom
 * completed with 0.
 */
static int kt_sleep_handoff(int ms)
{
	static struct syslet_uatom a;
	static struct kt_ts ts;
	static unsigned long clk = CLOCK_MONOTONIC, flags = 0, tsp, rem;
	static long ret;
	long r;

	ts.sec = 0;
	ts.nsec = ms * 1000000L;
	tsp = (unsigned long)&ts;
	ret = 1;
	kt_atom(&a, 0, KT_SLEEP, &ret, NULL, &clk, &flags, &tsp, &rem);
	r = K_EXEC(&a);
	if (r != 0) {
		kt_note("the sleep did not hand off: async_exec %ld", r);
		return -1;
	}
	if (kt_pop() != &a || ret != 0) {
		kt_note("the sleep's completion: ret %ld", ret);
		return -1;
	}
	return 0;
}

/*
 * A pool thread parked, made before what the case changes next: the
 * program moves to pool thread P1 (the thread that registered keeps
 * its TID, out of the pool), then to P2, made by P1, and P1 parks.
 */
static int kt_pool_parked(void)
{
	return kt_async_getpid() || kt_sleep_handoff(20) ? -1 : 0;
}

/*
 * The program's I/O permissions are its thread's; the thread that
 * carries the program after a hand-off must have them, whether they
 * were granted before the pool was made (@late 0) or after it (1).
 */
static int kt_ports_kept(int late, int iopl)
{
	long r;
	int i;

	if ((r = kt_ports_usable()))
		return r;
	if (kt_register(4, -1))
		return KT_FAIL;
	if (late && kt_pool_parked())
		return KT_FAIL;
	r = iopl ? kt_sys(SYS_iopl, 3, 0, 0, 0) :
		   kt_sys(SYS_ioperm, KT_PORT, 1, 1, 0);
	if (r) {
		kt_note("%s: %ld", iopl ? "iopl(3)" : "ioperm()", r);
		return KT_FAIL;
	}
	if (!kt_port_ok(KT_PORT)) {
		kt_note("no port access right after %s", iopl ? "iopl" : "ioperm");
		return KT_FAIL;
	}
	for (i = 0; i < 2; i++) {
		if (kt_sleep_handoff(20))
			return KT_FAIL;
		if (!kt_port_ok(KT_PORT)) {
			kt_note("port 0x%x no longer readable after hand-off %d",
				KT_PORT, i + 1);
			return KT_FAIL;
		}
	}
	/* And dropped again: not kept by a thread that still has them. */
	r = iopl ? kt_sys(SYS_iopl, 0, 0, 0, 0) :
		   kt_sys(SYS_ioperm, KT_PORT, 1, 0, 0);
	if (r)
		return KT_FAIL;
	for (i = 0; i < 2; i++) {
		if (kt_sleep_handoff(20))
			return KT_FAIL;
		if (kt_port_ok(KT_PORT)) {
			kt_note("port 0x%x readable again after dropping it and hand-off %d",
				KT_PORT, i + 1);
			return KT_FAIL;
		}
	}
	return KT_PASS;
}

static int t_ioperm_before(void)
{
	return kt_ports_kept(0, 0);
}

static int t_ioperm_after(void)
{
	return kt_ports_kept(1, 0);
}

static int t_iopl_after(void)
{
	return kt_ports_kept(1, 1);
}

/*
 * ioperm() and iopl() change the calling thread alone: as atoms they
 * are refused (EPERM), in place and on a worker, where the permission
 * went to the pool thread that ran them and, at its next hand-off, to
 * the program, which had never asked for it.
 */
static int t_ioperm_atom(void)
{
	static struct syslet_uatom a[3];
	static struct kt_ts ts = { 0, 20 * 1000 * 1000 };
	static unsigned long clk = CLOCK_MONOTONIC, flags = 0, tsp, rem;
	static unsigned long port = KT_PORT, one = 1, three = 3;
	static long ret[3];
	int bad = 0;
	long r;

	if ((r = kt_ports_usable()))
		return r;
	if (kt_register(4, -1))
		return KT_FAIL;
	/*
	 * On a worker that parks: the program moves to pool thread P1;
	 * the next chain hands it to P2 and P1 runs the atoms, then parks;
	 * the third chain hands the program to P1.
	 */
	if (kt_async_getpid())
		return KT_FAIL;
	tsp = (unsigned long)&ts;
	ret[0] = ret[1] = ret[2] = 1;
	kt_atom(&a[0], 0, KT_SLEEP, &ret[0], &a[1], &clk, &flags, &tsp, &rem);
	kt_atom(&a[1], 0, SYS_ioperm, &ret[1], &a[2], &port, &one, &one, NULL);
	kt_atom(&a[2], 0, SYS_iopl, &ret[2], NULL, &three, NULL, NULL, NULL);
	r = K_EXEC(&a[0]);
	if (r != 0 || kt_pop() != &a[2]) {
		kt_note("the worker's chain: async_exec %ld", r);
		return KT_FAIL;
	}
	if (ret[1] != -EPERM || ret[2] != -EPERM) {
		kt_note("on a worker: ioperm %ld, iopl %ld (want -EPERM)",
			ret[1], ret[2]);
		bad = 1;
	}
	if (kt_sleep_handoff(20))
		return KT_FAIL;
	if (kt_port_ok(KT_PORT)) {
		kt_note("port 0x%x readable: a worker's ioperm/iopl atom reached the program",
			KT_PORT);
		bad = 1;
	}
	/* In place. */
	ret[1] = ret[2] = 1;
	r = K_EXEC(&a[1]);
	if (r != (long)&a[2] || ret[1] != -EPERM || ret[2] != -EPERM) {
		kt_note("in place: async_exec %ld, ioperm %ld, iopl %ld (want -EPERM)",
			r, ret[1], ret[2]);
		bad = 1;
	}
	return bad ? KT_FAIL : KT_PASS;
}

/* ---- prctl's per-thread settings ------------------------------------ */

/*
 * PR_MCE_KILL's policy is the thread's (PF_MCE_PROCESS, PF_MCE_EARLY):
 * set after the pool was made, it must still be the program's after a
 * hand-off, and cleared again, cleared.
 */
static int t_mce_kill(void)
{
	int i, r;

	if (kt_register(4, -1) || kt_pool_parked())
		return KT_FAIL;
	/* prctl() checks that its unused arguments are 0. */
	if (prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0)) {
		kt_note("PR_MCE_KILL: %s", strerror(errno));
		return KT_FAIL;
	}
	for (i = 0; i < 2; i++) {
		if (kt_sleep_handoff(20))
			return KT_FAIL;
		r = prctl(PR_MCE_KILL_GET, 0, 0, 0, 0);
		if (r != PR_MCE_KILL_EARLY) {
			kt_note("PR_MCE_KILL_GET after hand-off %d: %d (want %d)",
				i + 1, r, PR_MCE_KILL_EARLY);
			return KT_FAIL;
		}
	}
	if (prctl(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 0, 0, 0))
		return KT_FAIL;
	for (i = 0; i < 2; i++) {
		if (kt_sleep_handoff(20))
			return KT_FAIL;
		r = prctl(PR_MCE_KILL_GET, 0, 0, 0, 0);
		if (r != PR_MCE_KILL_DEFAULT) {
			kt_note("PR_MCE_KILL_GET after clearing and hand-off %d: %d (want %d)",
				i + 1, r, PR_MCE_KILL_DEFAULT);
			return KT_FAIL;
		}
	}
	return KT_PASS;
}

/* ---- io_uring's task work ----------------------------------------- */

struct kt_uring {
	int fd;
	unsigned *sq_tail, *sq_array, *cq_head, *cq_tail, cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* A ring with @flags (0: task work notified with TWA_SIGNAL); 0, or a
 * skip. */
static int kt_uring_setup_flags(struct kt_uring *u, unsigned flags)
{
	struct io_uring_params p;
	void *sq, *cq;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	u->fd = (int)kt_sys(SYS_io_uring_setup, 4, (long)&p, 0, 0);
	if (u->fd == -ENOSYS)
		return kt_skip("no io_uring (CONFIG_IO_URING)");
	if (u->fd < 0) {
		kt_note("io_uring_setup: %d", u->fd);
		return KT_FAIL;
	}
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, IORING_OFF_CQ_RING);
	u->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || u->sqes == MAP_FAILED) {
		kt_note("io_uring mmap failed");
		return KT_FAIL;
	}
	u->sq_tail = (unsigned *)((char *)sq + p.sq_off.tail);
	u->sq_array = (unsigned *)((char *)sq + p.sq_off.array);
	u->cq_head = (unsigned *)((char *)cq + p.cq_off.head);
	u->cq_tail = (unsigned *)((char *)cq + p.cq_off.tail);
	u->cq_mask = *(unsigned *)((char *)cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);
	return 0;
}

static int kt_uring_setup(struct kt_uring *u)
{
	return kt_uring_setup_flags(u, 0);
}

/*
 * Submit a read of one byte from @fd (an empty pipe: the ring arms a
 * poll, and the write that fills the pipe queues the read's completion
 * as task work for this task, with TIF_NOTIFY_SIGNAL).  io_uring_enter's
 * answer: 1 when it took the read.
 */
static int kt_uring_read(struct kt_uring *u, int fd, char *buf)
{
	unsigned tail = *u->sq_tail;
	struct io_uring_sqe *s = &u->sqes[0];

	memset(s, 0, sizeof(*s));
	s->opcode = IORING_OP_READ;
	s->fd = fd;
	s->addr = (unsigned long)buf;
	s->len = 1;
	s->user_data = 42;
	u->sq_array[0] = 0;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	return (int)kt_sys(SYS_io_uring_enter, u->fd, 1, 0, 0);
}

/* The read's completion result, or -1000 when none is posted. */
static int kt_uring_result(struct kt_uring *u)
{
	unsigned head = *u->cq_head;

	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
		return -1000;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return u->cqes[head & u->cq_mask].res;
}

/*
 * An atom whose write completes the ring's read: the ring's task work
 * notification (TIF_NOTIFY_SIGNAL, which makes signal_pending() true)
 * is no signal, and the chain goes on, as a program's next call would
 * after the way back to user space ran the task work.
 */
static int t_uring_chain(void)
{
	static struct syslet_uatom a[2];
	static unsigned long wfd, wbuf, one = 1;
	static long ret[2];
	static char rbuf;
	struct kt_uring u;
	int p[2], r;
	long e;

	if ((r = kt_uring_setup(&u)))
		return r;
	if (pipe(p) || kt_register(4, -1) || kt_uring_read(&u, p[0], &rbuf) != 1)
		return KT_FAIL;
	wfd = p[1];
	wbuf = (unsigned long)"x";
	ret[0] = ret[1] = -1000;
	kt_atom(&a[0], SYSLET_SYNC, SYS_write, &ret[0], &a[1], &wfd, &wbuf,
		&one, NULL);
	kt_atom(&a[1], SYSLET_SYNC, SYS_getppid, &ret[1], NULL, NULL, NULL,
		NULL, NULL);
	e = K_EXEC(&a[0]);
	if (e != (long)&a[1] || ret[0] != 1 || ret[1] != getppid()) {
		kt_note("async_exec %ld (want the second atom %p), write %ld, getppid %ld",
			e, (void *)&a[1], ret[0], ret[1]);
		return KT_FAIL;
	}
	r = kt_uring_result(&u);
	if (r != 1 || rbuf != 'x') {
		kt_note("the ring's read: %d", r);
		return KT_FAIL;
	}
	return KT_PASS;
}

/*
 * A blocking atom run in place (SYSLET_SYNC) that the ring's task work
 * wakes: the call restarts, as the syscall exit restarts a call cut
 * short by TIF_NOTIFY_SIGNAL alone, and reads what comes later; it is
 * not -EINTR.  A child completes the ring's read, then fills the pipe
 * the atom reads.
 */
static int t_uring_restart(void)
{
	static struct syslet_uatom a[2];
	static unsigned long rfd, rbufp, one = 1;
	static long ret[2];
	static char rbuf, ubuf;
	struct timespec d = { 0, 300 * 1000 * 1000 };
	struct kt_uring u;
	int pu[2], pa[2], r;
	pid_t child;
	long e;

	if ((r = kt_uring_setup(&u)))
		return r;
	if (pipe(pu) || pipe(pa))
		return KT_FAIL;
	child = fork();
	if (child == 0) {
		nanosleep(&d, NULL);
		if (write(pu[1], "u", 1) != 1)
			_exit(1);
		nanosleep(&d, NULL);
		_exit(write(pa[1], "a", 1) != 1);
	}
	if (child < 0 || kt_register(4, -1) ||
	    kt_uring_read(&u, pu[0], &ubuf) != 1)
		return KT_FAIL;
	rfd = pa[0];
	rbufp = (unsigned long)&rbuf;
	ret[0] = ret[1] = -1000;
	kt_atom(&a[0], SYSLET_SYNC, SYS_read, &ret[0], &a[1], &rfd, &rbufp,
		&one, NULL);
	kt_atom(&a[1], SYSLET_SYNC, SYS_getppid, &ret[1], NULL, NULL, NULL,
		NULL, NULL);
	e = K_EXEC(&a[0]);
	waitpid(child, NULL, 0);
	if (e != (long)&a[1] || ret[0] != 1 || rbuf != 'a' ||
	    ret[1] != getppid()) {
		kt_note("async_exec %ld (want the second atom %p), read %ld (want 1), getppid %ld",
			e, (void *)&a[1], ret[0], ret[1]);
		return KT_FAIL;
	}
	r = kt_uring_result(&u);
	if (r != 1 || ubuf != 'u') {
		kt_note("the ring's read: %d", r);
		return KT_FAIL;
	}
	return KT_PASS;
}

/*
 * A ring made with IORING_SETUP_SINGLE_ISSUER takes submissions from the
 * task that made it alone (else EEXIST): the program's, whatever its
 * syslets do.  A chain with a blocking atom (handed off or run in
 * place) must leave the program able to use its ring.
 */
static int t_uring_single_issuer(void)
{
	static struct syslet_uatom a;
	static long ret;
	struct kt_uring u;
	char buf = 0;
	int p[2], r, i;
	long e;

	if ((r = kt_uring_setup_flags(&u, IORING_SETUP_SINGLE_ISSUER)))
		return r == KT_FAIL && u.fd == -EINVAL ?
		       kt_skip("no IORING_SETUP_SINGLE_ISSUER") : r;
	if (pipe(p) || kt_register(4, -1))
		return KT_FAIL;
	for (i = 0; i < 2; i++) {
		static struct kt_ts ts = { 0, 20 * 1000 * 1000 };
		static unsigned long clk = CLOCK_MONOTONIC, flags = 0, tsp,
				     rem;

		tsp = (unsigned long)&ts;
		kt_atom(&a, 0, KT_SLEEP, &ret, NULL, &clk, &flags, &tsp, &rem);
		e = K_EXEC(&a);
		if (e == 0 && kt_pop() != &a)
			return KT_FAIL;
		kt_note("chain %d: %s", i, e == 0 ? "handed off" : "in place");
	}
	r = kt_uring_read(&u, p[0], &buf);
	if (r != 1) {
		kt_note("the program's submission: io_uring_enter %d (want 1)",
			r);
		return KT_FAIL;
	}
	if (write(p[1], "s", 1) != 1)
		return KT_FAIL;
	e = kt_sys(SYS_io_uring_enter, u.fd, 0, 1, IORING_ENTER_GETEVENTS);
	r = kt_uring_result(&u);
	if (e < 0 || r != 1 || buf != 's') {
		kt_note("waiting for the read: %ld, result %d", e, r);
		return KT_FAIL;
	}
	return KT_PASS;
}

static const struct kt_case kt_cases[] = {
	{ "ioperm() before the pool is made survives hand-offs", t_ioperm_before, 0 },
	{ "ioperm() after the pool is made survives hand-offs", t_ioperm_after, 0 },
	{ "iopl(3) after the pool is made survives hand-offs", t_iopl_after, 0 },
	{ "ioperm and iopl atoms are EPERM and give no port access", t_ioperm_atom, 0 },
	{ "PR_MCE_KILL set after the pool is made survives hand-offs", t_mce_kill, 0 },
	{ "io_uring task work does not end an in-place chain", t_uring_chain, 0 },
	{ "io_uring task work restarts a blocking atom, not EINTR", t_uring_restart, 0 },
	{ "a SINGLE_ISSUER io_uring stays the program's across chains", t_uring_single_issuer, 0 },
};

int main(void)
{
	return kt_main(kt_cases, sizeof(kt_cases) / sizeof(kt_cases[0]));
}
