/* lower-cond.c: assignments (umem_add), expression statements and conditions (stop flags, branch chains). */
#include <string.h>

#include "common/systab.h"
#include "compiler/lower.h"
#include "grammar/words.h"
#include "syslet.h"

/*
 * The branch for "result OP 0 ? t : f".  The kernel's stop flags test
 * the signed result: NEGATIVE (< 0), NON_POSITIVE (<= 0), ZERO, NONZERO.
 * A true stop test with SKIP continues at the skip target, a false one
 * at next; so  <, <=, ==, !=  put t on the stop side and  >, >=  (the
 * complements of <=, <) put f there.  Exactly one stop flag, always.
 */
static struct lower_branch branch_on(unsigned long stop, int on_stop,
				     int otherwise)
{
	struct lower_branch br;

	br.next = otherwise;
	br.skip = IR_NONE;
	if (on_stop == otherwise)
		br.flags = 0;
	else if (on_stop == LOWER_END)
		br.flags = stop;	/* stopping ends the syslet */
	else {
		br.flags = stop | SYSLET_SKIP_TO_NEXT_ON_STOP;
		br.skip = on_stop;
	}
	return br;
}

static struct lower_branch branch_for(int op, int t, int f)
{
	switch (op) {
	case '<': return branch_on(SYSLET_STOP_ON_NEGATIVE, t, f);
	case AST_OP_LE: return branch_on(SYSLET_STOP_ON_NON_POSITIVE, t, f);
	case AST_OP_EQ: return branch_on(SYSLET_STOP_ON_ZERO, t, f);
	case '>': return branch_on(SYSLET_STOP_ON_NON_POSITIVE, f, t);
	case AST_OP_GE: return branch_on(SYSLET_STOP_ON_NEGATIVE, f, t);
	default: return branch_on(SYSLET_STOP_ON_NONZERO, t, f);
	}
}

/*
 * v OP k, k not 0, is tested on v - k (the word umem_add leaves), which
 * wraps where v and k lie far apart on either side of 0: v = -2^63 + 2
 * would pass v > 5.  Where the signs differ the sign of v alone decides
 * an ordering (v <= 0 < k: v < k; k < 0 <= v: v > k), and where they
 * agree v - k cannot wrap.  So the atom that yields v (the copy, or the
 * call that wrote it) tests its sign first and leads to @sub, the
 * subtraction, only when it does not decide.  == and != need nothing:
 * the wrapped difference is 0 exactly when v is k.
 */
static struct lower_branch sign_first(int op, int64_t k, int sub, int t,
				      int f)
{
	if (op == AST_OP_EQ || op == AST_OP_NE)
		return lower_plain(sub);
	if (k > 0)	/* v <= 0: v < k */
		return branch_on(SYSLET_STOP_ON_NON_POSITIVE,
				 op == '<' || op == AST_OP_LE ? t : f, sub);
	/* v < 0: subtract; else v > k */
	return branch_on(SYSLET_STOP_ON_NEGATIVE, sub,
			 op == '>' || op == AST_OP_GE ? t : f);
}

static bool is_cmp(int op)
{
	return op == '<' || op == '>' || op == AST_OP_LE || op == AST_OP_GE ||
	       op == AST_OP_EQ || op == AST_OP_NE;
}

static bool is_bool(const struct ast_expr *e)
{
	return (e->kind == AST_BINARY && (is_cmp(e->op) || e->op == AST_OP_AND ||
					  e->op == AST_OP_OR)) ||
	       (e->kind == AST_UNARY && e->op == '!');
}

/* k OP x  ==  x MIRROR(OP) k */
static int mirror(int op)
{
	switch (op) {
	case '<': return '>';
	case '>': return '<';
	case AST_OP_LE: return AST_OP_GE;
	case AST_OP_GE: return AST_OP_LE;
	default: return op;
	}
}

/*
 * umem_add(&cell, $-k) on a copy: the value tested is cell - k, after
 * the copy's test of the sign (sign_first()).  k = -2^63 needs nothing
 * more: its negation is the same word, and the subtraction is made only
 * for v < 0, where v + 2^63 lies in 0 .. 2^63 - 1.  A cell that is the
 * scratch already, written by the atom before: with @pre, that atom
 * takes the sign's test (*pre); without, an atom of its own does.
 */
static int test_minus(struct lower *L, int cell, int op, int64_t k,
		      struct ast_loc loc, int t, int f,
		      struct lower_branch *pre)
{
	int s = lower_scratch(L);
	int m = lower_const_cell(L, (int64_t)(0 - (uint64_t)k));
	struct lower_branch sign;
	int test;

	if (L->oom)
		return LOWER_END;
	test = lower_umem_add(L, s, m, IR_NONE, SLO_ROLE_TEST, loc,
			      branch_for(op, t, f));
	sign = sign_first(op, k, test, t, f);
	if (cell != s)
		return lower_umem_add(L, cell, lower_const_cell(L, 0), s,
				      SLO_ROLE_COPY, loc, sign);
	if (pre) {
		*pre = sign;
		return test;
	}
	if (!sign.flags)
		return test;
	return lower_umem_add(L, s, lower_const_cell(L, 0), IR_NONE,
			      SLO_ROLE_TEST, loc, sign);
}

/* Test a variable's current value against k (@pre: see test_minus()). */
static int test_var_pre(struct lower *L, int cell, int op, int64_t k,
			struct ast_loc loc, int t, int f,
			struct lower_branch *pre)
{
	if (k == 0)
		return lower_umem_add(L, cell, lower_const_cell(L, 0), IR_NONE,
				      SLO_ROLE_TEST, loc, branch_for(op, t, f));
	return test_minus(L, cell, op, k, loc, t, f, pre);
}

static int test_var(struct lower *L, int cell, int op, int64_t k,
		    struct ast_loc loc, int t, int f)
{
	return test_var_pre(L, cell, op, k, loc, t, f, NULL);
}

/*
 * The if's test of what the statement before it just wrote: an atom of
 * its own, umem_add(&cell, $0), which lower_seq() offers to that
 * statement's atom (ir_fuse() merges them).  Its address cell is its
 * own, out of the pool: the test goes away, while a pooled cell would
 * stay, and keep for the program's other uses of that address the name
 * it was made with here ("&w[0]" where `pipe(w)` says "&w").
 */
static int fused(struct lower *L, struct lower_fuse *fz, int cell, int op,
		 struct ast_loc loc, int t, int f)
{
	bool mem = L->p->cells[cell].kind == IR_CELL_MEM;
	int obj = mem ? L->p->cells[cell].target_obj : IR_NONE;
	uint64_t off = mem ? L->p->cells[cell].target_off : 0;
	int args[2];

	fz->used = true;
	fz->test = LOWER_END;
	args[0] = ir_add_addr(L->p, obj, mem ? IR_NONE : cell);
	if (args[0] < 0) {
		lower_oom(L);
		return LOWER_END;
	}
	L->p->cells[args[0]].target_off = off;
	args[1] = lower_const_cell(L, 0);
	if (L->oom)
		return LOWER_END;
	fz->test = lower_atom(L, systab_syslet_nr(L->profile,
						  SYSLET_CALL_UMEM_ADD),
			      "umem_add", IR_NONE, args, 2, SLO_ROLE_TEST, loc,
			      branch_for(op, t, f));
	return fz->test;
}

/*
 * An assignment whose left side was refused (an undeclared name, a
 * constant): its call is still checked, so that a statement's errors
 * all come in one run, as gcc gives them ('n = read(fd, b, 16, 4)' with
 * n undeclared is also a call with one argument too many).
 */
static void check_refused_call(struct lower *L, const struct ast_expr *x,
			       int succ)
{
	if (x->kind == AST_ASSIGN && x->op == '=' && x->r &&
	    x->r->kind == AST_CALL)
		(void)lower_call(L, x->r, IR_NONE, lower_plain(succ));
}

/* subject OP k ? t : f, for a subject that is not constant. */
static int test(struct lower *L, const struct ast_expr *x, int op, int64_t k,
		int t, int f, struct lower_fuse *fz, struct ast_loc loc)
{
	int cell;

	/* k is a word of the target, read as signed: on i386 one that must
	 * fit 32 bits, as an argument's constant must (0x100000000 is no
	 * 0 there, and 0xffffffff is -1). */
	if (!lower_fits_word(L, k, loc))
		return LOWER_END;
	if (L->word < 8)
		k = (int32_t)k;
	if (is_bool(x)) {
		/* (a < b) == 0 and friends: the inner test decides. */
		if (k == 0 && op == AST_OP_EQ)
			return lower_cond(L, x, f, t, fz);
		if (k == 0 && op == AST_OP_NE)
			return lower_cond(L, x, t, f, fz);
		lower_error(L, loc, "a comparison is 0 or 1; compare it with 0 "
			    "only");
		return LOWER_END;
	}
	switch (x->kind) {
	case AST_CALL: {
		/* The call writes the scratch and tests its sign (on an
		 * error, the call is still lowered for its own). */
		struct lower_branch pre = lower_plain(LOWER_END);

		if (k == 0)
			return lower_call(L, x, IR_NONE, branch_for(op, t, f));
		cell = lower_scratch(L);
		(void)test_var_pre(L, cell, op, k, loc, t, f, &pre);
		return lower_call(L, x, cell, pre);
	}
	case AST_INCDEC:
		if (x->postfix) {
			/* The atom yields the new value: old OP k is
			 * new OP k+1 (x++) or new OP k-1 (x--); integers let
			 * new > -1 read new >= 0, so n-- > 0 is one atom. */
			int64_t k2 = (int64_t)((uint64_t)k +
					       (x->op == AST_OP_INC ? 1 : -1));

			/* k + 1 past the largest word (x++ OP 2^63 - 1)
			 * lies above every new value, k - 1 below the least
			 * under every one: the answer is fixed, the step
			 * still made. */
			int64_t wmax = L->word < 8 ? INT32_MAX : INT64_MAX;
			int64_t wmin = L->word < 8 ? INT32_MIN : INT64_MIN;

			if ((x->op == AST_OP_INC && k == wmax) ||
			    (x->op == AST_OP_DEC && k == wmin)) {
				bool above = x->op == AST_OP_INC;
				bool yes = op == AST_OP_NE ||
					   (above ? op == '<' || op == AST_OP_LE
						  : op == '>' || op == AST_OP_GE);

				cell = lower_lvalue(L, x->l,
						    lower_op_name(x->op));
				if (cell < 0)
					return LOWER_END;
				lower_drop(L, yes ? f : t);
				return lower_assign(L, cell, x->op, x->l, x->r,
						    x->loc,
						    lower_plain(yes ? t : f));
			}
			if (k2 == 1 && op == AST_OP_GE)
				op = '>', k2 = 0;
			else if (k2 == 1 && op == '<')
				op = AST_OP_LE, k2 = 0;
			else if (k2 == -1 && op == '>')
				op = AST_OP_GE, k2 = 0;
			else if (k2 == -1 && op == AST_OP_LE)
				op = '<', k2 = 0;
			k = k2;
		}
		/* fall through */
	case AST_ASSIGN:
		cell = lower_lvalue(L, x->l, lower_op_name(x->op));
		if (cell < 0) {
			check_refused_call(L, x, t);
			return LOWER_END;
		}
		if (k == 0)
			return lower_assign(L, cell, x->op, x->l, x->r, x->loc,
					    branch_for(op, t, f));
		return lower_assign(L, cell, x->op, x->l, x->r, x->loc,
				    lower_plain(test_var(L, cell, op, k, loc, t,
							 f)));
	case AST_NAME:
		cell = lower_var_cell(L, x);
		if (cell < 0)
			break;
		/* The previous statement just wrote this variable: its
		 * atom's result is the value, so test that atom. */
		if (k == 0 && fz && !fz->used && fz->cell == cell)
			return fused(L, fz, cell, op, loc, t, f);
		return test_var(L, cell, op, k, loc, t, f);
	case AST_INDEX:
		/* An element is tested as a variable is (a narrow one
		 * through its widened copy). */
		cell = lower_element(L, x);
		if (cell < 0)
			return LOWER_END;
		if (k == 0 && fz && !fz->used && fz->cell == cell)
			return fused(L, fz, cell, op, loc, t, f);
		return test_var(L, cell, op, k, loc, t, f);
	default:
		break;
	}
	if (lower_is_simple(L, x) && lower_operand(L, x) >= 0) {
		lower_error(L, x->loc, "this condition tests an address, which "
			    "is never 0");
		return LOWER_END;
	}
	if (x->kind == AST_NAME || x->kind == AST_ADDR || x->kind == AST_STR)
		return LOWER_END;	/* reported by lower_operand */
	lower_error(L, x->loc, "a condition can only test a call, an "
		    "assignment or a variable (against a constant); this value "
		    "would have to be computed at run time");
	return LOWER_END;
}

int lower_cond(struct lower *L, const struct ast_expr *e, int t, int f,
	       struct lower_fuse *fz)
{
	int64_t v, k;
	int r, rt;

	if (!e) {
		lower_drop(L, f);	/* for (;;) */
		return t;
	}
	r = lower_eval(L, e, &v);
	if (r < 0)
		return LOWER_END;
	if (r == 1) {
		lower_drop(L, v ? f : t);
		return v ? t : f;
	}
	if (e->kind == AST_UNARY && e->op == '!')
		return lower_cond(L, e->l, f, t, fz);
	if (e->kind == AST_BINARY && e->op == AST_OP_AND) {
		rt = lower_cond(L, e->r, t, f, NULL);
		return lower_cond(L, e->l, rt, f, fz);
	}
	if (e->kind == AST_BINARY && e->op == AST_OP_OR) {
		rt = lower_cond(L, e->r, t, f, NULL);
		return lower_cond(L, e->l, t, rt, fz);
	}
	if (e->kind == AST_BINARY && is_cmp(e->op)) {
		if (lower_eval(L, e->r, &k) == 1)
			return test(L, e->l, e->op, k, t, f, fz, e->loc);
		if (lower_eval(L, e->l, &k) == 1)
			return test(L, e->r, mirror(e->op), k, t, f, fz,
				    e->loc);
		lower_error(L, e->loc, "cannot compare two run-time values: an "
			    "atom only tests its result against 0 (a variable "
			    "against a constant goes through a scratch copy), "
			    "and umem_add cannot subtract a variable");
		/* What to write instead: the loop of syslet(5)'s
		 * countdown, which every such comparison comes down to. */
		lower_note(L, e->loc, "keep the difference in one variable "
			   "and test it against 0 instead: count it down "
			   "(n--, or n -= k) while (n > 0)");
		return LOWER_END;
	}
	if (e->kind == AST_BINARY || e->kind == AST_UNARY) {
		lower_error(L, e->loc, "'%s' cannot be computed by atoms; a "
			    "condition tests a call, an assignment or a "
			    "variable", lower_op_name(e->op));
		return LOWER_END;
	}
	return test(L, e, AST_OP_NE, 0, t, f, fz, e->loc);
}

static int copy_to(struct lower *L, int cell, int src, struct ast_loc loc,
		   struct lower_branch br)
{
	return lower_umem_add(L, src, lower_const_cell(L, 0), cell,
			      SLO_ROLE_ARITH, loc, br);
}

/* x = a + b / a - k: copy a into x, then add b (or -k). */
static int assign_sum(struct lower *L, int cell, const struct ast_expr *rhs,
		      struct ast_loc loc, struct lower_branch br)
{
	const struct ast_expr *a = rhs->l, *b = rhs->r;
	int64_t k;
	int ca, cb, add;

	if (rhs->op == '-') {
		int r = lower_eval(L, b, &k);

		if (r < 0)
			return LOWER_END;
		if (r == 0) {
			lower_error(L, b->loc, "cannot subtract a variable: "
				    "umem_add only adds, and no atom negates a "
				    "value");
			return LOWER_END;
		}
		cb = lower_const_cell(L, (int64_t)(0 - (uint64_t)k));
	} else {
		/* Keep the variable that is x itself, or a variable, on the
		 * left, so x = 1 + y copies y and adds 1. */
		int64_t dummy;

		if (lower_var_cell(L, b) == cell ||
		    (lower_eval(L, a, &dummy) == 1 &&
		     lower_eval(L, b, &dummy) != 1)) {
			const struct ast_expr *t = a;

			a = b;
			b = t;
		}
		if (!lower_is_simple(L, b)) {
			lower_error(L, b->loc, "umem_add can only add a constant "
				    "or a variable's value");
			return LOWER_END;
		}
		cb = lower_operand(L, b);
	}
	if (!lower_is_simple(L, a)) {
		lower_error(L, a->loc, "the right side of '=' can only be a "
			    "call, a value, or a value plus a constant or a "
			    "variable");
		return LOWER_END;
	}
	ca = lower_operand(L, a);
	if (ca < 0 || cb < 0 || L->oom)
		return LOWER_END;
	add = lower_umem_add(L, cell, cb, IR_NONE, SLO_ROLE_ARITH, loc, br);
	if (ca == cell)
		return add;
	return copy_to(L, cell, ca, loc, lower_plain(add));
}

static int assign_set(struct lower *L, int cell, const struct ast_expr *rhs,
		      struct ast_loc loc, struct lower_branch br)
{
	int src;

	switch (rhs->kind) {
	case AST_CALL:
		return lower_call(L, rhs, cell, br);
	case AST_ASSIGN:
	case AST_INCDEC:
		lower_error(L, rhs->loc, "chained assignments cannot be "
			    "lowered; write one assignment per statement");
		return LOWER_END;
	case AST_BINARY:
		if ((rhs->op == '+' || rhs->op == '-') &&
		    !lower_is_simple(L, rhs))
			return assign_sum(L, cell, rhs, loc, br);
		break;
	default:
		break;
	}
	if (!lower_is_simple(L, rhs)) {
		if (rhs->kind == AST_BINARY || rhs->kind == AST_UNARY)
			lower_error(L, rhs->loc, "'%s' of run-time values "
				    "cannot be computed by atoms: the only "
				    "arithmetic atom is umem_add, which adds",
				    lower_op_name(rhs->op));
		else
			lower_error(L, rhs->loc, "this value cannot be "
				    "assigned");
		return LOWER_END;
	}
	src = lower_operand(L, rhs);
	if (src < 0)
		return LOWER_END;
	/* umem_add(&src, 0) reads src; its result lands in x. */
	return copy_to(L, cell, src, loc, br);
}

int lower_assign(struct lower *L, int cell, int op, const struct ast_expr *lhs,
		 const struct ast_expr *rhs, struct ast_loc loc,
		 struct lower_branch br)
{
	int64_t k;
	int c, r;

	switch (op) {
	case '=':
		return assign_set(L, cell, rhs, loc, br);
	case AST_OP_INC:
	case AST_OP_DEC:
		c = lower_const_cell(L, op == AST_OP_INC ? 1 : -1);
		return lower_umem_add(L, cell, c, IR_NONE, SLO_ROLE_ARITH, loc,
				      br);
	case AST_OP_ADD_ASSIGN:
		if (rhs->kind == AST_CALL) {
			lower_error(L, rhs->loc, "cannot add a call's result "
				    "directly: assign it to a variable first, "
				    "then add that variable");
			return LOWER_END;
		}
		if (!lower_is_simple(L, rhs)) {
			lower_error(L, rhs->loc, "umem_add can only add a "
				    "constant or a variable's value");
			return LOWER_END;
		}
		c = lower_operand(L, rhs);
		if (c < 0)
			return LOWER_END;
		return lower_umem_add(L, cell, c, IR_NONE, SLO_ROLE_ARITH, loc,
				      br);
	case AST_OP_SUB_ASSIGN:
		r = lower_eval(L, rhs, &k);
		if (r < 0)
			return LOWER_END;
		if (r == 0) {
			lower_error(L, rhs->loc, "'-=' needs a constant: "
				    "umem_add only adds, and no atom can negate "
				    "a variable's value");
			return LOWER_END;
		}
		c = lower_const_cell(L, (int64_t)(0 - (uint64_t)k));
		return lower_umem_add(L, cell, c, IR_NONE, SLO_ROLE_ARITH, loc,
				      br);
	default:
		lower_error(L, loc, "'%s' cannot be expressed with atoms: the "
			    "only arithmetic atom is umem_add, which adds",
			    lower_op_name(op));
		(void)lhs;
		return LOWER_END;
	}
}

int lower_expr_stmt(struct lower *L, const struct ast_expr *e, int succ)
{
	const struct ast_word *w;
	int cell;

	switch (e->kind) {
	case AST_CALL:
		return lower_call(L, e, IR_NONE, lower_plain(succ));
	case AST_ASSIGN:
	case AST_INCDEC:
		cell = lower_lvalue(L, e->l, lower_op_name(e->op));
		if (cell < 0) {
			check_refused_call(L, e, succ);
			return succ;
		}
		return lower_assign(L, cell, e->op, e->l, e->r, e->loc,
				    lower_plain(succ));
	default:
		lower_error(L, e->loc, "this statement has no effect: a "
			    "statement calls the kernel or assigns a variable");
		/* A bare 'return;' is a name here; 'return 0;' gets the
		 * same note from the parser. */
		if (e->kind == AST_NAME && e->name &&
		    !strcmp(e->name, "return"))
			lower_note(L, e->loc, "a syslet has no return: "
				   "'stop;' ends it");
		/* 'breka;', 'stpo;': a statement keyword misspelt, unless
		 * a variable has that name. */
		else if (e->kind == AST_NAME && e->name &&
			 (w = ast_word_near(e->name, strlen(e->name))) &&
			 w->cls == AST_WORD_STMT &&
			 !lower_lookup(L, e->name, e->loc))
			lower_note(L, e->loc, "'%s' is not a keyword: did you "
				   "mean '%s'?", e->name, w->name);
		return succ;
	}
}
