/* diag.h: compiler diagnostics: file:line:col: error: with the source line and a caret. */
#ifndef SYSLET_DIAG_H
#define SYSLET_DIAG_H

#include <stdio.h>

struct diag_loc {
	unsigned int	line;	/* 1-based; 0 = no position */
	unsigned int	col;	/* 1-based */
	unsigned int	len;	/* caret width, at least 1 */
};

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/* Collects every diagnostic of one source; never exits. */
struct diag {
	const char	*file;
	const char	*src;	/* the whole source, for the quoted line */
	size_t		len;
	FILE		*out;
	unsigned int	errors;
	unsigned int	warnings;
	unsigned int	internal;	/* errors that are the compiler's bugs:
					 * "internal error..." */
	int		werror;	/* -Werror: warnings count as errors */
	/* Where the last quoted line began, so that diagnostics in source
	 * order find their lines in one pass over the text. */
	unsigned int	seen_line;
	size_t		seen_off;
};

void diag_init(struct diag *d, const char *file, const char *src, size_t len,
	       FILE *out);
void diag_report(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* SYSLET_DIAG_H */
