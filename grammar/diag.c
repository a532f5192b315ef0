/* diag.c: diagnostic records: queue them, sort them, print them with the offending source line and a caret under it. */
#define _GNU_SOURCE	/* memrchr, vasprintf */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
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

void diag_clear(struct diag *d)
{
	for (size_t i = 0; i < d->nr_recs; i++) {
		struct diag_rec *r = &d->recs[i];

		for (size_t k = 0; k < r->nr_notes; k++)
			free(r->notes[k].msg);
		free(r->notes);
		free(r->msg);
	}
	free(d->recs);
	d->recs = NULL;
	d->nr_recs = d->cap_recs = 0;
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
	/* The same line again (many errors on one long line): its length
	 * is known, not searched for once per diagnostic. */
	if (d->seen_line == line && d->seen_off <= d->len) {
		*n = d->seen_len;
		return d->src + d->seen_off;
	}
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
	d->seen_len = *n;
	return p;
}

/* Long lines (minified or binary input) are shown as a window of
 * QUOTE_WIDTH bytes around the caret, with "..." where cut. */
#define QUOTE_WIDTH	160

static bool in_range(const struct diag_loc *r, size_t col)
{
	return r && col >= r->col && col < r->col + (r->len ? r->len : 1);
}

/*
 * Line loc.line with its marks under it: `head` ('^', or '~' for a
 * second location on a line of its own) at loc.col, '~' over the rest
 * of loc.len, and '~' over `also` (a second location on the same line).
 */
static void quote_line(struct diag *d, FILE *f, struct diag_loc loc, char head,
		       const struct diag_loc *also)
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
		fputs("...", f);
	/* Non-printing bytes are shown as '?' so the caret stays aligned
	 * and hostile input cannot drive the terminal. */
	for (i = from; i < to; i++) {
		unsigned char c = (unsigned char)p[i];

		fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '?', f);
	}
	if (to < n)
		fputs("...", f);
	fputc('\n', f);
	if (cut_left)
		fputs("   ", f);
	for (i = from + 1; i < loc.col && i <= to; i++)
		fputc(in_range(also, i) ? '~' : p[i - 1] == '\t' ? '\t' : ' ',
		      f);
	fputc(head, f);
	for (i = 1; i < loc.len && loc.col + i <= to; i++)
		fputc('~', f);
	/* The second location, where it ends after the first. */
	for (i = loc.col + i;
	     also && i < also->col + (also->len ? also->len : 1) && i <= to;
	     i++)
		fputc(in_range(also, i) ? '~' : p[i - 1] == '\t' ? '\t' : ' ',
		      f);
	fputc('\n', f);
}

/*
 * The file's name as a record's head shows it: as given, or, when it is
 * empty or holds a control byte, quoted as strace quotes a string
 * ("a\33[2Jb\nc"), as the tools quote a name in their messages
 * (common/quote.h, which the grammar does not link): a name with a
 * newline split the record's head in two, an escape reached the terminal.
 */
static void print_file(FILE *f, const char *file)
{
	const unsigned char *p = (const unsigned char *)file;
	bool plain = *p != '\0';

	for (; *p && plain; p++)
		plain = *p >= 0x20 && *p != 0x7f;
	if (plain) {
		fputs(file, f);
		return;
	}
	fputc('"', f);
	for (p = (const unsigned char *)file; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (*p >= 0x20 && *p < 0x7f)
			fputc(*p, f);
		else if (p[1] >= '0' && p[1] <= '7')
			fprintf(f, "\\%03o", *p);
		else
			fprintf(f, "\\%o", *p);
	}
	fputc('"', f);
}

static void print_head(struct diag *d, FILE *f, enum diag_level lvl,
		       struct diag_loc loc, const char *msg)
{
	static const char *const names[] = { "error", "warning", "note" };

	print_file(f, d->file);
	if (loc.line)
		fprintf(f, ":%u:%u: %s: %s\n", loc.line, loc.col, names[lvl],
			msg);
	else
		fprintf(f, ": %s: %s\n", names[lvl], msg);
}

static void print_rec(struct diag *d, FILE *f, const struct diag_rec *r)
{
	bool same = r->loc2.line && r->loc2.line == r->loc.line;

	print_head(d, f, r->lvl, r->loc, r->msg);
	quote_line(d, f, r->loc, '^', same ? &r->loc2 : NULL);
	if (r->loc2.line && !same)
		quote_line(d, f, r->loc2, '~', NULL);
	for (size_t k = 0; k < r->nr_notes; k++) {
		print_head(d, f, DIAG_NOTE, r->notes[k].loc, r->notes[k].msg);
		quote_line(d, f, r->notes[k].loc, '^', NULL);
	}
}

/* A record in one write: stderr is unbuffered, and printed byte by byte
 * (the quoted line is) a file of 250,000 errors took 7.6 s of write(2). */
static void emit_rec(struct diag *d, FILE *f, const struct diag_rec *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m) {
		print_rec(d, m, r);
		if (!fclose(m)) {
			fwrite(buf, 1, len, f);
			free(buf);
			return;
		}
		free(buf);
	}
	print_rec(d, f, r);	/* no memory: as it comes */
}

void diag_print(struct diag *d, FILE *f)
{
	unsigned int shown = 0, more = 0;

	if (!f)
		return;
	for (size_t i = 0; i < d->nr_recs; i++) {
		const struct diag_rec *r = &d->recs[i];
		bool err = r->lvl == DIAG_ERROR ||
			   (r->lvl == DIAG_WARNING && d->werror);

		if (d->max_errors && shown >= d->max_errors) {
			more += err;
			continue;
		}
		shown += err;
		emit_rec(d, f, r);
	}
	if (more) {
		print_file(f, d->file);
		fprintf(f, ": %u more error%s not shown\n", more,
			more == 1 ? "" : "s");
	}
}

void diag_flush(struct diag *d)
{
	diag_print(d, d->out);
	diag_clear(d);
}

static int rec_cmp(const void *a, const void *b)
{
	const struct diag_rec *x = a, *y = b;

	if (x->loc.line != y->loc.line)
		return x->loc.line < y->loc.line ? -1 : 1;
	if (x->loc.col != y->loc.col)
		return x->loc.col < y->loc.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void diag_sort(struct diag *d, size_t from)
{
	if (from < d->nr_recs)
		qsort(d->recs + from, d->nr_recs - from, sizeof(*d->recs),
		      rec_cmp);
}

/*
 * A message longer than MSG_WIDTH bytes (a name or a number thousands of
 * bytes long, quoted in it) keeps its first and last MSG_WIDTH / 2 bytes
 * with "..." between, cut where no UTF-8 character is split: what the
 * message says stays, as the quoted source line keeps its caret.
 */
#define MSG_WIDTH	400

static char *elide(char *msg)
{
	size_t n = strlen(msg), head = MSG_WIDTH / 2, tail = n - MSG_WIDTH / 2;

	if (n <= MSG_WIDTH)
		return msg;
	while (head && ((unsigned char)msg[head] & 0xc0) == 0x80)
		head--;
	while (tail < n && ((unsigned char)msg[tail] & 0xc0) == 0x80)
		tail++;
	memcpy(msg + head, "...", 3);
	memmove(msg + head + 3, msg + tail, n - tail + 1);
	return msg;
}

/*
 * A record that cannot be kept (no memory) is printed at once, so that
 * no error goes unsaid; its message is formatted into a fixed buffer.
 */
static void report(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		   struct diag_loc loc2, const char *fmt, va_list ap)
{
	struct diag_rec *r;
	char *msg = NULL;
	va_list aq;

	if (lvl == DIAG_WARNING && d->werror)
		lvl = DIAG_ERROR;
	va_copy(aq, ap);
	if (vasprintf(&msg, fmt, aq) < 0)
		msg = NULL;
	else
		msg = elide(msg);
	va_end(aq);
	if (msg && lvl == DIAG_ERROR && !strncmp(msg, "internal error", 14))
		d->internal++;
	if (lvl == DIAG_ERROR)
		d->errors++;
	else if (lvl == DIAG_WARNING)
		d->warnings++;
	if (msg && d->nr_recs == d->cap_recs) {
		size_t nc = d->cap_recs ? 2 * d->cap_recs : 16;
		struct diag_rec *nv = realloc(d->recs, nc * sizeof(*nv));

		if (nv) {
			d->recs = nv;
			d->cap_recs = nc;
		}
	}
	if (!msg || d->nr_recs == d->cap_recs) {
		char buf[512];
		struct diag_rec one = { .lvl = lvl, .loc = loc, .loc2 = loc2,
					.msg = buf };

		vsnprintf(buf, sizeof(buf), fmt, ap);
		free(msg);
		if (d->out)
			print_rec(d, d->out, &one);
		return;
	}
	r = &d->recs[d->nr_recs++];
	memset(r, 0, sizeof(*r));
	r->lvl = lvl;
	r->loc = loc;
	r->loc2 = loc2;
	r->msg = msg;
	r->seq = d->seq++;
}

void diag_vreport(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		  const char *fmt, va_list ap)
{
	report(d, lvl, loc, (struct diag_loc){ 0, 0, 0 }, fmt, ap);
}

void diag_report(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, lvl, loc, fmt, ap);
	va_end(ap);
}

void diag_report2(struct diag *d, enum diag_level lvl, struct diag_loc loc,
		  struct diag_loc loc2, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(d, lvl, loc, loc2, fmt, ap);
	va_end(ap);
}

void diag_vnote(struct diag *d, struct diag_loc loc, const char *fmt,
		va_list ap)
{
	struct diag_rec *r = d->nr_recs ? &d->recs[d->nr_recs - 1] : NULL;
	struct diag_note *nv;
	char *msg = NULL;
	va_list aq;

	if (r) {
		va_copy(aq, ap);
		if (vasprintf(&msg, fmt, aq) < 0)
			msg = NULL;
		else
			msg = elide(msg);
		va_end(aq);
		nv = msg ? realloc(r->notes, (r->nr_notes + 1) * sizeof(*nv))
			 : NULL;
		if (nv) {
			r->notes = nv;
			r->notes[r->nr_notes].loc = loc;
			r->notes[r->nr_notes++].msg = msg;
			return;
		}
		free(msg);
	}
	/* No record to hang it under, or no memory: a record of its own. */
	report(d, DIAG_NOTE, loc, (struct diag_loc){ 0, 0, 0 }, fmt, ap);
}

void diag_note(struct diag *d, struct diag_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vnote(d, loc, fmt, ap);
	va_end(ap);
}
