/* ksafe.c: in the guest, a hand-off never changes who the task is, atoms pass the syscall-entry checks, job control, signals, per-task state and the TID survive. */
#include "kt.h"
#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <pthread.h>
#include <linux/seccomp.h>

#ifdef __x86_64__
#define KT_SETRESUID	SYS_setresuid
#define KT_GETEUID	SYS_geteuid
#else
/* i386's setresuid and geteuid are the 16-bit-id originals. */
#define KT_SETRESUID	SYS_setresuid32
#define KT_GETEUID	SYS_geteuid32
#endif

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#define PR_SYS_DISPATCH_ON		1
#endif

static long kt_ret;
static struct syslet_uatom kt_a[4];

/* ---- 1. a hand-off never changes who the task is ------------------- */

/*
 * Each of these changes the head's identity after the pool exists, then
 * runs an async atom and looks at who the program is afterwards.  Two
 * async atoms make the pool: the thread that registered keeps its TID
 * for the context after the first hand-off, out of the pool, and the
 * second leaves the pool thread that ran it parked.
 */
static int kt_pool_ready(void)
{
	if (kt_register(8, -1UL)) {
		kt_note("async_register failed");
		return -1;
	}
	if (kt_async_getpid() || kt_async_getpid()) {
		kt_note("the first async atoms did not go async and complete");
		return -1;
	}
	return 0;
}

/* Run one async atom and wait for it; note whether it went async. */
static int kt_async_atom(long nr, unsigned long *a0)
{
	long r;

	kt_atom(&kt_a[0], SYSLET_ASYNC, nr, &kt_ret, NULL, a0, NULL, NULL,
		NULL);
	kt_ret = -12345;
	r = K_EXEC(&kt_a[0]);
	if (r == 0) {
		if (kt_pop() != &kt_a[0])
			return -1;
		kt_note("went async, atom returned %ld", kt_ret);
	} else if (r == (long)&kt_a[0]) {
		kt_note("ran in place, atom returned %ld", kt_ret);
	} else {
		kt_note("async_exec returned %ld", r);
		return -1;
	}
	return 0;
}

static struct sock_filter kt_deny_getppid[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static int kt_install_filter(void)
{
	struct sock_fprog prog = {
		.len = sizeof(kt_deny_getppid) / sizeof(kt_deny_getppid[0]),
		.filter = kt_deny_getppid,
	};

	/* No TSYNC: the filter is this thread's alone. */
	return kt_sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, (long)&prog,
		      0);
}

static int kt_case_seccomp(void)
{
	long r, mode;

	if (kt_pool_ready())
		return KT_FAIL;
	r = kt_install_filter();
	KT_CHECK(r == 0, "seccomp(SET_MODE_FILTER) is %ld (CONFIG_SECCOMP_FILTER?)", r);
	kt_atom(&kt_a[0], SYSLET_ASYNC, SYS_getppid, &kt_ret, NULL, NULL,
		NULL, NULL, NULL);
	kt_ret = -12345;
	r = K_EXEC(&kt_a[0]);
	if (r == 0)
		kt_pop();
	mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	KT_CHECK(mode == 2, "seccomp mode after async_exec is %ld", mode);
	KT_CHECK(kt_sys(SYS_getppid, 0, 0, 0, 0) == -EACCES,
		 "the filter no longer applies to the program");
	KT_CHECK(r == -EPERM && kt_ret == -12345,
		 "async_exec %ld, atom %ld: a filtered task runs no atom", r,
		 kt_ret);
	return KT_PASS;
}

static int kt_case_setresuid(void)
{
	long r, euid;

	if (kt_pool_ready())
		return KT_FAIL;
	r = kt_sys(KT_SETRESUID, 1000, 1000, 1000, 0);
	KT_CHECK(r == 0, "setresuid(1000, 1000, 1000) is %ld", r);
	if (kt_async_atom(KT_GETEUID, NULL))
		return KT_FAIL;
	euid = kt_sys(KT_GETEUID, 0, 0, 0, 0);
	KT_CHECK(euid == 1000 && kt_ret == 1000,
		 "euid after the hand-off %ld, in the atom %ld", euid, kt_ret);
	return KT_PASS;
}

static int kt_case_nnp(void)
{
	long nnp;

	if (kt_pool_ready())
		return KT_FAIL;
	KT_CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0, "PR_SET_NO_NEW_PRIVS");
	if (kt_async_atom(SYS_getpid, NULL))
		return KT_FAIL;
	nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	KT_CHECK(nnp == 1, "no_new_privs after the hand-off is %ld", nnp);
	return KT_PASS;
}

static int kt_case_chroot(void)
{
	if (kt_pool_ready())
		return KT_FAIL;
	mkdir("/tmp/kt-jail", 0755);
	KT_CHECK(access("/tests/list", F_OK) == 0, "no /tests/list outside");
	KT_CHECK(kt_sys(SYS_unshare, 0x00000200 /* CLONE_FS */, 0, 0, 0) == 0,
		 "unshare(CLONE_FS)");
	KT_CHECK(chroot("/tmp/kt-jail") == 0 && chdir("/") == 0, "chroot");
	KT_CHECK(access("/tests/list", F_OK) < 0, "chroot had no effect");
	if (kt_async_atom(SYS_getpid, NULL))
		return KT_FAIL;
	KT_CHECK(access("/tests/list", F_OK) < 0,
		 "after the hand-off the program sees / outside the chroot");
	return KT_PASS;
}

/*
 * Per-thread state of the program that x86 and the block layer keep in
 * the task: PR_SET_TSC (TIF_NOTSC: RDTSC faults) and the I/O priority
 * (ioprio_set(IOPRIO_WHO_PROCESS, 0), an admin's ionice -p TID).  A pool
 * thread made before has the old ones, and a hand-off to it gave the
 * program back a working RDTSC, or its old I/O class, as 0020 found for
 * the nice value.
 */
static int kt_case_tsc(void)
{
	long r;
	int mode = -1;

	if (kt_pool_ready())
		return KT_FAIL;
	r = prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
	if (r)
		return kt_skip("PR_SET_TSC is not supported here");
	/* From here on, nothing that reads the TSC (no vDSO clock). */
	if (kt_async_atom(SYS_getpid, NULL))
		return KT_FAIL;
	r = prctl(PR_GET_TSC, (unsigned long)&mode, 0, 0, 0);
	KT_CHECK(r == 0 && mode == PR_TSC_SIGSEGV,
		 "after the hand-off PR_GET_TSC is %d (set to PR_TSC_SIGSEGV, %d)",
		 mode, PR_TSC_SIGSEGV);
	return KT_PASS;
}

#define KT_IOPRIO_WHO_PROCESS	1
#define KT_IOPRIO_CLASS_IDLE	3
#define KT_IOPRIO_CLASS(v)	((v) >> 13)

static int kt_case_ioprio(void)
{
	long r;

	if (kt_pool_ready())
		return KT_FAIL;
	r = kt_sys(SYS_ioprio_set, KT_IOPRIO_WHO_PROCESS, 0,
		   KT_IOPRIO_CLASS_IDLE << 13, 0);
	if (r)
		return kt_skip("ioprio_set(IOPRIO_CLASS_IDLE) failed (CONFIG_BLOCK?)");
	if (kt_async_atom(SYS_getpid, NULL))
		return KT_FAIL;
	r = kt_sys(SYS_ioprio_get, KT_IOPRIO_WHO_PROCESS, 0, 0, 0);
	KT_CHECK(r >= 0 && KT_IOPRIO_CLASS(r) == KT_IOPRIO_CLASS_IDLE,
		 "after the hand-off the I/O priority is %#lx (class %ld), "
		 "set to the idle class", r, r >= 0 ? KT_IOPRIO_CLASS(r) : -1);
	return KT_PASS;
}

/* ---- 2. atoms and the syscall entry -------------------------------- */

/*
 * A child traced with PTRACE_SYSCALL runs a chain of three getppid
 * atoms: async_exec must refuse it (the tracer would see none of them),
 * and the tracer must still be there afterwards.
 */
static long kt_tracer_pid(void)
{
	char buf[4096], *p;
	int fd = open("/proc/self/status", O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "TracerPid:");
	return p ? strtol(p + 10, NULL, 10) : -1;
}

static int kt_traced_child(void)
{
	long r, rets[3] = { -12345, -12345, -12345 };
	int i;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		return 10;
	raise(SIGSTOP);
	if (kt_register(8, -1UL))
		return 11;
	for (i = 0; i < 3; i++)
		kt_atom(&kt_a[i], i == 1 ? SYSLET_ASYNC : 0, SYS_getppid,
			&rets[i], i < 2 ? &kt_a[i + 1] : NULL, NULL, NULL,
			NULL, NULL);
	r = K_EXEC(&kt_a[0]);
	if (r == 0)
		kt_pop();
	if (r != -EPERM)
		return 12;
	for (i = 0; i < 3; i++)
		if (rets[i] != -12345)
			return 13;
	return kt_tracer_pid() > 0 ? 0 : 14;
}

static int kt_case_ptrace_syscall(void)
{
	int status, stops = 0;
	pid_t pid = fork();

	if (pid == 0)
		_exit(kt_traced_child());
	KT_CHECK(pid > 0, "fork");
	while (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) {
		stops++;
		ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
	}
	KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		 "traced child: status %#x (12: async_exec not EPERM, 13: an atom ran, 14: tracer lost)",
		 status);
	kt_note("%d stops", stops);
	return KT_PASS;
}

/*
 * A chain that went async waits in a worker for a pipe; meanwhile the
 * program makes itself less (a seccomp filter without TSYNC, as a
 * program that believes itself single-threaded installs it; or
 * setresuid() by raw call, which changes the calling thread alone) and
 * then lets the chain go on.  The worker reads the next atom from the
 * program's memory: it must not run it as the program was before,
 * unfiltered or as root, but complete it with -EPERM, as after a TSYNC
 * filter.  Otherwise a chain that loops is an unfiltered, privileged
 * executor of whatever calls the program's memory names from then on.
 */
static int kt_midchain(int (*change)(void), long nr, long *ret)
{
	static char buf[1];
	static unsigned long fd0, bufp, one = 1;
	static long rret;
	struct syslet_uatom *done;
	int p[2];
	long r;

	KT_CHECK(pipe(p) == 0, "pipe");
	if (kt_register(8, -1UL))
		return KT_FAIL;
	fd0 = p[0];
	bufp = (unsigned long)buf;
	kt_atom(&kt_a[0], 0, SYS_read, &rret, &kt_a[1], &fd0, &bufp, &one,
		NULL);
	kt_atom(&kt_a[1], 0, nr, ret, NULL, NULL, NULL, NULL, NULL);
	rret = *ret = -12345;
	r = K_EXEC(&kt_a[0]);
	KT_CHECK(r == 0, "the read did not go async (%ld)", r);
	if (change())
		return KT_FAIL;
	KT_CHECK(write(p[1], "x", 1) == 1, "write");
	done = kt_pop();
	kt_note("read %ld, then the atom gave %ld", rret, *ret);
	KT_CHECK(done == &kt_a[1] && rret == 1, "the chain did not complete");
	return KT_PASS;
}

static int kt_change_filter(void)
{
	long r = kt_install_filter();

	KT_CHECK(r == 0, "seccomp(SET_MODE_FILTER) is %ld", r);
	KT_CHECK(kt_sys(SYS_getppid, 0, 0, 0, 0) == -EACCES,
		 "the filter does not apply to the program");
	return 0;
}

static int kt_case_filter_midchain(void)
{
	static long ret;

	if (kt_midchain(kt_change_filter, SYS_getppid, &ret))
		return KT_FAIL;
	KT_CHECK(ret == -EPERM,
		 "the worker ran getppid (%ld) after the program's filter "
		 "refuses it", ret);
	return KT_PASS;
}

static int kt_change_uid(void)
{
	long r = kt_sys(KT_SETRESUID, 1000, 1000, 1000, 0);

	KT_CHECK(r == 0, "setresuid(1000, 1000, 1000) is %ld", r);
	return 0;
}

static int kt_case_uid_midchain(void)
{
	static long ret;

	if (kt_midchain(kt_change_uid, KT_GETEUID, &ret))
		return KT_FAIL;
	KT_CHECK(ret == -EPERM,
		 "the worker ran geteuid as %ld after the program became 1000",
		 ret);
	return KT_PASS;
}

static int kt_case_seccomp_refused(void)
{
	long r;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	r = kt_install_filter();
	KT_CHECK(r == 0, "seccomp(SET_MODE_FILTER) is %ld", r);
	kt_atom(&kt_a[0], 0, SYS_getppid, &kt_ret, NULL, NULL, NULL, NULL,
		NULL);
	kt_ret = -12345;
	r = K_EXEC(&kt_a[0]);
	KT_CHECK(r == -EPERM && kt_ret == -12345,
		 "async_exec %ld, atom %ld", r, kt_ret);
	return KT_PASS;
}

static int kt_case_sud(void)
{
	static volatile char sel;	/* SYSCALL_DISPATCH_FILTER_ALLOW */
	long r;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	r = prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0,
		  &sel);
	if (r)
		return kt_skip("no syscall user dispatch");
	kt_atom(&kt_a[0], 0, SYS_getppid, &kt_ret, NULL, NULL, NULL, NULL,
		NULL);
	kt_ret = -12345;
	r = K_EXEC(&kt_a[0]);
	KT_CHECK(r == -EPERM && kt_ret == -12345, "async_exec %ld, atom %ld",
		 r, kt_ret);
	return KT_PASS;
}

/* ---- 7. the deny list ---------------------------------------------- */

#define KT_D(n) { SYS_##n, #n }
static const struct { long nr; const char *name; } kt_denied[] = {
	KT_D(fork), KT_D(vfork), KT_D(clone), KT_D(clone3), KT_D(execve),
	KT_D(execveat), KT_D(exit), KT_D(exit_group), KT_D(rt_sigreturn),
	KT_D(setuid), KT_D(setgid), KT_D(setreuid), KT_D(setregid),
	KT_D(setresuid), KT_D(setresgid), KT_D(setfsuid), KT_D(setfsgid),
	KT_D(setgroups), KT_D(capset), KT_D(seccomp),
	KT_D(landlock_restrict_self), KT_D(unshare), KT_D(setns),
	KT_D(set_tid_address), KT_D(set_robust_list), KT_D(rseq),
	KT_D(sigaltstack), KT_D(arch_prctl), KT_D(set_thread_area),
	KT_D(ioperm), KT_D(iopl),
#ifndef __x86_64__
	KT_D(sigreturn), KT_D(vm86), KT_D(vm86old),
	KT_D(setuid32), KT_D(setgid32), KT_D(setreuid32), KT_D(setregid32),
	KT_D(setresuid32), KT_D(setresgid32), KT_D(setfsuid32),
	KT_D(setfsgid32), KT_D(setgroups32),
#endif
};

static int kt_case_denied(void)
{
	unsigned long zero = 0;
	unsigned int i, bad = 0;
	long r;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	for (i = 0; i < sizeof(kt_denied) / sizeof(kt_denied[0]); i++) {
		kt_atom(&kt_a[0], 0, kt_denied[i].nr, &kt_ret, NULL, &zero,
			&zero, &zero, &zero);
		kt_ret = -12345;
		r = K_EXEC(&kt_a[0]);
		if (r != (long)&kt_a[0] || kt_ret != -EPERM) {
			kt_note("%s (%ld): async_exec %ld, atom %ld, not -EPERM",
				kt_denied[i].name, kt_denied[i].nr, r, kt_ret);
			bad++;
		}
	}
	/* Denied by its argument: prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT). */
	{
		static unsigned long op = PR_SET_SECCOMP, mode = 1;

		kt_atom(&kt_a[0], 0, SYS_prctl, &kt_ret, NULL, &op, &mode,
			&zero, &zero);
		kt_ret = -12345;
		r = K_EXEC(&kt_a[0]);
		if (r != (long)&kt_a[0] || kt_ret != -EPERM) {
			kt_note("prctl(PR_SET_SECCOMP): async_exec %ld, atom %ld",
				r, kt_ret);
			bad++;
		}
	}
	KT_CHECK(!bad, "%u of %u calls ran", bad, i + 1);
	return KT_PASS;
}

/* ---- 3. the completion backlog is bounded --------------------------- */

static int kt_case_backlog(void)
{
	static struct syslet_uatom a[64], junk;
	static long rets[64];
	unsigned int n, accepted = 0, inplace = 0, got = 0, i;
	long r = 0;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	for (i = 0; i < 8; i++)
		kt_ring[i] = &junk;
	for (n = 0; n < 64; n++) {
		kt_atom(&a[n], SYSLET_ASYNC, SYS_getpid, &rets[n], NULL, NULL,
			NULL, NULL, NULL);
		r = K_EXEC(&a[n]);
		if (r == (long)&a[n]) {
			inplace++;	/* no thread was parked: no completion */
			continue;
		}
		if (r != 0)
			break;
		accepted++;
	}
	kt_note("%u chains accepted with the ring full (%u ran in place), then %ld",
		accepted, inplace, r);
	KT_CHECK(r == -EAGAIN && accepted >= 8 && accepted <= 16,
		 "the backlog is not bounded by twice the ring");
	/* Now empty the ring: every accepted chain completes, in order. */
	for (i = 0; i < 8; i++)
		kt_ring[i] = NULL;
	for (i = 0; i < accepted; i++) {
		struct syslet_uatom *c = kt_pop();

		if (c >= a && c < a + 64 && c->flags == SYSLET_ASYNC)
			got++;
	}
	KT_CHECK(got == accepted, "%u of %u completions arrived", got, accepted);
	return KT_PASS;
}

/* ---- 5. signals across the hand-off -------------------------------- */

static volatile sig_atomic_t kt_sig_seen;

static void kt_on_signal(int sig)
{
	kt_sig_seen = sig;
}

/* Wait up to 1 s for the handler of @sig. */
static int kt_sig_wait(int sig)
{
	struct timespec d = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 100 && kt_sig_seen != sig; i++)
		nanosleep(&d, NULL);
	return kt_sig_seen == sig;
}

/*
 * i386's old sigprocmask() has one word of the mask: its SIG_SETMASK sets
 * signals 1..32 and leaves the real-time ones above as they are
 * (compat_sig_setmask() under a 64-bit kernel).  A worker's atom acts on
 * its chain's copy of the program's mask (0021, 0037): the chain
 * "sigprocmask(SIG_SETMASK, {SIGUSR2}); rt_sigprocmask(SIG_BLOCK, NULL,
 * &out)" must read back the same mask in the caller and in a worker,
 * signal 40, which the program blocks, included.
 */
static int kt_case_old_setmask(void)
{
#ifdef __x86_64__
	return kt_skip("the x86_64 ABI has no old sigprocmask");
#else
	static unsigned long how_set = SIG_SETMASK, how_block = SIG_BLOCK;
	static unsigned long zero, low, lowp, outp, size = 8;
	static unsigned long out[2];
	static long r0, r1;
	sigset_t s;
	long r;
	int pass, bad = 0;

	if (kt_pool_ready())
		return KT_FAIL;
	sigemptyset(&s);
	sigaddset(&s, 40);
	sigprocmask(SIG_BLOCK, &s, NULL);
	low = 1UL << (SIGUSR2 - 1);
	lowp = (unsigned long)&low;
	outp = (unsigned long)out;
	for (pass = 0; pass < 2; pass++) {
		out[0] = out[1] = 0;
		r0 = r1 = -12345;
		kt_atom(&kt_a[0], pass ? SYSLET_ASYNC : 0, SYS_sigprocmask,
			&r0, &kt_a[1], &how_set, &lowp, &zero, NULL);
		kt_atom(&kt_a[1], 0, SYS_rt_sigprocmask, &r1, NULL,
			&how_block, &zero, &outp, &size);
		r = K_EXEC(&kt_a[0]);
		if (pass) {
			KT_CHECK(r == 0, "the chain did not go async (%ld)", r);
			KT_CHECK(kt_pop() == &kt_a[1], "no completion");
		} else {
			KT_CHECK(r == (long)&kt_a[1], "in place: async_exec %ld", r);
		}
		KT_CHECK(r0 == 0 && r1 == 0, "results %ld %ld", r0, r1);
		kt_note("%s: the mask read back is %#lx %#lx",
			pass ? "in a worker" : "in the caller", out[0], out[1]);
		if (!(out[1] & (1UL << (40 - 33))) || out[0] != low)
			bad++;
	}
	KT_CHECK(!bad, "the old SIG_SETMASK of the low word also unblocked signal 40 or set another low one");
	return KT_PASS;
#endif
}

/* ppoll(NULL, 0, 100 ms, @mask): blocks, so the context is handed off. */
static long kt_ppoll_chain(uint64_t *mask)
{
	static struct kt_ts ts = { 0, 100 * 1000 * 1000 };
	static unsigned long zero, tsp, maskp, size = 8;
	long r;

	tsp = (unsigned long)&ts;
	maskp = (unsigned long)mask;
	kt_atom(&kt_a[0], 0, KT_PPOLL, &kt_ret, NULL, &zero, &zero, &tsp,
		&maskp);
	kt_a[0].arg_ptr[4] = &size;
	kt_ret = -12345;
	r = K_EXEC(&kt_a[0]);
	if (r == 0 && kt_pop() != &kt_a[0])
		return -1;
	return r;
}

static int kt_case_ppoll_mask(void)
{
	static uint64_t none;
	sigset_t set, cur;
	long r;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (kt_register(8, -1UL))
		return KT_FAIL;
	r = kt_ppoll_chain(&none);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	kt_note("async_exec %ld, ppoll %ld", r, kt_ret);
	KT_CHECK(r == 0, "ppoll did not go async");
	KT_CHECK(sigismember(&cur, SIGUSR1),
		 "ppoll's temporary mask became the program's: SIGUSR1 unblocked");
	return KT_PASS;
}

static int kt_case_leader_signal(void)
{
	static uint64_t none;
	struct sigaction sa = { .sa_handler = kt_on_signal };
	long r;

	sigaction(SIGUSR2, &sa, NULL);
	if (kt_register(8, -1UL))
		return KT_FAIL;
	r = kt_ppoll_chain(&none);
	KT_CHECK(r == 0, "ppoll did not go async (%ld)", r);
	/* The leader now sleeps in the pool; the program runs elsewhere. */
	kill(getpid(), SIGUSR2);
	KT_CHECK(kt_sig_wait(SIGUSR2),
		 "a process-directed SIGUSR2 was not handled within 1 s");
	return KT_PASS;
}

/*
 * A worker's ppoll() (or pselect, epoll_pwait, sigsuspend) installs the
 * mask of its arguments for the time of the call.  With a signal
 * pending that the program blocks and that mask lets in, the call
 * returns a restart code at once; the worker settles, which puts its
 * all-blocked mask back (the signal stays pending: no thread takes it),
 * and restarts the call, which lets the signal in again: without a
 * sleep, a reschedule or an end, at full CPU in the kernel, until
 * SIGKILL.  On a kernel without preemption that CPU is lost for good.
 * A worker's temporary mask must block what the worker blocks: ppoll
 * then sleeps its 1 s and times out (0), as with nothing pending.
 */
static int kt_case_worker_tempmask(void)
{
	static struct kt_ts nap = { 0, 100 * 1000 * 1000 }, wait = { 1, 0 };
	static uint64_t none;
	static unsigned long clk = CLOCK_MONOTONIC, zero, napp, waitp, maskp,
			     size = 8;
	static long sret, pret;
	struct timespec c0, c1;
	struct syslet_uatom *done;
	sigset_t usr1, pend;
	double cpu;
	long r;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	/* Pending for the process; every thread of the program blocks it. */
	KT_CHECK(kill(getpid(), SIGUSR1) == 0, "kill");
	if (kt_register(8, -1UL))
		return KT_FAIL;
	napp = (unsigned long)&nap;
	waitp = (unsigned long)&wait;
	maskp = (unsigned long)&none;
	/* The sleep hands the context off; the worker runs the ppoll. */
	kt_atom(&kt_a[0], 0, KT_SLEEP, &sret, &kt_a[1], &clk, &zero, &napp,
		NULL);
	kt_atom(&kt_a[1], 0, KT_PPOLL, &pret, NULL, &zero, &zero, &waitp,
		&maskp);
	kt_a[1].arg_ptr[4] = &size;
	sret = pret = -12345;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	r = K_EXEC(&kt_a[0]);
	KT_CHECK(r == 0, "the sleep did not go async (%ld)", r);
	done = kt_pop_ms(5000);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	cpu = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9;
	kt_note("sleep %ld, ppoll %ld, completion %p, %.2f s of CPU", sret,
		pret, (void *)done, cpu);
	KT_CHECK(done == &kt_a[1] && sret == 0 && pret == 0,
		 "the worker's ppoll did not time out within 5 s (a restart loop?)");
	KT_CHECK(cpu < 1.0, "the chain used %.2f s of CPU for a 1 s ppoll", cpu);
	sigpending(&pend);
	KT_CHECK(sigismember(&pend, SIGUSR1),
		 "the program's blocked SIGUSR1 is no longer pending");
	return KT_PASS;
}

/* ---- 6. per-task state that moves with the context ----------------- */

static int kt_case_sigaltstack(void)
{
	static char stk[64 * 1024];
	stack_t ss = { .ss_sp = stk, .ss_size = sizeof(stk) }, o;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	KT_CHECK(sigaltstack(&ss, NULL) == 0, "sigaltstack");
	if (kt_async_getpid())
		return KT_FAIL;
	KT_CHECK(sigaltstack(NULL, &o) == 0 && o.ss_sp == stk &&
		 o.ss_size == sizeof(stk) && !(o.ss_flags & SS_DISABLE),
		 "the alternate signal stack was lost (sp %p flags %d)",
		 o.ss_sp, o.ss_flags);
	return KT_PASS;
}

#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define KT_HAVE_RSEQ 1
#endif

static int kt_case_rseq(void)
{
#ifdef KT_HAVE_RSEQ
	struct sigaction sa = { .sa_handler = kt_on_signal };
	volatile struct rseq *rs;
	char *tp;
	int cpu;

	if (!__rseq_size)
		return kt_skip("glibc registered no rseq area");
#ifdef __x86_64__
	__asm__ volatile("mov %%fs:0, %0" : "=r"(tp));
#else
	__asm__ volatile("mov %%gs:0, %0" : "=r"(tp));
#endif
	rs = (volatile struct rseq *)(tp + __rseq_offset);
	sigaction(SIGUSR1, &sa, NULL);
	if (kt_register(8, -1UL))
		return KT_FAIL;
	if (kt_async_getpid())
		return KT_FAIL;
	/* The kernel rewrites cpu_id on the way back from a signal. */
	rs->cpu_id = (uint32_t)-7;
	kt_sys(SYS_tgkill, getpid(), kt_sys(SYS_gettid, 0, 0, 0, 0), SIGUSR1,
	       0);
	cpu = (int)rs->cpu_id;
	KT_CHECK(kt_sig_seen == SIGUSR1, "no signal");
	KT_CHECK(cpu >= 0 && cpu < 64,
		 "rseq cpu_id is %d after a signal: the registration stayed behind",
		 cpu);
	return KT_PASS;
#else
	return kt_skip("no <sys/rseq.h>");
#endif
}

static int kt_case_task_work(void)
{
	static unsigned long nul, wfd;
	struct pollfd pfd;
	int p[2], n;
	char c;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	KT_CHECK(pipe(p) == 0, "pipe");
	nul = open("/dev/null", O_WRONLY);
	wfd = p[1];
	/* dup2 over the pipe's last writer, on a pool thread. */
	kt_atom(&kt_a[0], SYSLET_ASYNC, SYS_dup2, &kt_ret, NULL, &nul, &wfd,
		NULL, NULL);
	KT_CHECK(K_EXEC(&kt_a[0]) == 0 && kt_pop() == &kt_a[0], "went async");
	KT_CHECK(kt_ret == p[1], "dup2 returned %ld", kt_ret);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	n = poll(&pfd, 1, 3000);
	KT_CHECK(n == 1 && read(p[0], &c, 1) == 0,
		 "no EOF within 3 s: the file's last reference was not dropped");
	return KT_PASS;
}

/* ---- 4. job control, ptrace and the freezer ------------------------ */

/*
 * A process with a parked pool (@chain 0), or running a chain of 50
 * async 20 ms sleeps (@chain 1), which must run to its end whatever
 * stops or freezes it meanwhile: exit status 0 if it did; or running
 * an endless async chain of atoms that make no call, their number past
 * the table (@chain 2), whose worker must stop and freeze all the same.
 */
static int kt_pool_process(int chain, int ready)
{
	static struct kt_ts ts = { 0, 20 * 1000 * 1000 };
	static unsigned long clk = CLOCK_MONOTONIC, zero, tsp, cntp, dec = -1UL;
	static unsigned long cnt = 50;
	static long sret = -12345, cret;
	struct syslet_uatom *c;

	/* Twice: a pool thread parks (see kt_pool_ready()). */
	if (kt_register(8, -1UL) || kt_async_getpid() || kt_async_getpid())
		return 10;
	if (chain == 2) {
		kt_atom(&kt_a[0], SYSLET_ASYNC, 99999, &cret, &kt_a[0], NULL,
			NULL, NULL, NULL);
		if (K_EXEC(&kt_a[0]) != 0)
			return 11;
	} else if (chain) {
		tsp = (unsigned long)&ts;
		cntp = (unsigned long)&cnt;
		kt_atom(&kt_a[0], SYSLET_ASYNC, KT_SLEEP, &sret, &kt_a[1], &clk,
			&zero, &tsp, &zero);
		kt_atom(&kt_a[1], SYSLET_STOP_ON_ZERO, K_UMEM, &cret, &kt_a[0],
			&cntp, &dec, NULL, NULL);
		if (K_EXEC(&kt_a[0]) != 0)
			return 11;
	}
	if (write(ready, "r", 1) != 1)
		return 12;
	if (chain != 1)
		for (;;)
			pause();
	c = kt_pop_ms(20000);
	if (c != &kt_a[1])
		return 13;
	if (cnt != 0 || sret != 0)
		return 14;
	return 0;
}

static pid_t kt_start_pool_process(int chain)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		_exit(kt_pool_process(chain, p[1]));
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

/* waitpid with a deadline: the pid, 0 on timeout. */
static pid_t kt_waitpid_ms(pid_t pid, int *status, int options, int ms)
{
	struct timespec d = { 0, 10 * 1000 * 1000 };
	pid_t r;
	int i;

	for (i = 0; i < ms / 10; i++) {
		r = waitpid(pid, status, options | WNOHANG);
		if (r != 0)
			return r;
		nanosleep(&d, NULL);
	}
	return 0;
}

static int kt_kill_reap(pid_t pid, int ok)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return ok ? KT_PASS : KT_FAIL;
}

static int kt_stop_cont(int chain)
{
	struct timespec d = { 0, 200 * 1000 * 1000 };
	pid_t pid = kt_start_pool_process(chain);
	int st = 0;

	KT_CHECK(pid > 0, "the pool process did not start");
	nanosleep(&d, NULL);
	kill(pid, SIGSTOP);
	if (kt_waitpid_ms(pid, &st, WUNTRACED, 10000) != pid || !WIFSTOPPED(st)) {
		kt_note("SIGSTOP: waitpid(WUNTRACED) did not report a stop in 10 s");
		return kt_kill_reap(pid, 0);
	}
	nanosleep(&d, NULL);
	kill(pid, SIGCONT);
	if (kt_waitpid_ms(pid, &st, WCONTINUED, 10000) != pid ||
	    !WIFCONTINUED(st)) {
		kt_note("SIGCONT: waitpid(WCONTINUED) reported nothing");
		return kt_kill_reap(pid, 0);
	}
	if (chain != 1)
		return kt_kill_reap(pid, 1);
	if (kt_waitpid_ms(pid, &st, 0, 25000) != pid) {
		kt_note("the chain did not end");
		return kt_kill_reap(pid, 0);
	}
	KT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "the chain was cut short (status %#x: 13 no completion, 14 not all atoms or -EINTR)",
		 st);
	return KT_PASS;
}

static int kt_case_stop_parked(void)
{
	return kt_stop_cont(0);
}

static int kt_case_stop_chain(void)
{
	return kt_stop_cont(1);
}

static int kt_case_stop_endless(void)
{
	return kt_stop_cont(2);
}

/* Attach to every thread, as a debugger does, and detach. */
static int kt_case_ptrace_attach(void)
{
	pid_t pid = kt_start_pool_process(0), tids[64];
	int n = 0, i, st, ok = 1;
	char path[64];
	struct dirent *e;
	DIR *d;

	KT_CHECK(pid > 0, "the pool process did not start");
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	while (d && (e = readdir(d)) && n < 64)
		if (e->d_name[0] != '.')
			tids[n++] = atoi(e->d_name);
	if (d)
		closedir(d);
	kt_note("%d threads", n);
	for (i = 0; i < n && ok; i++) {
		if (ptrace(PTRACE_ATTACH, tids[i], NULL, NULL)) {
			kt_note("PTRACE_ATTACH %d: %s", tids[i], strerror(errno));
			ok = 0;
		} else if (kt_waitpid_ms(tids[i], &st, __WALL, 10000) != tids[i]) {
			kt_note("thread %d never stopped for the tracer", tids[i]);
			ok = 0;
		}
	}
	for (i = 0; i < n; i++)
		ptrace(PTRACE_DETACH, tids[i], NULL, NULL);
	return kt_kill_reap(pid, ok && n >= 2);
}

/* cgroup v2's freezer: the pool process's cgroup reports frozen. */
static int kt_freeze(int chain)
{
	char dir[64], pidbuf[16];
	pid_t pid;
	int st = 0, ok;

	mkdir("/sys/fs/cgroup", 0755);
	if (access("/sys/fs/cgroup/cgroup.procs", F_OK) &&
	    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL)) {
		kt_note("cannot mount cgroup2: %s (CONFIG_CGROUPS?)", strerror(errno));
		return KT_FAIL;
	}
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/kt%d", (int)getpid());
	KT_CHECK(mkdir(dir, 0755) == 0, "mkdir %s: %s", dir, strerror(errno));
	pid = kt_start_pool_process(chain);
	KT_CHECK(pid > 0, "the pool process did not start");
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	ok = kt_cg_write(dir, "cgroup.procs", pidbuf) == 0;
	if (!ok)
		kt_note("cannot move %d into %s", pid, dir);
	ok = ok && kt_cg_write(dir, "cgroup.freeze", "1") == 0;
	if (ok && !(ok = kt_cg_frozen(dir, 1, 10000)))
		kt_note("the cgroup did not report frozen within 10 s");
	ok = ok && kt_cg_write(dir, "cgroup.freeze", "0") == 0 &&
	     kt_cg_frozen(dir, 0, 10000);
	if (ok && chain == 1) {
		if (kt_waitpid_ms(pid, &st, 0, 25000) != pid) {
			kt_note("the chain did not end");
			ok = 0;
		} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			kt_note("the chain was cut short (status %#x)", st);
			ok = 0;
		}
		pid = 0;
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	rmdir(dir);
	return ok ? KT_PASS : KT_FAIL;
}

static int kt_case_freeze_parked(void)
{
	return kt_freeze(0);
}

static int kt_case_freeze_chain(void)
{
	return kt_freeze(1);
}

static int kt_case_freeze_endless(void)
{
	return kt_freeze(2);
}

/* ---- 6. the TID moves with the context ----------------------------- */

/*
 * A hand-off moves the user context to a pool thread, and its TID with
 * it: gettid() does not change, and glibc's cached TID (in the thread
 * descriptor, which raise() and pthread_kill() signal and PI and robust
 * mutexes write into the futex word) names the task that runs the
 * program, wherever it runs.  Each case fails on a kernel where the TID
 * stays behind with the parked task.
 */
static long kt_gettid(void)
{
	return kt_sys(SYS_gettid, 0, 0, 0, 0);
}

/* The kernel task that runs the program now (/proc/thread-self). */
static long kt_task_tid(void)
{
	char buf[64], *p;
	ssize_t n = readlink("/proc/thread-self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, '/');
	return p ? atol(p + 1) : -1;
}

/*
 * Hand the context off until a task other than @home, whose TID it
 * had, runs it (a context may come back to the task it started on).
 */
static int kt_away_from(long home)
{
	int i;

	for (i = 0; i < 4 && kt_task_tid() == home; i++)
		if (kt_async_getpid())
			return -1;
	if (kt_task_tid() == home) {
		kt_note("the context is still on task %ld", home);
		return -1;
	}
	return 0;
}

static int kt_case_tid_kept(void)
{
	struct sigaction sa = { .sa_handler = kt_on_signal };
	long before = kt_gettid(), after;
	cpu_set_t cpus;

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	/* The second hand-off is from a pool thread. */
	if (kt_pool_ready() || kt_away_from(before))
		return KT_FAIL;
	after = kt_gettid();
	KT_CHECK(after == before && getpid() == before,
		 "gettid() %ld on task %ld after the hand-offs, %ld before, getpid() %d",
		 after, kt_task_tid(), before, getpid());
	/* glibc signals its cached TID. */
	raise(SIGUSR1);
	KT_CHECK(kt_sig_wait(SIGUSR1), "raise(SIGUSR1) was not handled");
	kt_sys(SYS_tgkill, getpid(), before, SIGUSR2, 0);
	KT_CHECK(kt_sig_wait(SIGUSR2),
		 "tgkill() to the TID was not handled within 1 s");
	KT_CHECK(sched_getaffinity(before, sizeof(cpus), &cpus) == 0,
		 "sched_getaffinity(TID): %s", strerror(errno));
	/* After async_unregister the context keeps its TID all the same. */
	KT_CHECK(K_UNREG(&kt_ahu) == 0, "async_unregister");
	kt_sig_seen = 0;
	kt_sys(SYS_tgkill, getpid(), before, SIGUSR1, 0);
	KT_CHECK(kt_sig_wait(SIGUSR1) && kt_gettid() == before,
		 "after async_unregister: gettid() %ld, the signal %s",
		 kt_gettid(), kt_sig_seen ? "handled" : "lost");
	return KT_PASS;
}

struct kt_waiter {
	pthread_mutex_t	*m;
	int		ret;
};

/* Try to lock @m for one second; unlock it if that worked. */
static void *kt_timedlock(void *arg)
{
	struct kt_waiter *w = arg;
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 1;
	w->ret = pthread_mutex_timedlock(w->m, &t);
	if (w->ret == 0 || w->ret == EOWNERDEAD)
		pthread_mutex_unlock(w->m);
	return NULL;
}

/* A priority-inheritance mutex in @m; non-zero where libc has none. */
static int kt_pi_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t at;

	pthread_mutexattr_init(&at);
	return pthread_mutexattr_setprotocol(&at, PTHREAD_PRIO_INHERIT) ||
	       pthread_mutex_init(m, &at);
}

/* The futex word of a glibc mutex: the owner's TID and two flag bits. */
static unsigned int kt_mutex_word(pthread_mutex_t *m)
{
	return __atomic_load_n((unsigned int *)&m->__data.__lock,
			       __ATOMIC_ACQUIRE);
}

/*
 * A PI mutex held by the program across (@before 1) or only after a
 * hand-off; a second thread blocks on it in FUTEX_LOCK_PI; the unlock
 * must hand it over.
 */
static int kt_tid_pi(int before)
{
	static pthread_mutex_t m;
	struct kt_waiter w = { &m, -1 };
	struct timespec d = { 0, 1000 * 1000 };
	long tid = kt_gettid();
	unsigned int word;
	pthread_t th;
	int i, r;

	if (kt_pi_init(&m))
		return kt_skip("no PI mutexes in this libc");
	if (before)
		KT_CHECK(pthread_mutex_lock(&m) == 0, "pthread_mutex_lock");
	if (kt_pool_ready() || kt_away_from(tid))
		return KT_FAIL;
	if (!before)
		KT_CHECK(pthread_mutex_lock(&m) == 0, "pthread_mutex_lock");
	word = kt_mutex_word(&m);
	kt_note("word %#x, gettid() %ld on task %ld, TID before the hand-off %ld",
		word, kt_gettid(), kt_task_tid(), tid);
	KT_CHECK(pthread_create(&th, NULL, kt_timedlock, &w) == 0,
		 "pthread_create");
	/* Contended: the waiter is in FUTEX_LOCK_PI once it set the bit. */
	for (i = 0; i < 5000 && !(kt_mutex_word(&m) & FUTEX_WAITERS); i++)
		nanosleep(&d, NULL);
	KT_CHECK(kt_mutex_word(&m) & FUTEX_WAITERS, "the waiter never waited");
	r = pthread_mutex_unlock(&m);
	pthread_join(th, NULL);
	KT_CHECK(r == 0 && w.ret == 0,
		 "unlock %d, the waiter got %d: the unlock did not hand the mutex over",
		 r, w.ret);
	return KT_PASS;
}

static int kt_case_tid_pi_after(void)
{
	return kt_tid_pi(0);
}

static int kt_case_tid_pi_before(void)
{
	return kt_tid_pi(1);
}

/*
 * The TID moves under the task's pi_lock, which the futex code holds
 * while it attaches a waiter to the task it found for the TID: a
 * contender that finds the old task looks again.  The program locks a
 * PI mutex, runs an async atom (in place if a waiter is attached by
 * then) and unlocks, against a thread that locks and unlocks it.  Every
 * other round the contender keeps away, so that some atoms hand off
 * whatever the timing (a slow kernel had the waiter there every time).
 */
struct kt_pi_race {
	pthread_mutex_t	m;
	volatile int	stop, away, idle;
	int		locks, errs, err;
};

static void *kt_pi_contender(void *arg)
{
	struct kt_pi_race *r = arg;
	struct timespec t;
	int e;

	while (!r->stop) {
		if (r->away) {
			struct timespec d = { 0, 10 * 1000 };

			r->idle = 1;
			nanosleep(&d, NULL);
			continue;
		}
		r->idle = 0;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_sec += 5;
		e = pthread_mutex_timedlock(&r->m, &t);
		if (!e) {
			r->locks++;
			e = pthread_mutex_unlock(&r->m);
		}
		if (e) {
			r->errs++;
			r->err = e;
		}
	}
	return NULL;
}

static int kt_case_tid_pi_race(void)
{
	static struct kt_pi_race r;
	static struct syslet_uatom a;
	static long ret;
	unsigned int i, async = 0, inplace = 0, bad = 0;
	pthread_t th;
	long x;

	if (kt_pi_init(&r.m))
		return kt_skip("no PI mutexes in this libc");
	if (kt_pool_ready())
		return KT_FAIL;
	KT_CHECK(pthread_create(&th, NULL, kt_pi_contender, &r) == 0,
		 "pthread_create");
	for (i = 0; i < 200; i++) {
		/* Until the contender has seen which round this is. */
		r.away = i & 1;
		while (r.idle != r.away)
			sched_yield();
		if (pthread_mutex_lock(&r.m)) {
			bad++;
			continue;
		}
		kt_atom(&a, SYSLET_ASYNC, SYS_getpid, &ret, NULL, NULL, NULL,
			NULL, NULL);
		x = K_EXEC(&a);
		if (x == 0 && kt_pop() == &a)
			async++;
		else if (x == (long)&a)
			inplace++;
		else
			bad++;
		if (pthread_mutex_unlock(&r.m))
			bad++;
	}
	r.stop = 1;
	pthread_join(th, NULL);
	kt_note("%u async, %u in place; the contender locked %d times",
		async, inplace, r.locks);
	KT_CHECK(!bad && !r.errs,
		 "%u failures in the program, %d in the contender (last %d)",
		 bad, r.errs, r.err);
	KT_CHECK(async > 0 && r.locks > 0, "no hand-off or no contention");
	KT_CHECK(kt_gettid() == getpid(), "gettid() %ld, getpid() %d",
		 kt_gettid(), getpid());
	return KT_PASS;
}

struct kt_holder {
	pthread_mutex_t	m;
	long		tid0, tid1, task;
};

/* Lock @m, hand the context off, and end holding it. */
static void *kt_robust_holder(void *arg)
{
	struct kt_holder *h = arg;

	h->tid0 = kt_gettid();
	if (pthread_mutex_lock(&h->m) || kt_register(8, -1UL) ||
	    kt_async_getpid() || kt_async_getpid() || kt_away_from(h->tid0))
		return NULL;
	h->tid1 = kt_gettid();
	h->task = kt_task_tid();
	return NULL;
}

static int kt_case_tid_robust(void)
{
	static struct kt_holder h;
	struct kt_waiter w = { &h.m, -1 };
	pthread_mutexattr_t at;
	pthread_t th;

	pthread_mutexattr_init(&at);
	if (pthread_mutexattr_setrobust(&at, PTHREAD_MUTEX_ROBUST) ||
	    pthread_mutex_init(&h.m, &at))
		return kt_skip("no robust mutexes in this libc");
	KT_CHECK(pthread_create(&th, NULL, kt_robust_holder, &h) == 0,
		 "pthread_create");
	KT_CHECK(pthread_join(th, NULL) == 0, "pthread_join");
	KT_CHECK(h.task > 0, "the holder's context was not handed off");
	kt_note("the holder's TID was %ld, then %ld on task %ld", h.tid0,
		h.tid1, h.task);
	kt_timedlock(&w);
	KT_CHECK(w.ret == EOWNERDEAD,
		 "locking got %d, not EOWNERDEAD: the holder died and the mutex was not released",
		 w.ret);
	return KT_PASS;
}

/*
 * The task a TID belongs to stays (out of the pool) while the context
 * runs elsewhere, so that the number is not another thread's; once the
 * context has ended, the TID is gone and that task leaves too.
 */
static void *kt_tid_thread(void *arg)
{
	long *tid = arg;

	*tid = kt_gettid();
	if (kt_register(8, -1UL) || kt_async_getpid() || kt_async_getpid())
		*tid = -1;
	else if (K_UNREG(&kt_ahu))
		*tid = -2;
	return NULL;
}

static int kt_case_tid_ends(void)
{
	struct timespec d = { 0, 10 * 1000 * 1000 };
	char path[64];
	struct stat st;
	long tid = 0, r = 0;
	pthread_t th;
	int i;

	KT_CHECK(pthread_create(&th, NULL, kt_tid_thread, &tid) == 0,
		 "pthread_create");
	KT_CHECK(pthread_join(th, NULL) == 0 && tid > 0,
		 "the thread's hand-offs failed (%ld)", tid);
	snprintf(path, sizeof(path), "/proc/self/task/%ld", tid);
	for (i = 0; i < 300; i++) {
		r = kt_sys(SYS_tgkill, getpid(), tid, 0, 0);
		if (r == -ESRCH && stat(path, &st) != 0)
			break;
		nanosleep(&d, NULL);
	}
	KT_CHECK(r == -ESRCH, "tgkill(TID, 0) is %ld 3 s after the thread ended",
		 r);
	KT_CHECK(stat(path, &st) != 0,
		 "the task of the TID was still there 3 s after its context ended");
	return KT_PASS;
}

/*
 * fork() and execve() by a program whose context was handed off: the
 * child of fork() is a task of its own, with its TID; execve() from
 * the task that carries the context (not the leader) ends the pool and
 * the TID's task with the old image, and the new image runs as the
 * leader (main(), KT_EXEC_CHILD, checks that).
 */
static int kt_case_tid_fork_exec(void)
{
	pid_t pid;
	int st = -1;

	if (kt_pool_ready() || kt_away_from(getpid()))
		return KT_FAIL;
	pid = fork();
	if (pid == 0)
		_exit(kt_gettid() == getpid() ? 0 : 1);
	KT_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		 WEXITSTATUS(st) == 0,
		 "fork after a hand-off: the child's gettid() is not its PID (status %#x)",
		 st);
	KT_CHECK(kt_gettid() == getpid(), "gettid() %ld after fork, PID %d",
		 kt_gettid(), getpid());
	pid = fork();
	if (pid == 0) {
		if (kt_register(8, -1UL) || kt_async_getpid() ||
		    kt_async_getpid() || kt_away_from(getpid()))
			_exit(2);
		setenv("KT_EXEC_CHILD", "1", 1);
		execl("/proc/self/exe", "ksafe-exec", (char *)NULL);
		_exit(3);
	}
	st = -1;
	KT_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		 WEXITSTATUS(st) == 0,
		 "execve after a hand-off: status %#x (2: no hand-off, 3: execve failed, 4: new image's TID, 5: threads left)",
		 st);
	return KT_PASS;
}

/* The image that kt_case_tid_fork_exec() starts: one thread, the leader. */
static int kt_exec_child(void)
{
	char line[128];
	int threads = -1;
	FILE *f;

	if (kt_gettid() != getpid())
		return 4;
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &threads) == 1)
			break;
	if (f)
		fclose(f);
	return threads == 1 ? 0 : 5;
}

/* ---- values that look like restart codes ---------------------------- */

/*
 * umem_add returns a sum, and a sum may be -512 (-ERESTARTSYS) or
 * another restart code: with no signal pending it is a value, stored as
 * it is, and the atom runs once, in the caller and in a worker alike.
 * The kernel once stored -EINTR in the caller and, in a worker, ran the
 * atom again (added again; umem_add(p, 0) on -512 never ended).
 */
static int kt_case_restart_values(void)
{
	static const long sums[] = { -512, -513, -514, -516 };
	static unsigned long cell, inc;
	static unsigned long *cellp = &cell;
	unsigned int i, bad = 0;

	if (kt_register(8, -1UL))
		return KT_FAIL;
	for (i = 0; i < 3 * sizeof(sums) / sizeof(sums[0]); i++) {
		long sum = sums[i % 4], r;
		int async = i >= 4, read = i >= 8;

		cell = (unsigned long)(read ? sum : sum - 1);
		inc = read ? 0 : 1;
		kt_atom(&kt_a[0], async ? SYSLET_ASYNC : 0, K_UMEM, &kt_ret,
			NULL, (unsigned long *)&cellp, &inc, NULL, NULL);
		kt_ret = -12345;
		r = K_EXEC(&kt_a[0]);
		if (r == 0 && kt_pop() != &kt_a[0]) {
			kt_note("umem_add to %ld (%s): no completion", sum,
				read ? "read in a worker" : "in a worker");
			bad++;
			continue;
		}
		if (r != (async ? 0 : (long)&kt_a[0]) || kt_ret != sum ||
		    cell != (unsigned long)sum) {
			kt_note("umem_add to %ld (%s): async_exec %ld, atom %ld, "
				"cell %ld", sum, read ? "read in a worker" :
				async ? "in a worker" : "in the caller", r,
				kt_ret, (long)cell);
			bad++;
		}
	}
	KT_CHECK(!bad, "%u of %u umem_add atoms not stored as their value",
		 bad, i);
	return KT_PASS;
}

static const struct kt_case kt_cases[] = {
	{ "hand-off: a seccomp filter installed after the pool stays, and the filtered call is not run",
	  kt_case_seccomp },
	{ "hand-off: setresuid(1000) after the pool, euid stays 1000", kt_case_setresuid },
	{ "hand-off: no_new_privs set after the pool stays set", kt_case_nnp },
	{ "hand-off: unshare(CLONE_FS) and chroot after the pool, the root stays", kt_case_chroot },
	{ "hand-off: PR_SET_TSC(PR_TSC_SIGSEGV) after the pool stays set", kt_case_tsc },
	{ "hand-off: the idle I/O class set after the pool stays", kt_case_ioprio },
	{ "entry: a PTRACE_SYSCALL tracee gets EPERM from async_exec and keeps its tracer",
	  kt_case_ptrace_syscall },
	{ "entry: a task under a seccomp filter gets EPERM from async_exec", kt_case_seccomp_refused },
	{ "entry: a chain waiting in a worker when the program installs a filter (no TSYNC): its next atom is EPERM",
	  kt_case_filter_midchain },
	{ "entry: a chain waiting in a worker when the program calls setresuid(1000): its next atom is EPERM",
	  kt_case_uid_midchain },
	{ "entry: a task under syscall user dispatch gets EPERM from async_exec", kt_case_sud },
	{ "deny: every per-task call is EPERM in an atom", kt_case_denied },
	{ "backlog: async_exec is EAGAIN once a ring's worth waits, nothing lost", kt_case_backlog },
	{ "signals: ppoll's temporary mask does not become the program's", kt_case_ppoll_mask },
	{ "signals: a worker's old sigprocmask(SIG_SETMASK) sets the low word of its chain's mask only, as the call does",
	  kt_case_old_setmask },
	{ "signals: a process-directed signal is handled while the old leader is parked",
	  kt_case_leader_signal },
	{ "signals: a worker's ppoll with an empty mask and a blocked signal pending times out, no restart loop",
	  kt_case_worker_tempmask },
	{ "per-task: the alternate signal stack moves with the context", kt_case_sigaltstack },
	{ "per-task: the rseq registration moves with the context", kt_case_rseq },
	{ "per-task: task_work of an async atom runs (dup2 over a pipe's writer gives EOF)",
	  kt_case_task_work },
	{ "job control: SIGSTOP/SIGCONT with a pool parked", kt_case_stop_parked, 40 },
	{ "job control: SIGSTOP/SIGCONT while a chain runs, which runs to its end",
	  kt_case_stop_chain, 60 },
	{ "job control: SIGSTOP/SIGCONT while an endless chain of atoms past the table runs",
	  kt_case_stop_endless, 40 },
	{ "ptrace: attach to every thread of a process with a pool", kt_case_ptrace_attach, 40 },
	{ "freezer: cgroup.freeze with a pool parked", kt_case_freeze_parked, 40 },
	{ "freezer: cgroup.freeze while a chain runs, which runs to its end",
	  kt_case_freeze_chain, 60 },
	{ "freezer: cgroup.freeze while an endless chain of atoms past the table runs",
	  kt_case_freeze_endless, 40 },
	{ "results: umem_add sums of -512..-516 are values, stored once, in the caller and in a worker",
	  kt_case_restart_values },
	{ "tid: gettid(), raise(), tgkill() and sched_getaffinity() by TID across hand-offs and after unregister",
	  kt_case_tid_kept },
	{ "tid: a contended PI mutex locked after a hand-off goes to its waiter at unlock",
	  kt_case_tid_pi_after },
	{ "tid: a contended PI mutex locked before a hand-off goes to its waiter at unlock",
	  kt_case_tid_pi_before },
	{ "tid: a PI mutex locked and unlocked around async atoms against a contender, no error",
	  kt_case_tid_pi_race, 60 },
	{ "tid: a robust mutex is released (EOWNERDEAD) when the thread carrying its context dies",
	  kt_case_tid_robust },
	{ "tid: once the context ends, its TID and the task it belonged to are gone",
	  kt_case_tid_ends },
	{ "tid: fork() and execve() after a hand-off: the child has its own TID, the new image is the leader alone",
	  kt_case_tid_fork_exec },
};

int main(void)
{
	if (getenv("KT_EXEC_CHILD"))
		return kt_exec_child();
	return kt_main(kt_cases, sizeof(kt_cases) / sizeof(kt_cases[0]));
}
