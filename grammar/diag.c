/* diag.c: print diagnostics with the offending source line and a caret under it. */
#define _GNU_SOURCE	/* memrchr */
#include <stdarg.h>
#include <string.h>

#include "grammar/diag.h"

void diag_init(struct diag *d, const char *file, const char *src, size_t len,
	       FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->file = file;
	d->src = src;
	d->len = len;
	d->out = out;
}

/*
 * Start and length of line `line` (1-based), or NULL past the end.  The
 * search starts from the last line found, forwards or backwards: the
 * parser reports in source order, lowering (which goes back to front)
 * in reverse, so either way the text is walked about once in all.
 */
static const char *find_line(struct diag *d, unsigned int line, size_t *n)
{
	const char *p = d->src, *end = d->src + d->len, *nl;
	unsigned int at = 1;

	if (!p || line == 0)
		return NULL;
	if (d->seen_line && d->seen_off <= d->len) {
		p = d->src + d->seen_off;
		at = d->seen_line;
	}
	/* Backwards: each step finds the newline that ends the line before. */
	for (; at > line; at--) {
		nl = p > d->src ? memrchr(d->src, '\n', (size_t)(p - 1 - d->src))
				: NULL;
		p = nl ? nl + 1 : d->src;
	}
	for (; at < line; at++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	d->seen_line = line;
	d->seen_off = (size_t)(p - d->src);
	nl = memchr(p, '\n', (size_t)(end - p));
	*n = (size_t)((nl ? nl : end) - p);
	/* The CR of a CRLF line end is the end, not a byte to show. */
	if (nl && *n && p[*n - 1] == '\r')
		(*n)--;
	return p;
}

/* Long lines (minified or binary input) are shown as a window of
 * QUOTE_WIDTH bytes around the caret, with "..." where cut. */
#define QUOTE_WIDTH	160

static void quote_line(struct diag *d, struct diag_loc loc)
{
	size_t n, i, from = 0, to;
	const char *p = find_line(d, loc.line, &n);
	int cut_left = 0;

	if (!p)
		return;
	to = n;
	if (n > QUOTE_WIDTH) {
		if (loc.col > QUOTE_WIDTH / 2) {
			from = loc.col - QUOTE_WIDTH / 2;
			if (from > n)
				from = n;
			cut_left = 1;
		}
		to = from + QUOTE_WIDTH < n ? from + QUOTE_WIDTH : n;
	}
	if (cut_left)
		fputs("...", d->out);
	/* Non-printing bytes are shown as '?' so the caret stays aligned
	 * and hostile input cannot drive the terminal. */
	for (i = from; i < to; i++) {
		unsigned char c = (unsigned char)p[i];

		fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', d->out);
	}
	if (to < n)
		fputs("...", d->out);
	fputc('\n', d->out);
	if (cut_left)
		fputs("   ", d->out);
	for (i = from + 1; i < loc.col && i <= to; i++)
		fputc(p[i - 1] == '\t' ? '\t' : ' ', d->out);
	fputc('^', d->out);
	for (i = 1; i < loc.len && loc.col + i <= to; i++)
		fputc('~', d->out);
	fputc('\n', d->out);
}

void diag_report(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		 const char *fmt, ...)
{
	static const char *const names[] = { "error", "warning", "note" };
	char head[16];
	va_list ap;

	if (lvl == DIAG_WARNING && d->werror)
		lvl = DIAG_ERROR;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	if (lvl == DIAG_ERROR && !strncmp(head, "internal error", 14))
		d->internal++;
	if (lvl == DIAG_ERROR)
		d->errors++;
	else if (lvl == DIAG_WARNING)
		d->warnings++;
	if (loc.line)
		fprintf(d->out, "%s:%u:%u: %s: ", d->file, loc.line, loc.col,
			names[lvl]);
	else
		fprintf(d->out, "%s: %s: ", d->file, names[lvl]);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
	quote_line(d, loc);
}
