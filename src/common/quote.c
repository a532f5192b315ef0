/* quote.c: names from the command line or an input, quoted for messages, strace style, when they hold a control byte. */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/quote.h"

#define QUOTE_SLOTS 8

static __thread char *slots[QUOTE_SLOTS];
static __thread unsigned int next_slot;

size_t common_utf8_text(const unsigned char *p, size_t n)
{
	size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;
	unsigned char lo = 0x80, hi = 0xbf;

	if (p[0] < 0xc2 || p[0] > 0xf4 || n < len)
		return 0;
	if (p[0] == 0xc2)
		lo = 0xa0;		/* past the C1 controls */
	else if (p[0] == 0xe0)
		lo = 0xa0;		/* no overlong form */
	else if (p[0] == 0xed)
		hi = 0x9f;		/* no surrogate */
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

void common_unctrl(char *s, size_t n, int keep_tab_nl)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t len;

		if (c >= 0x80) {
			len = common_utf8_text((unsigned char *)s + i, n - i);
			if (len)
				i += len - 1;
			else
				s[i] = '?';
		} else if ((c < 0x20 || c == 0x7f) &&
			   !(keep_tab_nl && (c == '\t' || c == '\n'))) {
			s[i] = '?';
		}
	}
}

static bool plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), len;

	if (!*p)
		return false;
	for (; *p; p += len, n -= len) {
		len = 1;
		if (*p >= 0x80 && !(len = common_utf8_text(p, n)))
			return false;
		if (*p < 0x20 || *p == 0x7f)
			return false;
	}
	return true;
}

size_t common_escape(char *o, unsigned char c, int next)
{
	char tmp[8];
	char e = 0;
	int n;

	switch (c) {
	case '\n': e = 'n'; break;
	case '\t': e = 't'; break;
	case '\r': e = 'r'; break;
	case '"': e = '"'; break;
	case '\\': e = '\\'; break;
	}
	if (e) {
		o[0] = '\\';
		o[1] = e;
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		o[0] = (char)c;
		return 1;
	}
	/* Three digits where a digit follows, so that it does not read
	 * as part of the escape. */
	if (next >= '0' && next <= '7')
		n = snprintf(tmp, sizeof(tmp), "\\%03o", c);
	else
		n = snprintf(tmp, sizeof(tmp), "\\%o", c);
	memcpy(o, tmp, (size_t)n);
	return (size_t)n;
}

const char *common_quote(const char *s, int single)
{
	const unsigned char *p;
	char **slot = &slots[next_slot++ % QUOTE_SLOTS];
	size_t n;
	char *out, *o;

	if (!s)
		return "(null)";
	if (!*s)
		return single ? "''" : "\"\"";
	n = strlen(s);
	/* Four bytes for the worst escape (\ooo), the quotes, the NUL. */
	if (n > ((size_t)-1 - 3) / 4)
		return "\"?\"";
	free(*slot);
	*slot = out = malloc(4 * n + 3);
	if (!out)
		return "\"?\"";
	if (plain(s)) {
		if (single)
			snprintf(out, 4 * n + 3, "'%s'", s);
		else
			memcpy(out, s, n + 1);
		return out;
	}
	o = out;
	*o++ = '"';
	for (p = (const unsigned char *)s; *p; p++)
		o += common_escape(o, *p, p[1] ? p[1] : -1);
	*o++ = '"';
	*o = '\0';
	return out;
}

const char *common_quote_max(const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;
	char **slot;
	const char *q;
	char *cut, *out;
	size_t qn, room;

	if (n <= max)
		return common_quote(s, 0);
	cut = strndup(s, max);
	if (!cut)
		return "\"?\"...";
	q = common_quote(cut, 0);
	free(cut);
	/* Always between double quotes here, so that the mark reads as
	 * one and not as part of the name. */
	qn = strlen(q);
	room = qn + 2 + 3 + 32;
	out = malloc(room);
	if (!out)
		return "\"?\"...";
	if (q[0] == '"')
		snprintf(out, room, "%s... (%zu bytes)", q, n);
	else
		snprintf(out, room, "\"%s\"... (%zu bytes)", q, n);
	slot = &slots[next_slot++ % QUOTE_SLOTS];
	free(*slot);
	*slot = out;
	return out;
}

void common_bad_option(const char *prog, int c, int opt, const char *arg,
		       const char *shorts, const char *hint)
{
	char letter[2] = { (char)opt, '\0' };
	bool dashes = !strncmp(arg, "--", 2);
	const char *eq = strchr(arg, '=');

	if (c == ':' && dashes)
		fprintf(stderr, "%s: option %s requires an argument\n", prog,
			common_quote(arg, 1));
	else if (c == ':')
		fprintf(stderr, "%s: option requires an argument -- %s\n",
			prog, common_quote(letter, 1));
	else if (opt > 0 && opt < 256 && opt != ':' && !strchr(shorts, opt))
		fprintf(stderr, "%s: invalid option -- %s%s\n", prog,
			common_quote(letter, 1), hint);
	else if (dashes && opt && eq)
		/* A known option's name: no control byte to quote. */
		fprintf(stderr, "%s: option '%.*s' doesn't allow an argument\n",
			prog, (int)(eq - arg), arg);
	else if (dashes || !opt)
		fprintf(stderr, "%s: unrecognized option %s\n", prog,
			common_quote(arg, 1));
	else
		fprintf(stderr, "%s: invalid option -- %s%s\n", prog,
			common_quote(letter, 1), hint);
}

void common_try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
}
