/* uasm.h: user-space stand-ins for the kernel macros used by syslet_32.S, and the fault-fixup runtime. */
#ifndef SYSLET_UASM_H
#define SYSLET_UASM_H

/*
 * The kernel build of syslet_32.S uses <linux/linkage.h>, <asm/asm.h>
 * and <asm/smap.h>; this header gives the user-space build the same
 * names so that the instruction sequences are the same:
 *
 *   SYM_FUNC_START/END   plain global (hidden) functions;
 *   _ASM_EXTABLE_UA      an entry in section __syslet_ex_table, laid out
 *                        as the kernel's struct exception_table_entry
 *                        (insn and fixup relative to the entry, type);
 *   ASM_STAC/ASM_CLAC    nothing: STAC and CLAC are ring-0 only, and a
 *                        process has no SMAP to open;
 *   RET                  ret (no return thunk);
 *   TASK_SIZE_MAX        the top of a 32-bit process on x86_64 kernels
 *                        (IA32_PAGE_OFFSET), so the range checks refuse
 *                        exactly the addresses a process cannot map.
 *
 * A fault on an instruction listed in the table is turned by
 * uasm_fixup_install()'s SIGSEGV/SIGBUS handler into a jump to its fixup
 * address, as the kernel's fixup_exception() does.  Any other fault is
 * re-raised with the default action, like an oops.
 */

/* gcc says __ASSEMBLER__ for .S files; the kernel's Makefiles say this. */
#if defined(__ASSEMBLER__) && !defined(__ASSEMBLY__)
#define __ASSEMBLY__ 1
#endif

#define SYSLET_UASM_TASK_SIZE_MAX	0xffffe000
#define SYSLET_UASM_EFAULT		14
#define SYSLET_UASM_EX_SECTION		"__syslet_ex_table"
#define SYSLET_UASM_EX_TYPE_UACCESS	3	/* EX_TYPE_UACCESS in 6.12 */

#ifdef __ASSEMBLY__

#define TASK_SIZE_MAX	SYSLET_UASM_TASK_SIZE_MAX
#define EFAULT		SYSLET_UASM_EFAULT

#define SYM_FUNC_START(name)					\
	.text ;							\
	.p2align 4 ;						\
	.globl name ;						\
	.hidden name ;						\
	.type name, @function ;					\
name:

#define SYM_FUNC_END(name)					\
	.size name, . - name

#define _ASM_EXTABLE_UA(from, to)				\
	.pushsection SYSLET_UASM_EX_SECTION, "a" ;		\
	.balign 4 ;						\
	.long (from) - . ;					\
	.long (to) - . ;					\
	.long SYSLET_UASM_EX_TYPE_UACCESS ;			\
	.popsection

#define ASM_STAC
#define ASM_CLAC
#define RET	ret

#else /* !__ASSEMBLY__ */

#include <stddef.h>
#include <stdint.h>

/* One entry of __syslet_ex_table; offsets are relative to the field. */
struct uasm_extable {
	int32_t insn;
	int32_t fixup;
	int32_t type;
};

/*
 * Install the SIGSEGV and SIGBUS handlers (on an alternate stack, so a
 * fault near the stack's end is still caught).  0, or -errno.
 */
int uasm_fixup_install(void);

/* Fixup address for a faulting instruction address, or 0. */
uintptr_t uasm_fixup_lookup(uintptr_t ip);

/* Number of faults fixed up so far (the counter only grows). */
unsigned long uasm_fault_count(void);

/* Entries in the table, for tests of the table itself. */
size_t uasm_extable_size(void);

static inline int uasm_access_ok(const void *p, unsigned long size)
{
	unsigned long a = (unsigned long)p;

	return size <= SYSLET_UASM_TASK_SIZE_MAX &&
	       a <= SYSLET_UASM_TASK_SIZE_MAX - size;
}

#define UASM_STR_(x) #x
#define UASM_STR(x) UASM_STR_(x)

#define UASM_EXTABLE(from, to)						\
	".pushsection " UASM_STR(SYSLET_UASM_EX_SECTION) ",\"a\"\n"	\
	"	.balign 4\n"						\
	"	.long (" #from ") - .\n"				\
	"	.long (" #to ") - .\n"					\
	"	.long " UASM_STR(SYSLET_UASM_EX_TYPE_UACCESS) "\n"	\
	".popsection\n"

/*
 * __get_user()/__put_user() for 32-bit words, the way kernels before
 * 5.17 wrote them: the fixup sits out of line in its own section, sets
 * the error and (for a load) zeroes the value, then jumps back.
 */
static inline int uasm_get_u32(uint32_t *val, const void *uptr)
{
	int err = 0;
	uint32_t v;

	__asm__ volatile("1:	movl (%2), %1\n"
			 "2:\n"
			 "	.pushsection .text.syslet_fixup,\"ax\"\n"
			 "3:	movl %3, %0\n"
			 "	xorl %1, %1\n"
			 "	jmp 2b\n"
			 "	.popsection\n"
			 UASM_EXTABLE(1b, 3b)
			 : "+r"(err), "=&r"(v)
			 : "r"(uptr), "i"(-SYSLET_UASM_EFAULT)
			 : "memory");
	*val = v;
	return err;
}

static inline int uasm_put_u32(uint32_t val, void *uptr)
{
	int err = 0;

	__asm__ volatile("1:	movl %1, (%2)\n"
			 "2:\n"
			 "	.pushsection .text.syslet_fixup,\"ax\"\n"
			 "3:	movl %3, %0\n"
			 "	jmp 2b\n"
			 "	.popsection\n"
			 UASM_EXTABLE(1b, 3b)
			 : "+r"(err)
			 : "r"(val), "r"(uptr), "i"(-SYSLET_UASM_EFAULT)
			 : "memory");
	return err;
}

#endif /* __ASSEMBLY__ */

#endif /* SYSLET_UASM_H */
