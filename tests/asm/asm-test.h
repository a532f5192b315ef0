/* asm-test.h: helpers shared by the -m32 tests of asm-i386/: TAP output, a seeded PRNG, guarded pages. */
#ifndef SYSLET_ASM_TEST_H
#define SYSLET_ASM_TEST_H

#include <stddef.h>
#include <stdint.h>

/*
 * TAP: "ok N - what" / "not ok N - what", a "1..N" plan at the end and
 * an exit status for automake's harness (0 pass, 1 fail, 99 hard error).
 */
void at_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void at_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((noreturn, format(printf, 1, 2))) void at_bail(const char *fmt,
							      ...);
int at_done(void);

/*
 * Seeded from $SYSLET_ASM_SEED when set (to replay a failure), else
 * from a fixed value; at_init() prints the seed.  Installs the fixup
 * handler too.
 */
void at_init(const char *name);
uint32_t at_rand(void);
uint32_t at_rand_below(uint32_t n);

/*
 * at_pages(n): n read-write pages between two PROT_NONE guard pages,
 * filled with 0x5a, so that (char *)p + n * at_page_size faults.
 * at_protect() changes the protection of pages inside such a block.
 */
extern size_t at_page_size;
void *at_pages(size_t n);
void at_pages_free(void *p, size_t n);
void at_protect(void *p, size_t n, int prot);

/* An address range that no 32-bit process can map (above TASK_SIZE). */
#define AT_KERNEL_ADDR	0xfffff000u

double at_now_ns(void);

#endif /* SYSLET_ASM_TEST_H */
