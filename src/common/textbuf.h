/* textbuf.h: the growable text buffer of the printers (listing, graph, header) and of the shell. */
#ifndef SYSLET_COMMON_TEXTBUF_H
#define SYSLET_COMMON_TEXTBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Zero-initialised it is empty.  Its one out-of-memory rule: an append
 * the buffer cannot grow for leaves it failed; its text stays what was
 * written before, whole, and every later append is ignored, so the text
 * is always a prefix of what was asked (never one with a piece missing
 * in the middle) and the caller, told by `failed` or a -1, decides what
 * a short text means: libsyslet's listing says "out of memory", the
 * shell gives up.  s is NUL-terminated once anything was written.
 */
struct text_buf {
	char	*s;
	size_t	len, cap;
	bool	failed;
};

/* Each returns 0, or -1 when the buffer is (now) failed. */
int text_buf_add(struct text_buf *b, const char *s, size_t n);
int text_buf_puts(struct text_buf *b, const char *s);
int text_buf_printf(struct text_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int text_buf_vprintf(struct text_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void text_buf_free(struct text_buf *b);
/* The text, or "" for a buffer never written; valid until the next append. */
const char *text_buf_str(const struct text_buf *b);

#endif
