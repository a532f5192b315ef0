/* usertop.h: where user space ends (TASK_SIZE, as access_ok() sees it), found with mmap; for the runtime tests and the differential test's reference. */
#ifndef RT_USERTOP_H
#define RT_USERTOP_H

#include <errno.h>
#include <sys/mman.h>

/* 1: the page at @pg lies below TASK_SIZE (mmap of it gives EEXIST or
 * works); 0: past it (ENOMEM); -1: the kernel says neither. */
static inline int rt_page_user(unsigned long pg)
{
	void *m = mmap((void *)pg, 4096, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       MAP_FIXED_NOREPLACE, -1, 0);

	if (m == MAP_FAILED)
		return errno == EEXIST ? 1 : errno == ENOMEM ? 0 : -1;
	munmap(m, 4096);
	return m == (void *)pg ? 1 : -1;
}

/*
 * TASK_SIZE, which the kernel decides (47 or 56 bits on x86_64;
 * 0xffffe000 for a 32-bit process under a 64-bit kernel, PAGE_OFFSET
 * under an i386 one): mmap(MAP_FIXED_NOREPLACE) of one page fails with
 * ENOMEM exactly where the page ends past it, so a binary search between
 * a page known to be in user space (this frame's: EEXIST) and the last
 * page of the address space.  0 where the kernel answers otherwise
 * (before 4.17 the flag is only a hint).
 */
static inline unsigned long rt_user_top(void)
{
	unsigned long lo = (unsigned long)__builtin_frame_address(0) & ~4095UL;
	unsigned long hi = ~4095UL, mid;
	int k;

	if (rt_page_user(lo) != 1 || rt_page_user(hi) != 0)
		return 0;
	while (hi - lo > 4096) {
		mid = lo + (((hi - lo) / 2) & ~4095UL);
		k = rt_page_user(mid);
		if (k < 0)
			return 0;
		if (k)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

#endif /* RT_USERTOP_H */
