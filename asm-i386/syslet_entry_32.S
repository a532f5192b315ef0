/* syslet_entry_32.S: first kernel frame of an i386 cachemiss thread; #included at the end of arch/x86/entry/entry_32.S. */
/*
 * Kernel only.  Copy to arch/x86/entry/syslet_entry_32.S and add, as the
 * last line of arch/x86/entry/entry_32.S:
 *
 *	#include "syslet_entry_32.S"
 *
 * It has to live in that file because it leaves through .Lsyscall_32_done,
 * the local label where entry_32.S restores the user registers and irets
 * (STACKLEAK, entry stack, ESPFIX, user CR3, RESTORE_REGS): those macros
 * exist only there, and duplicating them would be worse than one include.
 * Without CONFIG_SYSLET this file assembles to nothing.
 *
 * What it is for (seed 008's async_thread_helper, redone for 6.12): a
 * cachemiss thread is cloned from the user thread with
 * kernel_clone_args.fn set and no PF_KTHREAD (user_mode_thread()), so
 * copy_thread() gives it a user pt_regs and a kernel frame that runs fn
 * first.  When a syslet blocks, the user context is moved into the
 * parked thread's pt_regs; fn returns and the thread leaves the kernel
 * as if it had made the blocked async_exec() call itself.
 *
 * ret_from_fork_asm already does that much, but forces regs->ax = 0
 * (the NULL that async_exec() returns once a syslet went async), which is
 * all the current port needs: it uses user_mode_thread() and plain
 * ret_from_fork.  This frame is the variant that keeps fn's return value
 * as the call's result, as the 2007 helper did, for a port that wants a
 * pool thread to return something else (an error, a different atom);
 * it is built and checked against 6.12's entry_32.S but optional.
 *
 * How copy_thread() selects it, in arch/x86/kernel/process.c, in the
 * "if (unlikely(args->fn))" branch for user threads:
 *
 *	if (args->syslet)
 *		frame->ret_addr = (unsigned long)syslet_ret_from_fork_asm;
 *
 * Entered by the ret of __switch_to_asm on the new thread's first run,
 * with the registers kthread_frame_init() and __switch_to set up:
 *
 *	%eax	prev, the task switched away from
 *	%ebx	fn, int (*)(void *)
 *	%edi	fn's argument
 *	%esp	this thread's struct pt_regs (top of the kernel stack)
 *
 * Calls: schedule_tail() is asmlinkage (argument on the stack);
 * syscall_exit_to_user_mode() and fn are regparm(3) (argument in %eax).
 * %esi keeps the pt_regs pointer across them (callee-saved).
 */
#ifdef CONFIG_SYSLET

.pushsection .text, "ax"
SYM_CODE_START(syslet_ret_from_fork_asm)
	movl	%esp, %esi		/* pt_regs */

	/* return address for the stack unwinder, and our way out */
	pushl	$.Lsyscall_32_done

	FRAME_BEGIN
	pushl	%eax			/* prev */
	call	schedule_tail
	addl	$4, %esp

	movl	%edi, %eax		/* fn(arg) */
	CALL_NOSPEC ebx

	/* the moved user context sees this as async_exec()'s result */
	movl	%eax, PT_EAX(%esi)

	movl	%esi, %eax
	call	syscall_exit_to_user_mode
	FRAME_END

	RET				/* to .Lsyscall_32_done */
SYM_CODE_END(syslet_ret_from_fork_asm)
.popsection

#endif /* CONFIG_SYSLET */
