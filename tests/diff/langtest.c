/* langtest.c: random programs of the language, compiled by sysletc and run on emul and uring, against an evaluator written from syslet(5)'s text. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libsyslet.h>
#include "run.h"
#include "compiler/sysletc.h"

/*
 * Each program is generated from (seed, index) alone.  The evaluator
 * below runs the program as syslet(5) says it means: constant
 * expressions exactly (LEXICAL RULES, Constants), words that umem_add()
 * wraps (Arithmetic), signed comparisons with 0 and with constants, the
 * postfix tests on the value after the step (Conditions), C's control
 * flow, and stop (Control flow); the calls it makes are ones whose
 * results are known here: getpid(), getppid(), close() of no descriptor,
 * write() of a string to /dev/null or to a pipe, umem_add().  A program
 * that the evaluator cannot predict (a write length out of its string, a
 * run too long) is thrown away and the next one drawn, so that every
 * program compared is valid and its outcome fixed.
 *
 * Compared, per backend: that it compiles (or fails, for a constant the
 * manual calls an error), every variable's final value, the calls made in
 * order with their integer arguments and results, the bytes the pipe got,
 * and the status syslet-run(1) would exit with (1 when the last atom is a
 * system call that failed, or a test that stopped the syslet on the errno
 * of a variable only calls store into), where the manual fixes it,
 * against what syslet-run's own rule (srun_failed()) gives.
 */

#if ULONG_MAX == UINT64_MAX && defined(__SIZEOF_INT128__)
#define LT_WORD64 1
#endif

#ifdef LT_WORD64

#define LT_DEFAULT_SEED		0x1a9e2007ULL
#define LT_DEFAULT_COUNT	1000
#define LT_MAX_STEPS		2500	/* evaluator statements per program */
#define LT_MAX_ATOMS		40000	/* engine atoms before "runaway" */
#define LT_MAX_CALLS		2048
#define LT_MAX_PIPE		16384

typedef __int128 i128;
static const i128 LT_MIN = -((i128)1 << 63);
static const i128 LT_MAX = ((i128)1 << 64) - 1;

/* ---- random ------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rn(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

/* ---- text --------------------------------------------------------- */

struct buf {
	char	*s;
	size_t	len, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if (b->s && b->len + (size_t)n < b->cap)
			break;
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	b->len += (size_t)n;
}

/* ---- constant expressions (syslet(5), Constants) ------------------ */

/*
 * A value is an exact integer from -2^63 to 2^64 - 1; a result outside
 * is an error.  + - * << and unary - are exact; / % >> read each word
 * as signed (C's truncating division); & | ^ ~ work on the words, and
 * their result is the large number when it is from 2^63 up and one of
 * the operands was (a word read as signed otherwise).
 */
struct cval {
	bool	err;
	i128	v;
};

static uint64_t word_of(i128 v)
{
	return (uint64_t)v;
}

static int64_t signed_of(i128 v)
{
	return (int64_t)(uint64_t)v;
}

static struct cval cv(i128 v)
{
	struct cval r = { v < LT_MIN || v > LT_MAX, v };

	return r;
}

static const char *const lit_pool[] = {
	"0", "1", "2", "3", "7", "9", "63", "64", "100", "4095", "4096",
	"0x7fffffffffffffff", "9223372036854775807", "0x8000000000000000",
	"0xffffffffffffffff", "18446744073709551615", "0xfffffffffffffffe",
	"0x100000000", "0xffffffff", "0b101", "017", "'a'", "-1",
	"-0x8000000000000000", "-9223372036854775807",
};

static i128 lit_value(const char *s)
{
	if (s[0] == '-')
		return -lit_value(s + 1);
	if (s[0] == '\'')
		return (unsigned char)s[1];
	if (s[0] == '0' && s[1] == 'b')
		return (i128)strtoull(s + 2, NULL, 2);
	return (i128)strtoull(s, NULL, 0);
}

/* Named constants: "EBADF" is 9 on every profile (syslet(5)). */
struct kdef {
	char	name[8];
	struct cval val;
};

static struct kdef kdefs[4];
static unsigned int nkdefs;

static struct cval gen_const(struct buf *b, int depth);

static struct cval gen_const_leaf(struct buf *b)
{
	unsigned int r = rn(10);

	if (r == 0 && nkdefs) {
		struct kdef *k = &kdefs[rn(nkdefs)];

		bprintf(b, "%s", k->name);
		return k->val;
	}
	if (r == 1) {
		bprintf(b, "EBADF");
		return cv(9);
	}
	const char *s = lit_pool[rn(sizeof(lit_pool) / sizeof(lit_pool[0]))];

	bprintf(b, "%s", s);
	return cv(lit_value(s));
}

static struct cval gen_const(struct buf *b, int depth)
{
	static const char *const ops[] = {
		"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
	};
	struct cval l, r, out = { false, 0 };
	unsigned int k;

	if (depth <= 0 || rn(3) == 0)
		return gen_const_leaf(b);
	if (rn(5) == 0) {
		bool neg = rn(2);

		bprintf(b, "%s(", neg ? "-" : "~");
		l = gen_const(b, depth - 1);
		bprintf(b, ")");
		if (l.err)
			return l;
		if (neg)
			return cv(-l.v);
		return cv((i128)(int64_t)~word_of(l.v));
	}
	k = rn(10);
	bprintf(b, "(");
	l = gen_const(b, depth - 1);
	bprintf(b, " %s ", ops[k]);
	if (k == 5 || k == 6) {		/* shift counts: 0..63, or past */
		unsigned int c = rn(12) ? rn(64) : 64 + rn(3);

		bprintf(b, "%u", c);
		r = cv(c);
	} else {
		r = gen_const(b, depth - 1);
	}
	bprintf(b, ")");
	if (l.err || r.err)
		return l.err ? l : r;
	switch (k) {
	case 0: return cv(l.v + r.v);
	case 1: return cv(l.v - r.v);
	case 2:
		/* Exact, but keep the product inside 128 bits: factors
		 * below 2^64 whose product reaches 2^126 are far out of
		 * the word's range (an error, as cv() would say), and
		 * 2^64 - 1 squared does not fit a signed 128-bit word. */
		{
			unsigned __int128 a = (unsigned __int128)
				(l.v > 0 ? l.v : -l.v);
			unsigned __int128 c = (unsigned __int128)
				(r.v > 0 ? r.v : -r.v);

			if (a >> 64 || c >> 64 ||
			    (a && c > ((unsigned __int128)1 << 126) / a))
				return (struct cval){ true, 0 };
		}
		return cv(l.v * r.v);
	case 3:
	case 4:
		if (word_of(r.v) == 0)
			return (struct cval){ true, 0 };
		{
			i128 a = signed_of(l.v), d = signed_of(r.v);

			/* C truncates toward zero, as i128's / does. */
			return cv(k == 3 ? a / d : a % d);
		}
	case 5:
		if (r.v > 63)
			return (struct cval){ true, 0 };
		return cv(l.v * ((i128)1 << (int)r.v));
	case 6:
		if (r.v > 63)
			return (struct cval){ true, 0 };
		return cv(signed_of(l.v) >> (int)r.v);
	default: {
		uint64_t a = word_of(l.v), c = word_of(r.v), w;
		bool big = l.v > INT64_MAX || r.v > INT64_MAX;

		w = k == 7 ? (a & c) : k == 8 ? (a | c) : (a ^ c);
		out.v = big && w > INT64_MAX ? (i128)w : (i128)(int64_t)w;
		return out;
	}
	}
}

/* ---- programs ------------------------------------------------------ */

/* Variables: data (file scope and local), loop counters, the guard of
 * backward gotos, n, a write length, and e, which only calls store into
 * (syslet-run(1)'s exit status rule: a stop on the errno it holds is a
 * failure, status 1), read and tested like any other. */
/* Also the elements of a word array (syslet(5), ELEMENTS: "used wherever
 * a variable can"), and narrow data elements, read zero-extended. */
enum { V_A, V_B, V_C, V_D, V_P, V_Q, V_W0, V_W1, V_W2, V_N, V_G, V_I0,
       V_I1, V_I2, V_E, V_H0, V_H1, V_B0, V_D0, V_K, NVARS };
#define NDATA		9	/* V_A..V_W2: data that may be assigned */
#define NSRC		5	/* V_H0..V_K: read-only */
static const char *const vname[NVARS] = {
	"a", "b", "c", "d", "p", "q", "w[0]", "w[1]", "w[2]", "n", "g", "i0",
	"i1", "i2", "e", "h[0]", "h[1]", "bb[1]", "dd[0]", "k",
};
static const bool vlocal[NVARS] = {
	[V_P] = true, [V_Q] = true, [V_I0] = true, [V_I1] = true,
	[V_I2] = true, [V_K] = true,
};
/* The int parameter k's argument: "read as a C integer constant ... with
 * an optional sign; an unsigned value up to the largest word is accepted
 * too" (syslet_inst__bind(3)), and its value. */
static const struct { const char *arg; uint64_t val; } kargs[] = {
	{ "-9223372036854775808", 0x8000000000000000ULL },
	{ "9223372036854775807", 0x7fffffffffffffffULL },
	{ "18446744073709551615", ~0ULL }, { "0xffffffffffffffff", ~0ULL },
	{ "-1", ~0ULL }, { "017", 15 }, { "-0x10", (uint64_t)-16 },
	{ "+5", 5 }, { "0", 0 },
};
#define NKARGS	(sizeof(kargs) / sizeof(kargs[0]))
/* Not a var: an element of w, h, bb or dd (object, index, width). */
static const struct { const char *obj; int idx, width; } velem[NVARS] = {
	[V_W0] = { "w", 0, 8 }, [V_W1] = { "w", 1, 8 }, [V_W2] = { "w", 2, 8 },
	[V_H0] = { "h", 0, 2 }, [V_H1] = { "h", 1, 2 }, [V_B0] = { "bb", 1, 1 },
	[V_D0] = { "dd", 0, 4 },
};

enum call_kind { C_GETPID, C_GETPPID, C_CLOSE, C_WNUL, C_WPIPE, C_UMEM };

struct call {
	enum call_kind	kind;
	int64_t		arg;	/* close's descriptor; write's constant length */
	int		lenvar;	/* write's length variable, or -1 */
	int		str;	/* write's string */
	int		var;	/* umem_add's variable */
	struct cval	inc;	/* umem_add's increment */
	char		*text;
};

static const char *const strs[] = { "ab", "xyz", "hello", "01234567" };

enum cond_kind { K_VAR, K_BARE, K_NOT_VAR, K_CALL, K_ASGCALL, K_POST,
		 K_ASGARITH, K_NOT, K_AND, K_OR };
enum cmp { LT, LE, EQ, NE, GE, GT };
static const char *const cmp_text[] = { "<", "<=", "==", "!=", ">=", ">" };

struct cond {
	enum cond_kind	kind;
	enum cmp	op;
	int		var;
	struct cval	k;	/* K_VAR, K_POST */
	int		dec;	/* K_POST: x-- */
	struct call	*call;
	struct stmt	*st;	/* K_ASGARITH: (x += k) OP k, ... */
	struct cond	*l, *r;
};

enum stmt_kind {
	S_SETK, S_COPY, S_ADDV, S_ADDK, S_SUBK, S_INC, S_DEC,
	S_SUM,		/* x = y + e, x = e + y, x = y - k: k is s->k */
	S_CALL, S_ASGCALL, S_IF, S_WHILE, S_DO, S_FOR, S_LOOP,
	S_BREAK, S_CONTINUE, S_GOTO, S_STOP, S_BLOCK,
};

struct stmt {
	enum stmt_kind	kind;
	int		var, src;
	struct cval	k;
	struct call	*call;
	struct cond	*cond;
	struct stmt	*body, *els;	/* loop or then, else */
	struct stmt	*init, *step;	/* for; while/do/loop: init */
	struct stmt	*kids;		/* block */
	struct stmt	*next;
	int		label;		/* goto target; a top-level label */
	int		has_label;	/* top level: this statement is labelled */
	int		bound;		/* loop: counter limit */
	int		pre;		/* S_INC, S_DEC: ++x, --x */
};

static struct stmt *new_stmt(enum stmt_kind k)
{
	struct stmt *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->kind = k;
	return s;
}

static void free_call(struct call *c)
{
	if (c) {
		free(c->text);
		free(c);
	}
}

static void free_stmt(struct stmt *s);

static void free_cond(struct cond *c)
{
	if (!c)
		return;
	free_call(c->call);
	free_stmt(c->st);
	free_cond(c->l);
	free_cond(c->r);
	free(c);
}

static void free_stmt(struct stmt *s)
{
	while (s) {
		struct stmt *n = s->next;

		free_call(s->call);
		free_cond(s->cond);
		free_stmt(s->body);
		free_stmt(s->els);
		free_stmt(s->init);
		free_stmt(s->step);
		free_stmt(s->kids);
		free(s);
		s = n;
	}
}

/* Generation context. */
static int gen_labels;		/* top-level labels L0.. */
static int gen_err_allowed;	/* one constant that is an error, at most */
static int gen_has_err;

static int data_var(void)
{
	return (int)rn(NDATA);
}

/* A value to read: data, or now and then a narrow element or n. */
static int src_var(void)
{
	unsigned int r = rn(NDATA + NSRC + 1);

	return r < NDATA ? (int)r : r < NDATA + NSRC ?
	       V_H0 + (int)(r - NDATA) : V_N;
}

static struct cval gen_k(struct buf *b)
{
	struct buf t = { 0 };
	struct cval v;

	for (;;) {
		t.len = 0;
		v = gen_const(&t, (int)rn(3));
		if (!v.err || (gen_err_allowed && !gen_has_err && rn(4) == 0))
			break;
	}
	if (v.err)
		gen_has_err = 1;
	bprintf(b, "%s", t.s);
	free(t.s);
	return v;
}

/* The next call's kind when not -1: e's stores are mostly close()s,
 * whose errno the status rule is about. */
static int gen_call_kind = -1;

static struct call *gen_call(bool for_cond)
{
	struct call *c = calloc(1, sizeof(*c));
	struct buf t = { 0 };
	unsigned int r = rn(for_cond ? 5 : 6);

	if (gen_call_kind >= 0)
		r = (unsigned int)gen_call_kind;
	gen_call_kind = -1;

	if (!c)
		abort();
	c->lenvar = -1;
	c->kind = (enum call_kind)r;
	switch (c->kind) {
	case C_GETPID:
		bprintf(&t, "getpid()");
		break;
	case C_GETPPID:
		bprintf(&t, "getppid()");
		break;
	case C_CLOSE: {
		static const int64_t fds[] = { -1, -5, 1000000, 0x7fffffff };

		c->arg = fds[rn(4)];
		bprintf(&t, "close(%" PRId64 ")", c->arg);
		break;
	}
	case C_WNUL:
	case C_WPIPE:
		c->str = (int)rn(4);
		bprintf(&t, "write(%s, \"%s\", ", c->kind == C_WNUL ? "nul" :
			"pfd", strs[c->str]);
		if (rn(3) == 0) {
			c->lenvar = rn(2) ? V_N : data_var();
			bprintf(&t, "%s)", vname[c->lenvar]);
		} else {
			c->arg = rn((unsigned int)strlen(strs[c->str]) + 1);
			bprintf(&t, "%" PRId64 ")", c->arg);
		}
		break;
	case C_UMEM:
		c->var = data_var();
		bprintf(&t, "umem_add(&%s, ", vname[c->var]);
		c->inc = gen_k(&t);
		bprintf(&t, ")");
		break;
	}
	c->text = t.s;
	return c;
}

static enum cmp gen_cmp(void)
{
	return (enum cmp)rn(6);
}

/* e now and then, else @v. */
static int e_or(int v)
{
	return rn(3) ? v : V_E;
}

static struct stmt *gen_simple(struct buf *b, int v);

static struct cond *gen_cond(struct buf *b, int depth)
{
	struct cond *c = calloc(1, sizeof(*c));
	unsigned int r = depth > 0 ? rn(13) : rn(10);

	if (!c)
		abort();
	if (r >= 10) {
		c->kind = r == 10 ? K_AND : r == 11 ? K_OR : K_NOT;
		if (c->kind == K_NOT) {
			bprintf(b, "!(");
			c->l = gen_cond(b, depth - 1);
			bprintf(b, ")");
			return c;
		}
		bprintf(b, "(");
		c->l = gen_cond(b, depth - 1);
		bprintf(b, ") %s (", c->kind == K_AND ? "&&" : "||");
		c->r = gen_cond(b, depth - 1);
		bprintf(b, ")");
		return c;
	}
	c->op = gen_cmp();
	switch (r) {
	case 0:
	case 1:
	case 2:
		c->kind = K_VAR;
		c->var = e_or(src_var());
		if (rn(4) == 0) {	/* k OP x, "either way round" */
			static const char *const mirror[] = {
				">", ">=", "==", "!=", "<=", "<",
			};

			c->k = gen_k(b);
			bprintf(b, " %s %s", mirror[c->op], vname[c->var]);
			break;
		}
		bprintf(b, "%s %s ", vname[c->var], cmp_text[c->op]);
		if (rn(3) == 0) {
			bprintf(b, "0");
			c->k = cv(0);
		} else {
			c->k = gen_k(b);
		}
		break;
	case 3:
		c->kind = rn(2) ? K_BARE : K_NOT_VAR;
		c->var = e_or(src_var());
		bprintf(b, "%s%s", c->kind == K_BARE ? "" : "!",
			vname[c->var]);
		break;
	case 4:
	case 5:
		c->kind = K_CALL;
		c->call = gen_call(true);
		bprintf(b, "%s %s ", c->call->text, cmp_text[c->op]);
		if (rn(3) == 0) {
			c->k = gen_k(b);
		} else {
			bprintf(b, "0");
			c->k = cv(0);
		}
		break;
	case 6:
	case 7:
		c->kind = K_ASGCALL;
		c->var = e_or(data_var());
		if (c->var == V_E && rn(3))
			gen_call_kind = C_CLOSE;
		c->call = gen_call(true);
		bprintf(b, "(%s = %s) %s ", vname[c->var], c->call->text,
			cmp_text[c->op]);
		if (rn(3) == 0) {
			c->k = gen_k(b);
		} else {
			bprintf(b, "0");
			c->k = cv(0);
		}
		break;
	case 9:
		/* An arithmetic assignment, tested on the word it stored
		 * (syslet(5), Conditions). */
		c->kind = K_ASGARITH;
		if (rn(5) == 0) {	/* bare: "true when not 0", or ! */
			c->op = rn(2) ? NE : EQ;
			c->k = cv(0);
			bprintf(b, "%s(", c->op == EQ ? "!" : "");
			c->st = gen_simple(b, data_var());
			bprintf(b, ")");
			break;
		}
		bprintf(b, "(");
		c->st = gen_simple(b, data_var());
		bprintf(b, ") %s ", cmp_text[c->op]);
		if (rn(3) == 0) {
			bprintf(b, "0");
			c->k = cv(0);
		} else {
			c->k = gen_k(b);
		}
		break;
	default: {
		static const char *const ks[] = {
			"0", "0", "1", "-1", "5", "-7", "100",
			"0x7fffffffffffffff", "-0x8000000000000000",
			"0x8000000000000000",
		};
		const char *k = ks[rn(10)];

		c->kind = K_POST;
		c->var = data_var();
		c->dec = (int)rn(2);
		if (rn(4) == 0) {	/* while (k--): "true when not 0" */
			c->op = NE;
			c->k = cv(0);
			bprintf(b, "%s%s", vname[c->var], c->dec ? "--" : "++");
			break;
		}
		/* The constant is read as a signed word (Conditions). */
		c->k = cv(signed_of(lit_value(k)));
		bprintf(b, "%s%s %s %s", vname[c->var],
			c->dec ? "--" : "++", cmp_text[c->op], k);
		break;
	}
	}
	return c;
}

static void indent(struct buf *b, int n)
{
	while (n-- > 0)
		bprintf(b, "\t");
}

static struct stmt *gen_simple(struct buf *b, int v)
{
	struct stmt *s;
	unsigned int r = rn(10);

	switch (r) {
	case 8:
	case 9: {
		unsigned int f = rn(4);

		s = new_stmt(S_SUM);
		s->var = v;
		s->src = src_var();
		s->label = -1;		/* e: a variable, or -1 and k */
		if (f == 0) {
			s->label = src_var();
			bprintf(b, "%s = %s + %s", vname[v], vname[s->src],
				vname[s->label]);
		} else if (f == 1) {
			bprintf(b, "%s = %s + ", vname[v], vname[s->src]);
			s->k = gen_k(b);
		} else if (f == 2) {
			bprintf(b, "%s = ", vname[v]);
			s->k = gen_k(b);
			bprintf(b, " + %s", vname[s->src]);
		} else {
			struct cval k;

			bprintf(b, "%s = %s - ", vname[v], vname[s->src]);
			k = gen_k(b);
			/* y - k is y + -k on words, whatever k */
			s->k.err = k.err;
			s->k.v = (i128)(int64_t)(0 - word_of(k.v));
		}
		return s;
	}
	case 0:
	case 1:
		s = new_stmt(S_SETK);
		s->var = v;
		bprintf(b, "%s = ", vname[v]);
		s->k = gen_k(b);
		break;
	case 2:
		s = new_stmt(S_COPY);
		s->var = v;
		s->src = src_var();
		bprintf(b, "%s = %s", vname[v], vname[s->src]);
		break;
	case 3:
		s = new_stmt(S_ADDV);
		s->var = v;
		s->src = src_var();
		bprintf(b, "%s += %s", vname[v], vname[s->src]);
		break;
	case 4:
		s = new_stmt(S_ADDK);
		s->var = v;
		bprintf(b, "%s += ", vname[v]);
		s->k = gen_k(b);
		break;
	case 5:
		s = new_stmt(S_SUBK);
		s->var = v;
		bprintf(b, "%s -= ", vname[v]);
		s->k = gen_k(b);
		break;
	default:
		s = new_stmt(r == 6 ? S_INC : S_DEC);
		s->var = v;
		s->pre = rn(3) == 0;
		if (s->pre)
			bprintf(b, "%s%s", r == 6 ? "++" : "--", vname[v]);
		else
			bprintf(b, "%s%s", vname[v], r == 6 ? "++" : "--");
		break;
	}
	return s;
}

static struct stmt *gen_stmt(struct buf *b, int ind, int depth, int loops);

static struct stmt *gen_list(struct buf *b, int ind, int depth, int loops,
			     unsigned int n)
{
	struct stmt *head = NULL, **tail = &head;

	while (n--) {
		*tail = gen_stmt(b, ind, depth, loops);
		tail = &(*tail)->next;
	}
	return head;
}

/* A test of @var against the constant @k: @var OP @k (K_VAR), or
 * @var++ OP @k (K_POST). */
static struct cond *new_cond(enum cond_kind kind, int var, enum cmp op,
			     i128 k)
{
	struct cond *c = calloc(1, sizeof(*c));

	if (!c)
		abort();
	c->kind = kind;
	c->var = var;
	c->op = op;
	c->k = cv(k);
	return c;
}

/* A loop bounded by its own counter, whatever its body does: the counter
 * of loop depth `loops` is stepped before the body can continue. */
static struct stmt *gen_loop(struct buf *b, int ind, int depth, int loops)
{
	int ctr = V_I0 + loops;
	const char *c = vname[ctr];
	unsigned int m = 1 + rn(4);
	struct stmt *s = new_stmt(S_WHILE + rn(4));
	struct stmt *inc = new_stmt(S_INC), *lim;

	inc->var = ctr;
	s->bound = (int)m;
	indent(b, ind);
	switch (s->kind) {
	case S_WHILE:	/* i = 0; while (i < m) { i++; body } */
		s->init = new_stmt(S_SETK);
		s->init->var = ctr;
		bprintf(b, "%s = 0;\n", c);
		indent(b, ind);
		bprintf(b, "while (%s < %u) {\n", c, m);
		s->cond = new_cond(K_VAR, ctr, LT, m);
		indent(b, ind + 1);
		bprintf(b, "%s++;\n", c);
		inc->next = gen_list(b, ind + 1, depth + 1, loops + 1,
				     1 + rn(3));
		s->body = inc;
		break;
	case S_DO:	/* i = 0; do { i++; body } while (i < m); */
		s->init = new_stmt(S_SETK);
		s->init->var = ctr;
		bprintf(b, "%s = 0;\n", c);
		indent(b, ind);
		bprintf(b, "do {\n");
		indent(b, ind + 1);
		bprintf(b, "%s++;\n", c);
		inc->next = gen_list(b, ind + 1, depth + 1, loops + 1,
				     1 + rn(3));
		s->body = inc;
		indent(b, ind);
		bprintf(b, "} while (%s < %u);\n", c, m);
		s->cond = new_cond(K_VAR, ctr, LT, m);
		return s;
	case S_FOR:	/* for (i = 0; i < m; i++) body */
		s->init = new_stmt(S_SETK);
		s->init->var = ctr;
		s->step = inc;
		if (rn(3) == 0) {	/* no condition: always true */
			bprintf(b, "for (%s = 0; ; %s++) {\n", c, c);
			indent(b, ind + 1);
			bprintf(b, "if (%s >= %u)\n", c, m);
			indent(b, ind + 2);
			bprintf(b, "break;\n");
			lim = new_stmt(S_IF);
			lim->cond = new_cond(K_VAR, ctr, GE, m);
			lim->body = new_stmt(S_BREAK);
			lim->next = gen_list(b, ind + 1, depth + 1, loops + 1,
					     1 + rn(3));
			s->body = lim;
			break;
		}
		bprintf(b, "for (%s = 0; %s < %u; %s++) {\n", c, c, m, c);
		s->cond = new_cond(K_VAR, ctr, LT, m);
		s->body = gen_list(b, ind + 1, depth + 1, loops + 1,
				   1 + rn(3));
		break;
	default:	/* i = 0; loop { i++; if (i > m) break; body } */
		s->init = new_stmt(S_SETK);
		s->init->var = ctr;
		bprintf(b, "%s = 0;\n", c);
		indent(b, ind);
		bprintf(b, "loop {\n");
		indent(b, ind + 1);
		bprintf(b, "%s++;\n", c);
		indent(b, ind + 1);
		bprintf(b, "if (%s > %u)\n", c, m);
		indent(b, ind + 2);
		bprintf(b, "break;\n");
		lim = new_stmt(S_IF);
		lim->cond = new_cond(K_VAR, ctr, GT, m);
		lim->body = new_stmt(S_BREAK);
		inc->next = lim;
		lim->next = gen_list(b, ind + 1, depth + 1, loops + 1,
				     1 + rn(3));
		s->body = inc;
		break;
	}
	indent(b, ind);
	bprintf(b, "}\n");
	return s;
}

static int gen_force_if;	/* the next statement is an if: else if */
/* The next statement is a stop on a test of e (the program's last). */
static int gen_force_estop;

static struct stmt *gen_stmt(struct buf *b, int ind, int depth, int loops)
{
	struct stmt *s;
	unsigned int r = rn(100);

	if (gen_force_if) {
		gen_force_if = 0;
		r = 60;
	}
	if (gen_force_estop)
		r = 91;

	if (r < 34) {
		indent(b, ind);
		s = gen_simple(b, rn(10) ? data_var() : V_N);
		bprintf(b, ";\n");
		return s;
	}
	if (r < 52) {
		indent(b, ind);
		/* Where the atom runs changes nothing it computes. */
		if (rn(6) == 0)
			bprintf(b, rn(2) ? "async " : "sync ");
		if (rn(2)) {
			s = new_stmt(S_CALL);
			s->call = gen_call(false);
			bprintf(b, "%s;\n", s->call->text);
		} else {
			s = new_stmt(S_ASGCALL);
			s->var = rn(5) ? e_or(data_var()) : V_N;
			if (s->var == V_E && rn(3))
				gen_call_kind = C_CLOSE;
			s->call = gen_call(false);
			bprintf(b, "%s = %s;\n", vname[s->var], s->call->text);
		}
		return s;
	}
	if (r < 70 && depth < 3) {
		s = new_stmt(S_IF);
		indent(b, ind);
		bprintf(b, "if (");
		s->cond = gen_cond(b, 2);
		bprintf(b, ") {\n");
		s->body = gen_list(b, ind + 1, depth + 1, loops, 1 + rn(2));
		if (rn(8) == 0) {	/* ends at the statement before */
			struct stmt **t = &s->body;

			while (*t)
				t = &(*t)->next;
			*t = new_stmt(S_STOP);
			indent(b, ind + 1);
			bprintf(b, "stop;\n");
		}
		indent(b, ind);
		bprintf(b, "}");
		if (rn(5) == 0 && depth < 2) {
			/* One statement, printed as one: an if. */
			bprintf(b, " else\n");
			gen_force_if = 1;
			s->els = gen_stmt(b, ind, depth + 1, loops);
			return s;
		}
		if (rn(2)) {
			bprintf(b, " else {\n");
			s->els = gen_list(b, ind + 1, depth + 1, loops,
					  1 + rn(2));
			indent(b, ind);
			bprintf(b, "}");
		}
		bprintf(b, "\n");
		return s;
	}
	if (r < 78 && depth < 3 && loops < 3)
		return gen_loop(b, ind, depth, loops);
	if (r < 84 && loops) {
		s = new_stmt(rn(2) ? S_BREAK : S_CONTINUE);
		indent(b, ind);
		bprintf(b, "if (");
		struct stmt *i = new_stmt(S_IF);

		i->cond = gen_cond(b, 1);
		i->body = s;
		bprintf(b, ")\n");
		indent(b, ind + 1);
		bprintf(b, "%s;\n", s->kind == S_BREAK ? "break" : "continue");
		return i;
	}
	if (r < 90 && gen_labels) {
		s = new_stmt(S_GOTO);
		s->label = (int)rn((unsigned int)gen_labels);
		indent(b, ind);
		bprintf(b, "if (");
		struct stmt *i = new_stmt(S_IF);

		/* Backward jumps are bounded by g, which nothing resets. */
		if (rn(2)) {
			i->cond = new_cond(K_POST, V_G, LT, 3);
			bprintf(b, "g++ < 3");
		} else {
			i->cond = gen_cond(b, 1);
		}
		i->body = s;
		bprintf(b, ")\n");
		indent(b, ind + 1);
		bprintf(b, "goto L%d;\n", s->label);
		return i;
	}
	if (r < 93) {
		struct stmt *i = new_stmt(S_IF);

		indent(b, ind);
		bprintf(b, "if (");
		if (gen_force_estop || rn(2)) {
			/* The test syslet-run's status rule is about. */
			gen_force_estop = 0;
			i->cond = calloc(1, sizeof(*i->cond));
			if (!i->cond)
				abort();
			i->cond->var = V_E;
			switch (rn(4)) {
			case 0:
				i->cond->kind = K_BARE;
				bprintf(b, "e");
				break;
			case 1:
				i->cond->kind = K_NOT_VAR;
				bprintf(b, "!e");
				break;
			default:
				i->cond->kind = K_VAR;
				i->cond->op = gen_cmp();
				i->cond->k = cv(0);
				bprintf(b, "e %s 0", cmp_text[i->cond->op]);
				break;
			}
		} else {
			i->cond = gen_cond(b, 1);
		}
		i->body = new_stmt(S_STOP);
		bprintf(b, ")\n");
		indent(b, ind + 1);
		bprintf(b, "stop;\n");
		return i;
	}
	indent(b, ind);
	s = gen_simple(b, data_var());
	bprintf(b, ";\n");
	return s;
}

struct program {
	char		*text;
	struct stmt	*top;		/* top-level statements */
	struct stmt	**tops;		/* by index */
	int		ntop;
	int		label_at[16];	/* label -> top index */
	struct cval	init[NVARS];
	bool		expect_error;
	int		karg;		/* kargs[] bound to k */
};

static void free_program(struct program *p)
{
	free(p->text);
	free_stmt(p->top);
	free(p->tops);
	memset(p, 0, sizeof(*p));
}

static void gen_program(struct program *p, uint64_t seed, unsigned long idx)
{
	struct buf b = { 0 };
	struct stmt **tail = &p->top;
	int ntop;

	memset(p, 0, sizeof(*p));
	rng_state = seed ^ (idx * 0xd1342543de82ef95ULL);
	rnd();
	ntop = 3 + (int)rn(8);
	gen_err_allowed = rn(10) == 0;
	gen_has_err = 0;
	gen_labels = rn(3) ? (int)rn(4) : 0;
	nkdefs = rn(4);
	bprintf(&b, "// langtest seed %#" PRIx64 " program %lu\n", seed, idx);
	for (unsigned int i = 0; i < nkdefs; i++) {
		snprintf(kdefs[i].name, sizeof(kdefs[i].name), "K%u", i);
		bprintf(&b, "const K%u = ", i);
		unsigned int save = nkdefs;

		nkdefs = i;	/* only earlier constants */
		kdefs[i].val = gen_k(&b);
		nkdefs = save;
		bprintf(&b, ";\n");
	}
	{
		/* Data items: "a value must fit its size read either as
		 * signed or as unsigned", stored as its two's complement. */
		static const char *const i16[] = {
			"0", "7", "65535", "-1", "-32768", "32767",
		};
		static const char *const i8[] = {
			"0", "9", "255", "-1", "-128", "127",
		};
		static const char *const i32[] = {
			"0", "5", "0xffffffff", "-1", "-2147483648",
			"0x80000000",
		};
		const char *h0 = i16[rn(6)], *h1 = i16[rn(6)];
		const char *b0 = i8[rn(6)], *b1 = i8[rn(6)];
		const char *d0 = i32[rn(6)], *d1 = i32[rn(6)];

		bprintf(&b, "word w[3];\ndata u16 h = %s, %s;\n"
			"data u8 bb = %s, %s;\ndata u32 dd = %s, %s;\n",
			h0, h1, b0, b1, d0, d1);
		p->init[V_H0] = cv((uint16_t)lit_value(h0));
		p->init[V_H1] = cv((uint16_t)lit_value(h1));
		p->init[V_B0] = cv((uint8_t)lit_value(b1));
		p->init[V_D0] = cv((uint32_t)lit_value(d0));
	}
	bprintf(&b, "var ");
	for (int v = 0, first = 1; v < NVARS; v++) {
		if (vlocal[v] || velem[v].obj)
			continue;
		bprintf(&b, "%s%s", first ? "" : ", ", vname[v]);
		first = 0;
		/* e: mostly no initial value, so that only calls store
		 * into it (an errno as its value is no call's). */
		if (v != V_G && v != V_N && (v == V_E ? !rn(6) : rn(2))) {
			bprintf(&b, " = ");
			p->init[v] = gen_k(&b);
		}
	}
	p->karg = (int)rn(NKARGS);
	p->init[V_K] = cv(kargs[p->karg].val);
	bprintf(&b, ";\n// k is bound to %s\nsyslet main(int nul, int pfd, "
		"int k) {\n\tvar p", kargs[p->karg].arg);
	if (rn(2)) {
		bprintf(&b, " = ");
		p->init[V_P] = gen_k(&b);
	}
	bprintf(&b, ", q, i0, i1, i2;\n");
	p->tops = calloc((size_t)ntop + 1, sizeof(*p->tops));
	if (!p->tops)
		abort();
	for (int l = 0; l < gen_labels; l++)
		p->label_at[l] = (int)rn((unsigned int)ntop + 1);
	for (int i = 0; i <= ntop; i++) {
		for (int l = 0; l < gen_labels; l++)
			if (p->label_at[l] == i)
				bprintf(&b, "L%d:\n", l);
		if (i == ntop) {
			/* A label at the end needs a statement: ';'. */
			bprintf(&b, "\t;\n");
			*tail = new_stmt(S_BLOCK);
		} else {
			/* Half the programs end on a test of e. */
			gen_force_estop = i == ntop - 1 && rn(2);
			*tail = gen_stmt(&b, 1, 0, 0);
		}
		p->tops[i] = *tail;
		tail = &(*tail)->next;
	}
	p->ntop = ntop + 1;
	bprintf(&b, "}\n");
	p->text = b.s;
	p->expect_error = gen_has_err;
}

/* ---- the evaluator -------------------------------------------------- */

struct callrec {
	long		nr;
	int		nint;		/* integer arguments compared */
	long		iarg[6];
	int		iarg_pos[6];
	int		addr_var;	/* umem_add: the variable, else -1 */
	long		ret;
};

enum last_kind { L_NONE, L_CALL, L_ARITH, L_VARTEST };

struct outcome {
	uint64_t	vals[NVARS];
	struct callrec	calls[LT_MAX_CALLS];
	int		ncalls;
	unsigned char	pipe[LT_MAX_PIPE];
	size_t		npipe;
	int		status;		/* 0, 1, or -1: not fixed */
	/* The evaluator's status came from the stop at a test of a
	 * variable holding an errno: 1, only calls store into it; 2, not
	 * so (arithmetic did last, or nothing stored into it), 0. */
	int		rule;
	char		why[256];	/* evaluator: why thrown away */
};

/* What last stored into a variable: nothing yet, a system call's result,
 * or arithmetic (umem_add(), by name too). */
enum writer { W_NONE, W_CALL, W_ARITH };

struct eval {
	struct outcome	*o;
	long		steps;
	int		bad;		/* unpredictable: throw away */
	enum last_kind	last;
	long		last_val;
	/* L_VARTEST: the variable tested by an atom that reads it (-1: a
	 * scratch copy's sum, or not known which atom tests) */
	int		last_var;
	unsigned char	writer[NVARS];
	/* syslet-run(1) EXIT STATUS: only system calls' results are ever
	 * stored into the variable (see calls_only()). */
	bool		calls_only[NVARS];
	long		pid, ppid;
	long		nr_getpid, nr_getppid, nr_close, nr_write, nr_umem;
};

enum flow { F_NEXT, F_BREAK, F_CONTINUE, F_STOP, F_GOTO };

static bool is_err(long v)
{
	return v < 0 && v >= -4095;
}

static void note_call(struct eval *E, long nr, long ret)
{
	struct outcome *o = E->o;

	if (o->ncalls >= LT_MAX_CALLS) {
		E->bad = 1;
		snprintf(o->why, sizeof(o->why), "too many calls");
		return;
	}
	o->calls[o->ncalls] = (struct callrec){ .nr = nr, .ret = ret,
						.addr_var = -1 };
	o->ncalls++;
}

static struct callrec *cur_call(struct eval *E)
{
	return &E->o->calls[E->o->ncalls - 1];
}

static void add_iarg(struct callrec *c, int pos, long v)
{
	c->iarg_pos[c->nint] = pos;
	c->iarg[c->nint++] = v;
}

/* A call: its result, which an assignment stores (every call made here
 * is in the table: seeds/006 stores all but -ENOSYS past it). */
static long eval_call(struct eval *E, const struct call *c)
{
	struct outcome *o = E->o;
	long ret = 0, len;

	switch (c->kind) {
	case C_GETPID:
		note_call(E, E->nr_getpid, ret = E->pid);
		break;
	case C_GETPPID:
		note_call(E, E->nr_getppid, ret = E->ppid);
		break;
	case C_CLOSE:
		note_call(E, E->nr_close, ret = -EBADF);
		if (!E->bad)
			add_iarg(cur_call(E), 0, (long)c->arg);
		break;
	case C_WNUL:
	case C_WPIPE:
		len = c->lenvar >= 0 ? (long)o->vals[c->lenvar] : (long)c->arg;
		if (len < 0 || (size_t)len > strlen(strs[c->str])) {
			E->bad = 1;
			snprintf(o->why, sizeof(o->why),
				 "write length %ld out of its string", len);
			return 0;
		}
		if (c->kind == C_WPIPE) {
			if (o->npipe + (size_t)len > LT_MAX_PIPE) {
				E->bad = 1;
				snprintf(o->why, sizeof(o->why), "pipe full");
				return 0;
			}
			memcpy(o->pipe + o->npipe, strs[c->str], (size_t)len);
			o->npipe += (size_t)len;
		}
		note_call(E, E->nr_write, ret = len);
		if (!E->bad)
			add_iarg(cur_call(E), 2, len);
		break;
	case C_UMEM:
		/* umem_add(p, inc): adds, returns the new value; inc 0
		 * reads (syslet(5), Arithmetic; seeds/006 sys_umem_add). */
		o->vals[c->var] += word_of(c->inc.v);
		if (word_of(c->inc.v))
			E->writer[c->var] = W_ARITH;
		ret = (long)o->vals[c->var];
		note_call(E, E->nr_umem, ret);
		if (!E->bad) {
			cur_call(E)->addr_var = c->var;
			add_iarg(cur_call(E), 1, (long)word_of(c->inc.v));
		}
		break;
	}
	/* umem_add() is arithmetic, whatever its value (syslet-run(1),
	 * EXIT STATUS), also where the source calls it by name. */
	E->last = c->kind == C_UMEM ? L_ARITH : L_CALL;
	E->last_val = ret;
	return ret;
}

static bool cmp_signed(int64_t a, enum cmp op, i128 k)
{
	i128 x = a;

	switch (op) {
	case LT: return x < k;
	case LE: return x <= k;
	case EQ: return x == k;
	case NE: return x != k;
	case GE: return x >= k;
	default: return x > k;
	}
}

static enum flow eval_stmt(struct eval *E, const struct stmt *s, int *label);

static bool eval_cond(struct eval *E, const struct cond *c)
{
	uint64_t *vals = E->o->vals;
	long r;

	switch (c->kind) {
	case K_VAR:
		/* "C's comparison of signed words for every value".  The
		 * atom that tests is the variable's own when it was just
		 * written (by a call, for all the manual says), else a copy:
		 * which one, with an errno in it, decides the status. */
		E->last = L_VARTEST;
		E->last_val = (long)vals[c->var];
		/* Against 0: umem_add(&var, 0), or the atom that wrote it.
		 * Against another constant, == and != test the copy's sum
		 * (syslet(5), Conditions); the others may end at the copy,
		 * which reads the variable, where its sign decides. */
		E->last_var = signed_of(c->k.v) == 0 ? c->var : -1;
		if (signed_of(c->k.v) != 0 && (c->op == EQ || c->op == NE))
			E->last = L_ARITH;
		return cmp_signed((int64_t)vals[c->var], c->op,
				  signed_of(c->k.v));
	case K_BARE:
	case K_NOT_VAR:
		E->last = L_VARTEST;
		E->last_val = (long)vals[c->var];
		E->last_var = c->var;
		return (vals[c->var] != 0) == (c->kind == K_BARE);
	case K_CALL:
	case K_ASGCALL:
		r = eval_call(E, c->call);
		if (c->kind == K_ASGCALL) {
			vals[c->var] = (uint64_t)r;
			E->writer[c->var] = c->call->kind == C_UMEM ? W_ARITH
								   : W_CALL;
		}
		/* Against another constant, a scratch copy of the result
		 * may be the last atom as well as the call. */
		if (signed_of(c->k.v) != 0 && E->last == L_CALL) {
			E->last = L_VARTEST;
			E->last_var = -1;
		}
		return cmp_signed(r, c->op, signed_of(c->k.v));
	case K_POST:
		/* Tested on the value after the step: x-- OP k is
		 * new OP k - 1, exactly, the new value a signed word. */
		vals[c->var] += c->dec ? (uint64_t)-1 : 1;
		E->writer[c->var] = W_ARITH;
		E->last = L_ARITH;
		return cmp_signed((int64_t)vals[c->var], c->op,
				  c->k.v + (c->dec ? -1 : 1));
	case K_ASGARITH: {
		/* The new value, a signed word; x++ and x-- as K_POST. */
		const struct stmt *s = c->st;
		i128 k = signed_of(c->k.v);
		int label = -1;

		eval_stmt(E, s, &label);
		if ((s->kind == S_INC || s->kind == S_DEC) && !s->pre)
			k += s->kind == S_DEC ? -1 : 1;
		E->last = L_ARITH;
		return cmp_signed((int64_t)vals[s->var], c->op, k);
	}
	case K_NOT:
		return !eval_cond(E, c->l);
	case K_AND:
		return eval_cond(E, c->l) && eval_cond(E, c->r);
	case K_OR:
		return eval_cond(E, c->l) || eval_cond(E, c->r);
	}
	return false;
}

static enum flow eval_list(struct eval *E, const struct stmt *s, int *label);

static enum flow eval_stmt(struct eval *E, const struct stmt *s, int *label)
{
	uint64_t *vals = E->o->vals;
	enum flow f;

	if (++E->steps > LT_MAX_STEPS) {
		E->bad = 1;
		snprintf(E->o->why, sizeof(E->o->why), "runs too long");
		return F_STOP;
	}
	switch (s->kind) {
	case S_SETK:
	case S_COPY:
	case S_ADDV:
	case S_ADDK:
	case S_SUBK:
	case S_SUM:
	case S_INC:
	case S_DEC:
		E->writer[s->var] = W_ARITH;
		break;
	case S_ASGCALL:
		E->writer[s->var] = s->call->kind == C_UMEM ? W_ARITH : W_CALL;
		break;
	default:
		break;
	}
	switch (s->kind) {
	case S_SETK:
		vals[s->var] = word_of(s->k.v);
		E->last = L_ARITH;
		break;
	case S_COPY:
		vals[s->var] = vals[s->src];
		E->last = L_ARITH;
		break;
	case S_ADDV:
		vals[s->var] += vals[s->src];
		E->last = L_ARITH;
		break;
	case S_ADDK:
		vals[s->var] += word_of(s->k.v);
		E->last = L_ARITH;
		break;
	case S_SUBK:
		vals[s->var] -= word_of(s->k.v);
		E->last = L_ARITH;
		break;
	case S_SUM:
		/* As C: both operands as they were before the store. */
		vals[s->var] = vals[s->src] + (s->label >= 0 ?
			vals[s->label] : word_of(s->k.v));
		E->last = L_ARITH;
		break;
	case S_INC:
		vals[s->var]++;
		E->last = L_ARITH;
		break;
	case S_DEC:
		vals[s->var]--;
		E->last = L_ARITH;
		break;
	case S_CALL:
		eval_call(E, s->call);
		break;
	case S_ASGCALL: {
		long r = eval_call(E, s->call);

		vals[s->var] = (uint64_t)r;
		break;
	}
	case S_IF:
		if (eval_cond(E, s->cond))
			return eval_list(E, s->body, label);
		if (s->els)
			return eval_list(E, s->els, label);
		break;
	case S_WHILE:
	case S_DO:
	case S_FOR:
	case S_LOOP:
		if (s->init)
			eval_stmt(E, s->init, label);
		/* A missing condition is always true (for (;;)). */
		if (s->kind == S_WHILE || s->kind == S_FOR)
			if (s->cond && !eval_cond(E, s->cond))
				break;
		for (;;) {
			f = eval_list(E, s->body, label);
			if (E->bad)
				return F_STOP;
			if (f == F_BREAK)
				break;
			if (f == F_STOP || f == F_GOTO)
				return f;
			if (s->step)
				eval_stmt(E, s->step, label);
			if (s->kind != S_LOOP && s->cond &&
			    !eval_cond(E, s->cond))
				break;
			if (++E->steps > LT_MAX_STEPS) {
				E->bad = 1;
				snprintf(E->o->why, sizeof(E->o->why),
					 "runs too long");
				return F_STOP;
			}
		}
		break;
	case S_BREAK:
		return F_BREAK;
	case S_CONTINUE:
		return F_CONTINUE;
	case S_GOTO:
		*label = s->label;
		return F_GOTO;
	case S_STOP:
		return F_STOP;
	case S_BLOCK:
		return eval_list(E, s->kids, label);
	}
	return E->bad ? F_STOP : F_NEXT;
}

static enum flow eval_list(struct eval *E, const struct stmt *s, int *label)
{
	for (; s; s = s->next) {
		enum flow f = eval_stmt(E, s, label);

		if (f != F_NEXT)
			return f;
	}
	return F_NEXT;
}

/* The whole syslet: top-level statements, a goto moving the index. */
/*
 * syslet-run(1) EXIT STATUS: a variable "that nothing but system calls'
 * results is ever stored into (no arithmetic on it, no call given its
 * address), and its initial value is no error"; "a parameter is never
 * such a variable", nor is an element of an array or data object (no
 * variable).  Counted over the program's text: @n[v] the calls that
 * store into v, @bad[v] anything else that does, or umem_add(&v, inc)
 * by name with inc not 0 (with 0 it only reads).
 */
static void co_stmt(const struct stmt *s, int *n, bool *bad);

static void co_call(const struct call *c, int var, int *n, bool *bad)
{
	if (c && c->kind == C_UMEM && word_of(c->inc.v))
		bad[c->var] = true;
	if (var < 0)
		return;
	if (c->kind == C_UMEM)
		bad[var] = true;
	else
		n[var]++;
}

static void co_cond(const struct cond *c, int *n, bool *bad)
{
	if (!c)
		return;
	switch (c->kind) {
	case K_CALL:
		co_call(c->call, -1, n, bad);
		break;
	case K_ASGCALL:
		co_call(c->call, c->var, n, bad);
		break;
	case K_POST:
		bad[c->var] = true;
		break;
	case K_ASGARITH:
		co_stmt(c->st, n, bad);
		break;
	default:
		break;
	}
	co_cond(c->l, n, bad);
	co_cond(c->r, n, bad);
}

static void co_stmt(const struct stmt *s, int *n, bool *bad)
{
	for (; s; s = s->next) {
		switch (s->kind) {
		case S_ADDK:
		case S_SUBK:
			/* x += 0 is umem_add(&x, 0), which stores nothing
			 * (sys_umem_add(3), as umem_add(&x, 0) by name). */
			if (word_of(s->k.v))
				bad[s->var] = true;
			break;
		case S_SETK:
		case S_COPY:
		case S_ADDV:
		case S_SUM:
		case S_INC:
		case S_DEC:
			bad[s->var] = true;
			break;
		case S_CALL:
			co_call(s->call, -1, n, bad);
			break;
		case S_ASGCALL:
			co_call(s->call, s->var, n, bad);
			break;
		default:
			break;
		}
		co_cond(s->cond, n, bad);
		co_stmt(s->body, n, bad);
		co_stmt(s->els, n, bad);
		co_stmt(s->init, n, bad);
		co_stmt(s->step, n, bad);
		co_stmt(s->kids, n, bad);
	}
}

static void calls_only(struct eval *E, const struct program *p)
{
	int n[NVARS] = { 0 };
	bool bad[NVARS] = { false };

	co_stmt(p->top, n, bad);
	for (int v = 0; v < NVARS; v++)
		E->calls_only[v] = n[v] > 0 && !bad[v] && v != V_K &&
				   !velem[v].obj &&
				   !is_err((long)word_of(p->init[v].v));
}

static void eval_program(struct eval *E, const struct program *p)
{
	struct outcome *o = E->o;
	int i = 0, label;

	for (int v = 0; v < NVARS; v++)
		o->vals[v] = word_of(p->init[v].v);
	calls_only(E, p);
	memset(E->writer, W_NONE, sizeof(E->writer));
	E->last = L_NONE;
	while (i < p->ntop && !E->bad) {
		enum flow f = eval_stmt(E, p->tops[i], &label);

		if (f == F_STOP)
			break;
		if (f == F_GOTO) {
			i = p->label_at[label];
			continue;
		}
		i++;
	}
	/* syslet-run(1) EXIT STATUS: 1 when the last atom is a call that
	 * failed.  A test of a variable is made by that variable's own atom
	 * when it was just written (syslet(5): fused), else by umem_add():
	 * with an errno in the variable, 1 when only calls ever store into
	 * it (calls_only()), whichever atom tested it: fused, the call
	 * that wrote it.  Otherwise 0 where the last store into it was
	 * arithmetic, or nothing stored into it (then no atom could have
	 * fused the test); open where a call wrote it (fused or not is
	 * the compiler's choice) or where the atom that tests is a copy's. */
	switch (E->last) {
	case L_CALL:
		o->status = is_err(E->last_val);
		break;
	case L_VARTEST:
		if (!is_err(E->last_val))
			o->status = 0;
		else if (E->last_var < 0)
			o->status = -1;
		else if (E->calls_only[E->last_var])
			o->status = 1, o->rule = 1;
		else
			o->status = E->writer[E->last_var] == W_CALL ? -1 : 0,
			o->rule = o->status ? 0 : 2;
		break;
	default:
		o->status = 0;
		break;
	}
}

/* ---- the engines ----------------------------------------------------- */

struct run {
	struct syslet_inst	*inst;
	struct outcome		*o;
	long			atoms;
	long			nr_umem;
	unsigned long		*cells[NVARS];
	int			overflow;
	const char		*text;
};

static void on_atom(const struct syslet_event *ev, void *ctx)
{
	struct run *R = ctx;
	SYSLET_OPTS(syslet_atom_info, info);
	struct callrec *c;

	if (++R->atoms > LT_MAX_ATOMS) {
		fprintf(stderr, "langtest: RUNAWAY: more than %d atoms; the "
			"program:\n%s", LT_MAX_ATOMS, R->text);
		_exit(1);
	}
	if (syslet_inst__atom_info(R->inst, ev->atom, &info) ||
	    info.role != SYSLET_ROLE_CALL)
		return;
	if (R->o->ncalls >= LT_MAX_CALLS) {
		R->overflow = 1;
		return;
	}
	c = &R->o->calls[R->o->ncalls++];
	memset(c, 0, sizeof(*c));
	c->nr = (long)ev->nr;
	c->ret = ev->ret;
	c->addr_var = -1;
	for (int v = 0; v < NVARS; v++)
		if ((unsigned long)R->cells[v] == ev->args[0])
			c->addr_var = v;
	for (int k = 0; k < 6 && k < (int)ev->nargs; k++) {
		c->iarg_pos[c->nint] = k;
		c->iarg[c->nint++] = (long)ev->args[k];
	}
}

/* Keep from the engine's arguments those the evaluator knows. */
static void project(struct callrec *got, const struct callrec *want)
{
	long all[6] = { 0 };

	for (int k = 0; k < got->nint; k++)
		all[got->iarg_pos[k]] = got->iarg[k];
	got->nint = want->nint;
	for (int k = 0; k < want->nint; k++) {
		got->iarg_pos[k] = want->iarg_pos[k];
		got->iarg[k] = all[want->iarg_pos[k]];
	}
	if (want->addr_var < 0)
		got->addr_var = -1;
}

static int fd_nul = -1, fd_pipe[2] = { -1, -1 };
static struct syslet_ring ring;

/* 0 ran (outcome in o), 1 the program was refused (message in err). */
static int run_program(const struct program *p, struct outcome *o,
		       char *err, size_t errlen, char **diag_text)
{
	void *elf = NULL;
	size_t elf_len = 0, dlen = 0;
	char *dtext = NULL;
	FILE *diags = open_memstream(&dtext, &dlen);
	char errbuf[256] = "", fdn[16], fdp[16];
	char *argv[3] = { fdn, fdp, (char *)kargs[p->karg].arg };
	struct syslet_obj *obj;
	struct run R = { 0 };
	struct syslet_uatom *entry, *last;
	int n;

	if (!diags)
		abort();
	n = sysletc_compile_mem("lang.syslet", p->text, strlen(p->text),
				diags, &elf, &elf_len, errbuf, sizeof(errbuf));
	fclose(diags);
	*diag_text = dtext;
	if (n) {
		snprintf(err, errlen, "compile: %d (%s)", n, errbuf);
		return 1;
	}
	obj = syslet_obj__open_mem(elf, elf_len, errbuf, sizeof(errbuf));
	free(elf);
	if (!obj) {
		snprintf(err, errlen, "open_mem: %s", errbuf);
		return 1;
	}
	R.inst = syslet_obj__instantiate(obj, errbuf, sizeof(errbuf));
	if (!R.inst) {
		snprintf(err, errlen, "instantiate: %s", errbuf);
		syslet_obj__close(obj);
		return 1;
	}
	snprintf(fdn, sizeof(fdn), "%d", fd_nul);
	snprintf(fdp, sizeof(fdp), "%d", fd_pipe[1]);
	if (syslet_inst__bind(R.inst, "main", 3, argv, errbuf,
			      sizeof(errbuf))) {
		snprintf(err, errlen, "bind: %s", errbuf);
		goto fail;
	}
	for (int v = 0; v < NVARS; v++) {
		char name[32];

		if (velem[v].obj) {
			size_t size = 0;
			unsigned char *mem = syslet_inst__object(R.inst,
							       velem[v].obj,
							       &size);

			R.cells[v] = mem ? (unsigned long *)(mem + velem[v].idx *
						velem[v].width) : NULL;
			snprintf(name, sizeof(name), "%s", velem[v].obj);
		} else {
			snprintf(name, sizeof(name), "%s%s",
				 vlocal[v] ? "main." : "", vname[v]);
			R.cells[v] = syslet_inst__cell(R.inst, name);
		}
		if (!R.cells[v]) {
			snprintf(err, errlen, "no cell %s", name);
			goto fail;
		}
	}
	memset(o, 0, sizeof(*o));
	R.o = o;
	R.nr_umem = syslet_syscall_number("umem_add");
	R.text = p->text;
	entry = syslet_inst__entry(R.inst, "main");
	syslet_set_trace(on_atom, &R);
	last = sys_async_exec(entry);
	if (!last)	/* went async: its last atom comes in the ring */
		last = syslet_ring__wait_pop(&ring, 1);
	syslet_set_trace(NULL, NULL);
	if (!last) {
		snprintf(err, errlen, "no completion: %s", strerror(errno));
		goto fail;
	}
	{
		long res = 0;

		/* What syslet-run exits with: srun_failed(), its rule. */
		o->status = srun_failed(R.inst, last, srun_ran_nr(last), &res, NULL);
	}
	for (int v = 0; v < NVARS; v++)
		switch (velem[v].width) {
		case 1: o->vals[v] = *(uint8_t *)R.cells[v]; break;
		case 2: o->vals[v] = *(uint16_t *)R.cells[v]; break;
		case 4: o->vals[v] = *(uint32_t *)R.cells[v]; break;
		default: o->vals[v] = *R.cells[v]; break;
		}
	for (;;) {
		ssize_t k = read(fd_pipe[0], o->pipe + o->npipe,
				 sizeof(o->pipe) - o->npipe);

		if (k <= 0)
			break;
		o->npipe += (size_t)k;
		if (o->npipe == sizeof(o->pipe))
			break;
	}
	if (R.overflow)
		o->ncalls = LT_MAX_CALLS + 1;
	syslet_inst__free(R.inst);
	syslet_obj__close(obj);
	return 0;
fail:
	syslet_inst__free(R.inst);
	syslet_obj__close(obj);
	return 1;
}

/* ---- comparing ------------------------------------------------------ */

static const char *call_name(long nr)
{
	const char *s = syslet_syscall_name(nr);

	return s ? s : "?";
}

static void print_call(FILE *f, const struct callrec *c)
{
	fprintf(f, "%s(", call_name(c->nr));
	if (c->addr_var >= 0)
		fprintf(f, "&%s ", vname[c->addr_var]);
	for (int k = 0; k < c->nint; k++)
		fprintf(f, "%sarg%d=%ld", k ? " " : "", c->iarg_pos[k],
			c->iarg[k]);
	fprintf(f, ") = %ld", c->ret);
}

static int compare(const struct outcome *want, struct outcome *got,
		   char *what, size_t wlen)
{
	for (int v = 0; v < NVARS; v++)
		if (want->vals[v] != got->vals[v]) {
			snprintf(what, wlen, "variable %s: manual %" PRId64
				 " (%#" PRIx64 "), compiled %" PRId64 " (%#"
				 PRIx64 ")", vname[v], (int64_t)want->vals[v],
				 want->vals[v], (int64_t)got->vals[v],
				 got->vals[v]);
			return 1;
		}
	for (int i = 0; i < want->ncalls || i < got->ncalls; i++) {
		char a[160] = "(none)", b[160] = "(none)";
		FILE *fa, *fb;

		if (i < want->ncalls && i < got->ncalls) {
			project(&got->calls[i], &want->calls[i]);
			if (got->calls[i].nr == want->calls[i].nr &&
			    got->calls[i].ret == want->calls[i].ret &&
			    got->calls[i].addr_var == want->calls[i].addr_var &&
			    !memcmp(got->calls[i].iarg, want->calls[i].iarg,
				    sizeof(long) * (size_t)want->calls[i].nint))
				continue;
		}
		if (i < want->ncalls && (fa = fmemopen(a, sizeof(a), "w"))) {
			print_call(fa, &want->calls[i]);
			fclose(fa);
		}
		if (i < got->ncalls && (fb = fmemopen(b, sizeof(b), "w"))) {
			print_call(fb, &got->calls[i]);
			fclose(fb);
		}
		snprintf(what, wlen, "call %d: manual %s, compiled %s", i + 1,
			 a, b);
		return 1;
	}
	if (want->npipe != got->npipe ||
	    memcmp(want->pipe, got->pipe, want->npipe)) {
		snprintf(what, wlen, "pipe: manual %zu bytes \"%.*s\", "
			 "compiled %zu bytes \"%.*s\"", want->npipe,
			 (int)(want->npipe > 64 ? 64 : want->npipe),
			 want->pipe, got->npipe,
			 (int)(got->npipe > 64 ? 64 : got->npipe), got->pipe);
		return 1;
	}
	if (want->status >= 0 && want->status != got->status) {
		snprintf(what, wlen, "exit status: manual %d, compiled %d",
			 want->status, got->status);
		return 1;
	}
	return 0;
}

/* ---- driver --------------------------------------------------------- */

struct opts {
	uint64_t	seed;
	unsigned long	from, count;
	const char	*backends;
	int		verbose;
};

static struct outcome want_o, got_o;

static int run_backend(const struct opts *op, const char *backend)
{
	struct eval E = { 0 };
	unsigned long done = 0, thrown = 0, errs = 0, rule[3] = { 0 };
	long nr_umem;
	int rc;

	if (syslet_set_backend(backend) ||
	    strcmp(syslet_backend_name(), backend)) {
		printf("langtest: %s: not available here (%s): skipped\n",
		       backend, syslet_backend_error() ?
		       syslet_backend_error() : "unknown");
		return 77;
	}
	ring.sz = sizeof(ring);
	rc = syslet_ring__init(&ring, 64, (unsigned long)-1);
	if (rc) {
		printf("langtest: %s: cannot register a ring (%s): skipped\n",
		       backend, strerror(-rc));
		return 77;
	}
	nr_umem = syslet_syscall_number("umem_add");
	E.pid = getpid();
	E.ppid = getppid();
	E.nr_getpid = syslet_syscall_number("getpid");
	E.nr_getppid = syslet_syscall_number("getppid");
	E.nr_close = syslet_syscall_number("close");
	E.nr_write = syslet_syscall_number("write");
	E.nr_umem = nr_umem;
	for (unsigned long i = op->from; done < op->count; i++) {
		struct program p;
		char err[300], what[1024];
		char *diag = NULL;

		gen_program(&p, op->seed, i);
		memset(&want_o, 0, sizeof(want_o));
		E.o = &want_o;
		E.steps = 0;
		E.bad = 0;
		if (!p.expect_error)
			eval_program(&E, &p);
		if (E.bad) {
			if (op->verbose > 1)
				printf("program %lu thrown away: %s\n", i,
				       want_o.why);
			free_program(&p);
			thrown++;
			continue;
		}
		done++;
		if (op->verbose)
			printf("---- program %lu\n%s", i, p.text);
		rc = run_program(&p, &got_o, err, sizeof(err), &diag);
		if (p.expect_error) {
			errs++;
			if (rc == 0) {
				snprintf(what, sizeof(what), "a constant the "
					 "manual calls an error compiled");
				goto mismatch;
			}
			free(diag);
			free_program(&p);
			continue;
		}
		if (rc) {
			snprintf(what, sizeof(what), "refused: %s", err);
			goto mismatch;
		}
		if (compare(&want_o, &got_o, what, sizeof(what)))
			goto mismatch;
		rule[want_o.rule]++;
		free(diag);
		free_program(&p);
		continue;
mismatch:
		fprintf(stderr, "langtest: MISMATCH on %s: seed %#" PRIx64
			" program %lu: %s\n", backend, op->seed, i, what);
		if (diag && *diag)
			fprintf(stderr, "%s", diag);
		fprintf(stderr, "---- the program:\n%s----\n"
			"  reproduce: langtest --seed=%#" PRIx64
			" --from=%lu --count=1 --backend=%s -v\n", p.text,
			op->seed, i, backend);
		free(diag);
		free_program(&p);
		return 1;
	}
	syslet_ring__exit(&ring);
	printf("langtest: %s: seed %#" PRIx64 ", programs %lu..: %lu compared"
	       " (%lu of them errors), %lu thrown away; %lu stopped at a test "
	       "of an errno that only calls store (status 1), %lu of one "
	       "that arithmetic stored or nothing did\n", backend, op->seed,
	       op->from, done, errs, thrown, rule[1], rule[2]);
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: langtest [--seed=N] [--count=N] [--from=N] "
	      "[--backend=emul,uring] [-v]\n"
	      "Random programs of syslet(5) through sysletc and the engines,\n"
	      "against an evaluator written from the manual.\n"
	      "Exit: 0 agree; 1 a mismatch (printed with its program);\n"
	      "77: no backend here; 99: a usage or set-up error.\n", f);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, 'f' },
		{ "backend", required_argument, NULL, 'b' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts op = {
		.seed = LT_DEFAULT_SEED, .count = LT_DEFAULT_COUNT,
		.backends = "emul,uring",
	};
	int c, ran = 0, failed = 0;
	char *list, *tok, *save = NULL;

	while ((c = getopt_long(argc, argv, "vh", lo, NULL)) != -1) {
		char *end;

		switch (c) {
		case 's':
		case 'c':
		case 'f': {
			unsigned long long v;

			errno = 0;
			v = strtoull(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-') {
				fprintf(stderr, "langtest: bad number '%s'\n",
					optarg);
				return 99;
			}
			if (c == 's')
				op.seed = v;
			else if (c == 'c')
				op.count = (unsigned long)v;
			else
				op.from = (unsigned long)v;
			break;
		}
		case 'b':
			op.backends = optarg;
			break;
		case 'v':
			op.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 99;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 99;
	}
	fd_nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd_nul < 0 || pipe2(fd_pipe, O_CLOEXEC | O_NONBLOCK)) {
		perror("langtest: /dev/null or a pipe");
		return 99;
	}
	printf("langtest: seed %#" PRIx64 ", %lu programs from %lu\n",
	       op.seed, op.count, op.from);
	fflush(stdout);
	list = strdup(op.backends);
	if (!list)
		return 99;
	/* A process has one backend for life: one child each. */
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			perror("langtest: fork");
			return 99;
		}
		if (pid == 0) {
			int r = run_backend(&op, tok);

			fflush(stdout);
			fflush(stderr);
			_exit(r);
		}
		if (waitpid(pid, &st, 0) < 0)
			return 99;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
			continue;
		ran++;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			if (WIFSIGNALED(st))
				fprintf(stderr, "langtest: %s died of signal "
					"%d (seed %#" PRIx64 ")\n", tok,
					WTERMSIG(st), op.seed);
			failed = 1;
		}
	}
	free(list);
	if (failed)
		return 1;
	return ran ? 0 : 77;
}

#else

int main(void)
{
	printf("langtest: skipped: the evaluator needs 64-bit words and a "
	       "128-bit integer type\n");
	return 77;
}

#endif
