/* shell-util.c: small helpers of the shell: growable strings, number parsing, result and hex dumps. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "run/shell-int.h"

void shl_buf_add(struct shl_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p)
			abort();	/* out of memory: nothing sensible left */
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void shl_buf_puts(struct shl_buf *b, const char *s)
{
	shl_buf_add(b, s, strlen(s));
}

void shl_buf_printf(struct shl_buf *b, const char *fmt, ...)
{
	va_list ap;
	char small[256], *big = NULL;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		shl_buf_add(b, small, n);
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&big, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	shl_buf_add(b, big, n);
	free(big);
}

void shl_buf_free(struct shl_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

const char *shl_buf_str(const struct shl_buf *b)
{
	return b->s ? b->s : "";
}

bool shl_parse_long(const char *s, long *v)
{
	bool neg = false;
	char *end;
	int e;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' && s[1] == 'E') {
		neg = true;
		s++;
	}
	if (*s == 'E') {
		e = errno_lookup(s);
		if (e < 0)
			return false;
		*v = neg ? -e : e;
		return true;
	}
	errno = 0;
	*v = strtol(s, &end, 0);
	if (errno == ERANGE) {
		/* Words are unsigned to the kernel: accept 0xffff...ffff. */
		unsigned long u;

		errno = 0;
		u = strtoul(s, &end, 0);
		if (errno || *s == '-')
			return false;
		*v = (long)u;
	}
	if (end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0';
}

void shl_hexdump(FILE *out, const void *p, size_t len, unsigned long base)
{
	const unsigned char *b = p;
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		fprintf(out, "%08lx ", base + (unsigned long)off);
		for (i = 0; i < 16; i++) {
			if (i == 8)
				fputc(' ', out);
			if (off + i < len)
				fprintf(out, " %02x", b[off + i]);
			else
				fputs("   ", out);
		}
		fputs("  |", out);
		for (i = 0; i < 16 && off + i < len; i++)
			fputc(b[off + i] >= 0x20 && b[off + i] < 0x7f ?
			      b[off + i] : '.', out);
		fputs("|\n", out);
	}
}
