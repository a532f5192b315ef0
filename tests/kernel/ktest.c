/* ktest.c: the kernel syscalls' semantics, run inside the guest against the patched kernel, as TAP. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "syslet.h"

#ifdef __x86_64__
#define KT_ABI "x86_64"
#define KT_SLEEP SYS_clock_nanosleep
#else
#define KT_ABI "i386"
/* 32-bit time is optional in today's kernels; the 64-bit call is not. */
#define KT_SLEEP SYS_clock_nanosleep_time64
#endif

static long kt_nr[SYSLET_NR_CALLS];
static int kt_count, kt_failed;

static void kt_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++kt_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		kt_failed++;
}

static long kt_read_long(const char *path)
{
	char buf[64];
	long v = -1;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	memset(buf, 0, sizeof(buf));
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		v = strtol(buf, NULL, 10);
	close(fd);
	return v;
}

/* Raw calls: -errno on failure, like the kernel's return value. */
static long kt_call(int call, long a, long b)
{
	long r = syscall(kt_nr[call], a, b);

	return r == -1 ? -errno : r;
}

#define K_REG(ahu)	kt_call(SYSLET_CALL_ASYNC_REGISTER, (long)(ahu), sizeof(*(ahu)))
#define K_EXEC(a)	kt_call(SYSLET_CALL_ASYNC_EXEC, (long)(a), 0)
#define K_WAIT(n)	kt_call(SYSLET_CALL_ASYNC_WAIT, (n), 0)
#define K_UNREG(ahu)	kt_call(SYSLET_CALL_ASYNC_UNREGISTER, (long)(ahu), sizeof(*(ahu)))
#define K_UMEM(p, i)	kt_call(SYSLET_CALL_UMEM_ADD, (long)(p), (long)(i))

static void kt_atom(struct syslet_uatom *a, unsigned long flags, long nr,
		    long *ret, struct syslet_uatom *next, unsigned long *a0,
		    unsigned long *a1, unsigned long *a2)
{
	memset(a, 0, sizeof(*a));
	a->flags = flags;
	a->nr = nr;
	a->ret_ptr = ret;
	a->next = next;
	a->arg_ptr[0] = a0;
	a->arg_ptr[1] = a0 ? a1 : NULL;
	a->arg_ptr[2] = a0 && a1 ? a2 : NULL;
}

#define RING 8
static struct syslet_uatom *kt_ring[RING];
static unsigned long kt_ring_idx;

/* Pop the next completion, waiting for it when none is there. */
static struct syslet_uatom *kt_pop(void)
{
	struct syslet_uatom *a;
	int tries;

	for (tries = 0; tries < 200; tries++) {
		a = __atomic_load_n(&kt_ring[kt_ring_idx], __ATOMIC_ACQUIRE);
		if (a) {
			kt_ring[kt_ring_idx] = NULL;
			kt_ring_idx = (kt_ring_idx + 1) % RING;
			return a;
		}
		K_WAIT(1);
	}
	return NULL;
}

static __thread int kt_tls = 4242;

static void kt_pkru(struct syslet_uatom *a, long *ret, unsigned long *clk,
		    unsigned long *null, unsigned long *ts_ptr)
{
	struct syslet_uatom *r;
	int pkey = pkey_alloc(0, 0), rights;

	if (pkey < 0) {
		printf("ok %d - PKRU survives the hand-off # SKIP no protection keys: %s\n",
		       ++kt_count, strerror(errno));
		return;
	}
	pkey_set(pkey, PKEY_DISABLE_WRITE);
	kt_atom(&a[0], 0, KT_SLEEP, ret, NULL, clk, null, ts_ptr);
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	rights = pkey_get(pkey);
	kt_ok(r == NULL && rights == PKEY_DISABLE_WRITE,
	      "PKRU survives the hand-off (went async: %d, key %d rights %d)",
	      r == NULL, pkey, rights);
	if (r == NULL)
		kt_pop();
	pkey_set(pkey, 0);
	pkey_free(pkey);
}

int main(void)
{
	static const char *names[SYSLET_NR_CALLS] = {
		"async_register", "async_exec", "async_wait",
		"async_unregister", "umem_add",
	};
	struct async_head_user ahu = { kt_ring, sizeof(kt_ring), -1UL };
	struct async_head_user bad;
	struct syslet_uatom a[8], *r;
	unsigned long clk = CLOCK_MONOTONIC, v, one = 1, zero = 0, cnt, ts_ptr, null = 0;
	long ret = 0, ret2 = 0, pid = getpid();
	struct { long long sec, nsec; } ts = { 0, 20 * 1000 * 1000 };
	char path[128];
	volatile double x = 1.5;
	int i, fds[2];
	pid_t tid0;

	printf("TAP version 13\n");
	kt_ok(kt_read_long("/sys/kernel/syslet/abi_version") == 1,
	      "discovery: /sys/kernel/syslet/abi_version is 1");
	for (i = 0; i < SYSLET_NR_CALLS; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/syslet/%s/%s",
			 KT_ABI, names[i]);
		kt_nr[i] = kt_read_long(path);
		kt_ok(kt_nr[i] == SYSLET_NR_BASE + i, "discovery: %s is %ld",
		      path, kt_nr[i]);
	}

	v = 41;
	kt_ok(K_UMEM(&v, 0) == 41, "umem_add(p, 0) reads");
	kt_ok(K_UMEM(&v, 1) == 42 && v == 42, "umem_add(p, 1) adds");
	kt_ok(K_UMEM(NULL, 1) == -EFAULT, "umem_add(NULL) is -EFAULT");
	kt_ok(K_EXEC(a) == -EINVAL, "async_exec before register is -EINVAL");
	kt_ok(K_WAIT(1) == -EINVAL, "async_wait before register is -EINVAL");

	kt_ok(kt_call(SYSLET_CALL_ASYNC_REGISTER, (long)&ahu, 5) == -EINVAL,
	      "register: bad len is -EINVAL");
	kt_ok(kt_call(SYSLET_CALL_ASYNC_REGISTER, 16, sizeof(ahu)) == -EFAULT,
	      "register: bad head pointer is -EFAULT");
	bad = ahu;
	bad.ring_size_bytes = 0;
	kt_ok(K_REG(&bad) == -EINVAL, "register: empty ring is -EINVAL");
	bad.ring_size_bytes = sizeof(void *) + 1;
	kt_ok(K_REG(&bad) == -EINVAL, "register: ring not a multiple of a pointer is -EINVAL");
	kt_ok(K_REG(&ahu) == 0, "register: ok");
	kt_ok(K_REG(&ahu) == -EEXIST, "register twice is -EEXIST");

	kt_atom(&a[0], 0, SYS_getpid, &ret, NULL, NULL, NULL, NULL);
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[0] && ret == pid, "one atom runs inline and returns itself (ret %ld)", ret);

	/* As in 2007, -ENOSYS is what the stop test sees; it is not stored. */
	kt_atom(&a[0], SYSLET_STOP_ON_NEGATIVE, 5000, &ret, &a[1], NULL, NULL, NULL);
	kt_atom(&a[1], 0, SYS_getpid, NULL, NULL, NULL, NULL, NULL);
	ret = 12345;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[0] && ret == 12345,
	      "nr beyond the table: -ENOSYS stops the chain, nothing stored (ret %ld)", ret);
	kt_atom(&a[0], 0, SYS_fork, &ret, NULL, NULL, NULL, NULL);
	K_EXEC(&a[0]);
	kt_ok(ret == -EPERM, "fork is denied in an atom (-EPERM)");
	kt_atom(&a[0], 0, SYS_exit_group, &ret, NULL, &one, NULL, NULL);
	K_EXEC(&a[0]);
	kt_ok(ret == -EPERM, "exit_group is denied in an atom");
	kt_atom(&a[0], 0, kt_nr[SYSLET_CALL_ASYNC_EXEC], &ret, NULL, &zero, NULL, NULL);
	K_EXEC(&a[0]);
	kt_ok(ret == -EPERM, "async_exec is denied in an atom");

	kt_ok(K_EXEC(16) == -EFAULT, "bad atom pointer is -EFAULT");
	kt_atom(&a[0], 0, SYS_getpid, &ret, NULL, (unsigned long *)16, NULL, NULL);
	kt_ok(K_EXEC(&a[0]) == -EFAULT, "bad argument pointer is -EFAULT");
	kt_atom(&a[0], 0, SYS_getpid, &ret, (struct syslet_uatom *)16, NULL, NULL, NULL);
	kt_ok(K_EXEC(&a[0]) == -EFAULT, "bad next pointer is -EFAULT");
	kt_atom(&a[0], 0, SYS_getpid, (long *)16, NULL, NULL, NULL, NULL);
	kt_ok(K_EXEC(&a[0]) == (long)&a[0], "bad ret pointer: the atom still ends the chain");

	/* umem_add(&cnt, -1) until it reaches zero: a loop of one atom. */
	cnt = 100;
	v = -1UL;
	ts_ptr = (unsigned long)&cnt;
	kt_atom(&a[0], SYSLET_STOP_ON_ZERO, kt_nr[SYSLET_CALL_UMEM_ADD], &ret,
		&a[0], &ts_ptr, &v, NULL);
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[0] && cnt == 0 && ret == 0, "umem_add loop ran 100 times");

	/* SKIP: the stop test true jumps to the atom after, else next. */
	kt_atom(&a[0], SYSLET_STOP_ON_ZERO | SYSLET_SKIP_TO_NEXT_ON_STOP,
		kt_nr[SYSLET_CALL_UMEM_ADD], &ret, &a[2], &ts_ptr, &null, NULL);
	kt_atom(&a[1], 0, SYS_getppid, &ret2, NULL, NULL, NULL, NULL);
	kt_atom(&a[2], 0, SYS_getpid, &ret2, NULL, NULL, NULL, NULL);
	cnt = 0;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[1] && ret2 == getppid(), "stop+skip goes to atom + 1");
	cnt = 5;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[2] && ret2 == pid, "no stop follows next");
	a[0].flags = SYSLET_STOP_ON_ZERO | SYSLET_STOP_ON_NONZERO;
	cnt = 0;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[2], "two stop flags never stop");
	a[0].flags = SYSLET_STOP_ON_NEGATIVE;
	kt_atom(&a[3], SYSLET_STOP_ON_NON_POSITIVE, SYS_getpid, &ret, &a[4], NULL, NULL, NULL);
	kt_atom(&a[4], 0, SYS_getppid, &ret2, NULL, NULL, NULL, NULL);
	ret2 = 0;
	r = (struct syslet_uatom *)K_EXEC(&a[3]);
	kt_ok(r == &a[4] && ret2 == getppid(), "positive result passes STOP_ON_NON_POSITIVE");

	/* A blocking atom: the caller gets NULL, the ring gets the atom. */
	tid0 = syscall(SYS_gettid);
	ts_ptr = (unsigned long)&ts;
	kt_atom(&a[0], 0, KT_SLEEP, &ret, &a[1], &clk, &null, &ts_ptr);
	kt_atom(&a[1], 0, SYS_getpid, &ret2, NULL, NULL, NULL, NULL);
	ret = ret2 = 99;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	x = x * 2;
	kt_ok(r == NULL, "blocking atom: async_exec returns NULL (got %p, ret %ld)", (void *)r, ret);
	kt_ok(kt_tls == 4242 && x == 3.0 && errno != 12345,
	      "user context (TLS, FPU) survives the hand-off (tid %d -> %ld)",
	      tid0, syscall(SYS_gettid));
	r = kt_pop();
	kt_ok(r == &a[1] && ret == 0 && ret2 == pid,
	      "the chain finished on the cachemiss thread and queued its last atom");

	kt_atom(&a[0], SYSLET_ASYNC, SYS_getpid, &ret, NULL, NULL, NULL, NULL);
	ret = 0;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == NULL, "SYSLET_ASYNC goes async at once");
	r = kt_pop();
	kt_ok(r == &a[0] && ret == pid, "SYSLET_ASYNC completion arrives");

	/* PKRU is user context that the FPU restore leaves alone: rights
	 * given to a protection key after every pool thread was made must
	 * survive a hand-off to one of them. */
	kt_pkru(a, &ret, &clk, &null, &ts_ptr);

	kt_atom(&a[0], SYSLET_SYNC, KT_SLEEP, &ret, NULL, &clk, &null, &ts_ptr);
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	kt_ok(r == &a[0], "SYSLET_SYNC blocks inline");

	kt_atom(&a[0], SYSLET_ASYNC | SYSLET_NO_COMPLETE, SYS_getpid, &ret, NULL, NULL, NULL, NULL);
	ret = 0;
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	K_WAIT(1);
	kt_ok(r == NULL && ret == pid && kt_ring[kt_ring_idx] == NULL,
	      "NO_COMPLETE queues nothing");

	/* Fill every slot, then one more: it waits for a free slot. */
	for (i = 0; i < RING; i++)
		kt_ring[i] = (struct syslet_uatom *)&a[7];
	kt_atom(&a[0], SYSLET_ASYNC, SYS_getpid, &ret, NULL, NULL, NULL, NULL);
	r = (struct syslet_uatom *)K_EXEC(&a[0]);
	K_WAIT(1);
	kt_ok(kt_ring[kt_ring_idx] == &a[7], "a full slot is never overwritten");
	kt_ring[kt_ring_idx] = NULL;
	K_WAIT(1);
	kt_ok(kt_ring[kt_ring_idx] == &a[0], "the kept completion arrives once the slot frees");
	memset(kt_ring, 0, sizeof(kt_ring));
	kt_ring_idx = (kt_ring_idx + 1) % RING;

	if (pipe(fds) == 0) {
		static char buf[16];
		unsigned long rfd = fds[0], bp = (unsigned long)buf, len = 5;

		kt_atom(&a[0], 0, SYS_read, &ret, NULL, &rfd, &bp, &len);
		r = (struct syslet_uatom *)K_EXEC(&a[0]);
		kt_ok(r == NULL, "read from an empty pipe goes async");
		kt_ok(write(fds[1], "hello", 5) == 5, "writer writes");
		r = kt_pop();
		kt_ok(r == &a[0] && ret == 5 && !memcmp(buf, "hello", 5),
		      "the read completed into the ring");
	}

	kt_ok(K_UNREG(&ahu) == 0, "unregister: ok");
	kt_ok(K_UNREG(&ahu) == -EINVAL, "unregister twice is -EINVAL");
	kt_ok(K_EXEC(&a[0]) == -EINVAL, "async_exec after unregister is -EINVAL");
	kt_ok(K_REG(&ahu) == 0 && K_UNREG(&ahu) == 0, "register again works");

	printf("1..%d\n", kt_count);
	return kt_failed ? 1 : 0;
}
