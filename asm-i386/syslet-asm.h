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
 * The kernel prototype may take the user atom as unsigned long (as the
 * port's does) or as a __user pointer: the register is the same.
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
/*
 * In the kernel the port's <linux/syslet.h> owns struct syslet_atom and
 * declares syslet_copy_uatom()/syslet_umem_add() (the kernel is built
 * with -mregparm=3, so its plain prototypes match the registers above);
 * this header only pins the layout the assembly relies on.
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/syslet.h>

static_assert(offsetof(struct syslet_atom, flags) == SYSLET_ATOM_FLAGS);
static_assert(offsetof(struct syslet_atom, nr) == SYSLET_ATOM_NR);
static_assert(offsetof(struct syslet_atom, ret_ptr) == SYSLET_ATOM_RET_PTR);
static_assert(offsetof(struct syslet_atom, next) == SYSLET_ATOM_NEXT);
static_assert(offsetof(struct syslet_atom, args) == SYSLET_ATOM_ARGS);
static_assert(sizeof(struct syslet_atom) == SYSLET_ATOM_SIZE);
static_assert(sizeof(struct syslet_uatom) == SYSLET_UATOM_SIZE);

/*
 * syslet_entry_32.S (optional, included from entry_32.S): a first kernel
 * frame for pool threads that returns fn's result to user space instead
 * of the 0 that ret_from_fork() forces.  See that file.
 */
void syslet_ret_from_fork_asm(void);

#else /* !__KERNEL__: the user-space build of the same routines */

/* The same ten words as the port's struct syslet_atom. */
struct syslet_atom {
	unsigned long	flags;
	unsigned long	nr;
	unsigned long	ret_ptr;
	unsigned long	next;
	unsigned long	args[SYSLET_NR_ARGS];
};

_Static_assert(__builtin_offsetof(struct syslet_atom, args) ==
		       SYSLET_ATOM_ARGS,
	       "syslet_atom layout");
_Static_assert(sizeof(struct syslet_atom) == SYSLET_ATOM_SIZE,
	       "syslet_atom is ten 32-bit words");

#define SYSLET_ASM_CALL __attribute__((regparm(3)))

/*
 * Copy the atom at @uatom into @atom: 0 on success, -EFAULT when the
 * atom or one of the argument cells it points to cannot be read.  On
 * failure @atom holds whatever was copied so far.
 */
SYSLET_ASM_CALL long syslet_copy_uatom(struct syslet_atom *atom,
				       const void *uatom);

/*
 * umem_add(): @inc == 0 reads *@uptr without writing it (so it works on
 * read-only memory); otherwise adds @inc with lock xadd and returns the
 * new value.  A pointer that is not 4-byte aligned is updated with a
 * plain read-add-write instead, because a locked access that splits a
 * cache line raises #AC in the kernel when split-lock detection is on.
 */
SYSLET_ASM_CALL long syslet_umem_add(unsigned long *uptr, unsigned long inc);

#endif /* __KERNEL__ */

#endif /* !__ASSEMBLY__ */

#endif /* SYSLET_ASM_H */
