/* sysletc.h: the compiler library as programs that compile sources use it (syslet-run and its shell): source text in, the bytes of an image out. */
#ifndef SYSLET_SYSLETC_H
#define SYSLET_SYSLETC_H

/*
 * Nothing of the compiler's model shows here: the image comes back as
 * the bytes of a .slo file, which libsyslet opens
 * (syslet_obj__open_mem()) as it would a file from disk, through the
 * same checks.  compiler.h is the library's inside, for sysletc and the
 * compiler's tests.
 */

#include <stddef.h>
#include <stdio.h>

/*
 * Compile the source src of len bytes, named file in diagnostics, for
 * the machine this runs on, with sysletc's default warnings.  The
 * diagnostics go to diags as sysletc prints them.  Returns 0 with the
 * image in *elf (free() it) of *elf_len bytes; the number of errors
 * reported on diags (> 0); or -errno when the image could not be turned
 * into bytes, with a line in err.
 */
int sysletc_compile_mem(const char *file, const char *src, size_t len,
			FILE *diags, void **elf, size_t *elf_len, char *err,
			size_t errlen);

/* Every name the language gives a meaning before any declaration:
 * keywords, built-ins and predefined constants, for completion (the
 * same declaration as compiler.h's). */
void sysletc_words(void (*add)(void *ctx, const char *word), void *ctx);

#endif /* SYSLET_SYSLETC_H */
