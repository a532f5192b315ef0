/* lower-expr.c: name lookup, compile-time constants and the operands atoms point at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/systab.h"
#include "compiler/lower.h"

/*
 * Predefined constants.  These are the Linux UAPI values, which are the
 * same for every profile we target (i386-2007, i386, x86_64 all use the
 * x86 asm-generic numbering); O_LARGEFILE, whose meaning differs, is
 * left out on purpose.  errno names (EAGAIN ...) come from the
 * generated table through errno_lookup().
 */
static const struct {
	const char	*name;
	int64_t		value;
} predefined[] = {
	{ "STDIN", 0 }, { "STDOUT", 1 }, { "STDERR", 2 },
	{ "STDIN_FILENO", 0 }, { "STDOUT_FILENO", 1 }, { "STDERR_FILENO", 2 },
	{ "NULL", 0 },
	{ "O_RDONLY", 00 }, { "O_WRONLY", 01 }, { "O_RDWR", 02 },
	{ "O_CREAT", 0100 }, { "O_EXCL", 0200 }, { "O_NOCTTY", 0400 },
	{ "O_TRUNC", 01000 }, { "O_APPEND", 02000 }, { "O_NONBLOCK", 04000 },
	{ "O_DSYNC", 010000 }, { "O_DIRECT", 040000 },
	{ "O_DIRECTORY", 0200000 }, { "O_NOFOLLOW", 0400000 },
	{ "O_NOATIME", 01000000 }, { "O_CLOEXEC", 02000000 },
	{ "O_SYNC", 04010000 }, { "O_PATH", 010000000 },
	{ "AT_FDCWD", -100 }, { "AT_REMOVEDIR", 0x200 },
	{ "AT_SYMLINK_NOFOLLOW", 0x100 },
	{ "SEEK_SET", 0 }, { "SEEK_CUR", 1 }, { "SEEK_END", 2 },
	{ "F_DUPFD", 0 }, { "F_GETFD", 1 }, { "F_SETFD", 2 }, { "F_GETFL", 3 },
	{ "F_SETFL", 4 }, { "FD_CLOEXEC", 1 },
	{ "S_IRWXU", 0700 }, { "S_IRUSR", 0400 }, { "S_IWUSR", 0200 },
	{ "S_IXUSR", 0100 }, { "S_IRWXG", 070 }, { "S_IRGRP", 040 },
	{ "S_IWGRP", 020 }, { "S_IXGRP", 010 }, { "S_IRWXO", 07 },
	{ "S_IROTH", 04 }, { "S_IWOTH", 02 }, { "S_IXOTH", 01 },
	{ "F_OK", 0 }, { "X_OK", 1 }, { "W_OK", 2 }, { "R_OK", 4 },
	{ "AF_UNSPEC", 0 }, { "AF_UNIX", 1 }, { "AF_LOCAL", 1 },
	{ "AF_INET", 2 }, { "AF_INET6", 10 },
	{ "SOCK_STREAM", 1 }, { "SOCK_DGRAM", 2 }, { "SOCK_RAW", 3 },
	{ "SOCK_NONBLOCK", 04000 }, { "SOCK_CLOEXEC", 02000000 },
	{ "SOL_SOCKET", 1 }, { "SO_REUSEADDR", 2 }, { "SO_KEEPALIVE", 9 },
	{ "SO_RCVBUF", 8 }, { "SO_SNDBUF", 7 }, { "SO_REUSEPORT", 15 },
	{ "IPPROTO_IP", 0 }, { "IPPROTO_TCP", 6 }, { "IPPROTO_UDP", 17 },
	{ "TCP_NODELAY", 1 }, { "TCP_CORK", 3 },
	{ "INADDR_ANY", 0 }, { "INADDR_LOOPBACK", 0x7f000001 },
	{ "SHUT_RD", 0 }, { "SHUT_WR", 1 }, { "SHUT_RDWR", 2 },
	{ "MSG_PEEK", 2 }, { "MSG_DONTWAIT", 0x40 }, { "MSG_WAITALL", 0x100 },
	{ "MSG_NOSIGNAL", 0x4000 },
	{ "PROT_NONE", 0 }, { "PROT_READ", 1 }, { "PROT_WRITE", 2 },
	{ "PROT_EXEC", 4 }, { "MAP_SHARED", 1 }, { "MAP_PRIVATE", 2 },
	{ "MAP_FIXED", 0x10 }, { "MAP_ANONYMOUS", 0x20 },
	{ "CLOCK_REALTIME", 0 }, { "CLOCK_MONOTONIC", 1 },
	{ "SIGHUP", 1 }, { "SIGINT", 2 }, { "SIGQUIT", 3 }, { "SIGKILL", 9 },
	{ "SIGUSR1", 10 }, { "SIGUSR2", 12 }, { "SIGPIPE", 13 },
	{ "SIGALRM", 14 }, { "SIGTERM", 15 }, { "SIGCHLD", 17 },
	{ "SIGCONT", 18 }, { "SIGSTOP", 19 },
	{ "POLLIN", 1 }, { "POLLPRI", 2 }, { "POLLOUT", 4 },
	{ "EPOLL_CTL_ADD", 1 }, { "EPOLL_CTL_DEL", 2 }, { "EPOLL_CTL_MOD", 3 },
	{ "EPOLLIN", 1 }, { "EPOLLOUT", 4 },
};

bool lower_predefined(const char *name, int64_t *v)
{
	int e;

	for (size_t i = 0; i < sizeof(predefined) / sizeof(predefined[0]); i++)
		if (!strcmp(predefined[i].name, name)) {
			*v = predefined[i].value;
			return true;
		}
	if (name[0] == 'E' && (e = errno_lookup(name)) > 0) {
		*v = e;
		return true;
	}
	return false;
}

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
	size_t cost = L->locals.n + L->globals.n +
		      sizeof(predefined) / sizeof(predefined[0]);

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
	for (size_t i = 0; cost && i < sizeof(predefined) / sizeof(predefined[0]);
	     i++)
		closest(name, predefined[i].name, &best, &bd);
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

static int eval_const_sym(struct lower *L, struct lower_sym *s,
			  struct ast_loc use, int64_t *v)
{
	int r;

	switch (s->state) {
	case LEVAL_DONE:
		*v = s->value;
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
	r = lower_eval_must(L, s->decl->expr, &s->value,
			    "the value of a 'const'");
	L->eval_depth--;
	if (s->state == LEVAL_BAD)
		return -1;
	s->state = r == 1 ? LEVAL_DONE : LEVAL_BAD;
	*v = s->value;
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
		if (e->kind == AST_LEN) {
			lower_error(L, e->loc, "len() needs a buffer, data or "
				    "string; '%s' is a variable (its length "
				    "is only known when the syslet runs)",
				    e->name);
			return -1;
		}
		*v = L->word;	/* a cell is one machine word */
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

static int eval_binary(struct lower *L, const struct ast_expr *e, int64_t a,
		       int64_t b, int64_t *v)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (e->op) {
	case '+': *v = (int64_t)(ua + ub); return 1;
	case '-': *v = (int64_t)(ua - ub); return 1;
	case '*': *v = (int64_t)(ua * ub); return 1;
	case '/':
	case '%':
		if (b == 0) {
			lower_error(L, e->loc, "division by zero in a constant "
				    "expression");
			return -1;
		}
		if (a == INT64_MIN && b == -1)
			*v = e->op == '/' ? INT64_MIN : 0;
		else
			*v = e->op == '/' ? a / b : a % b;
		return 1;
	case AST_OP_SHL:
	case AST_OP_SHR:
		if (b < 0 || b > 63) {
			lower_error(L, e->loc, "shift count %lld is out of range "
				    "(0..63)", (long long)b);
			return -1;
		}
		*v = e->op == AST_OP_SHL ? (int64_t)(ua << b) : a >> b;
		return 1;
	case '&': *v = a & b; return 1;
	case '|': *v = a | b; return 1;
	case '^': *v = a ^ b; return 1;
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

int lower_eval(struct lower *L, const struct ast_expr *e, int64_t *v)
{
	struct lower_sym *s;
	int64_t a, b;
	int r;

	if (!e)
		return 0;
	switch (e->kind) {
	case AST_NUM:
		*v = e->num;
		return 1;
	case AST_NAME:
		s = lower_lookup(L, e->name, e->loc);
		if (s && s->kind == LSYM_CONST) {
			return eval_const_sym(L, s, e->loc, v);
		}
		if (!s && lower_predefined(e->name, v))
			return 1;
		return 0;
	case AST_SIZEOF:
	case AST_LEN:
		return eval_size(L, e, v);
	case AST_UNARY:
		r = lower_eval(L, e->l, &a);
		if (r != 1)
			return r;
		*v = e->op == '-' ? (int64_t)(0 - (uint64_t)a) :
		     e->op == '~' ? ~a : !a;
		return 1;
	case AST_BINARY:
		r = lower_eval(L, e->l, &a);
		if (r < 0)
			return r;
		/* && and || fold only when both sides are constant: a
		 * run-time side must still run its atoms. */
		if (r == 0)
			return 0;
		r = lower_eval(L, e->r, &b);
		if (r != 1)
			return r;
		return eval_binary(L, e, a, b, v);
	default:
		return 0;
	}
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

int lower_var_cell(struct lower *L, const struct ast_expr *e)
{
	struct lower_sym *s;

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

	if (e->kind != AST_NAME) {
		lower_error(L, e->loc, "the left side of '%s' must be a "
			    "variable", what);
		return -1;
	}
	s = lower_lookup(L, e->name, e->loc);
	if (!s) {
		int64_t v;

		if (lower_predefined(e->name, &v))
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

	if (s->kind == LSYM_BUFFER && s->state == LEVAL_TODO)
		lower_buffer(L, s);
	if (s->kind == LSYM_DATA && s->state == LEVAL_TODO)
		lower_data(L, s);
	if (s->state != LEVAL_DONE)
		return -1;
	if (off < 0 || (uint64_t)off > s->size) {
		lower_error(L, loc, "offset %lld is outside '%s' (%llu bytes)",
			    (long long)off, s->name,
			    (unsigned long long)s->size);
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

static int string_addr(struct lower *L, const struct ast_expr *e, int64_t off)
{
	int obj = lower_string_obj(L, e->str, e->len, e->loc);
	char *q, *disp;
	int c;

	if (L->oom)
		return -1;
	if (off < 0 || (uint64_t)off > e->len) {
		lower_error(L, e->loc, "offset %lld is outside the string "
			    "(%zu bytes)", (long long)off, e->len);
		return -1;
	}
	q = quote(L, e->str, e->len);
	disp = off ? lower_fmt(L, "%s+%lld", q ? q : "\"\"", (long long)off) :
		     lower_strdup(L, q ? q : "\"\"");
	c = lower_addr_cell(L, obj, IR_NONE, (uint64_t)off, disp);
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
	case AST_ADDR:
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
	lower_error(L, e->loc, "this argument would be computed at run time; "
		    "an atom can only point at a constant, a variable, an "
		    "address or a string (compute it into a variable first)");
	return -1;
}
