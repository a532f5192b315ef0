/* failnth.c: an LD_PRELOAD shim for tests: the FAILNTH-th call of malloc, calloc, realloc, reallocarray, mmap, pthread_create and eventfd (or of those named in FAILNTH_FNS, comma-separated) fails as the C library fails it out of memory, threads or descriptors, and with FAILNTH_FROM set every later one too; the failed call's number and name go to FAILNTH_LOG (with a backtrace under FAILNTH_BT), the count of calls at exit to FAILNTH_COUNT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc's own entry points: no dlsym(), which allocates itself. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static unsigned long calls;
static long nth = -1;	/* -1: not read yet; 0: fail nothing */
static char fns[256];
static int from;

static void setup(void)
{
	const char *s = getenv("FAILNTH");
	const char *f = getenv("FAILNTH_FNS");

	from = getenv("FAILNTH_FROM") != NULL;
	if (f)
		snprintf(fns, sizeof(fns), ",%s,", f);
	__atomic_store_n(&nth, s ? atol(s) : 0, __ATOMIC_RELAXED);
}

static void note(const char *fn, unsigned long n)
{
	const char *path = getenv("FAILNTH_LOG");
	char line[96];
	int fd, len;

	if (!path)
		return;
	fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "%lu %s\n", n, fn);
	if (write(fd, line, (size_t)len) < 0)
		len = 0;
	/* backtrace() may allocate: later calls are past FAILNTH. */
	if (getenv("FAILNTH_BT")) {
		void *bt[24];
		backtrace_symbols_fd(bt, backtrace(bt, 24), fd);
	}
	syscall(SYS_close, fd);
}

/* Does this call of @fn fail?  Counted over all threads. */
static int fail(const char *fn)
{
	unsigned long n;
	char key[40];

	if (__atomic_load_n(&nth, __ATOMIC_RELAXED) < 0)
		setup();
	if (fns[0]) {
		snprintf(key, sizeof(key), ",%s,", fn);
		if (!strstr(fns, key))
			return 0;
	}
	n = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
	if ((long)n != nth && !(from && nth > 0 && (long)n > nth))
		return 0;
	if ((long)n == nth)
		note(fn, n);
	return 1;
}

void *malloc(size_t n)
{
	if (fail("malloc")) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (fail("calloc")) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (fail("realloc")) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if ((size && n > (size_t)-1 / size) || fail("reallocarray")) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n * size);
}

void free(void *p)
{
	__libc_free(p);
}

void *mmap(void *a, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fail("mmap")) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return (void *)syscall(SYS_mmap, a, len, prot, flags, fd, off);
}

int pthread_create(pthread_t *t, const pthread_attr_t *a,
		   void *(*f)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *,
			   void *(*)(void *), void *);

	if (fail("pthread_create"))
		return EAGAIN;
	if (!real)
		real = dlsym(RTLD_NEXT, "pthread_create");
	return real(t, a, f, arg);
}

int eventfd(unsigned int v, int flags)
{
	if (fail("eventfd")) {
		errno = EMFILE;
		return -1;
	}
	return (int)syscall(SYS_eventfd2, v, flags);
}

__attribute__((destructor)) static void failnth_count(void)
{
	const char *path = getenv("FAILNTH_COUNT");
	char line[32];
	int fd, len;

	if (!path)
		return;
	fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "%lu\n",
		       __atomic_load_n(&calls, __ATOMIC_SEQ_CST));
	if (write(fd, line, (size_t)len) < 0)
		len = 0;
	syscall(SYS_close, fd);
}
