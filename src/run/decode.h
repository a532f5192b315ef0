/* decode.h: strace-like rendering of a syscall's arguments for syslet-run --trace. */
#ifndef SYSLET_RUN_DECODE_H
#define SYSLET_RUN_DECODE_H

#include <stdio.h>

/*
 * Print "name(arg, ...)" for a syscall that ran with args[0..nargs-1]
 * and returned result: strings for the pointer arguments known to be
 * strings, flags by name where known, hex for the rest.  Memory is read
 * in a way that survives bad pointers (they print as hex).
 */
void srun_decode_call(FILE *out, const char *name, long nr,
		      const unsigned long *args, int nargs, long result);

/*
 * A call shown in parts, as strace shows one that blocks: ENTER prints
 * the arguments it reads, up to the first it writes ("read(3, "); CONT
 * the rest of that line once it returned ("\"abc\", 16)"), when nothing
 * came between; otherwise the entered line ends " <unfinished ...>" and
 * EXIT starts a line of its own: "<... read resumed>\"abc\", 16)".
 */
enum srun_call_part { SRUN_CALL_WHOLE, SRUN_CALL_ENTER, SRUN_CALL_CONT,
		       SRUN_CALL_EXIT };
void srun_decode_part(FILE *out, const char *name, long nr,
		      const unsigned long *args, int nargs, long result,
		      enum srun_call_part part);

/* Print s (at most max bytes of it) as a C string literal, "..." after
 * when longer; 0, or -1 when the memory cannot be read. */
int srun_print_mem_string(FILE *out, unsigned long addr, size_t len,
			  size_t max, int nul_ends);

#endif /* SYSLET_RUN_DECODE_H */
