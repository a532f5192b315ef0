/* emul-fault.h: fault-safe loads and stores of user memory for the emul engine (kernel-style fixup table). */
#ifndef SYSLET_EMUL_FAULT_H
#define SYSLET_EMUL_FAULT_H

#include <errno.h>

/*
 * The engine reads atoms and arguments through pointers that may be
 * garbage and must answer -EFAULT, not crash.  A syscall per access
 * (process_vm_readv) costs ~200 ns and sigsetjmp per atom a few ns; like
 * the kernel's __get_user we instead emit each access as one instruction
 * listed in an exception table (section emul_extab, entries relative
 * to themselves so the table needs no relocation).  The SIGSEGV/SIGBUS
 * handler (emul-fault.c) looks the faulting address up and resumes at the
 * entry's fixup, which sets the error.  On valid memory an access costs
 * exactly the load or store.
 */
/*
 * Where user space ends for the kernel's access_ok(): TASK_SIZE, which
 * depends on the kernel, not on this build: 47 bits on x86_64 with
 * 4-level page tables, 56 with 5 (la57); 0xffffe000 for a 32-bit
 * process under a 64-bit kernel; PAGE_OFFSET under an i386 kernel
 * (3 GiB by default, 1 GiB at least).  A range that ends at or below
 * EMUL_USER_TOP_MIN, the least of these for the ABI, is in user space on
 * any kernel; past it, emul_user_top() asks this kernel once
 * (emul-fault.c).  A range that wraps round is never in it.
 */
#if defined(__x86_64__)
#define EMUL_USER_TOP_MIN	0x00007ffffffff000UL
#else
#define EMUL_USER_TOP_MIN	0x40000000UL
#endif

/* The first address past user space for this process (TASK_SIZE). */
unsigned long emul_user_top(void);
/* emul_user_top()'s answer once found, else 0. */
extern unsigned long emul__user_top __attribute__((visibility("hidden")));

/* access_ok(p, len): whether [p, p + len) lies in user space.  In a
 * 32-bit process most ranges (the stack, the mmap area) end past
 * EMUL_USER_TOP_MIN: they read the cached top here, and call out only
 * until it is found. */
static inline int emul_range_ok(const void *p, unsigned long len)
{
	unsigned long a = (unsigned long)p, e = a + len, top;

	if (__builtin_expect(e < a, 0))
		return 0;
	if (__builtin_expect(e <= EMUL_USER_TOP_MIN, 1))
		return 1;
	top = __atomic_load_n(&emul__user_top, __ATOMIC_RELAXED);
	return e <= (top ? top : emul_user_top());
}

/* What the engine loads and stores: any object may be seen as words. */
typedef unsigned long __attribute__((may_alias)) emul_word;

#define EMUL__EXTAB(insn, fixup)                                        \
	".pushsection emul_extab,\"a\"\n\t"                           \
	".balign 4\n\t"                                                 \
	".long " #insn " - .\n\t"                                       \
	".long " #fixup " - .\n\t"                                      \
	".popsection\n\t"

/* *val = *p; returns 0, or -EFAULT (and *val = 0). */
static inline __attribute__((always_inline)) int
emul_get(unsigned long *val, const void *p)
{
	int err = 0;
	unsigned long v;

	__asm__("1:	mov %[m], %[v]\n\t"
			 "2:\n\t"
			 ".pushsection .text.emul_fixup,\"ax\"\n\t"
			 "3:	mov %[ef], %[err]\n\t"
			 "	xor %[v], %[v]\n\t"
			 "	jmp 2b\n\t"
			 ".popsection\n\t"
			 EMUL__EXTAB(1b, 3b)
			 : [err] "+r"(err), [v] "=r"(v)
			 : [m] "m"(*(const emul_word *)p), [ef] "i"(-EFAULT));
	*val = v;
	return err;
}

/* val = *p, or on a fault a jump to the C label @fault (the fixup is the
 * label itself: no error register to set and test on the way). */
#define EMUL_GET_OR_GOTO(val, p, fault)                                 \
	__asm__ goto("1:	mov %[m], %[v]\n\t"                          \
		     EMUL__EXTAB(1b, %l[fault])                         \
		     : [v] "=r"(val)                                    \
		     : [m] "m"(*(const emul_word *)(p))             \
		     :                                                  \
		     : fault)

/* *p = val; returns 0 or -EFAULT. */
static inline __attribute__((always_inline)) int
emul_put(void *p, unsigned long val)
{
	int err = 0;

	__asm__ volatile("1:	mov %[v], %[m]\n\t"
			 "2:\n\t"
			 ".pushsection .text.emul_fixup,\"ax\"\n\t"
			 "3:	mov %[ef], %[err]\n\t"
			 "	jmp 2b\n\t"
			 ".popsection\n\t"
			 EMUL__EXTAB(1b, 3b)
			 : [err] "+r"(err), [m] "=m"(*(emul_word *)p)
			 : [v] "r"(val), [ef] "i"(-EFAULT));
	return err;
}

/* Install the fault handler (once; chains to the previous one for faults
 * outside the table).  0 or -errno. */
int emul_fault_init(void);
/* Make sure the handler is still the installed one (two rt_sigaction
 * queries); one that replaced it becomes the program's disposition, to
 * which faults outside the table go (emul-fault.c). */
void emul_fault_own(void);

#endif /* SYSLET_EMUL_FAULT_H */
