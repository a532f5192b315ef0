/* tidprio.c: the calls that name a task by ID reach the task that runs the program when the program's ID is named after a hand-off: setpriority/getpriority, ioprio_set/ioprio_get, capget/capset, get_robust_list. */
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "helpers.h"

/*
 * On the kernel backend the program's thread ID goes with its user
 * context at a hand-off (kernel-patch 0015): gettid() in the program
 * gives the same ID whichever pool thread carries it, and the task the
 * ID was born with (its home) stays out of the pool.  The calls that
 * take a task by ID must find the carrier, as tgkill() and the sched_*()
 * calls do; those that looked the ID up with find_task_by_vpid() found
 * the home: an admin's `renice -p` or `ionice -p` of a syslet server set
 * the home's value and the program kept its own (the hand-off's
 * identity check even keeps them equal), getpriority() read the home's,
 * capget() gave the home's capabilities and get_robust_list() the
 * home's list, which the hand-off had cleared (kernel-patch 0040,
 * 0043).  The user-space engines never move the program's thread.
 */
static struct syslet_uatom *ring[4];
static unsigned long idx;

/* A child process renices @tid to @nice and reads it back by @tid:
 * what it read, or -100 if the child failed. */
static int renice_from_child(pid_t tid, int nice)
{
	int pfd[2], got = -100, st;
	pid_t c = rt_fork_pipe(pfd);

	if (c == 0) {
		int v = -100;

		if (!setpriority(PRIO_PROCESS, (id_t)tid, nice)) {
			errno = 0;
			v = getpriority(PRIO_PROCESS, (id_t)tid);
			if (errno)
				v = -100;
		}
		_exit(write(pfd[1], &v, sizeof(v)) == sizeof(v) ? 0 : 1);
	}
	close(pfd[1]);
	if (read(pfd[0], &got, sizeof(got)) != sizeof(got))
		got = -100;
	close(pfd[0]);
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
		rt_die("the renicing child failed");
	return got;
}

static void check_nice(pid_t tid, int went)
{
	int nice0, want, seen, now;

	errno = 0;
	nice0 = getpriority(PRIO_PROCESS, 0);
	if (errno)
		rt_die("getpriority: %s", strerror(errno));
	if (nice0 >= 18) {
		printf("tidprio: nice is already %d, renice not checked\n",
		       nice0);
		return;
	}
	want = nice0 + 1;
	seen = renice_from_child(tid, want);
	rt_check(seen == want,
		 "renice -p %d to %d from a child: it read back %d", (int)tid,
		 want, seen);
	errno = 0;
	now = getpriority(PRIO_PROCESS, 0);
	rt_check(!errno && now == want,
		 "renice -p %d to %d from a child: the program's nice is %d "
		 "(%d hand-offs)", (int)tid, want, now, went);
	/* The program sets its own, a reader by ID sees it. */
	if (setpriority(PRIO_PROCESS, 0, want + 1))
		rt_die("setpriority: %s", strerror(errno));
	errno = 0;
	now = getpriority(PRIO_PROCESS, (id_t)tid);
	rt_check(!errno && now == want + 1,
		 "getpriority(PRIO_PROCESS, %d) gave %d, the program's is %d",
		 (int)tid, now, want + 1);
}

static void check_ioprio(pid_t tid)
{
	long want = IOPRIO_VALUE(IOPRIO_CLASS_BE, 6), now;

	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)tid, (int)want)) {
		printf("tidprio: ioprio_set: %s, not checked\n",
		       strerror(errno));
		return;
	}
	now = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
	rt_check(now == want,
		 "ioprio_set(IOPRIO_WHO_PROCESS, %d, %#lx): the program's is "
		 "%#lx", (int)tid, want, now);
	want = IOPRIO_VALUE(IOPRIO_CLASS_BE, 5);
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)want))
		rt_die("ioprio_set: %s", strerror(errno));
	now = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, (int)tid);
	rt_check(now == want,
		 "ioprio_get(IOPRIO_WHO_PROCESS, %d) gave %#lx, the program's "
		 "is %#lx", (int)tid, now, want);
}

static void check_caps(pid_t tid)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct own[2], byid[2];

	if (syscall(SYS_capget, &h, own))
		rt_die("capget: %s", strerror(errno));
	/* Drop one capability from the effective set, if there is one to
	 * drop: the program's differs from its home's then.  By the
	 * program's own TID, which capset() takes as the caller, as 0
	 * (glibc's getpid() in a single-threaded program, the TID
	 * in others: what programs that drop privileges pass). */
	own[0].effective &= ~(1u << CAP_SYS_NICE);
	h.pid = tid;
	if (syscall(SYS_capset, &h, own)) {
		rt_check(0, "capset(%d), the program's own ID: %s", (int)tid,
			 strerror(errno));
		h.pid = 0;
		if (syscall(SYS_capset, &h, own))
			rt_die("capset: %s", strerror(errno));
	}
	h.pid = 0;
	if (syscall(SYS_capget, &h, own))
		rt_die("capget: %s", strerror(errno));
	h.pid = tid;
	if (syscall(SYS_capget, &h, byid))
		rt_die("capget(%d): %s", (int)tid, strerror(errno));
	rt_check(!memcmp(own, byid, sizeof(own)),
		 "capget(%d) gave effective %#llx, the program's are %#llx",
		 (int)tid,
		 (unsigned long long)byid[1].effective << 32 | byid[0].effective,
		 (unsigned long long)own[1].effective << 32 | own[0].effective);
}

static void check_robust(pid_t tid)
{
	void *own = NULL, *byid = NULL;
	size_t olen = 0, blen = 0;

	if (syscall(SYS_get_robust_list, 0, &own, &olen))
		rt_die("get_robust_list: %s", strerror(errno));
	if (syscall(SYS_get_robust_list, (int)tid, &byid, &blen))
		rt_die("get_robust_list(%d): %s", (int)tid, strerror(errno));
	rt_check(own == byid && olen == blen,
		 "get_robust_list(gettid()) gave %p (%zu bytes), the "
		 "program's is %p (%zu bytes)", byid, blen, own, olen);
}

int main(void)
{
	struct async_head_user ahu;
	struct syslet_uatom a;
	long ret = 0;
	pid_t tid;
	int went;

	rt_init();
	rt_register(&ahu, ring, 4, 2);
	rt_atom(&a, __NR_getppid, &ret, SYSLET_ASYNC, NULL, NULL, NULL, NULL);
	went = rt_handoffs(ring, &idx, &a, &ret);
	tid = (pid_t)syscall(SYS_gettid);
	check_nice(tid, went);
	went += rt_handoffs(ring, &idx, &a, &ret);
	check_ioprio(tid);
	went += rt_handoffs(ring, &idx, &a, &ret);
	check_caps(tid);
	check_robust(tid);
	rt_unregister(&ahu);
	printf("tidprio: tid %d, %d syslets went async\n", (int)tid, went);
	return rt_done("tidprio");
}
