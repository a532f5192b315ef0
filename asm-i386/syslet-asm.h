/* syslet-asm.h: interface and register conventions of the i386 syslet assembly routines. */
#ifndef SYSLET_ASM_H
#define SYSLET_ASM_H

/*
 * One header for both builds of asm-i386/syslet_32.S:
 *
 *   kernel  (__KERNEL__ defined): dropped into linux 6.12 as
 *           arch/x86/include/asm/syslet-asm.h, next to
 *           arch/x86/lib/syslet_32.S;
 *   user    (gcc -m32, tests):    the same instruction sequences, with
 *           asm-i386/uasm.h turning the kernel's exception table into a
 *           user-space one that a SIGSEGV/SIGBUS handler consults.
 *
 * Calling convention (i386 only)
 * ------------------------------
 * Both routines are regparm(3), "fastcall" in 2007 terms: the kernel is
 * always built with -mregparm=3 and user space gets the attribute from
 * SYSLET_ASM_CALL, so the assembly never reads its arguments from the
 * stack.  Declaring them asmlinkage would be wrong: that is regparm(0).
 *
 *   routine             %eax in      %edx in     %eax out
 *   syslet_copy_uatom   atom (dst)   uatom (src) 0 or -EFAULT
 *   syslet_umem_add     uptr         inc         new value, or -EFAULT
 *
 *   clobbered: %eax %ecx %edx and the flags, like any C function;
 *   preserved: %ebx %esi %edi %ebp (copy_uatom saves %ebx for its
 *              speculation mask and restores it on every path).
 *
 * Faults: every instruction that touches user memory has an
 * _ASM_EXTABLE_UA entry; the fixup leaves the AC flag clear (ASM_CLAC)
 * and returns -EFAULT.  Addresses outside the user range are refused
 * before any access (no fault is taken for them), and the checked
 * pointer is masked with the sbb/and idiom of getuser.S so that a
 * mispredicted check cannot load from a kernel address.
 *
 * What is in assembly and what is not: syslet_copy_uatom is the whole of
 * the 2007 copy_uatom() (access check of the 44-byte atom, the four head
 * words, then arg_ptr[0..5] followed until the first NULL and the
 * remaining args zeroed); syslet_umem_add is the whole of sys_umem_add()
 * minus the syscall entry: the port's SYSCALL_DEFINE2(umem_add) calls it.
 */

/* Byte offsets, shared by the assembly and the C static checks below. */
#define SYSLET_UATOM_FLAGS	0
#define SYSLET_UATOM_NR		4
#define SYSLET_UATOM_RET_PTR	8
#define SYSLET_UATOM_NEXT	12
#define SYSLET_UATOM_ARG_PTR	16
#define SYSLET_UATOM_PRIVATE	40
#define SYSLET_UATOM_SIZE	44	/* 11 words, private is never read */

#define SYSLET_ATOM_FLAGS	0
#define SYSLET_ATOM_NR		4
#define SYSLET_ATOM_RET_PTR	8
#define SYSLET_ATOM_NEXT	12
#define SYSLET_ATOM_ARGS	16
#define SYSLET_ATOM_SIZE	40

#define SYSLET_NR_ARGS		6

#ifndef __ASSEMBLY__

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#else
#ifndef __user
#define __user
#endif
#endif

struct syslet_uatom;

/*
 * The kernel's private copy of one atom: what copy_uatom fills in.  The
 * port's kernel/syslet.c should use this definition rather than its own,
 * so that the offsets above stay the only truth.
 */
struct syslet_atom {
	unsigned long			flags;
	unsigned long			nr;
	long __user			*ret_ptr;
	struct syslet_uatom __user	*next;
	unsigned long			args[SYSLET_NR_ARGS];
};

#define SYSLET_ASM_CALL __attribute__((regparm(3)))

/*
 * Copy the atom at @uatom into @atom: 0 on success, -EFAULT when the
 * atom or one of the argument cells it points to cannot be read.  On
 * failure @atom holds whatever was copied so far.
 */
SYSLET_ASM_CALL long syslet_copy_uatom(struct syslet_atom *atom,
				       const struct syslet_uatom __user *uatom);

/*
 * umem_add(): @inc == 0 reads *@uptr without writing it (so it works on
 * read-only memory); otherwise adds @inc with lock xadd and returns the
 * new value.  A pointer that is not 4-byte aligned is updated with a
 * plain read-add-write instead, because a locked access that splits a
 * cache line raises #AC in the kernel when split-lock detection is on.
 */
SYSLET_ASM_CALL long syslet_umem_add(unsigned long __user *uptr,
				     unsigned long inc);

#ifdef __KERNEL__
/*
 * Kernel only (syslet_entry_32.S, included from entry_32.S): the first
 * kernel frame of a cachemiss thread.  copy_thread() puts it in
 * inactive_task_frame.ret_addr instead of ret_from_fork_asm; it runs
 * fn(arg) (%ebx, %edi as for kernel threads), stores the result in
 * pt_regs->ax and leaves to user space with the registers that the
 * blocked thread moved into this thread's pt_regs.
 */
void syslet_ret_from_fork_asm(void);
#endif

#define SYSLET_ASM_CHECK(c) _Static_assert(c, #c)
SYSLET_ASM_CHECK(__builtin_offsetof(struct syslet_atom, args) ==
		 SYSLET_ATOM_ARGS);
SYSLET_ASM_CHECK(sizeof(struct syslet_atom) == SYSLET_ATOM_SIZE ||
		 sizeof(long) != 4);
#undef SYSLET_ASM_CHECK

#endif /* !__ASSEMBLY__ */

#endif /* SYSLET_ASM_H */
