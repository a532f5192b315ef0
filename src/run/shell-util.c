/* shell-util.c: small helpers of the shell: appending to text buffers, number parsing, result and hex dumps. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include "libsyslet.h"
#include "run/shell-int.h"

/*
 * Out of memory where the shell has nothing sensible left to do: it says
 * so and ends with status 2, the terminal given back, what it printed
 * flushed (each history line is on its file already).  It called abort():
 * SIGABRT, a core dump and no word of the cause.  No allocation here.
 */
void shl_oom(void)
{
	static const char msg[] = "syslet-run: out of memory: the shell ends\n";

	shl_line_release();
	fflush(stdout);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

/* The shell's buffers hold sources it compiles and lines it prints: one
 * that failed has nothing sensible left to do, so the shell gives up. */
void shl_buf_add(struct text_buf *b, const char *s, size_t n)
{
	if (text_buf_add(b, s, n))
		shl_oom();
}

void shl_buf_puts(struct text_buf *b, const char *s)
{
	if (text_buf_puts(b, s))
		shl_oom();
}

void shl_buf_printf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = text_buf_vprintf(b, fmt, ap);
	va_end(ap);
	if (r)
		shl_oom();
}

bool shl_parse_long(const char *s, long *v)
{
	bool neg = false, range = false;
	char *end;
	int e;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' && s[1] == 'E') {
		neg = true;
		s++;
	}
	if (*s == 'E') {
		e = syslet_errno_number(s);
		if (e < 0) {
			errno = EINVAL;
			return false;
		}
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
		range = errno == ERANGE || *s == '-';
		*v = (long)u;
	}
	if (end == s) {
		errno = EINVAL;
		return false;
	}
	while (isspace((unsigned char)*end))
		end++;
	/* A whole literal too large for a word is told apart from text
	 * that is no number (as syslet-run's options say it). */
	errno = *end ? EINVAL : range ? ERANGE : 0;
	return !errno;
}

/*
 * As hexdump -C prints: a run of full lines equal to the line before
 * them is one line "*" (a zeroed buffer of 4 KiB is three lines, not
 * 256), and the offset past the last byte ends the dump, so that a run
 * folded at the end still tells the length.
 */
void shl_hexdump(FILE *out, const void *p, size_t len, unsigned long base)
{
	const unsigned char *b = p;
	bool folded = false;
	size_t off, i;

	for (off = 0; off < len; off += 16) {
		if (off && len - off >= 16 && !memcmp(b + off, b + off - 16, 16)) {
			if (!folded)
				fputs("*\n", out);
			folded = true;
			continue;
		}
		folded = false;
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
	if (len)
		fprintf(out, "%08lx\n", base + (unsigned long)len);
}

/* ---- Names to indexes ----------------------------------------------------- */

static size_t shl_hash(const char *s, size_t n)
{
	/* FNV-1a, of the word's size */
	const bool wide = sizeof(size_t) > 4;
	size_t h = wide ? (size_t)14695981039346656037ULL : 2166136261U;
	size_t prime = wide ? (size_t)1099511628211ULL : 16777619U;

	while (n--)
		h = (h ^ (unsigned char)*s++) * prime;
	return h;
}

bool shl_map_getn(const struct shl_map *m, const char *key, size_t n,
		  size_t *val)
{
	size_t i;

	if (!m->cap)
		return false;
	for (i = shl_hash(key, n) & (m->cap - 1); m->v[i].key;
	     i = (i + 1) & (m->cap - 1))
		if (strncmp(m->v[i].key, key, n) == 0 && !m->v[i].key[n]) {
			if (val)
				*val = m->v[i].val;
			return true;
		}
	return false;
}

bool shl_map_get(const struct shl_map *m, const char *key, size_t *val)
{
	return shl_map_getn(m, key, strlen(key), val);
}

static void shl_map_grow(struct shl_map *m)
{
	struct shl_map old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->n = 0;
	m->v = calloc(m->cap, sizeof(*m->v));
	if (!m->v)
		shl_oom();
	for (i = 0; i < old.cap; i++) {
		size_t k;

		if (!old.v[i].key)
			continue;
		for (k = shl_hash(old.v[i].key, strlen(old.v[i].key)) &
			 (m->cap - 1); m->v[k].key; k = (k + 1) & (m->cap - 1))
			;
		m->v[k] = old.v[i];
		m->n++;
	}
	free(old.v);
}

void shl_map_put(struct shl_map *m, const char *key, size_t val)
{
	size_t i, n = strlen(key);

	if ((m->n + 1) * 2 > m->cap)
		shl_map_grow(m);
	for (i = shl_hash(key, n) & (m->cap - 1); m->v[i].key;
	     i = (i + 1) & (m->cap - 1))
		if (strcmp(m->v[i].key, key) == 0) {
			m->v[i].val = val;
			return;
		}
	m->v[i].key = strdup(key);
	if (!m->v[i].key)
		shl_oom();
	m->v[i].val = val;
	m->n++;
}

void shl_map_free(struct shl_map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->v[i].key);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
