/* backend-kernel.c: the patched kernel's five syslet calls, found under /sys/kernel/syslet/. */
#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "backend.h"

#ifdef __x86_64__
#define KB_ABI "x86_64"
#elif defined(__i386__)
#define KB_ABI "i386"
#else
#define KB_ABI NULL
#endif

#define KB_SYSFS "/sys/kernel/syslet"
#define KB_ABI_VERSION 1

/*
 * The discovery result, found once: 0 before, 1 usable, else -errno.
 * The numbers never change while the kernel runs, so a race between two
 * first callers only does the same reads twice.
 */
static int kb_state;
static long kb_nr[SYSLET_NR_CALLS];

static long kb_read_number(const char *path)
{
	char buf[32], *end;
	ssize_t n;
	long v;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < 0)
		return -1;
	return v;
}

static int kb_discover(void)
{
	static const char *const names[SYSLET_NR_CALLS] = {
		[SYSLET_CALL_ASYNC_REGISTER] = "async_register",
		[SYSLET_CALL_ASYNC_EXEC] = "async_exec",
		[SYSLET_CALL_ASYNC_WAIT] = "async_wait",
		[SYSLET_CALL_ASYNC_UNREGISTER] = "async_unregister",
		[SYSLET_CALL_UMEM_ADD] = "umem_add",
	};
	char path[128];
	unsigned long probe = 7;
	long nr[SYSLET_NR_CALLS];
	int i;

	if (!KB_ABI)
		return -ENOSYS;
	if (kb_read_number(KB_SYSFS "/abi_version") != KB_ABI_VERSION)
		return -ENOSYS;
	for (i = 0; i < SYSLET_NR_CALLS; i++) {
		snprintf(path, sizeof(path), KB_SYSFS "/%s/%s", KB_ABI,
			 names[i]);
		nr[i] = kb_read_number(path);
		if (nr[i] < 0)
			return -ENOSYS;
	}
	/* The one harmless call: umem_add(p, 0) must read *p back. */
	if (syscall(nr[SYSLET_CALL_UMEM_ADD], &probe, 0UL) != 7)
		return -ENOSYS;
	memcpy(kb_nr, nr, sizeof(kb_nr));
	return 1;
}

static int kernel_probe(void)
{
	int st = __atomic_load_n(&kb_state, __ATOMIC_ACQUIRE);

	if (!st) {
		st = kb_discover();
		__atomic_store_n(&kb_state, st, __ATOMIC_RELEASE);
	}
	return st == 1 ? 0 : st;
}

/* The kernel's convention: a negative errno, never -1 and errno. */
static long kb_call(enum syslet_call call, unsigned long a, unsigned long b)
{
	long r;

	if (kernel_probe())
		return -ENOSYS;
	r = syscall(kb_nr[call], a, b);
	return r == -1 ? -errno : r;
}

static long kernel_register(struct async_head_user *ahu, unsigned long len)
{
	return kb_call(SYSLET_CALL_ASYNC_REGISTER, (unsigned long)ahu, len);
}

static struct syslet_uatom *kernel_exec(struct syslet_uatom *atom, long *err)
{
	long r = kb_call(SYSLET_CALL_ASYNC_EXEC, (unsigned long)atom, 0);

	if (r < 0 && r >= -4095) {
		*err = r;
		return NULL;
	}
	*err = 0;
	return (struct syslet_uatom *)r;
}

static long kernel_wait(unsigned long min_events)
{
	return kb_call(SYSLET_CALL_ASYNC_WAIT, min_events, 0);
}

static long kernel_unregister(struct async_head_user *ahu, unsigned long len)
{
	return kb_call(SYSLET_CALL_ASYNC_UNREGISTER, (unsigned long)ahu, len);
}

/*
 * umem_add returns the new value, which may look like an error; the
 * raw syscall is used so that only the kernel's own -EFAULT is one.
 */
static long kernel_umem_add(unsigned long *uptr, unsigned long inc)
{
	return kb_call(SYSLET_CALL_UMEM_ADD, (unsigned long)uptr, inc);
}

const struct backend kernel_backend = {
	.name = "kernel",
	.probe = kernel_probe,
	.async_register = kernel_register,
	.async_exec = kernel_exec,
	.async_wait = kernel_wait,
	.async_unregister = kernel_unregister,
	.umem_add = kernel_umem_add,
};
