/* lower-data.c: buffers and `data` objects: strings, byte lists, u16..u64, htons/htonl, sockaddr_in. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/lower.h"

/* Objects larger than this are surely a typo, and would not fit an
 * i386 address space next to everything else: the format's limit,
 * which every image reader applies too. */
#define LOWER_MAX_OBJECT	SLO_MAX_OBJECT

/* A plain buffer or data has byte elements (buf[3]), as char arrays
 * do in C; `u32 fds[2];` and `data u16 ports = ...` say otherwise. */
static bool elem_type(struct lower *L, struct lower_sym *s)
{
	s->elem = 1;
	s->elem_name = "u8";
	if (!s->decl->type)
		return true;
	s->elem = lower_elem_type(L, s->decl->type);
	s->elem_name = s->decl->type;
	return s->elem != 0;
}

void lower_buffer(struct lower *L, struct lower_sym *s)
{
	int64_t n;
	char *name;

	if (s->state != LEVAL_TODO)
		return;
	s->state = LEVAL_BUSY;
	if (!elem_type(L, s)) {
		s->state = LEVAL_BAD;
		return;
	}
	if (lower_eval_must(L, s->decl->expr, &n, s->decl->type ?
			    "an array length" : "a buffer size") != 1) {
		s->state = LEVAL_BAD;
		return;
	}
	if (n <= 0 || (uint64_t)n > LOWER_MAX_OBJECT / s->elem) {
		/* A literal past 2^63 is the number written, not the
		 * negative word it is held in: 'buffer size
		 * 18446744073709551615', where the message said -1. */
		char num[32];

		if (n < 0 && s->decl->expr->kind == AST_NUM)
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long)n);
		else
			snprintf(num, sizeof(num), "%lld", (long long)n);
		if (s->decl->type)
			lower_error(L, s->decl->expr->loc, "array length %s "
				    "is out of range (1..%u %s elements)",
				    num, LOWER_MAX_OBJECT / s->elem,
				    s->elem_name);
		else
			lower_error(L, s->decl->expr->loc, "buffer size %s "
				    "is out of range (1..%u)", num,
				    LOWER_MAX_OBJECT);
		s->state = LEVAL_BAD;
		return;
	}
	s->size = s->len = (uint64_t)n * s->elem;
	name = s->local ? lower_fmt(L, "%s.%s", L->syslet->name, s->name) :
			  lower_strdup(L, s->name);
	s->obj = lower_object(L, IR_OBJ_BUFFER, name, s->size, NULL, L->word,
			      s->decl->name_loc);
	free(name);
	s->state = L->oom ? LEVAL_BAD : LEVAL_DONE;
}

struct bytes {
	uint8_t	*b;
	size_t	n, cap;
	bool	too_large;
};

static int put(struct lower *L, struct bytes *bs, const void *p, size_t n)
{
	/* An empty string first: no buffer yet, and memcpy(NULL, p, 0) is
	 * undefined (gcc -fanalyzer, UBSan). */
	if (!n)
		return 0;
	if (bs->n + n > LOWER_MAX_OBJECT) {
		bs->too_large = true;
		return -1;
	}
	if (bs->n + n > bs->cap) {
		size_t nc = bs->cap ? bs->cap : 64;
		uint8_t *nb;

		while (nc < bs->n + n)
			nc *= 2;
		nb = realloc(bs->b, nc);
		if (!nb) {
			lower_oom(L);
			return -1;
		}
		bs->b = nb;
		bs->cap = nc;
	}
	memcpy(bs->b + bs->n, p, n);
	bs->n += n;
	return 0;
}

/* Little endian, as both x86 profiles are; big endian for the network. */
static int put_int(struct lower *L, struct bytes *bs, uint64_t v,
		   unsigned int size, bool big)
{
	uint8_t b[8];

	for (unsigned int i = 0; i < size; i++)
		b[big ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
	return put(L, bs, b, size);
}

static int fits(struct lower *L, const struct ast_expr *e, int64_t v,
		unsigned int bits, const char *what)
{
	if (bits >= 64)
		return 0;
	if (v < -((int64_t)1 << (bits - 1)) || v >= ((int64_t)1 << bits)) {
		lower_error(L, e->loc, "value %lld does not fit in %s",
			    (long long)v, what);
		return -1;
	}
	return 0;
}

static int nargs(const struct ast_expr *e)
{
	int n = 0;

	for (const struct ast_expr *a = e->args; a; a = a->next)
		n++;
	return n;
}

static int sockaddr_in(struct lower *L, struct bytes *bs,
		       const struct ast_expr *e)
{
	const struct ast_expr *ip = e->args, *port = ip ? ip->next : NULL;
	struct in_addr a;
	int64_t pv;
	uint8_t z[8] = { 0 };

	if (nargs(e) != 2) {
		lower_error(L, e->loc, "sockaddr_in takes an address string "
			    "and a port: sockaddr_in(\"127.0.0.1\", 8080)");
		return -1;
	}
	if (ip->kind != AST_STR || strlen(ip->str) != ip->len ||
	    inet_pton(AF_INET, ip->str, &a) != 1) {
		lower_error(L, ip->loc, "sockaddr_in needs a dotted IPv4 "
			    "address string such as \"127.0.0.1\"");
		return -1;
	}
	if (lower_eval_must(L, port, &pv, "a port") != 1)
		return -1;
	if (pv < 0 || pv > 65535) {
		lower_error(L, port->loc, "port %lld is out of range (0..65535)",
			    (long long)pv);
		return -1;
	}
	/* struct sockaddr_in: family (host order), port and address in
	 * network order, 8 bytes of zero padding: 16 bytes. */
	if (put_int(L, bs, 2 /* AF_INET */, 2, false) ||
	    put_int(L, bs, (uint64_t)pv, 2, true) ||
	    put(L, bs, &a.s_addr, 4) || put(L, bs, z, 8))
		return -1;
	return 0;
}

static int item(struct lower *L, struct bytes *bs, const struct ast_expr *e,
		bool *ends_in_string, const struct lower_sym *s)
{
	int64_t v;

	*ends_in_string = false;
	switch (e->kind) {
	case AST_STR:
		*ends_in_string = true;
		return put(L, bs, e->str, e->len);
	case AST_BYTES:
		for (const struct ast_expr *b = e->args; b; b = b->next) {
			if (lower_eval_must(L, b, &v, "a byte") != 1)
				return -1;
			if (v < -128 || v > 255) {
				lower_error(L, b->loc, "byte value %lld is out "
					    "of range (-128..255)",
					    (long long)v);
				return -1;
			}
			if (put_int(L, bs, (uint64_t)v, 1, false))
				return -1;
		}
		return 0;
	case AST_CALL:
	{
		const struct sysletc_builtin *b = sysletc_builtin_find(e->name);
		unsigned int size;
		char list[160];

		if (!b || b->kind != SYSLETC_B_DATA) {
			sysletc_builtin_list(list, sizeof(list),
					     SYSLETC_B_DATA, false);
			lower_error(L, e->loc, "'%s' is not a data constructor "
				    "(use %s)", e->name, list);
			return -1;
		}
		if (!strcmp(b->name, "sockaddr_in"))
			return sockaddr_in(L, bs, e);
		size = b->size ? b->size : L->word;
		if (nargs(e) != 1) {
			lower_error(L, e->loc, "%s() takes exactly one value",
				    e->name);
			return -1;
		}
		if (lower_eval_must(L, e->args, &v, b->size ? "a data value" :
				    "a word") != 1)
			return -1;
		if (fits(L, e->args, v, 8 * size, b->size ? e->name : "a word"))
			return -1;
		return put_int(L, bs, (uint64_t)v, size, b->big);
	}
	default:
		/* In typed data a number is one element. */
		if (s->decl->type && lower_eval(L, e, &v) == 1) {
			if (fits(L, e, v, 8 * s->elem, s->elem_name))
				return -1;
			return put_int(L, bs, (uint64_t)v, s->elem, false);
		}
		if (lower_eval(L, e, &v) == 1) {
			lower_error(L, e->loc, "a number in data needs a size: "
				    "write u32(%lld), u8(...) or { bytes }",
				    (long long)v);
			return -1;
		}
		lower_error(L, e->loc, "data can only hold strings, { bytes }, "
			    "sized integers and sockaddr_in(...)");
		return -1;
	}
}

/*
 * A data object is its items back to back.  When the last item is a
 * string a NUL follows, so the object can be a path: sizeof() counts
 * that NUL, len() does not (write(1, msg, len(msg)) prints the text).
 */
int lower_data(struct lower *L, struct lower_sym *s)
{
	struct bytes bs = { 0 };
	bool str = false;
	char *name;
	int bad = 0;

	if (s->state == LEVAL_BUSY) {
		lower_error(L, s->decl->name_loc, "data '%s' depends on its "
			    "own size", s->name);
		s->state = LEVAL_BAD;
		return -1;
	}
	if (s->state != LEVAL_TODO)
		return s->state == LEVAL_DONE ? 0 : -1;
	if (L->eval_depth >= LOWER_MAX_EVAL_DEPTH) {
		lower_error(L, s->decl->name_loc, "data '%s' depends on more "
			    "than %d other objects", s->name,
			    LOWER_MAX_EVAL_DEPTH);
		s->state = LEVAL_BAD;
		return -1;
	}
	s->state = LEVAL_BUSY;
	if (!elem_type(L, s)) {
		s->state = LEVAL_BAD;
		return -1;
	}
	L->eval_depth++;
	for (const struct ast_expr *e = s->decl->expr; e; e = e->next)
		if (item(L, &bs, e, &str, s)) {
			bad = 1;
			break;
		}
	L->eval_depth--;
	if (s->state == LEVAL_BAD)
		bad = 1;
	if (bs.too_large || (!bad && bs.n + 1 > LOWER_MAX_OBJECT)) {
		lower_error(L, s->decl->name_loc, "data '%s' is too large",
			    s->name);
		bad = 1;
	}
	if (!bad && str && put(L, &bs, "", 1))
		bad = 1;
	if (!bad && bs.n == 0) {
		lower_error(L, s->decl->name_loc, "data '%s' is empty",
			    s->name);
		bad = 1;
	}
	if (!bad && bs.n % s->elem) {
		lower_error(L, s->decl->name_loc, "data '%s' is %zu byte%s, "
			    "not a whole number of %s elements", s->name, bs.n,
			    bs.n == 1 ? "" : "s", s->elem_name);
		bad = 1;
	}
	if (bad) {
		free(bs.b);
		s->state = LEVAL_BAD;
		return -1;
	}
	s->size = bs.n;
	s->len = bs.n - (str ? 1 : 0);
	name = s->local ? lower_fmt(L, "%s.%s", L->syslet->name, s->name) :
			  lower_strdup(L, s->name);
	s->obj = lower_object(L, IR_OBJ_DATA, name, bs.n, bs.b, L->word,
			      s->decl->name_loc);
	free(name);
	s->state = L->oom ? LEVAL_BAD : LEVAL_DONE;
	return s->state == LEVAL_DONE ? 0 : -1;
}
