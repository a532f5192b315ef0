/* qualify.h: strace's system call sets (--trace=SET) and fault injection (--inject=SET:error=...) for syslet-run and its shell. */
#ifndef SYSLET_RUN_QUALIFY_H
#define SYSLET_RUN_QUALIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "libsyslet.h"

/*
 * A set of calls by number, in the native profile's numbering (the one
 * syslet-run's atoms use), umem_add included at the backend's number.
 */
struct srun_set {
	unsigned char	*bits;	/* NULL: every call */
	unsigned long	n;
};

/*
 * strace's syntax: [!]VALUE[,VALUE]..., the ! negating the whole list;
 * VALUE is a call's name, all, none, a class (%file, %desc, %network or
 * %net, %process, %signal, %memory, %ipc, %pure), or /REGEX (POSIX
 * extended, on the names); ?VALUE allows it to match nothing.  Returns 0,
 * or -1 with a message for the user in err ("unknown system call 'reed';
 * did you mean 'read'?").  The set replaces *set's contents.
 */
int srun_set_parse(struct srun_set *set, const char *spec, char *err,
		   size_t errlen);
/* The name of class i (without its '%'), NULL past the last: what a
 * SET's %CLASS may name, for completion. */
const char *srun_set_class(size_t i);
bool srun_set_has(const struct srun_set *set, unsigned long nr);
void srun_set_free(struct srun_set *set);

/*
 * Fault injection rules, as --inject options and the shell's inject
 * command add them: one per number, the later replacing the earlier.
 */
struct srun_inject {
	struct syslet_inject	*rules;
	size_t			n;
};

/*
 * Add SET:error=ERRNO|retval=N[:when=EXPR] (EXPR: N, N+, N+S, N..M,
 * N..M+S, as strace 5 and later).  umem_add is arithmetic, not a call:
 * named, it is an error; a class, negation or regex leaves it out.
 * Returns 0, or -1 with a message in err (nothing added).
 */
int srun_inject_parse(struct srun_inject *inj, const char *spec, char *err,
		      size_t errlen);
/* Hand the rules to libsyslet (the counts start again from 0); 0, or -1
 * with a message in err (the kernel backend cannot inject). */
int srun_inject_apply(const struct srun_inject *inj, char *err,
		      size_t errlen);
void srun_inject_clear(struct srun_inject *inj);
/* One rule as an --inject option would write it ("open:error=ENOENT:
 * when=3+"), into buf. */
void srun_inject_format(char *buf, size_t len, const struct syslet_inject *r);

#endif /* SYSLET_RUN_QUALIFY_H */
