/* asm-test.c: TAP output, the seeded PRNG and guarded page blocks for the asm-i386 tests. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "uasm.h"
#include "asm-test.h"

#define AT_DEFAULT_SEED 0x5a5137ULL

static unsigned int at_count, at_failed;
static uint64_t at_state;
size_t at_page_size;

void at_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	at_count++;
	if (!cond)
		at_failed++;
	printf("%sok %u - ", cond ? "" : "not ", at_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void at_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void at_bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(99);
}

int at_done(void)
{
	printf("1..%u\n", at_count);
	if (at_failed)
		at_diag("%u of %u failed", at_failed, at_count);
	return at_failed ? 1 : 0;
}

void at_init(const char *name)
{
	const char *s = getenv("SYSLET_ASM_SEED");
	int err;

	at_state = AT_DEFAULT_SEED;
	if (s && *s) {
		char *end;

		errno = 0;
		at_state = strtoull(s, &end, 0);
		if (errno || *end)
			at_bail("SYSLET_ASM_SEED=%s is not a number", s);
	}
	at_diag("%s: seed 0x%" PRIx64 " (set SYSLET_ASM_SEED to replay)",
		name, at_state);
	at_page_size = (size_t)sysconf(_SC_PAGESIZE);
	err = uasm_fixup_install();
	if (err)
		at_bail("cannot install the fault handler: %s", strerror(-err));
}

/* splitmix64: tiny, good enough, and the same sequence everywhere. */
uint32_t at_rand(void)
{
	uint64_t z = (at_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

uint32_t at_rand_below(uint32_t n)
{
	return (uint32_t)(((uint64_t)at_rand() * n) >> 32);
}

void *at_pages(size_t n)
{
	size_t ps = at_page_size;
	char *p;

	p = mmap(NULL, (n + 2) * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		at_bail("mmap of %zu pages: %s", n + 2, strerror(errno));
	if (mprotect(p + ps, n * ps, PROT_READ | PROT_WRITE))
		at_bail("mprotect: %s", strerror(errno));
	memset(p + ps, 0x5a, n * ps);
	return p + ps;
}

void at_pages_free(void *p, size_t n)
{
	munmap((char *)p - at_page_size, (n + 2) * at_page_size);
}

void at_protect(void *p, size_t n, int prot)
{
	if (mprotect(p, n * at_page_size, prot))
		at_bail("mprotect: %s", strerror(errno));
}

double at_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
