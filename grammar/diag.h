/* diag.h: compiler diagnostics as records (file:line:col: error: with the source line and a caret), queued until the caller prints them. */
#ifndef SYSLET_DIAG_H
#define SYSLET_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

struct diag_loc {
	unsigned int	line;	/* 1-based; 0 = no position */
	unsigned int	col;	/* 1-based */
	unsigned int	len;	/* caret width, at least 1 */
};

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/* "previous definition was here": printed under its record. */
struct diag_note {
	struct diag_loc	loc;
	char		*msg;
};

/*
 * One diagnostic, as nftables' error records: a message at a location,
 * optionally a second location it is about (marked with '~' under its
 * own line, or under the same line as the caret), and notes.  Stages
 * queue records; whoever called them decides where and when they are
 * printed (sysletc on stderr, the shell after renumbering lines, a
 * probe of the shell's input nowhere).
 */
struct diag_rec {
	enum diag_level		lvl;
	struct diag_loc		loc;
	struct diag_loc		loc2;	/* line 0: none */
	char			*msg;
	struct diag_note	*notes;
	size_t			nr_notes;
	size_t			seq;	/* order of report, for stable sorts */
};

/* Collects every diagnostic of one source; never exits. */
struct diag {
	const char	*file;
	const char	*src;	/* the whole source, for the quoted line */
	size_t		len;
	FILE		*out;	/* where diag_flush() prints */
	unsigned int	errors;
	unsigned int	warnings;
	unsigned int	internal;	/* errors that are the compiler's bugs:
					 * "internal error..." */
	int		werror;	/* -Werror: warnings count as errors */
	/* diag_print() stops after this many errors, as gcc's
	 * -fmax-errors, and says how many more there were; 0: all. */
	unsigned int	max_errors;
	struct diag_rec	*recs;
	size_t		nr_recs, cap_recs;
	size_t		seq;
	/* Where the last quoted line began, so that diagnostics in source
	 * order find their lines in one pass over the text. */
	unsigned int	seen_line;
	size_t		seen_off;
	size_t		seen_len;	/* its length, CR excluded */
};

void diag_init(struct diag *d, const char *file, const char *src, size_t len,
	       FILE *out);
/* Queue a record (counted at once in errors/warnings). */
void diag_report(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_vreport(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		  const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* The same, with a second location the message is about. */
void diag_report2(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		  struct diag_loc loc2, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A note under the last record queued (a record of its own if none). */
void diag_note(struct diag *d, struct diag_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_vnote(struct diag *d, struct diag_loc loc, const char *fmt,
		va_list ap) __attribute__((format(printf, 3, 0)));
/* Order the records from index `from` on by position (stable): a stage
 * that reports out of source order sorts what it added. */
void diag_sort(struct diag *d, size_t from);
/* Print every queued record to f, or drop them; both leave the counts. */
void diag_print(struct diag *d, FILE *f);
void diag_clear(struct diag *d);
/* diag_print() to d->out, then diag_clear(). */
void diag_flush(struct diag *d);

#endif /* SYSLET_DIAG_H */
