/* Pass `reductions`: every accumulator of a reduce or scan is used the way
   SPEC 2.2/2.3 allows, so that running the body on a private partial (or
   on a prefix) is the same as running it on the variable itself.

   Accepted updates of accumulator s with operator OP (after the C
   conversions the lifter keeps):

     set s = (OP s e)    set s = (OP e s)             e does not use s
     set s = (OP (OP e s) f)  and other trees of OP with s at one leaf
     set s = (sub s e)                                for OP = add
     set s = (min s e)   set s = (call fminf s e)     min/max functions
     set s = (select (lt e s) e s)  and the other orderings of ?:
     if (lt e s) { set s = e }      a conditional min/max
     if (c) { set s = (add s e) }   any update under a condition (reduce)
     set s = C                      a constant, rewritten (OP s C)
     set s = s   set s = (neg s)    identities GCC folded (and s *= -1)
     set s = (ne (bor e s) 0)       for OP = ||, as GCC folds `e || s'

   A reduce may update s any number of times and read it nowhere else; a
   scan updates it exactly once, at the top level of its body, and may read
   it anywhere (before the update: the exclusive prefix, after: the
   inclusive one).  Anything else rejects the nest with the line.  */

#include <string.h>

#include "flatten.h"

const char *
flat_reduction_op_spelling (flat_op op)
{
  if (op == FLAT_OP_USER)
    return "its combiner";
  return flat_op_is_reduction (op) ? flat_reduction_table[op].spelling
    : flat_op_table[op].ir_name;
}

const flat_expr *
flat_expr_strip_casts (const flat_expr *e)
{
  while (e && e->kind == FLAT_E_CAST)
    e = e->u.cast;
  return e;
}

/* Is E the accumulator V, seen through conversions and, for the logical
   operators, through `V != 0`?  */
static int
is_acc (const flat_expr *e, const flat_var *v)
{
  e = flat_expr_strip_casts (e);
  if (e->kind == FLAT_E_VAR)
    return e->u.var == v;
  if (e->kind == FLAT_E_BINARY && e->u.op.op == FLAT_OP_NE)
    {
      const flat_expr *z = flat_expr_strip_casts (e->u.op.b);
      return z->kind == FLAT_E_CONST && z->u.c.i == 0
	&& is_acc (e->u.op.a, v);
    }
  return 0;
}

/* E as BASE + D for an integer constant D (D = 0 if E is no such sum).  */
static const flat_expr *
split_offset (const flat_expr *e, long long *d)
{
  e = flat_expr_strip_casts (e);
  *d = 0;
  if (e->kind == FLAT_E_BINARY
      && (e->u.op.op == FLAT_OP_ADD || e->u.op.op == FLAT_OP_SUB))
    {
      const flat_expr *c = flat_expr_strip_casts (e->u.op.b);
      if (c->kind == FLAT_E_CONST && !flat_type_table[c->type].is_float)
	{
	  *d = e->u.op.op == FLAT_OP_ADD ? c->u.c.i : -c->u.c.i;
	  return e->u.op.a;
	}
    }
  return e;
}

/* Whether A is P + D for some D: D = 0 if A and P are the same value;
   otherwise both are sums of one base and constants of a signed integer
   type, whose overflow GCC assumes away when it folds `x + 3 > y' into
   `x + 2 >= y'.  */
static int
offset_from (const flat_expr *a, const flat_expr *p, long long *d)
{
  *d = 0;
  if (flat_expr_same_value (p, a))
    return 1;
  const flat_type_info *t = &flat_type_table[a->type];
  if (a->type != p->type || !t->is_signed || t->is_float)
    return 0;
  long long da, dp;
  const flat_expr *ba = split_offset (a, &da), *bp = split_offset (p, &dp);
  if (!flat_expr_same_value (ba, bp)
      || __builtin_sub_overflow (da, dp, d))
    return 0;
  return 1;
}

/* The operator that `(CMP a b) ? p : q` computes, where {p, q} = {a, b},
   or FLAT_N_OPS if it is not a min or max.  A and B may also be P and Q
   plus constants where that leaves the comparison one of P and Q (which
   of < and <= does not matter to min and max): `p - 1 >= q' is `p > q'
   on a signed integer type.  */
static flat_op
select_op (const flat_expr *cmp, const flat_expr *p, const flat_expr *q)
{
  cmp = flat_expr_strip_casts (cmp);
  if (cmp->kind != FLAT_E_BINARY)
    return FLAT_N_OPS;
  flat_op c = cmp->u.op.op;
  const flat_expr *a = cmp->u.op.a, *b = cmp->u.op.b;
  long long da, db;
  if (!offset_from (a, p, &da) || !offset_from (b, q, &db))
    {
      /* `q CMP p': the mirrored comparison of p and q.  */
      if (!offset_from (a, q, &da) || !offset_from (b, p, &db))
	return FLAT_N_OPS;
      static const flat_op mirror[][2] = {
	{ FLAT_OP_LT, FLAT_OP_GT }, { FLAT_OP_LE, FLAT_OP_GE },
	{ FLAT_OP_GT, FLAT_OP_LT }, { FLAT_OP_GE, FLAT_OP_LE } };
      flat_op m = FLAT_N_OPS;
      for (size_t k = 0; k < sizeof mirror / sizeof *mirror; k++)
	if (mirror[k][0] == c)
	  m = mirror[k][1];
      c = m;
      long long t = da;
      da = db;
      db = t;
    }
  /* p + DA c q + DB is p c q + DELTA.  */
  long long delta;
  if (__builtin_sub_overflow (db, da, &delta))
    return FLAT_N_OPS;
  switch (c)
    {
    case FLAT_OP_LT:		/* p < q + 1 is p <= q */
    case FLAT_OP_GE:		/* p >= q + 1 is p > q */
      if (delta != 0 && delta != 1)
	return FLAT_N_OPS;
      return c == FLAT_OP_LT ? FLAT_OP_MIN : FLAT_OP_MAX;
    case FLAT_OP_LE:		/* p <= q - 1 is p < q */
    case FLAT_OP_GT:		/* p > q - 1 is p >= q */
      if (delta != 0 && delta != -1)
	return FLAT_N_OPS;
      return c == FLAT_OP_LE ? FLAT_OP_MIN : FLAT_OP_MAX;
    default:
      return FLAT_N_OPS;
    }
}

/* Is E, seen through conversions, V or a tree of the built-in operator
   OP (associative and commutative) with V at exactly one leaf?  GCC
   reassociates `s += x[i] - 3' on an unsigned s into (x[i] + s) +
   0xfffffffd; running the body on a partial still adds the contribution
   (x[i] - 3) to it.  */
static int
in_op_tree (const flat_expr *e, const flat_var *v, flat_op op)
{
  e = flat_expr_strip_casts (e);
  if (is_acc (e, v))
    return 1;
  if (e->kind != FLAT_E_BINARY)
    return 0;
  /* (s - e) + f, as GCC writes `h += C - x' on unsigned h.  */
  if (op == FLAT_OP_ADD && e->u.op.op == FLAT_OP_SUB)
    return in_op_tree (e->u.op.a, v, op)
      && !flat_expr_mentions (e->u.op.b, v);
  if (e->u.op.op != op)
    return 0;
  return (in_op_tree (e->u.op.a, v, op)
	  && !flat_expr_mentions (e->u.op.b, v))
    || (in_op_tree (e->u.op.b, v, op)
	&& !flat_expr_mentions (e->u.op.a, v));
}

/* Is E, a truth value, V or a disjunction with V in exactly one of its
   disjuncts, a disjunct (x | ... | V) != 0 among them?  GCC folds
   `s = !(a && (x & 8) == 0) || s' into `s = a' || (((x & 8) | s) != 0)',
   which is still s || e.  */
static int
in_or_tree (const flat_expr *e, const flat_var *v)
{
  e = flat_expr_strip_casts (e);
  if (is_acc (e, v))
    return 1;
  if (e->kind != FLAT_E_BINARY)
    return 0;
  if (e->u.op.op == FLAT_OP_LOR)
    return (in_or_tree (e->u.op.a, v)
	    && !flat_expr_mentions (e->u.op.b, v))
      || (in_or_tree (e->u.op.b, v)
	  && !flat_expr_mentions (e->u.op.a, v));
  if (e->u.op.op != FLAT_OP_NE)
    return 0;
  const flat_expr *x = flat_expr_strip_casts (e->u.op.a);
  const flat_expr *z = flat_expr_strip_casts (e->u.op.b);
  return z->kind == FLAT_E_CONST && z->u.c.u == 0
    && x->kind == FLAT_E_BINARY && x->u.op.op == FLAT_OP_BOR
    && in_op_tree (x, v, FLAT_OP_BOR);
}

int
flat_reduction_is_update (flat_expr *value, const flat_var *v, flat_op op,
			  const flat_combiner *user)
{
  const flat_expr *e = flat_expr_strip_casts (value);
  if (user)
    {
      if (e->kind != FLAT_E_USER || e->u.user.comb != user
	  || !is_acc (e->u.user.acc, v))
	return 0;
      for (int k = 0; k < user->n_fields; k++)
	if (flat_expr_mentions (e->u.user.fields[k], v))
	  return 0;
      return 1;
    }
  /* GCC folds `(x & 8) != 0 || s' into `((x & 8) | s) != 0', also
     inside a disjunction.  */
  if (op == FLAT_OP_LOR && in_or_tree (e, v))
    return 1;
  /* A _Bool accumulator, or a logical operator, stores (x OP y) != 0.  */
  if ((v->type == FLAT_T_BOOL || op == FLAT_OP_LAND || op == FLAT_OP_LOR)
      && e->kind == FLAT_E_BINARY && e->u.op.op == FLAT_OP_NE)
    {
      const flat_expr *z = flat_expr_strip_casts (e->u.op.b);
      if (z->kind == FLAT_E_CONST && z->u.c.u == 0)
	e = flat_expr_strip_casts (e->u.op.a);
    }
  /* An update by the identity that GCC folded away (`s ^= 0' is `s =
     s', `s = !(x < x) || s' is `s = s != 0'), and `s *= -1' folded
     into `s = -s': running them on a partial is right too.  */
  if ((e->kind == FLAT_E_VAR && e->u.var == v)
      || ((op == FLAT_OP_LAND || op == FLAT_OP_LOR) && is_acc (e, v)))
    return 1;
  if (op == FLAT_OP_MUL && e->kind == FLAT_E_UNARY
      && e->u.op.op == FLAT_OP_NEG && is_acc (e->u.op.a, v))
    return 1;
  /* s = s - e is s + (-e).  */
  if (op == FLAT_OP_ADD && e->kind == FLAT_E_BINARY
      && e->u.op.op == FLAT_OP_SUB)
    return in_op_tree (e->u.op.a, v, op)
      && !flat_expr_mentions (e->u.op.b, v);
  if (e->kind == FLAT_E_BINARY)
    return e->u.op.op == op && in_op_tree (e, v, op);
  if (e->kind == FLAT_E_CALL && (op == FLAT_OP_MIN || op == FLAT_OP_MAX))
    {
      const char *name = flat_math_table[e->u.call.fn].c_name;
      int is_min = !strncmp (name, "fmin", 4);
      int is_max = !strncmp (name, "fmax", 4);
      if ((op == FLAT_OP_MIN && !is_min) || (op == FLAT_OP_MAX && !is_max))
	return 0;
      flat_expr *a = e->u.call.args[0], *b = e->u.call.args[1];
      return (is_acc (a, v) && !flat_expr_mentions (b, v))
	|| (is_acc (b, v) && !flat_expr_mentions (a, v));
    }
  if (e->kind == FLAT_E_SELECT && (op == FLAT_OP_MIN || op == FLAT_OP_MAX))
    {
      const flat_expr *p = e->u.select.a, *q = e->u.select.b;
      int pv = is_acc (p, v), qv = is_acc (q, v);
      if (pv == qv || flat_expr_mentions ((flat_expr *) (pv ? q : p), v))
	return 0;
      return select_op (e->u.select.cond, p, q) == op;
    }
  return 0;
}

typedef struct checker
{
  flat_nest *nest;
  const flat_var *acc;
  flat_op op;
  const flat_combiner *user;
  int is_scan;
  int updates;
  int nested_update;		/* an update below the body's top level */
  flat_diag *diag;
  int constants;		/* `set s = C' is an update (a clause names
				   the operator) */
} checker;

static int check_block (checker *c, const flat_block *b, int depth);

static int
reject_read (checker *c, flat_expr *e, int line)
{
  if (!c->is_scan && e && flat_expr_mentions (e, c->acc))
    {
      flat_diag_set (c->diag, line, "'%s' is read in the body of the "
		     "reduction; only '%s = %s %s e' may use it",
		     c->acc->source, c->acc->source, c->acc->source,
		     flat_reduction_op_spelling (c->op));
      return -1;
    }
  return 0;
}

/* `if (CMP) { set v = X }` computing v = min/max (v, X).  */
static int
is_conditional_minmax (checker *c, const flat_stmt *s)
{
  if (c->op != FLAT_OP_MIN && c->op != FLAT_OP_MAX)
    return 0;
  const flat_stmt *t = s->u.if_.then_b.first;
  if (!t || t->next || s->u.if_.else_b.first || t->kind != FLAT_S_SET
      || t->u.set.var != c->acc
      || flat_expr_mentions (t->u.set.value, c->acc))
    return 0;
  const flat_expr *cmp = flat_expr_strip_casts (s->u.if_.cond);
  if (cmp->kind != FLAT_E_BINARY)
    return 0;
  const flat_expr *a = cmp->u.op.a, *b = cmp->u.op.b;
  int av = is_acc (a, c->acc), bv = is_acc (b, c->acc);
  if (av == bv || flat_expr_mentions ((flat_expr *) (av ? b : a), c->acc))
    return 0;
  /* (cmp) ? X : v, the new value when the condition holds.  */
  return select_op (cmp, t->u.set.value, av ? a : b) == c->op;
}

static int
count_update (checker *c, int depth, int line)
{
  c->updates++;
  if (depth > 0)
    c->nested_update = 1;
  if (c->is_scan && c->updates > 1)
    {
      flat_diag_set (c->diag, line, "two updates of scan variable '%s' in "
		     "one iteration", c->acc->source);
      return -1;
    }
  return 0;
}

flat_expr *
flat_reduction_constant_update (flat_nest *nest, flat_expr *acc, flat_type t,
				flat_op op, flat_expr *value)
{
  if (flat_expr_strip_casts (value)->kind != FLAT_E_CONST)
    return NULL;
  if (op == FLAT_OP_LAND || op == FLAT_OP_LOR)
    {
      flat_expr *zero = flat_e_const_int (nest, t, 0);
      flat_expr *zero2 = flat_e_const_int (nest, value->type, 0);
      acc = flat_e_binary (nest, FLAT_OP_NE, acc, zero);
      value = flat_e_binary (nest, FLAT_OP_NE, value, zero2);
    }
  return flat_e_cast (nest, t, flat_e_binary (nest, op, acc, value));
}

/* `set v = C' with a constant C becomes `set v = (OP v C)'.  It is the
   sequential loop's result where C absorbs (true under ||, false under
   &&), and where the variable never passes C otherwise; a private
   partial must not be overwritten by C.  0 if the value is no constant
   (or the operator a declared one).  */
static int
constant_update (checker *c, flat_stmt *s)
{
  flat_var *v = (flat_var *) c->acc;
  flat_expr *e;

  if (c->user || !c->constants)
    return 0;
  e = flat_reduction_constant_update (c->nest, flat_e_var (c->nest, v),
				      v->type, c->op, s->u.set.value);
  if (!e)
    return 0;
  s->u.set.value = e;
  return 1;
}

static int
check_stmt (checker *c, flat_stmt *s, int depth)
{
  switch (s->kind)
    {
    case FLAT_S_SET:
      if (s->u.set.var == c->acc)
	{
	  if (!flat_reduction_is_update (s->u.set.value, c->acc, c->op,
					 c->user)
	      && !constant_update (c, s))
	    {
	      flat_diag_set (c->diag, s->line, "the update of '%s' does not "
			     "use the reduction operator '%s' (expected "
			     "'%s = %s %s e')", c->acc->source,
			     flat_reduction_op_spelling (c->op), c->acc->source,
			     c->acc->source, flat_reduction_op_spelling (c->op));
	      return -1;
	    }
	  return count_update (c, depth, s->line);
	}
      return reject_read (c, s->u.set.value, s->line);
    case FLAT_S_LET:
      return reject_read (c, s->u.let.init, s->line);
    case FLAT_S_STORE:
      if (reject_read (c, s->u.store.index, s->line))
	return -1;
      return reject_read (c, s->u.store.value, s->line);
    case FLAT_S_IF:
      if (is_conditional_minmax (c, s))
	return count_update (c, depth, s->line);
      if (reject_read (c, s->u.if_.cond, s->line))
	return -1;
      if (check_block (c, &s->u.if_.then_b, depth + 1))
	return -1;
      return check_block (c, &s->u.if_.else_b, depth + 1);
    case FLAT_S_WHILE:
      if (reject_read (c, s->u.while_.cond, s->line))
	return -1;
      return check_block (c, &s->u.while_.body, depth + 1);
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      if (reject_read (c, s->u.loop.range.lb, s->line)
	  || reject_read (c, s->u.loop.range.ub, s->line))
	return -1;
      return check_block (c, &s->u.loop.body, depth + 1);
    default:
      return 0;
    }
}

static int
check_block (checker *c, const flat_block *b, int depth)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    if (check_stmt (c, s, depth))
      return -1;
  return 0;
}

/* What visit needs: the nest, for the rewrites of constant_update.  */
typedef struct visit_data
{
  flat_nest *nest;
  flat_diag *diag;
} visit_data;

static int
check_soac (flat_nest *nest, flat_stmt *s, flat_diag *diag)
{
  for (int k = 0; k < s->u.red.n_accs; k++)
    {
      checker c = { nest, s->u.red.accs[k].var, s->u.red.accs[k].op,
		    s->u.red.accs[k].user, s->kind == FLAT_S_SCAN, 0, 0, diag,
		    1 };
      if (check_block (&c, &s->u.red.body, 0))
	return -1;
      if (c.updates == 0)
	{
	  flat_diag_set (diag, s->line, "reduction variable '%s' is not "
			 "updated in the loop", c.acc->source);
	  return -1;
	}
      if (c.is_scan && c.nested_update)
	{
	  flat_diag_set (diag, s->line, "the update of scan variable '%s' "
			 "must stand at the top level of the loop body, not "
			 "inside a condition or loop", c.acc->source);
	  return -1;
	}
    }
  return 0;
}

int
flat_reduction_only_updates (flat_nest *nest, const flat_block *body,
			     const flat_var *v, flat_op op)
{
  flat_diag ignored;
  checker c = { nest, v, op, NULL, 0, 0, 0, &ignored, 0 };
  return check_block (&c, body, 0) == 0 && c.updates > 0;
}

static int
visit (flat_stmt *s, void *data)
{
  visit_data *v = data;

  if (s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN)
    return check_soac (v->nest, s, v->diag);
  return 0;
}

int
flat_pass_reductions (flat_nest *nest, flat_strategy strategy,
		      flat_diag *diag)
{
  (void) strategy;
  visit_data v = { nest, diag };
  flat_walker w = { visit, NULL, &v };
  return flat_walk_block (&nest->body, &w) ? -1 : 0;
}
