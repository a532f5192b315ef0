/* kt.h: helpers for the guest test programs: raw syslet calls, atoms, the ring, and TAP cases run in their own process. */
#ifndef KT_H
#define KT_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "syslet.h"

#ifdef __x86_64__
#define KT_ABI "x86_64"
#define KT_SLEEP SYS_clock_nanosleep
#define KT_PPOLL SYS_ppoll
#else
#define KT_ABI "i386"
/* 32-bit time is optional in today's kernels; the 64-bit calls are not. */
#define KT_SLEEP SYS_clock_nanosleep_time64
#define KT_PPOLL SYS_ppoll_time64
#endif

/* The kernel's struct __kernel_timespec, whatever the ABI. */
struct kt_ts {
	long long sec, nsec;
};

static long kt_nr[SYSLET_NR_CALLS];


/* The text of the small file @path in @buf, NUL-terminated: its length,
 * or -1 (no such file, nothing read). */
static inline int kt_read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? n : -1;
}
/* Numbers from /sys/kernel/syslet/ABI/; 0 when they all match the base. */
static int kt_discover(void)
{
	static const char *names[SYSLET_NR_CALLS] = {
		"async_register", "async_exec", "async_wait",
		"async_unregister", "umem_add",
	};
	char path[128], buf[32];
	int i;

	for (i = 0; i < SYSLET_NR_CALLS; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/syslet/%s/%s",
			 KT_ABI, names[i]);
		if (kt_read_text(path, buf, sizeof(buf)) < 0)
			return -1;
		kt_nr[i] = strtol(buf, NULL, 10);
	}
	return 0;
}

/* A raw system call: -errno on failure, as the kernel returns it. */
static long kt_sys(long nr, long a, long b, long c, long d)
{
	long r = syscall(nr, a, b, c, d);

	return r == -1 ? -errno : r;
}

#define K_REG(ahu) \
	kt_sys(kt_nr[SYSLET_CALL_ASYNC_REGISTER], (long)(ahu), sizeof(*(ahu)), 0, 0)
#define K_EXEC(a)	kt_sys(kt_nr[SYSLET_CALL_ASYNC_EXEC], (long)(a), 0, 0, 0)
#define K_WAIT(n)	kt_sys(kt_nr[SYSLET_CALL_ASYNC_WAIT], (n), 0, 0, 0)
#define K_UNREG(ahu) \
	kt_sys(kt_nr[SYSLET_CALL_ASYNC_UNREGISTER], (long)(ahu), sizeof(*(ahu)), 0, 0)
#define K_UMEM		kt_nr[SYSLET_CALL_UMEM_ADD]

/* Fill an atom; the argument pointers end at the first NULL. */
static void kt_atom(struct syslet_uatom *a, unsigned long flags, long nr,
		    long *ret, struct syslet_uatom *next, unsigned long *a0,
		    unsigned long *a1, unsigned long *a2, unsigned long *a3)
{
	memset(a, 0, sizeof(*a));
	a->flags = flags;
	a->nr = nr;
	a->ret_ptr = ret;
	a->next = next;
	a->arg_ptr[0] = a0;
	a->arg_ptr[1] = a0 ? a1 : NULL;
	a->arg_ptr[2] = a0 && a1 ? a2 : NULL;
	a->arg_ptr[3] = a0 && a1 && a2 ? a3 : NULL;
}

/* One registered head per test process, with its ring. */
#define KT_RING_MAX 64
static struct syslet_uatom *kt_ring[KT_RING_MAX];
static unsigned long kt_ring_n, kt_ring_idx;
static struct async_head_user kt_ahu;

static int kt_register(unsigned long entries, unsigned long threads)
{
	kt_ring_n = entries;
	kt_ring_idx = 0;
	memset(kt_ring, 0, sizeof(kt_ring));
	kt_ahu.completion_ring = kt_ring;
	kt_ahu.ring_size_bytes = entries * sizeof(kt_ring[0]);
	kt_ahu.max_nr_threads = threads;
	return K_REG(&kt_ahu);
}

/* Pop the next completion, waiting up to about @ms for it. */
static struct syslet_uatom *kt_pop_ms(int ms)
{
	struct timespec d = { 0, 1000 * 1000 };
	struct syslet_uatom *a;
	int i;

	for (i = 0; i <= ms; i++) {
		a = __atomic_load_n(&kt_ring[kt_ring_idx], __ATOMIC_ACQUIRE);
		if (a) {
			kt_ring[kt_ring_idx] = NULL;
			kt_ring_idx = (kt_ring_idx + 1) % kt_ring_n;
			return a;
		}
		/* Delivers what waited for a slot, returns when idle. */
		K_WAIT(0);
		nanosleep(&d, NULL);
	}
	return NULL;
}

static struct syslet_uatom *kt_pop(void)
{
	return kt_pop_ms(5000);
}

/*
 * Run one SYSLET_ASYNC atom: its chain moves to a pool thread at once
 * and the caller continues on another, with its TID.  Afterwards the
 * task that ran the atom is parked in the pool, with the identity the
 * head had; the thread that registered, whose TID the context keeps,
 * waits out of the pool for the context to end.  Returns 0 when it
 * went async and completed, else -1.
 */
static int kt_async_getpid(void)
{
	static struct syslet_uatom a;
	static long ret;
	long r;

	kt_atom(&a, SYSLET_ASYNC, SYS_getpid, &ret, NULL, NULL, NULL, NULL,
		NULL);
	r = K_EXEC(&a);
	if (r != 0)
		return -1;
	return kt_pop() == &a ? 0 : -1;
}

/* ---- TAP: each case runs in a process of its own ----------------- */

static int kt_count, kt_failed;

/* A comment line in the case's output, read by the host. */
static void kt_note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* The case's skip reason, printed by the parent after its TAP line. */
static char *kt_skip_reason;

/* Exit codes of a case process. */
#define KT_PASS 0
#define KT_FAIL 1
#define KT_SKIP 77

static int kt_skip(const char *why)
{
	size_t n = strlen(why);

	/* Shared with the parent through a MAP_SHARED page. */
	if (kt_skip_reason) {
		if (n > 200)
			n = 200;
		memcpy(kt_skip_reason, why, n);
		kt_skip_reason[n] = '\0';
	}
	return KT_SKIP;
}

struct kt_case {
	const char *name;
	int (*fn)(void);
	int seconds;	/* 0: 30 */
};

/*
 * Run @c in a child process with a fresh syslet state (nothing it does
 * to its identity or its signals leaks into the next case), under a
 * time limit; report one TAP line.  The case prints "# " notes only.
 */
static void kt_run_case(const struct kt_case *c)
{
	int status, st;
	pid_t pid;

	if (kt_skip_reason)
		kt_skip_reason[0] = '\0';
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(c->seconds ? c->seconds : 30);
		_exit(c->fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = KT_FAIL << 8;
	if (WIFEXITED(status))
		st = WEXITSTATUS(status);
	else {
		kt_note("%s: killed by signal %d%s", c->name,
			WTERMSIG(status),
			WTERMSIG(status) == SIGALRM ? " (time limit)" : "");
		st = KT_FAIL;
	}
	kt_count++;
	if (st == KT_PASS) {
		printf("ok %d - %s\n", kt_count, c->name);
	} else if (st == KT_SKIP) {
		printf("ok %d - %s # SKIP %s\n", kt_count, c->name,
		       kt_skip_reason && kt_skip_reason[0] ?
		       kt_skip_reason : "");
	} else {
		printf("not ok %d - %s\n", kt_count, c->name);
		kt_failed++;
	}
	fflush(stdout);
}

/* cgroup v2: write @val to @dir/@file (0, or -1); whether @dir's
 * cgroup.events reads "frozen @want" within @ms ms.  Inline: not
 * every program of kt.h uses them. */
static inline int kt_cg_write(const char *dir, const char *file, const char *val)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static inline int kt_cg_frozen(const char *dir, int want, int ms)
{
	char path[256], buf[256], key[16];
	struct timespec d = { 0, 10 * 1000 * 1000 };
	int i;

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	snprintf(key, sizeof(key), "frozen %d", want);
	for (i = 0; i < ms / 10; i++) {
		if (kt_read_text(path, buf, sizeof(buf)) < 0)
			return 0;	/* never empty while the group is */
		if (strstr(buf, key))
			return 1;
		nanosleep(&d, NULL);
	}
	return 0;
}

/* The state letter of thread @tid of @pid ('R', 'S', 'D', ...), from
 * its stat file, or 0 if it is gone. */
static inline char kt_task_state(pid_t pid, const char *tid)
{
	char path[320], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, tid);
	if (kt_read_text(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] ? p[2] : 0;
}

/* The state letter and wait channel of each thread of @pid, as a note
 * (after a round that did not end). */
static inline void kt_thread_states(pid_t pid)
{
	char path[320], buf[512], line[512] = "", st;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		st = kt_task_state(pid, e->d_name);
		if (!st)
			continue;
		if (strlen(line) < sizeof(line) - 32)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " %s:%c", e->d_name, st);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/wchan", (int)pid,
			 e->d_name);
		if (kt_read_text(path, buf, sizeof(buf)) > 0 &&
		    strlen(line) < sizeof(line) - 64)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 "(%.40s)", buf);
	}
	if (d)
		closedir(d);
	kt_note("threads (tid:state(wchan)):%s", line);
}

#include <sys/mman.h>

/* TAP for a table of cases; the exit status of main(). */
static int kt_main(const struct kt_case *cases, int n)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	kt_skip_reason = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kt_skip_reason == MAP_FAILED)
		kt_skip_reason = NULL;
	if (kt_discover()) {
		printf("1..0 # SKIP no /sys/kernel/syslet/%s\n", KT_ABI);
		return 77;
	}
	for (i = 0; i < n; i++)
		kt_run_case(&cases[i]);
	printf("1..%d\n", kt_count);
	return kt_failed ? 1 : 0;
}

/* A check inside a case: note what failed and where. */
#define KT_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			kt_note("line %d: %s", __LINE__, #cond);	\
			kt_note(__VA_ARGS__);				\
			return KT_FAIL;					\
		}							\
	} while (0)

#endif /* KT_H */
