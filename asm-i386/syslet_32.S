/* syslet_32.S: copy_uatom and umem_add for i386, built into the kernel and, unchanged, into user-space tests. */
/*
 * Kernel: copy to arch/x86/lib/syslet_32.S (and syslet-asm.h to
 * arch/x86/include/asm/), then in arch/x86/lib/Makefile, inside the
 * "ifeq ($(CONFIG_X86_32),y)" block:
 *
 *	obj-$(CONFIG_SYSLET) += syslet_32.o
 *
 * (obj-, not lib-: a lib.a member would lose to the __weak C versions.)
 *
 * User space: gcc -m32 -c -I asm-i386 syslet_32.S; uasm.h supplies the
 * kernel macros, uasm-fixup.c the exception-table handler.
 *
 * Register conventions and semantics are in syslet-asm.h.  Everything
 * here follows arch/x86/lib/getuser.S of 6.12: range check against
 * TASK_SIZE_MAX before the access, sbb/and to clamp the pointer under
 * speculation, user accesses bracketed by ASM_STAC/ASM_CLAC, one
 * _ASM_EXTABLE_UA entry per faulting instruction.
 */
#ifdef __KERNEL__
#include <linux/linkage.h>
#include <asm/errno.h>
#include <asm/page_types.h>
#include <asm/asm.h>
#include <asm/smap.h>
#include <asm/syslet-asm.h>
#else
#include "uasm.h"
#include "syslet-asm.h"
#endif

/*
 * Copy one head word of the user atom (%edx) to the kernel atom (%eax),
 * through %ecx.
 */
.macro SYSLET_COPY_WORD uoff:req, koff:req
10:	movl	\uoff(%edx), %ecx
	_ASM_EXTABLE_UA(10b, .Lcopy_uatom_fault)
	movl	%ecx, \koff(%eax)
.endm

/*
 * args[i] = *arg_ptr[i], or, at the first NULL arg_ptr, go and zero the
 * args from i on.  The range check refuses a cell that would end above
 * TASK_SIZE_MAX; sbb turns its carry into an all-ones mask in %ebx, so
 * a mispredicted check loads from address 0, never from the kernel.
 */
.macro SYSLET_FETCH_ARG i:req
11:	movl	(SYSLET_UATOM_ARG_PTR + 4 * \i)(%edx), %ecx
	_ASM_EXTABLE_UA(11b, .Lcopy_uatom_fault)
	testl	%ecx, %ecx
	jz	.Lcopy_uatom_zero\i
	cmpl	$(TASK_SIZE_MAX - 4 + 1), %ecx
	jae	.Lcopy_uatom_fault
	sbbl	%ebx, %ebx
	andl	%ebx, %ecx
12:	movl	(%ecx), %ecx
	_ASM_EXTABLE_UA(12b, .Lcopy_uatom_fault)
	movl	%ecx, (SYSLET_ATOM_ARGS + 4 * \i)(%eax)
.endm

	.text

/* long syslet_copy_uatom(struct syslet_atom *atom [%eax], uatom [%edx]) */
SYM_FUNC_START(syslet_copy_uatom)
	/* access_ok(uatom, sizeof(*uatom)), as the 2007 C version */
	cmpl	$(TASK_SIZE_MAX - SYSLET_UATOM_SIZE + 1), %edx
	jae	.Lcopy_uatom_range
	sbbl	%ecx, %ecx
	andl	%ecx, %edx
	pushl	%ebx
	ASM_STAC

	SYSLET_COPY_WORD SYSLET_UATOM_FLAGS,	SYSLET_ATOM_FLAGS
	SYSLET_COPY_WORD SYSLET_UATOM_NR,	SYSLET_ATOM_NR
	SYSLET_COPY_WORD SYSLET_UATOM_RET_PTR,	SYSLET_ATOM_RET_PTR
	SYSLET_COPY_WORD SYSLET_UATOM_NEXT,	SYSLET_ATOM_NEXT

	SYSLET_FETCH_ARG 0
	SYSLET_FETCH_ARG 1
	SYSLET_FETCH_ARG 2
	SYSLET_FETCH_ARG 3
	SYSLET_FETCH_ARG 4
	SYSLET_FETCH_ARG 5
	jmp	.Lcopy_uatom_done

	/*
	 * Entered at the first NULL arg_ptr, with %ecx == 0: most atoms
	 * have fewer than six arguments, so they fall through to the end.
	 */
.Lcopy_uatom_zero0:
	movl	%ecx, (SYSLET_ATOM_ARGS + 0)(%eax)
.Lcopy_uatom_zero1:
	movl	%ecx, (SYSLET_ATOM_ARGS + 4)(%eax)
.Lcopy_uatom_zero2:
	movl	%ecx, (SYSLET_ATOM_ARGS + 8)(%eax)
.Lcopy_uatom_zero3:
	movl	%ecx, (SYSLET_ATOM_ARGS + 12)(%eax)
.Lcopy_uatom_zero4:
	movl	%ecx, (SYSLET_ATOM_ARGS + 16)(%eax)
.Lcopy_uatom_zero5:
	movl	%ecx, (SYSLET_ATOM_ARGS + 20)(%eax)
.Lcopy_uatom_done:
	ASM_CLAC
	popl	%ebx
	xorl	%eax, %eax
	RET

	/* A fault or a refused arg_ptr: AC still set, %ebx still pushed. */
.Lcopy_uatom_fault:
	ASM_CLAC
	popl	%ebx
.Lcopy_uatom_range:
	movl	$-EFAULT, %eax
	RET
SYM_FUNC_END(syslet_copy_uatom)

/* long syslet_umem_add(unsigned long *uptr [%eax], unsigned long inc [%edx]) */
SYM_FUNC_START(syslet_umem_add)
	cmpl	$(TASK_SIZE_MAX - 4 + 1), %eax
	jae	.Lumem_add_range
	sbbl	%ecx, %ecx
	andl	%ecx, %eax
	movl	%edx, %ecx
	ASM_STAC
	testl	%ecx, %ecx
	jz	.Lumem_add_read
	testb	$3, %al
	jnz	.Lumem_add_unaligned
	/* %edx becomes the old value; the new one is old + inc */
20:	lock xaddl %edx, (%eax)
	_ASM_EXTABLE_UA(20b, .Lumem_add_fault)
	ASM_CLAC
	leal	(%edx, %ecx), %eax
	RET

	/* inc == 0 only reads: no write fault on read-only memory */
.Lumem_add_read:
21:	movl	(%eax), %eax
	_ASM_EXTABLE_UA(21b, .Lumem_add_fault)
	ASM_CLAC
	RET

	/*
	 * Not atomic, as the 2007 C version: a locked access split across
	 * cache lines is a fatal #AC for the kernel under split-lock
	 * detection.  A faulting store writes nothing, so a failed update
	 * leaves memory as it was.
	 */
.Lumem_add_unaligned:
22:	movl	(%eax), %edx
	_ASM_EXTABLE_UA(22b, .Lumem_add_fault)
	addl	%ecx, %edx
23:	movl	%edx, (%eax)
	_ASM_EXTABLE_UA(23b, .Lumem_add_fault)
	ASM_CLAC
	movl	%edx, %eax
	RET

.Lumem_add_fault:
	ASM_CLAC
.Lumem_add_range:
	movl	$-EFAULT, %eax
	RET
SYM_FUNC_END(syslet_umem_add)

#ifndef __KERNEL__
	.section .note.GNU-stack, "", @progbits
#endif
