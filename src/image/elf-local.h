/* elf-local.h: what the .slo ELF reader and writer share (not installed). */
#ifndef SYSLET_IMAGE_ELF_LOCAL_H
#define SYSLET_IMAGE_ELF_LOCAL_H

#include <stdarg.h>
#include <stdio.h>

#include "image/image.h"

#define SLO_ATOM_WORDS	11

/* ELF names of the four allocated sections, indexed by enum slo_section. */
extern const char *const slo_elf_sec_names[SLO_NR_SECTIONS];

/* Format a one-line message into err; always returns -1. */
int slo_elf_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SYSLET_IMAGE_ELF_LOCAL_H */
