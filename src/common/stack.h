/* stack.h: run a program's main on a stack deep enough for the compiler and the engine's fault checks, whatever `ulimit -s` says. */
#ifndef SYSLET_COMMON_STACK_H
#define SYSLET_COMMON_STACK_H

/*
 * The parser, the lowering passes and libelf's writer recurse or keep
 * large frames: the deepest program sysletc accepts needs about 1 MiB of
 * stack, and a plain one about 48 KiB, so `ulimit -s 32` (or 256 for a
 * deeply nested one) ended sysletc and syslet-run with SIGSEGV.  As gcc
 * does, the soft limit is raised first; where the hard limit forbids
 * that, @fn runs on a thread of its own with a stack of that size while
 * the first thread waits with every signal blocked, so that the
 * process's signals still reach @fn's thread.  Threads created later
 * without a stack size get at least 256 KiB, whatever the limit was when
 * the program started.  Returns @fn's value.
 */
int common_stack_main(int (*fn)(int argc, char **argv), int argc,
		      char **argv);

#endif
