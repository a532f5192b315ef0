/* textbuf.c: the growable text buffer, with its one out-of-memory rule. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/textbuf.h"

/* Room for n more bytes and the NUL, or the buffer failed. */
static int grow(struct text_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->failed)
		return -1;
	if (n > (size_t)-1 - b->len - 1)
		goto fail;
	if (b->len + n + 1 <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < b->len + n + 1) {
		if (cap > (size_t)-1 / 2) {
			cap = b->len + n + 1;
			break;
		}
		cap *= 2;
	}
	p = realloc(b->s, cap);
	if (!p)
		goto fail;
	b->s = p;
	b->cap = cap;
	return 0;
fail:
	b->failed = true;
	return -1;
}

int text_buf_add(struct text_buf *b, const char *s, size_t n)
{
	if (grow(b, n))
		return -1;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

int text_buf_puts(struct text_buf *b, const char *s)
{
	return text_buf_add(b, s, strlen(s));
}

/* Formatted straight into the buffer: one vsnprintf to size it, one to
 * write it once there is room. */
int text_buf_vprintf(struct text_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	if (b->failed)
		return -1;
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0 || grow(b, (size_t)n)) {
		va_end(again);
		b->failed = true;
		return -1;
	}
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, again);
	va_end(again);
	b->len += (size_t)n;
	return 0;
}

int text_buf_printf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = text_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return r;
}

void text_buf_free(struct text_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

const char *text_buf_str(const struct text_buf *b)
{
	return b->s ? b->s : "";
}
