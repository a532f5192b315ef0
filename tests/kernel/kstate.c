/* kstate.c: guest tests of per-thread state across hand-offs and between atoms: I/O port permissions, prctl settings, io_uring rings and their task work. */
#include "kt.h"
#include <setjmp.h>
#include <sys/mman.h>

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

static const struct kt_case kt_cases[] = {
	{ "ioperm() before the pool is made survives hand-offs", t_ioperm_before, 0 },
	{ "ioperm() after the pool is made survives hand-offs", t_ioperm_after, 0 },
	{ "iopl(3) after the pool is made survives hand-offs", t_iopl_after, 0 },
	{ "ioperm and iopl atoms are EPERM and give no port access", t_ioperm_atom, 0 },
};

int main(void)
{
	return kt_main(kt_cases, sizeof(kt_cases) / sizeof(kt_cases[0]));
}
