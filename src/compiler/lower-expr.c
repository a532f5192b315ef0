/* lower-expr.c: name lookup, compile-time constants and the operands atoms point at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/consts.h"
#include "common/systab.h"
#include "compiler/compiler.h"
#include "compiler/lower.h"

/* Predefined constants (O_RDONLY, AF_INET ...) are in common/consts.c,
 * shared with the listings that name them back; errno names (EAGAIN
 * ...) come from the generated table through errno_lookup(); both
 * through sysletc_predefined() (resolve.c). */

static struct lower_sym *find(struct lower_symtab *t, const char *name)
{
	struct common_hidx_iter it;

	for (long i = common_hidx_first(&t->index, common_hash_str(name), &it);
	     i >= 0; i = common_hidx_next(&t->index, &it))
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

/* Locals (and parameters) first, then file scope.  A local is visible
 * in its whole syslet, but using one before its `var` line is an error,
 * as it would be in C. */
struct lower_sym *lower_lookup(struct lower *L, const char *name,
			       struct ast_loc use)
{
	struct lower_sym *s = find(&L->locals, name);

	if (s && s->decl && s->kind != LSYM_PARAM && !s->early &&
	    use.first_off < s->decl->loc.first_off) {
		s->early = true;
		lower_error(L, use, "'%s' is used before its declaration",
			    name);
		lower_note(L, s->decl->name_loc, "'%s' is declared here", name);
		s->used++;
		return s;
	}
	if (!s)
		s = find(&L->globals, name);
	if (s)
		s->used++;
	return s;
}

static void closest(const char *name, const char *cand, const char **best,
		    unsigned int *bd)
{
	unsigned int dd = systab_edit_distance(name, cand);

	if (dd < *bd) {
		*bd = dd;
		*best = cand;
	}
}

/* "'fs' is not declared; did you mean 'fd'?" among locals, file scope
 * and predefined constants, within an edit distance of 2. */
/* A cell is one word of the target: on i386 a constant must fit 32 bits,
 * signed or unsigned, or the kernel would see another value. */
bool lower_fits_word(struct lower *L, int64_t v, struct ast_loc loc)
{
	if (L->word >= 8 || (v >= INT32_MIN && v <= (int64_t)UINT32_MAX))
		return true;
	lower_error(L, loc, "constant %lld does not fit in a %u-byte word of "
		    "target %s", (long long)v, L->word,
		    systab_profile_name(L->profile));
	return false;
}

void lower_undeclared(struct lower *L, struct ast_loc loc, const char *name)
{
	const char *best = NULL;
	unsigned int bd = strlen(name) <= 2 ? 2 : 3;
	size_t nr_consts;
	const struct sysconst *consts = sysconst_all(&nr_consts);
	size_t cost = L->locals.n + L->globals.n + nr_consts;

	/* Suggestions cost a scan of every name: a file of thousands of
	 * undeclared uses among thousands of names gets them while the
	 * budget lasts, then plain errors, in linear time. */
	if (cost > L->suggest_budget)
		cost = L->suggest_budget = 0;
	L->suggest_budget -= cost;
	for (size_t i = 0; cost && i < L->locals.n; i++)
		closest(name, L->locals.v[i].name, &best, &bd);
	for (size_t i = 0; cost && i < L->globals.n; i++)
		closest(name, L->globals.v[i].name, &best, &bd);
	for (size_t i = 0; cost && i < nr_consts; i++)
		closest(name, consts[i].name, &best, &bd);
	if (best)
		lower_error(L, loc, "'%s' is not declared; did you mean '%s'?",
			    name, best);
	else
		lower_error(L, loc, "'%s' is not declared", name);
}

const char *lower_op_name(int op)
{
	static char one[2];

	switch (op) {
	case AST_OP_SHL: return "<<";
	case AST_OP_SHR: return ">>";
	case AST_OP_LE: return "<=";
	case AST_OP_GE: return ">=";
	case AST_OP_EQ: return "==";
	case AST_OP_NE: return "!=";
	case AST_OP_AND: return "&&";
	case AST_OP_OR: return "||";
	case AST_OP_ADD_ASSIGN: return "+=";
	case AST_OP_SUB_ASSIGN: return "-=";
	case AST_OP_MUL_ASSIGN: return "*=";
	case AST_OP_DIV_ASSIGN: return "/=";
	case AST_OP_MOD_ASSIGN: return "%=";
	case AST_OP_SHL_ASSIGN: return "<<=";
	case AST_OP_SHR_ASSIGN: return ">>=";
	case AST_OP_AND_ASSIGN: return "&=";
	case AST_OP_OR_ASSIGN: return "|=";
	case AST_OP_XOR_ASSIGN: return "^=";
	case AST_OP_INC: return "++";
	case AST_OP_DEC: return "--";
	default:
		/* Single-character operators are their own spelling. */
		return op == '<' ? "<" : op == '>' ? ">" : op == '+' ? "+" :
		       op == '-' ? "-" : op == '*' ? "*" : op == '/' ? "/" :
		       op == '%' ? "%" : op == '&' ? "&" : op == '|' ? "|" :
		       op == '^' ? "^" : op == '~' ? "~" : op == '!' ? "!" :
		       op == '=' ? "=" : (one[0] = '?', one);
	}
}

static int eval(struct lower *L, const struct ast_expr *e, int64_t *v,
		bool *big);
static void not_const(struct lower *L, const struct ast_expr *e,
		      const char *what);

static int eval_const_sym(struct lower *L, struct lower_sym *s,
			  struct ast_loc use, int64_t *v, bool *big)
{
	int r;

	switch (s->state) {
	case LEVAL_DONE:
		*v = s->value;
		*big = s->value_big;
		return 1;
	case LEVAL_BAD:
		return -1;
	case LEVAL_BUSY:
		lower_error(L, use, "constant '%s' is defined in terms of itself",
			    s->name);
		s->state = LEVAL_BAD;
		return -1;
	default:
		break;
	}
	if (L->eval_depth >= LOWER_MAX_EVAL_DEPTH) {
		lower_error(L, use, "constant '%s' is defined through more "
			    "than %d other constants", s->name,
			    LOWER_MAX_EVAL_DEPTH);
		s->state = LEVAL_BAD;
		return -1;
	}
	s->state = LEVAL_BUSY;
	L->eval_depth++;
	r = eval(L, s->decl->expr, &s->value, &s->value_big);
	if (r == 0)
		not_const(L, s->decl->expr, "the value of a 'const'");
	r = r == 1 ? 1 : -1;
	L->eval_depth--;
	if (s->state == LEVAL_BAD)
		return -1;
	s->state = r == 1 ? LEVAL_DONE : LEVAL_BAD;
	*v = s->value;
	*big = s->value_big;
	return r == 1 ? 1 : -1;
}

static int eval_size(struct lower *L, const struct ast_expr *e, int64_t *v)
{
	struct lower_sym *s;

	if (!e->name) {		/* sizeof("literal") / len("literal") */
		*v = (int64_t)e->len + (e->kind == AST_SIZEOF);
		return 1;
	}
	s = lower_lookup(L, e->name, e->loc);
	if (!s) {
		lower_undeclared(L, e->loc, e->name);
		return -1;
	}
	if (e->l) {	/* sizeof(fds[0]): an element's size */
		int64_t i;

		if (s->kind != LSYM_BUFFER && s->kind != LSYM_DATA) {
			lower_error(L, e->loc, "'%s' has no elements: only "
				    "buffers and data do", e->name);
			return -1;
		}
		if (lower_eval_must(L, e->l, &i, "an index") != 1)
			return -1;
		if (s->kind == LSYM_BUFFER && s->state == LEVAL_TODO)
			lower_buffer(L, s);
		if (s->kind == LSYM_DATA &&
		    (s->state == LEVAL_TODO || s->state == LEVAL_BUSY))
			lower_data(L, s);
		if (s->state != LEVAL_DONE)
			return -1;
		*v = s->elem;
		return 1;
	}
	switch (s->kind) {
	case LSYM_BUFFER:
		if (s->state == LEVAL_BUSY) {
			/* buffer b[sizeof(b)], or two sized by each other. */
			lower_error(L, s->decl->name_loc, "buffer '%s' depends "
				    "on its own size", s->name);
			s->state = LEVAL_BAD;
			return -1;
		}
		if (s->state == LEVAL_TODO)
			lower_buffer(L, s);
		if (s->state != LEVAL_DONE)
			return -1;
		*v = (int64_t)s->size;
		return 1;
	case LSYM_DATA:
		if (s->state == LEVAL_TODO || s->state == LEVAL_BUSY) {
			if (lower_data(L, s) < 0)
				return -1;
		}
		if (s->state != LEVAL_DONE)
			return -1;
		*v = (int64_t)(e->kind == AST_SIZEOF ? s->size : s->len);
		return 1;
	case LSYM_VAR:
	case LSYM_PARAM:
		if (e->kind == AST_LEN && !s->elem_name) {
			lower_error(L, e->loc, "len() needs a buffer, data or "
				    "string; '%s' is a variable (its length "
				    "is only known when the syslet runs)",
				    e->name);
			return -1;
		}
		/* A str parameter's cell holds the string's address: its
		 * sizeof is a word, whatever the string, as in C. */
		if (e->kind == AST_SIZEOF && s->kind == LSYM_PARAM &&
		    s->decl && s->decl->ptype == AST_PARAM_STR)
			lower_warn(L, SYSLETC_W_SIZEOF_STR, e->loc,
				   "sizeof(%s) is %u: str parameter '%s' "
				   "holds the address of its string, whose "
				   "length is only known when the syslet "
				   "runs; pass the length as an int "
				   "parameter", e->name, L->word, e->name);
		/* A cell is one machine word; a sockaddr_in parameter
		 * points at the runner's struct. */
		*v = s->elem_name ? 16 : L->word;
		return 1;
	case LSYM_CONST:
		lower_error(L, e->loc, "%s() of constant '%s': a constant "
			    "has no storage", e->kind == AST_SIZEOF ?
			    "sizeof" : "len", e->name);
		return -1;
	default:
		lower_error(L, e->loc, "%s() of syslet '%s'",
			    e->kind == AST_SIZEOF ? "sizeof" : "len", e->name);
		return -1;
	}
}

/*
 * A constant is one 64-bit word, read as signed or as unsigned as its
 * use wants, as a data item's value may be either: so a result fits
 * when it lies from -2^63 to 2^64 - 1 (9223372036854775807 + 1 is
 * 0x8000000000000000), and anything beyond would silently lose its top
 * bits, where C calls the overflow undefined and compilers say so.  A
 * word from 2^63 up (a literal such as 0xffffffffffffffff, or a sum
 * past 2^63 - 1) is marked big, so that 0xffffffffffffffff + 1 is 2^64,
 * which does not fit, not -1 + 1.  The exact value is carried as a
 * sign and a magnitude: no 128-bit type on i386.
 */
struct eval_num {
	bool		neg;
	uint64_t	mag;
};

static struct eval_num eval_num_of(int64_t v, bool big)
{
	struct eval_num n = { !big && v < 0, (uint64_t)v };

	if (n.neg)
		n.mag = 0 - (uint64_t)v;
	return n;
}

/* n as a word, false when it does not fit; *big when from 2^63 up. */
static bool eval_word(struct eval_num n, int64_t *v, bool *big)
{
	if (n.neg && n.mag > (uint64_t)1 << 63)
		return false;
	*v = (int64_t)(n.neg ? 0 - n.mag : n.mag);
	*big = !n.neg && n.mag > (uint64_t)INT64_MAX;
	return true;
}

/* a + b exactly, false past 64 bits of magnitude. */
static bool eval_add(struct eval_num a, struct eval_num b, struct eval_num *r)
{
	if (a.neg == b.neg) {
		r->neg = a.neg;
		return !__builtin_add_overflow(a.mag, b.mag, &r->mag);
	}
	if (a.mag >= b.mag) {
		r->neg = a.neg && a.mag != b.mag;
		r->mag = a.mag - b.mag;
	} else {
		r->neg = b.neg;
		r->mag = b.mag - a.mag;
	}
	return true;
}

/* a OP b (+ - * <<) as a word, true when its exact value fits. */
static bool eval_exact(int op, int64_t a, bool abig, int64_t b, bool bbig,
		       int64_t *v, bool *big)
{
	struct eval_num x = eval_num_of(a, abig), y = eval_num_of(b, bbig), r;

	switch (op) {
	case '-':
		y.neg = !y.neg && y.mag;
		/* fall through */
	case '+':
		if (!eval_add(x, y, &r))
			return false;
		break;
	case '*':
		if (__builtin_mul_overflow(x.mag, y.mag, &r.mag))
			return false;
		r.neg = x.neg != y.neg && r.mag;
		break;
	default:	/* AST_OP_SHL, 0 <= b <= 63 */
		if (b && x.mag > UINT64_MAX >> b)
			return false;
		r.neg = x.neg;
		r.mag = x.mag << b;
		break;
	}
	return eval_word(r, v, big);
}

static int eval_fits(struct lower *L, const struct ast_expr *e, int64_t a,
		     bool abig, int64_t b, bool bbig, int64_t *v, bool *big)
{
	if (!eval_exact(e->op, a, abig, b, bbig, v, big)) {
		lower_error(L, e->loc, "integer overflow in a constant "
			    "expression: the result does not fit 64 bits");
		return -1;
	}
	return 1;
}

static int eval_binary(struct lower *L, const struct ast_expr *e, int64_t a,
		       bool abig, int64_t b, bool bbig, int64_t *v, bool *big)
{
	*big = false;
	switch (e->op) {
	case '+':
	case '-':
	case '*':
		return eval_fits(L, e, a, abig, b, bbig, v, big);
	case '/':
	case '%':
		if (b == 0) {
			lower_error(L, e->loc, "division by zero in a constant "
				    "expression");
			return -1;
		}
		/* -2^63 / -1 is 2^63, a large number like any other. */
		if (a == INT64_MIN && b == -1) {
			*v = e->op == '/' ? INT64_MIN : 0;
			*big = e->op == '/';
		} else
			*v = e->op == '/' ? a / b : a % b;
		return 1;
	case AST_OP_SHL:
	case AST_OP_SHR:
		if (b < 0 || b > 63) {
			lower_error(L, e->loc, "shift count %lld is out of range "
				    "(0..63)", (long long)b);
			return -1;
		}
		if (e->op == AST_OP_SHL)
			return eval_fits(L, e, a, abig, b, false, v, big);
		*v = a >> b;
		return 1;
	/* Bits: a word from 2^63 up stays one. */
	case '&': *v = a & b; *big = (abig || bbig) && *v < 0; return 1;
	case '|': *v = a | b; *big = (abig || bbig) && *v < 0; return 1;
	case '^': *v = a ^ b; *big = (abig || bbig) && *v < 0; return 1;
	case '<': *v = a < b; return 1;
	case '>': *v = a > b; return 1;
	case AST_OP_LE: *v = a <= b; return 1;
	case AST_OP_GE: *v = a >= b; return 1;
	case AST_OP_EQ: *v = a == b; return 1;
	case AST_OP_NE: *v = a != b; return 1;
	case AST_OP_AND: *v = a && b; return 1;
	case AST_OP_OR: *v = a || b; return 1;
	default:
		return 0;
	}
}

static int eval(struct lower *L, const struct ast_expr *e, int64_t *v,
		bool *big)
{
	struct lower_sym *s;
	int64_t a, b;
	bool abig, bbig;
	int r;

	*big = false;
	if (!e)
		return 0;
	switch (e->kind) {
	case AST_NUM:
		/* Literals are never negative: this one is past 2^63 - 1. */
		*v = e->num;
		*big = e->num < 0;
		return 1;
	case AST_NAME:
		s = lower_lookup(L, e->name, e->loc);
		if (s && s->kind == LSYM_CONST) {
			return eval_const_sym(L, s, e->loc, v, big);
		}
		if (!s && sysletc_predefined(e->name, v))
			return 1;
		return 0;
	case AST_SIZEOF:
	case AST_LEN:
		return eval_size(L, e, v);
	case AST_UNARY:
		r = eval(L, e->l, &a, &abig);
		if (r != 1)
			return r;
		if (e->op == '-') {
			struct eval_num n = eval_num_of(a, abig);

			n.neg = !n.neg && n.mag;
			if (!eval_word(n, v, big)) {
				lower_error(L, e->loc, "integer overflow in a "
					    "constant expression: the result "
					    "does not fit 64 bits");
				return -1;
			}
			return 1;
		}
		*v = e->op == '~' ? ~a : !a;
		return 1;
	case AST_BINARY:
		r = eval(L, e->l, &a, &abig);
		if (r < 0)
			return r;
		/* && and || fold only when both sides are constant: a
		 * run-time side must still run its atoms. */
		if (r == 0)
			return 0;
		r = eval(L, e->r, &b, &bbig);
		if (r != 1)
			return r;
		return eval_binary(L, e, a, abig, b, bbig, v, big);
	default:
		return 0;
	}
}

int lower_eval(struct lower *L, const struct ast_expr *e, int64_t *v)
{
	bool big;

	return eval(L, e, v, &big);
}

/* Why e is not a compile-time constant, in words. */
static void not_const(struct lower *L, const struct ast_expr *e,
		      const char *what)
{
	struct lower_sym *s;

	switch (e->kind) {
	case AST_NAME:
		s = lower_lookup(L, e->name, e->loc);
		if (!s)
			lower_undeclared(L, e->loc, e->name);
		else
			lower_error(L, e->loc, "%s must be a compile-time "
				    "constant; '%s' is %s", what, e->name,
				    s->kind == LSYM_VAR ? "a variable" :
				    s->kind == LSYM_PARAM ? "a parameter" :
				    s->kind == LSYM_BUFFER ? "a buffer" :
				    s->kind == LSYM_DATA ? "a data object" :
				    "a syslet");
		return;
	case AST_UNARY:
		if (lower_eval(L, e->l, &(int64_t){ 0 }) == 0) {
			not_const(L, e->l, what);
			return;
		}
		break;
	case AST_BINARY:
		if (lower_eval(L, e->l, &(int64_t){ 0 }) == 0) {
			not_const(L, e->l, what);
			return;
		}
		if (lower_eval(L, e->r, &(int64_t){ 0 }) == 0) {
			not_const(L, e->r, what);
			return;
		}
		break;
	case AST_CALL:
		lower_error(L, e->loc, "%s must be a compile-time constant, "
			    "not a call of '%s'", what, e->name);
		return;
	case AST_STR:
		lower_error(L, e->loc, "%s must be an integer, not a string",
			    what);
		return;
	case AST_INDEX:
		lower_error(L, e->loc, "%s must be a compile-time constant; "
			    "'%s[...]' is an element, known when the syslet "
			    "runs", what, e->name);
		return;
	default:
		break;
	}
	lower_error(L, e->loc, "%s must be a compile-time constant", what);
}

int lower_eval_must(struct lower *L, const struct ast_expr *e, int64_t *v,
		    const char *what)
{
	int r = lower_eval(L, e, v);

	if (r == 0)
		not_const(L, e, what);
	return r == 1 ? 1 : -1;
}

/* Element types, by name; word is the target's.  0 for one that is
 * not: sysletc_resolve() told why. */
unsigned int lower_elem_type(struct lower *L, const char *type)
{
	const struct sysletc_builtin *b = sysletc_builtin_find(type);

	if (b && b->elem)
		return b->size ? b->size : L->word;
	return 0;
}

/* Lay out buffer or data @s if not yet done; whether it is laid out. */
static bool object_laid_out(struct lower *L, struct lower_sym *s)
{
	if (s->kind == LSYM_BUFFER && s->state == LEVAL_TODO)
		lower_buffer(L, s);
	if (s->kind == LSYM_DATA && s->state == LEVAL_TODO)
		lower_data(L, s);
	return s->state == LEVAL_DONE;
}

/* buffer/data s's element at index e->l: its byte offset, or -1. */
static int64_t element_offset(struct lower *L, struct lower_sym *s,
			      const struct ast_expr *e)
{
	int64_t i;

	if (!object_laid_out(L, s))
		return -1;
	if (lower_eval_must(L, e->l, &i, "an index") != 1)
		return -1;
	if (i < 0 || (uint64_t)i >= s->size / s->elem) {
		lower_error(L, e->l->loc, "index %lld is outside '%s' (%llu "
			    "element%s of %s)", (long long)i, s->name,
			    (unsigned long long)(s->size / s->elem),
			    s->size / s->elem == 1 ? "" : "s", s->elem_name);
		return -1;
	}
	return i * (int64_t)s->elem;
}

/* The buffer or data e names, or NULL after an error. */
static struct lower_sym *indexed(struct lower *L, const struct ast_expr *e)
{
	struct lower_sym *s = lower_lookup(L, e->name, e->loc);

	if (!s) {
		lower_undeclared(L, e->loc, e->name);
		return NULL;
	}
	if (s->kind == LSYM_BUFFER || s->kind == LSYM_DATA)
		return s;
	lower_error(L, e->loc, "'%s' is %s, which has no elements: only "
		    "buffers and data do (declare 'u32 %s[N];')", e->name,
		    s->kind == LSYM_VAR ? "a variable" :
		    s->kind == LSYM_PARAM ? "a parameter" :
		    s->kind == LSYM_CONST ? "a constant" : "a syslet", e->name);
	return NULL;
}

/*
 * The cell of element e: the element itself (MEM) when it is as wide as
 * a word, a NARROW cell read through a widening copy when narrower, or
 * -1.  Wider elements (u64 on a 4-byte target) cannot be read by atoms,
 * which fetch one word per argument.  With report unset, nothing is
 * said (a probe from fusing).
 */
static int element(struct lower *L, const struct ast_expr *e, bool report)
{
	struct lower_sym *s;
	int64_t off;
	char *disp;
	int c;

	if (!report) {
		s = lower_lookup(L, e->name, e->loc);
		if (!s)
			return -1;
		s->used--;
		if ((s->kind != LSYM_BUFFER && s->kind != LSYM_DATA) ||
		    s->state != LEVAL_DONE ||
		    lower_eval(L, e->l, &off) != 1 || off < 0 ||
		    (uint64_t)off >= s->size / s->elem)
			return -1;
		off *= s->elem;
	} else {
		s = indexed(L, e);
		if (!s)
			return -1;
		off = element_offset(L, s, e);
		if (off < 0)
			return -1;
	}
	if (s->elem > L->word) {
		if (report)
			lower_error(L, e->loc, "'%s' has %u-byte elements, "
				    "wider than the %u-byte word of target %s: "
				    "an atom reads one word per argument",
				    e->name, s->elem, L->word,
				    systab_profile_name(L->profile));
		return -1;
	}
	disp = lower_fmt(L, "%s[%lld]", s->name,
			 (long long)(off / (int64_t)s->elem));
	if (s->elem == L->word)
		c = lower_mem_cell(L, s->obj, (uint64_t)off, s->elem, disp);
	else
		c = lower_narrow_cell(L, s->obj, (uint64_t)off, s->elem, disp);
	free(disp);
	return L->oom ? -1 : c;
}

int lower_element(struct lower *L, const struct ast_expr *e)
{
	return element(L, e, true);
}

/* An element as the left side of an assignment: only a word-wide one,
 * for an atom writes its result and umem_add its sum as a word. */
static int element_lvalue(struct lower *L, const struct ast_expr *e,
			  const char *what)
{
	struct lower_sym *s = indexed(L, e);
	int c;

	if (!s)
		return -1;
	if (s->kind == LSYM_DATA) {
		lower_error(L, e->loc, "cannot assign to an element of data "
			    "'%s': data is read-only", e->name);
		return -1;
	}
	if (element_offset(L, s, e) < 0)
		return -1;
	if (s->elem < L->word) {
		lower_error(L, e->loc, "'%s' has %u-byte elements, narrower "
			    "than the %u-byte word that '%s' writes on target "
			    "%s: an atom stores its result (and umem_add its "
			    "sum) as a whole word, which would overwrite the "
			    "next element; declare 'word %s[%llu];' to assign "
			    "to its elements", e->name, s->elem, L->word, what,
			    systab_profile_name(L->profile), e->name,
			    (unsigned long long)(s->size / s->elem));
		return -1;
	}
	c = element(L, e, true);
	return c;
}

int lower_var_cell(struct lower *L, const struct ast_expr *e)
{
	struct lower_sym *s;
	int c;

	if (e && e->kind == AST_INDEX) {
		c = element(L, e, false);
		return c >= 0 && L->p->cells[c].kind == IR_CELL_MEM ? c : -1;
	}
	if (!e || e->kind != AST_NAME)
		return -1;
	s = lower_lookup(L, e->name, e->loc);
	if (s && (s->kind == LSYM_VAR || s->kind == LSYM_PARAM))
		return s->cell;
	return -1;
}

int lower_lvalue(struct lower *L, const struct ast_expr *e, const char *what)
{
	struct lower_sym *s;

	if (e->kind == AST_INDEX)
		return element_lvalue(L, e, what);
	if (e->kind != AST_NAME) {
		lower_error(L, e->loc, "the left side of '%s' must be a "
			    "variable", what);
		return -1;
	}
	s = lower_lookup(L, e->name, e->loc);
	if (!s) {
		int64_t v;

		if (sysletc_predefined(e->name, &v))
			lower_error(L, e->loc, "cannot assign to predefined "
				    "constant '%s'", e->name);
		else
			lower_undeclared(L, e->loc, e->name);
		return -1;
	}
	switch (s->kind) {
	case LSYM_VAR:
	case LSYM_PARAM:
		return s->cell;
	case LSYM_CONST:
		lower_error(L, e->loc, "cannot assign to constant '%s'",
			    e->name);
		return -1;
	case LSYM_BUFFER:
	case LSYM_DATA:
		lower_error(L, e->loc, "cannot assign to %s '%s': its name "
			    "stands for its address; let a system call fill "
			    "it", s->kind == LSYM_BUFFER ? "buffer" : "data",
			    e->name);
		return -1;
	default:
		lower_error(L, e->loc, "cannot assign to syslet '%s'", e->name);
		return -1;
	}
}

/* The address cell of buffer/data `s`, plus off bytes. */
static int object_addr(struct lower *L, struct lower_sym *s, int64_t off,
		       struct ast_loc loc)
{
	char *disp;
	int c;

	if (!object_laid_out(L, s))
		return -1;
	if (off < 0 || (uint64_t)off > s->size) {
		lower_error(L, loc, "offset %lld is outside '%s' (%llu byte%s)",
			    (long long)off, s->name,
			    (unsigned long long)s->size,
			    s->size == 1 ? "" : "s");
		return -1;
	}
	disp = off ? lower_fmt(L, "&%s+%lld", s->name, (long long)off) :
		     lower_fmt(L, "&%s", s->name);
	c = lower_addr_cell(L, s->obj, IR_NONE, (uint64_t)off, disp);
	free(disp);
	return L->oom ? -1 : c;
}

/* A C-like quoted rendering of a string for listings. */
static char *quote(struct lower *L, const char *s, size_t n)
{
	enum { MAX_SHOWN = 24 };
	char *out = malloc(MAX_SHOWN * 4 + 8), *o = out;

	if (!out) {
		lower_oom(L);
		return NULL;
	}
	*o++ = '"';
	for (size_t i = 0; i < n && i < MAX_SHOWN; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			o += sprintf(o, "\\n");
		else if (c == '\t')
			o += sprintf(o, "\\t");
		else if (c == '"' || c == '\\')
			o += sprintf(o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = (char)c;
	}
	if (n > MAX_SHOWN)
		o += sprintf(o, "...");
	*o++ = '"';
	*o = 0;
	return out;
}

/* "literal" + k points at a literal of its own, the suffix: what the
 * kernel reads is the same, and every pointer into pooled strings is
 * then a string's start, so a listing can show each one whole. */
static int string_addr(struct lower *L, const struct ast_expr *e, int64_t off)
{
	char *q, *disp;
	int obj, c;

	if (off < 0 || (uint64_t)off > e->len) {
		lower_error(L, e->loc, "offset %lld is outside the string "
			    "(%zu byte%s)", (long long)off, e->len,
			    e->len == 1 ? "" : "s");
		return -1;
	}
	obj = lower_string_obj(L, e->str + off, e->len - (size_t)off, e->loc);
	if (L->oom)
		return -1;
	q = quote(L, e->str, e->len);
	disp = off ? lower_fmt(L, "%s+%lld", q ? q : "\"\"", (long long)off) :
		     lower_strdup(L, q ? q : "\"\"");
	c = lower_addr_cell(L, obj, IR_NONE, 0, disp);
	free(q);
	free(disp);
	return L->oom ? -1 : c;
}

/* buf + k, "str" + k, data - ... : a constant address. */
static int address_plus(struct lower *L, const struct ast_expr *e)
{
	const struct ast_expr *base = e->l;
	struct lower_sym *s;
	int64_t k;

	if (lower_eval(L, e->r, &k) != 1)
		return -2;
	if (e->op == '-')
		k = (int64_t)(0 - (uint64_t)k);
	if (base->kind == AST_STR)
		return string_addr(L, base, k);
	if (base->kind != AST_NAME)
		return -2;
	s = lower_lookup(L, base->name, base->loc);
	if (!s || (s->kind != LSYM_BUFFER && s->kind != LSYM_DATA))
		return -2;
	return object_addr(L, s, k, e->loc);
}

bool lower_is_simple(struct lower *L, const struct ast_expr *e)
{
	struct lower_sym *s;
	int64_t v;

	switch (e->kind) {
	case AST_NUM:
	case AST_STR:
	case AST_ADDR:
	case AST_SIZEOF:
	case AST_LEN:
	case AST_INDEX:
		return true;
	case AST_NAME:
		s = lower_lookup(L, e->name, e->loc);
		return !s || s->kind != LSYM_SYSLET;
	case AST_BINARY:
		if ((e->op == '+' || e->op == '-') &&
		    (e->l->kind == AST_STR || e->l->kind == AST_NAME)) {
			s = e->l->kind == AST_NAME ?
			    lower_lookup(L, e->l->name, e->l->loc) : NULL;
			if (e->l->kind == AST_STR ||
			    (s && (s->kind == LSYM_BUFFER ||
				   s->kind == LSYM_DATA)))
				return true;
		}
		return lower_eval(L, e, &v) == 1;
	case AST_UNARY:
		return lower_eval(L, e, &v) == 1;
	default:
		return false;
	}
}

/* Report each name of arithmetic @e that is neither declared nor
 * predefined; their number. */
static int undeclared_in(struct lower *L, const struct ast_expr *e)
{
	int64_t v;

	if (!e)
		return 0;
	switch (e->kind) {
	case AST_NAME:
		if (find(&L->locals, e->name) || find(&L->globals, e->name) ||
		    sysletc_predefined(e->name, &v))
			return 0;
		lower_undeclared(L, e->loc, e->name);
		return 1;
	case AST_UNARY:
		return undeclared_in(L, e->l);
	case AST_BINARY:
		return undeclared_in(L, e->l) + undeclared_in(L, e->r);
	default:
		return 0;
	}
}

int lower_operand(struct lower *L, const struct ast_expr *e)
{
	struct lower_sym *s;
	int64_t v;
	int r, c;

	r = lower_eval(L, e, &v);
	if (r < 0)
		return -1;
	if (r == 1) {
		if (!lower_fits_word(L, v, e->loc))
			return -1;
		c = lower_const_cell(L, v);
		return L->oom ? -1 : c;
	}
	switch (e->kind) {
	case AST_NAME:
		s = lower_lookup(L, e->name, e->loc);
		if (!s) {
			lower_undeclared(L, e->loc, e->name);
			return -1;
		}
		switch (s->kind) {
		case LSYM_VAR:
		case LSYM_PARAM:
			return s->cell;
		case LSYM_BUFFER:
		case LSYM_DATA:
			return object_addr(L, s, 0, e->loc);
		case LSYM_SYSLET:
			lower_error(L, e->loc, "'%s' is a syslet; syslets "
				    "cannot be passed as arguments", e->name);
			return -1;
		default:
			return -1;	/* a bad constant, already reported */
		}
	case AST_INDEX:
		return lower_element(L, e);
	case AST_ADDR:
		if (e->l) {	/* &fds[1]: the element's address */
			int64_t off;

			char *disp;

			s = indexed(L, e);
			if (!s)
				return -1;
			off = element_offset(L, s, e);
			if (off < 0)
				return -1;
			disp = lower_fmt(L, "&%s[%lld]", s->name,
					 (long long)(off / s->elem));
			c = lower_addr_cell(L, s->obj, IR_NONE, (uint64_t)off,
					    disp);
			free(disp);
			return L->oom ? -1 : c;
		}
		s = lower_lookup(L, e->name, e->loc);
		if (!s) {
			lower_undeclared(L, e->loc, e->name);
			return -1;
		}
		switch (s->kind) {
		case LSYM_VAR:
		case LSYM_PARAM: {
			char *disp = lower_fmt(L, "&%s", e->name);

			c = lower_addr_cell(L, IR_NONE, s->cell, 0, disp);
			free(disp);
			return L->oom ? -1 : c;
		}
		case LSYM_BUFFER:
		case LSYM_DATA:
			return object_addr(L, s, 0, e->loc);
		case LSYM_CONST:
			lower_error(L, e->loc, "cannot take the address of "
				    "constant '%s': a constant has no cell of "
				    "its own", e->name);
			return -1;
		default:
			lower_error(L, e->loc, "cannot take the address of "
				    "syslet '%s'", e->name);
			return -1;
		}
	case AST_STR:
		return string_addr(L, e, 0);
	case AST_BINARY:
		if (e->op == '+' || e->op == '-') {
			c = address_plus(L, e);
			if (c != -2)
				return c;
		}
		break;
	case AST_CALL:
		lower_error(L, e->loc, "a system call cannot be an argument: "
			    "each atom makes one call; assign its result to a "
			    "variable first");
		return -1;
	case AST_ASSIGN:
	case AST_INCDEC:
		lower_error(L, e->loc, "an assignment cannot be an argument; "
			    "write it as a statement of its own");
		return -1;
	default:
		break;
	}
	/* A misspelt flag (O_RDONLY | O_CLOEXC) is what makes most such
	 * arguments: the name is the error, not the run time. */
	if (undeclared_in(L, e))
		return -1;
	lower_error(L, e->loc, "this argument would be computed at run time; "
		    "an atom can only point at a constant, a variable, an "
		    "address or a string (compute it into a variable first)");
	return -1;
}
