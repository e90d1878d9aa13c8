/* Extents of the mems of a nest (extent.h): which elements the body can
   read and write, so that the runtime transfers exactly those and the
   plugin knows at compile time whether it can.

   One walk serves both entry points.  With an environment of param values
   (flat_extent_eval) every integer expression gets an inclusive interval;
   without one (flat_extent_check) only whether it could get one is
   decided, so the rules for what is boundable are the same.  Example:

     map i : i32 = 0:i32 .. n step 1:i32 {        with n = 10, m = 4
       map j : i32 = 0:i32 .. i step 1:i32 {      i in [0, 9], j in [0, 8]
	 store a[(add (mul i m) j)] = 0x0p+0:f32   a written in [0, 44]
       }
     }

   Note [Soundness]: intervals are mathematical integers.  Every result is
   checked to be a value of its C type; one that could wrap, or an
   overflow of the interval arithmetic itself, makes the index unboundable
   rather than wrong.  Conditions only narrow (the branches of `if` and
   `select` by the condition and its negation, the right operand of
   `land`; a comparison narrows a variable, a cast of one that keeps its
   value, or one plus a constant that cannot wrap there), and a range or
   a narrowed branch that is empty for the given params is not walked,
   since its accesses never happen.  The compile-time walk cannot see overflow or
   wrapping, so flat_extent_eval may still fail at run time where
   flat_extent_check passed; the runtime then falls back to the host.  */

#include "extent.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>

/* The interval of an integer expression, or why there is none.  */
typedef struct bound
{
  int ok;
  int64_t lo, hi;		/* OK: inclusive; empty if lo > hi */
  const char *why;		/* !OK: the reason, completed by WHAT */
  const char *what;
} bound;

typedef struct undo_entry
{
  int id;
  bound old;
} undo_entry;

typedef struct walker
{
  const flat_nest *nest;
  const flat_value *env;	/* NULL for the compile-time walk */
  bound *vars;			/* by var id: params, indices, locals */
  unsigned char *once;		/* by var id: local let once, never set */
  const flat_expr **defn;	/* by var id: the init of a once local */
  undo_entry *undo;		/* narrowings to take back */
  int n_undo, cap_undo;
  flat_extent *out;		/* by var id; NULL for the compile-time walk */
  int line;			/* of the statement being walked */
  int failed;
  int *fail_line;
  char *msg;
  size_t msg_size;
  /* The compile-time walk goes on past an unbounded mem, to name them
     all in one message: by var id, whether unbounded.  */
  unsigned char *unbounded;
  unsigned char *unbounded_out;	/* where the caller wants them */
  int n_unbounded;
  int first_unbounded;		/* the one the message names first */
  /* flat_extent_eval_slice: the range of the nest's outer loop, whose
     iterations [slice_lo, slice_hi) only are walked; NULL: all.  */
  const flat_range *outer;
  int64_t slice_lo, slice_hi;
} walker;

static bound
unknown (const char *why, const char *what)
{
  return (bound) { .ok = 0, .why = why, .what = what ? what : "" };
}

/* [LO, HI] as a bound of type T: unboundable if OVERFLOW or if the
   interval leaves T's values.  The compile-time walk keeps no values.  */
static bound
make (const walker *w, flat_type t, int64_t lo, int64_t hi, int overflow)
{
  if (!w->env)
    return (bound) { .ok = 1 };
  if (overflow)
    return unknown ("its arithmetic overflows", NULL);
  if (!flat_value_fits (t, lo) || !flat_value_fits (t, hi))
    return unknown ("a value may wrap around in type",
		    flat_type_table[t].ir_name);
  return (bound) { .ok = 1, .lo = lo, .hi = hi };
}

/* Every value of integer type T (bool: 0 and 1).  */
static bound
type_range (const walker *w, flat_type t)
{
  int bits = 8 * flat_type_table[t].size;
  if (t == FLAT_T_BOOL)
    return make (w, t, 0, 1, 0);
  if (flat_type_table[t].is_signed)
    return make (w, t, -((int64_t) 1 << (bits - 1)),
		 ((int64_t) 1 << (bits - 1)) - 1, 0);
  return make (w, t, 0, ((int64_t) 1 << bits) - 1, 0);
}

static int64_t
min64 (int64_t a, int64_t b)
{
  return a < b ? a : b;
}

static int64_t
max64 (int64_t a, int64_t b)
{
  return a > b ? a : b;
}

/* ---- Narrowing ---------------------------------------------------------- */

static void
set_var (walker *w, int id, bound b)
{
  if (w->n_undo == w->cap_undo)
    {
      int cap = w->cap_undo ? 2 * w->cap_undo : 16;
      undo_entry *u = realloc (w->undo, (size_t) cap * sizeof *u);
      if (!u)
	{
	  fputs ("flat: out of memory\n", stderr);
	  abort ();
	}
      w->undo = u;
      w->cap_undo = cap;
    }
  w->undo[w->n_undo++] = (undo_entry) { id, w->vars[id] };
  w->vars[id] = b;
}

static void
undo_to (walker *w, int height)
{
  while (w->n_undo > height)
    {
      w->n_undo--;
      w->vars[w->undo[w->n_undo].id] = w->undo[w->n_undo].old;
    }
}

static bound bound_expr (walker *w, const flat_expr *e);

/* The operator for (OP B A) equivalent to (OP A B).  */
static flat_op
flip (flat_op op)
{
  switch (op)
    {
    case FLAT_OP_LT: return FLAT_OP_GT;
    case FLAT_OP_LE: return FLAT_OP_GE;
    case FLAT_OP_GT: return FLAT_OP_LT;
    case FLAT_OP_GE: return FLAT_OP_LE;
    default: return op;
    }
}

/* The negation of comparison OP on integers, FLAT_N_OPS for others.  */
static flat_op
negate (flat_op op)
{
  switch (op)
    {
    case FLAT_OP_LT: return FLAT_OP_GE;
    case FLAT_OP_LE: return FLAT_OP_GT;
    case FLAT_OP_GT: return FLAT_OP_LE;
    case FLAT_OP_GE: return FLAT_OP_LT;
    case FLAT_OP_EQ: return FLAT_OP_NE;
    case FLAT_OP_NE: return FLAT_OP_EQ;
    default: return FLAT_N_OPS;
    }
}

/* Assume (OP X V) for a variable X whose bound is known and a value V in
   EB; 0 if that leaves X no value.  */
static int
narrow_var (walker *w, const flat_var *x, flat_op op, bound eb)
{
  bound b = w->vars[x->id];
  if (!b.ok)
    return 1;
  /* eb.hi - 1 and eb.lo + 1 cannot overflow: EB is a value of X's type,
     and a comparison with the type's extreme value that leaves nothing is
     caught below.  */
  switch (op)
    {
    case FLAT_OP_LT:
      if (eb.hi == INT64_MIN)
	return 0;
      b.hi = min64 (b.hi, eb.hi - 1);
      break;
    case FLAT_OP_LE:
      b.hi = min64 (b.hi, eb.hi);
      break;
    case FLAT_OP_GT:
      if (eb.lo == INT64_MAX)
	return 0;
      b.lo = max64 (b.lo, eb.lo + 1);
      break;
    case FLAT_OP_GE:
      b.lo = max64 (b.lo, eb.lo);
      break;
    case FLAT_OP_EQ:
      b.lo = max64 (b.lo, eb.lo);
      b.hi = min64 (b.hi, eb.hi);
      break;
    case FLAT_OP_NE:
      /* Only a single value V at an end of X's interval cuts it.  */
      if (eb.lo != eb.hi)
	return 1;
      if (b.lo == eb.lo)
	b.lo++;
      else if (b.hi == eb.lo)
	b.hi--;
      break;
    default:
      return 1;
    }
  set_var (w, x->id, b);
  return b.lo <= b.hi;
}

static int literal (const flat_expr *e, int64_t *c);

/* Assume (OP X V) for V in EB, where X is a variable, a value-preserving
   cast of one, or one plus or minus a constant (`i + 1 < n' bounds i by
   n - 2) whose arithmetic cannot wrap where X stands; 0 if that leaves
   the variable no value.  */
static int
narrow (walker *w, const flat_expr *x, flat_op op, bound eb)
{
  int64_t c;

  if (!eb.ok || !bound_expr (w, x).ok)
    return 1;			/* may wrap: the comparison says nothing */
  switch (x->kind)
    {
    case FLAT_E_VAR:
      return narrow_var (w, x->u.var, op, eb);
    case FLAT_E_CAST:
      if (flat_type_table[x->u.cast->type].is_float)
	return 1;
      return narrow (w, x->u.cast, op, eb);
    case FLAT_E_BINARY:
      if ((x->u.op.op != FLAT_OP_ADD && x->u.op.op != FLAT_OP_SUB)
	  || !literal (x->u.op.b, &c))
	return 1;
      if (x->u.op.op == FLAT_OP_SUB)
	{
	  if (c == INT64_MIN)
	    return 1;
	  c = -c;
	}
      /* X = y + c OP v  <=>  y OP v - c.  */
      if (__builtin_sub_overflow (eb.lo, c, &eb.lo)
	  || __builtin_sub_overflow (eb.hi, c, &eb.hi))
	return 1;
      return narrow (w, x->u.op.a, op, eb);
    default:
      return 1;
    }
}

/* Narrow the bounds of variables as COND being true (HOLDS) or false
   says (undone by the caller with undo_to); 0 if that cannot be.  Only
   run-time walks narrow.  */
static int
assume_that (walker *w, const flat_expr *cond, int holds)
{
  if (!w->env || cond->kind != FLAT_E_BINARY)
    return 1;
  flat_op op = cond->u.op.op;
  const flat_expr *a = cond->u.op.a, *b = cond->u.op.b;
  /* a && b holds: both do; a || b fails: both fail.  */
  if (op == (holds ? FLAT_OP_LAND : FLAT_OP_LOR))
    return assume_that (w, a, holds) && assume_that (w, b, holds);
  if (flat_op_table[op].kind != 'C' || flat_type_table[a->type].is_float)
    return 1;
  if (!holds)
    op = negate (op);
  return narrow (w, a, op, bound_expr (w, b))
    && narrow (w, b, flip (op), bound_expr (w, a));
}

static int
assume (walker *w, const flat_expr *cond)
{
  return assume_that (w, cond, 1);
}

static int
assume_not (walker *w, const flat_expr *cond)
{
  return assume_that (w, cond, 0);
}

/* ---- Intervals of expressions ------------------------------------------ */

/* A literal integer constant C of E as a signed number, or 0 if E is not
   one: divisors and shift counts must be literals.  An unsigned constant
   in the upper half of its type is the negative number it adds modulo
   the type's range (GCC writes `i - 1' on unsigned i as `i +
   0xffffffff'); results are checked to fit their type, so that reading
   is exact where it is used.  */
static int
literal (const flat_expr *e, int64_t *c)
{
  if (e->kind != FLAT_E_CONST || flat_type_table[e->type].is_float)
    return 0;
  *c = flat_value_signed (e->type, e->u.c);
  return 1;
}

/* (mod A C) for C > 0, with C's sign rule: the result has A's sign.  */
static bound
bound_mod (const walker *w, flat_type t, bound a, int64_t c)
{
  if (a.lo / c == a.hi / c && (a.lo >= 0 || a.hi <= 0))
    return make (w, t, a.lo % c, a.hi % c, 0);
  return make (w, t, a.lo < 0 ? max64 (a.lo, -(c - 1)) : 0,
	       a.hi > 0 ? min64 (a.hi, c - 1) : 0, 0);
}

static bound
bound_binary (walker *w, const flat_expr *e)
{
  flat_op op = e->u.op.op;
  flat_type t = e->type;
  if (flat_op_table[op].kind == 'C' || flat_op_table[op].kind == 'L')
    return make (w, t, 0, 1, 0);
  int64_t c, lo = 0, hi = 0, p[4];
  /* x & C with C >= 0 lies in [0, C] whatever x is (a table lookup
     `tab[k & 7]`), and so does x % C for x >= 0.  */
  if (op == FLAT_OP_BAND
      && ((literal (e->u.op.b, &c) && c >= 0)
	  || (literal (e->u.op.a, &c) && c >= 0)))
    return make (w, t, 0, c, 0);
  bound a = bound_expr (w, e->u.op.a);
  if (!a.ok)
    return a;
  int ov = 0;
  switch (op)
    {
    case FLAT_OP_DIV:
    case FLAT_OP_MOD:
      if (!literal (e->u.op.b, &c) || c <= 0)
	return unknown ("it divides by something other than a positive "
			"constant", NULL);
      /* Truncating division by C > 0 is monotonic.  */
      return op == FLAT_OP_DIV ? make (w, t, a.lo / c, a.hi / c, 0)
	: bound_mod (w, t, a, c);
    case FLAT_OP_SHL:
    case FLAT_OP_SHR:
      if (!literal (e->u.op.b, &c) || c < 0
	  || c >= 8 * flat_type_table[t].size)
	return unknown ("it shifts by something other than a constant",
			NULL);
      if (op == FLAT_OP_SHR)
	return make (w, t, a.lo >> c, a.hi >> c, 0);
      ov = c >= 63 || __builtin_mul_overflow (a.lo, (int64_t) 1 << c, &lo)
	|| __builtin_mul_overflow (a.hi, (int64_t) 1 << c, &hi);
      return make (w, t, lo, hi, ov);
    default:
      break;
    }
  bound b = (op == FLAT_OP_ADD || op == FLAT_OP_SUB) && literal (e->u.op.b, &c)
    ? make (w, FLAT_T_I64, c, c, 0) : bound_expr (w, e->u.op.b);
  if (!b.ok)
    return b;
  switch (op)
    {
    case FLAT_OP_ADD:
      ov = __builtin_add_overflow (a.lo, b.lo, &lo)
	| __builtin_add_overflow (a.hi, b.hi, &hi);
      return make (w, t, lo, hi, ov);
    case FLAT_OP_SUB:
      ov = __builtin_sub_overflow (a.lo, b.hi, &lo)
	| __builtin_sub_overflow (a.hi, b.lo, &hi);
      return make (w, t, lo, hi, ov);
    case FLAT_OP_MUL:
      ov = __builtin_mul_overflow (a.lo, b.lo, &p[0])
	| __builtin_mul_overflow (a.lo, b.hi, &p[1])
	| __builtin_mul_overflow (a.hi, b.lo, &p[2])
	| __builtin_mul_overflow (a.hi, b.hi, &p[3]);
      lo = min64 (min64 (p[0], p[1]), min64 (p[2], p[3]));
      hi = max64 (max64 (p[0], p[1]), max64 (p[2], p[3]));
      return make (w, t, lo, hi, ov);
    case FLAT_OP_MIN:
      return make (w, t, min64 (a.lo, b.lo), min64 (a.hi, b.hi), 0);
    case FLAT_OP_MAX:
      return make (w, t, max64 (a.lo, b.lo), max64 (a.hi, b.hi), 0);
    default:
      return unknown ("it uses the operator", flat_op_table[op].ir_name);
    }
}

static bound
bound_unary (walker *w, const flat_expr *e)
{
  flat_type t = e->type;
  if (e->u.op.op == FLAT_OP_NOT)
    return make (w, t, 0, 1, 0);
  bound a = bound_expr (w, e->u.op.a);
  if (!a.ok)
    return a;
  switch (e->u.op.op)
    {
    case FLAT_OP_NEG:
      return make (w, t, -(a.hi == INT64_MIN ? 0 : a.hi),
		   -(a.lo == INT64_MIN ? 0 : a.lo), a.lo == INT64_MIN);
    case FLAT_OP_BNOT:
      /* ~x == -x - 1: decreasing.  */
      return make (w, t, ~a.hi, ~a.lo, 0);
    default:			/* abs */
      if (a.lo == INT64_MIN)
	return make (w, t, 0, 0, 1);
      if (a.lo >= 0)
	return a;
      if (a.hi <= 0)
	return make (w, t, -a.hi, -a.lo, 0);
      return make (w, t, 0, max64 (-a.lo, a.hi), 0);
    }
}

static bound bound_expr (walker *w, const flat_expr *e);

/* The interval of V where it is used.  A once-defined local is also
   bounded through its definition with the intervals in force here, so a
   guard narrows it too: after `let c = i*w + j`, `if (gt i 0)` narrows
   `c - w`.  Both bounds hold, so their intersection does.  */
static bound
bound_var (walker *w, const flat_var *v)
{
  bound b = w->vars[v->id];
  if (!w->defn[v->id])
    return b;
  bound d = bound_expr (w, w->defn[v->id]);
  if (!d.ok)
    return b;
  if (!b.ok || !w->env)
    return d;
  return make (w, v->type, max64 (b.lo, d.lo), min64 (b.hi, d.hi), 0);
}

/* The interval of integer expression E.  */
static bound
bound_expr (walker *w, const flat_expr *e)
{
  if (flat_type_table[e->type].is_float)
    return unknown ("it computes in floating point", NULL);
  switch (e->kind)
    {
    case FLAT_E_CONST:
      if (e->type == FLAT_T_U64 && e->u.c.u > INT64_MAX)
	return unknown ("a constant is too large", NULL);
      return make (w, e->type, e->u.c.i, e->u.c.i, 0);
    case FLAT_E_VAR:
      return bound_var (w, e->u.var);
    case FLAT_E_UNARY:
      return bound_unary (w, e);
    case FLAT_E_BINARY:
      return bound_binary (w, e);
    case FLAT_E_CAST:
      {
	if (e->type == FLAT_T_BOOL)
	  return make (w, e->type, 0, 1, 0);
	bound a = bound_expr (w, e->u.cast);
	/* A narrow type's values are few: a conversion into one,
	   (unsigned char) c, gives at most them all.  */
	if (flat_type_narrow (e->type)
	    && (!a.ok || !flat_value_fits (e->type, a.lo)
		|| !flat_value_fits (e->type, a.hi)))
	  return type_range (w, e->type);
	return a.ok ? make (w, e->type, a.lo, a.hi, 0) : a;
      }
    case FLAT_E_SELECT:
      {
	int height = w->n_undo;
	bound a = { .ok = 1, .lo = 1, .hi = 0 };	/* empty */
	if (assume (w, e->u.select.cond))
	  a = bound_expr (w, e->u.select.a);
	undo_to (w, height);
	bound b = { .ok = 1, .lo = 1, .hi = 0 };	/* empty */
	if (assume_not (w, e->u.select.cond))
	  b = bound_expr (w, e->u.select.b);
	undo_to (w, height);
	if (!a.ok || !b.ok)
	  return a.ok ? b : a;
	if (!w->env || a.lo > a.hi)
	  return b;
	if (b.lo > b.hi)
	  return a;
	return make (w, e->type, min64 (a.lo, b.lo), max64 (a.hi, b.hi), 0);
      }
    case FLAT_E_CALL:
      return unknown ("it calls", flat_math_table[e->u.call.fn].c_name);
    case FLAT_E_LOAD:
      /* A loaded value lies in its type's range, which is small enough
	 to bound an index for the narrow types: a char indexing a table
	 of 384 (Note [Library tables] in plugin/lift_mem.cc).  */
      if (flat_type_narrow (e->type))
	return type_range (w, e->type);
      return unknown ("it reads memory:", e->u.load.mem->source);
    case FLAT_E_USER:
      return unknown ("it combines by", e->u.user.comb->name);
    case FLAT_E_FIELD:
      return unknown ("it unpacks a value of", e->u.field.comb->name);
    }
  return unknown ("it is not an expression", NULL);
}

/* ---- Accesses ----------------------------------------------------------- */

static void
fail (walker *w, const flat_var *mem, bound b)
{
  if (w->unbounded)
    {
      if (w->unbounded[mem->id])
	return;
      w->unbounded[mem->id] = 1;
      if (w->n_unbounded++ > 0)
	return;
      w->first_unbounded = mem->id;
    }
  else
    w->failed = 1;
  if (w->fail_line)
    *w->fail_line = w->line;
  if (w->msg_size > 0)
    snprintf (w->msg, w->msg_size, "cannot bound the elements of '%s' it "
	      "accesses: %s%s%s", mem->source, b.why,
	      *b.what ? " " : "", b.what);
}

/* Whether an unbounded mem before K, or FIRST, has K's source name: the
   views of one array of structs (one mem per element type) are named
   once.  */
static int
named_before (const flat_nest *nest, const unsigned char *unbounded, int k,
	      int first)
{
  const char *name = nest->vars[k]->source;
  for (int j = 0; j < nest->n_vars; j++)
    if ((j == first || (j < k && unbounded[j]))
	&& strcmp (nest->vars[j]->source, name) == 0)
      return 1;
  return 0;
}

/* Append to W's message the other unbounded mems and, for all, the
   clauses that would bound them: copyin for those only read, copy for
   the others (the elements a nest does not write keep their values):
     ... (also 'b', 'c'); add data clauses with sections to the marked
     loop, such as copyin(c[0:N]) copy(a[0:N], b[0:N]), N the number of
     elements each may touch  */
static void
name_unbounded (walker *w)
{
  size_t len = strlen (w->msg);
  const flat_nest *nest = w->nest;
  const char *sep = " (also ";
  for (int k = 0; k < nest->n_vars; k++)
    if (w->unbounded[k] && k != w->first_unbounded
	&& !named_before (nest, w->unbounded, k, w->first_unbounded))
      {
	len += snprintf (w->msg + len, len < w->msg_size
			 ? w->msg_size - len : 0, "%s'%s'", sep,
			 nest->vars[k]->source);
	sep = ", ";
      }
  len += snprintf (w->msg + len, len < w->msg_size ? w->msg_size - len : 0,
		   "%s; add data clauses with sections to the marked loop, "
		   "such as", strcmp (sep, ", ") == 0 ? ")" : "");
  for (int write = 0; write < 2; write++)
    {
      sep = write ? " copy(" : " copyin(";
      for (int k = 0; k < nest->n_vars; k++)
	if (w->unbounded[k]
	    && !(nest->vars[k]->access & FLAT_ACCESS_WRITE) == !write
	    && !named_before (nest, w->unbounded, k, -1))
	  {
	    len += snprintf (w->msg + len, len < w->msg_size
			     ? w->msg_size - len : 0, "%s%s[0:N]", sep,
			     nest->vars[k]->source);
	    sep = ", ";
	  }
      if (strcmp (sep, ", ") == 0)
	len += snprintf (w->msg + len, len < w->msg_size
			 ? w->msg_size - len : 0, ")");
    }
  snprintf (w->msg + len, len < w->msg_size ? w->msg_size - len : 0,
	    ", N the number of elements each may touch");
}

static void
add_interval (flat_interval *into, bound b)
{
  if (into->lo > into->hi)
    *into = (flat_interval) { b.lo, b.hi };
  else
    *into = (flat_interval) { min64 (into->lo, b.lo),
			      max64 (into->hi, b.hi) };
}

/* A read or write of MEM at INDEX.  */
static void
note_access (walker *w, const flat_var *mem, const flat_expr *index,
	     int write)
{
  if (w->failed || mem->kind != FLAT_VAR_MEM
      || mem->clause != FLAT_DATA_NONE)
    return;
  const flat_expr *row, *col, *mid;
  bound b, c = { .ok = 1, .lo = 0, .hi = -1 }, m = c;

  if (mem->row_width)
    {
      if (!flat_row_access (mem, index, &row, &col)
	  || (mem->row_height
	      && !flat_plane_access (mem, row, &row, &mid)))
	{
	  fail (w, mem, unknown ("the index of a row table is not its row "
				 "times its width plus its column", NULL));
	  return;
	}
      index = row;
      c = bound_expr (w, col);
      if (c.ok && mem->row_height)
	{
	  m = bound_expr (w, mid);
	  if (!m.ok)
	    c = m;
	}
      if (!c.ok)
	{
	  fail (w, mem, c);
	  return;
	}
    }
  b = bound_expr (w, index);
  if (!b.ok)
    fail (w, mem, b);
  else if (w->out)
    {
      add_interval (write ? &w->out[mem->id].write : &w->out[mem->id].read,
		    b);
      if (mem->row_width)
	add_interval (&w->out[mem->id].cols, c);
      if (mem->row_height)
	add_interval (&w->out[mem->id].mids, m);
    }
}

/* The loads in E, with the narrowing that C's evaluation order allows.  */
static void
visit_expr (walker *w, const flat_expr *e)
{
  int height = w->n_undo;
  switch (e->kind)
    {
    case FLAT_E_CONST:
    case FLAT_E_VAR:
      return;
    case FLAT_E_UNARY:
      visit_expr (w, e->u.op.a);
      return;
    case FLAT_E_BINARY:
      visit_expr (w, e->u.op.a);
      if (e->u.op.op != FLAT_OP_LAND || assume (w, e->u.op.a))
	visit_expr (w, e->u.op.b);
      undo_to (w, height);
      return;
    case FLAT_E_CAST:
      visit_expr (w, e->u.cast);
      return;
    case FLAT_E_SELECT:
      visit_expr (w, e->u.select.cond);
      if (assume (w, e->u.select.cond))
	visit_expr (w, e->u.select.a);
      undo_to (w, height);
      visit_expr (w, e->u.select.b);
      return;
    case FLAT_E_CALL:
      for (int k = 0; k < flat_math_table[e->u.call.fn].arity; k++)
	visit_expr (w, e->u.call.args[k]);
      return;
    case FLAT_E_LOAD:
      visit_expr (w, e->u.load.index);
      note_access (w, e->u.load.mem, e->u.load.index, 0);
      return;
    case FLAT_E_FIELD:
      visit_expr (w, e->u.field.packed);
      return;
    case FLAT_E_USER:
      visit_expr (w, e->u.user.acc);
      for (int k = 0; k < e->u.user.comb->n_fields; k++)
	visit_expr (w, e->u.user.fields[k]);
      return;
    }
}

/* ---- Statements --------------------------------------------------------- */

/* The interval of R's index; EMPTY set if the range has no iteration.  */
static bound
bound_range (walker *w, const flat_range *r, int *empty)
{
  flat_type t = r->index->type;
  int64_t s;
  *empty = 0;
  if (!literal (r->step, &s) || s == 0 || s == INT64_MIN)
    return unknown ("the step of its index is not a constant",
		    r->index->source);
  bound lb = bound_expr (w, r->lb), ub = bound_expr (w, r->ub);
  if (!lb.ok || !ub.ok)
    return !lb.ok ? lb : ub;
  if (!w->env)
    return lb;
  int64_t lo, hi, span;
  int ov = 0;
  if (s > 0)
    {
      /* lb, lb+s, ... < ub: at most ub.hi - 1, exactly the last value when
	 lb is a point.  */
      *empty = lb.lo >= ub.hi;
      if (*empty)
	return lb;
      lo = lb.lo;
      hi = ub.hi - 1;
      if (lb.lo == lb.hi)
	{
	  ov = __builtin_sub_overflow (hi, lo, &span);
	  hi = lo + (span - span % s);
	}
    }
  else
    {
      *empty = lb.hi <= ub.lo;
      if (*empty)
	return lb;
      hi = lb.hi;
      lo = ub.lo + 1;
      if (lb.lo == lb.hi)
	{
	  ov = __builtin_sub_overflow (hi, lo, &span);
	  lo = hi - (span - span % -s);
	}
    }
  return make (w, t, lo, hi, ov);
}

/* I, the interval of the outer loop's index R, narrowed to the
   iterations [w->slice_lo, w->slice_hi); EMPTY set if none is left.
   Where I is not exact (a bound that is not a point, a step that is not
   positive) it stays whole: larger, never wrong.  */
static bound
narrow_to_slice (const walker *w, const flat_range *r, bound i, int *empty)
{
  int64_t s, n0, first, end;
  if (!literal (r->step, &s) || s <= 0 || !i.ok || i.lo > i.hi)
    return i;
  bound lb = bound_expr ((walker *) w, r->lb);
  if (!lb.ok || lb.lo != lb.hi)
    return i;
  n0 = (int64_t) (((uint64_t) i.hi - (uint64_t) i.lo) / (uint64_t) s) + 1;
  first = w->slice_lo < 0 ? 0 : w->slice_lo < n0 ? w->slice_lo : n0;
  end = w->slice_hi < first ? first : w->slice_hi < n0 ? w->slice_hi : n0;
  *empty = end == first;
  i.hi = (int64_t) ((uint64_t) i.lo + (uint64_t) (end - 1) * (uint64_t) s);
  i.lo = (int64_t) ((uint64_t) i.lo + (uint64_t) first * (uint64_t) s);
  return i;
}

static void walk_block (walker *w, const flat_block *b);

/* A loop, map, reduce or scan: its bounds, then BODY with the index over
   R, unless R is empty.  */
static void
walk_range_body (walker *w, const flat_range *r, const flat_block *body)
{
  int empty;
  visit_expr (w, r->lb);
  visit_expr (w, r->ub);
  bound i = bound_range (w, r, &empty);
  if (!empty && r == w->outer)
    i = narrow_to_slice (w, r, i, &empty);
  if (!empty)
    {
      w->vars[r->index->id] = i;
      walk_block (w, body);
    }
}

static void
walk_stmt (walker *w, const flat_stmt *s)
{
  int height = w->n_undo;
  w->line = s->line;
  switch (s->kind)
    {
    case FLAT_S_LET:
      if (s->u.let.init)
	{
	  visit_expr (w, s->u.let.init);
	  if (w->once[s->u.let.var->id])
	    {
	      w->vars[s->u.let.var->id] = bound_expr (w, s->u.let.init);
	      w->defn[s->u.let.var->id] = s->u.let.init;
	    }
	}
      break;
    case FLAT_S_SET:
      visit_expr (w, s->u.set.value);
      if (w->once[s->u.set.var->id])
	{
	  w->vars[s->u.set.var->id] = bound_expr (w, s->u.set.value);
	  w->defn[s->u.set.var->id] = s->u.set.value;
	}
      break;
    case FLAT_S_STORE:
      visit_expr (w, s->u.store.index);
      visit_expr (w, s->u.store.value);
      note_access (w, s->u.store.mem, s->u.store.index, 1);
      break;
    case FLAT_S_IF:
      visit_expr (w, s->u.if_.cond);
      if (assume (w, s->u.if_.cond))
	walk_block (w, &s->u.if_.then_b);
      undo_to (w, height);
      if (assume_not (w, s->u.if_.cond))
	walk_block (w, &s->u.if_.else_b);
      undo_to (w, height);
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      walk_range_body (w, &s->u.loop.range, &s->u.loop.body);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      /* In the body an accumulator holds a partial or a prefix, after it
	 the result: from here on it is not its value on entry.  */
      for (int k = 0; k < s->u.red.n_accs; k++)
	w->vars[s->u.red.accs[k].var->id] =
	  unknown ("it uses the accumulator", s->u.red.accs[k].var->source);
      walk_range_body (w, &s->u.red.range, &s->u.red.body);
      break;
    case FLAT_S_WHILE:
      visit_expr (w, s->u.while_.cond);
      walk_block (w, &s->u.while_.body);
      break;
    case FLAT_S_BREAK:
    case FLAT_S_LAUNCH:
    case FLAT_S_GUARD:
    case FLAT_S_HOST:
    case FLAT_S_SWITCH:		/* lowered before any pass (switches.c) */
      break;
    }
}

static void
walk_block (walker *w, const flat_block *b)
{
  for (const flat_stmt *s = b->first; s && !w->failed; s = s->next)
    walk_stmt (w, s);
}

/* ---- Setup -------------------------------------------------------------- */

/* Count the definitions of each var in B: DEFS[id] per let or set,
   INITS[id] per let with an initialiser.  */
static void
count_defs (const flat_block *b, int *defs, int *inits)
{
  for (const flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_LET:
	defs[s->u.let.var->id]++;
	inits[s->u.let.var->id] += s->u.let.init != NULL;
	break;
      case FLAT_S_SET:
	defs[s->u.set.var->id]++;
	break;
      case FLAT_S_IF:
	count_defs (&s->u.if_.then_b, defs, inits);
	count_defs (&s->u.if_.else_b, defs, inits);
	break;
      case FLAT_S_LOOP:
      case FLAT_S_MAP:
	count_defs (&s->u.loop.body, defs, inits);
	break;
      case FLAT_S_REDUCE:
      case FLAT_S_SCAN:
	count_defs (&s->u.red.body, defs, inits);
	break;
      case FLAT_S_WHILE:
	count_defs (&s->u.while_.body, defs, inits);
	break;
      case FLAT_S_STORE:
      case FLAT_S_BREAK:
      case FLAT_S_LAUNCH:
      case FLAT_S_GUARD:
      case FLAT_S_HOST:
      case FLAT_S_SWITCH:	/* lowered before any pass (switches.c) */
	break;
      }
}

/* The initial bound of V: params and accs (their values on entry) are
   points (any value in the compile-time walk), locals and indices get
   theirs when declared.  */
static bound
initial_bound (const walker *w, const flat_var *v)
{
  switch (v->kind)
    {
    case FLAT_VAR_PARAM:
    case FLAT_VAR_ACC:
      if (flat_type_table[v->type].is_float)
	return unknown ("it uses the floating-point param", v->source);
      {
	int64_t x = w->env
	  ? flat_value_normalize (v->type, w->env[v->id]).i : 0;
	if (!flat_type_table[v->type].is_signed && x < 0)
	  return unknown ("it uses the huge param", v->source);
	return make (w, v->type, x, x, 0);
      }
    case FLAT_VAR_LOCAL:
      return unknown ("it uses a local that is not defined once:", v->source);
    default:
      return unknown ("it uses", v->source);
    }
}

/* The walk shared by both entry points; 0 or -1.  */
static int
walk_nest (walker *w)
{
  const flat_nest *nest = w->nest;
  size_t n = nest->n_vars > 0 ? (size_t) nest->n_vars : 1;
  w->vars = calloc (n, sizeof *w->vars);
  w->once = calloc (n, sizeof *w->once);
  w->defn = calloc (n, sizeof *w->defn);
  int *defs = calloc (n, sizeof *defs), *inits = calloc (n, sizeof *inits);
  if (!w->env)
    w->unbounded = calloc (n, 1);
  int r = -1;
  if (!w->vars || !w->once || !w->defn || !defs || !inits
      || (!w->env && !w->unbounded))
    snprintf (w->msg, w->msg_size, "0: out of memory");
  else
    {
      count_defs (&nest->body, defs, inits);
      for (int k = 0; k < nest->n_vars; k++)
	{
	  const flat_var *v = nest->vars[k];
	  /* Defined once: by its declaration, or by the one assignment
	     after a declaration without value (`int k; ... k = i * m +
	     j;', a private scalar).  */
	  w->once[k] = v->kind == FLAT_VAR_LOCAL
	    && ((defs[k] == 1 && inits[k] == 1)
		|| (defs[k] == 2 && inits[k] == 0));
	  w->vars[k] = initial_bound (w, v);
	}
      walk_block (w, &nest->body);
      if (w->unbounded_out)
	memcpy (w->unbounded_out, w->unbounded, (size_t) nest->n_vars);
      if (w->n_unbounded > 0)
	{
	  name_unbounded (w);
	  w->failed = 1;
	}
      r = w->failed ? -1 : 0;
    }
  free (w->unbounded);
  free (w->vars);
  free (w->once);
  free (w->defn);
  free (w->undo);
  free (defs);
  free (inits);
  return r;
}

/* The interval [LO, LO + LEN) of a clause of MEM, empty if LEN is not
   positive; -1 (MSG set) if it cannot be evaluated or leaves int64.  */
static int
clause_interval (const flat_var *mem, const flat_expr *lo_e,
		 const flat_expr *len_e, const flat_value *env,
		 flat_interval *out, char *msg, size_t msg_size)
{
  int ok = 1;
  flat_value lo = flat_eval_expr (lo_e, env, &ok);
  flat_value len = flat_eval_expr (len_e, env, &ok);
  /* Canonical values are the numbers themselves, but for u64 ones beyond
     INT64_MAX.  */
  int64_t l = lo.i, n = len.i, hi = 0;
  int huge = (!flat_type_table[lo_e->type].is_signed && l < 0)
    || (!flat_type_table[len_e->type].is_signed && n < 0);
  if (!ok || huge || (n > 0 && __builtin_add_overflow (l, n - 1, &hi)))
    {
      snprintf (msg, msg_size, "the data clause of '%s' cannot be "
		"evaluated", mem->source);
      return -1;
    }
  *out = n > 0 ? (flat_interval) { l, hi } : (flat_interval) { 0, -1 };
  return 0;
}

/* The extent a data clause gives MEM: [lo, lo+len) for the accesses that
   var->access says; of a row table, those rows, and the columns of its
   last section; of a table of tables of rows, the rows of each table of
   its middle one (none of any if another is empty).  */
static int
clause_extent (const flat_var *mem, const flat_value *env, flat_extent *out,
	       char *msg, size_t msg_size)
{
  flat_interval whole, cols = { 0, -1 }, mids = { 0, -1 };
  if (clause_interval (mem, mem->extent_lo, mem->extent_len, env, &whole,
		       msg, msg_size) != 0
      || (mem->extent_col_lo
	  && clause_interval (mem, mem->extent_col_lo, mem->extent_col_len,
			      env, &cols, msg, msg_size) != 0)
      || (mem->extent_mid_lo
	  && clause_interval (mem, mem->extent_mid_lo, mem->extent_mid_len,
			      env, &mids, msg, msg_size) != 0))
    return -1;
  if (mem->extent_col_lo && cols.lo > cols.hi)
    whole = cols;
  if (mem->extent_mid_lo && mids.lo > mids.hi)
    whole = mids;
  if (mem->extent_mid_lo && whole.lo <= whole.hi)
    out->mids = mids;
  if (mem->access & FLAT_ACCESS_READ)
    out->read = whole;
  if (mem->access & FLAT_ACCESS_WRITE)
    out->write = whole;
  if (mem->extent_col_lo && whole.lo <= whole.hi)
    out->cols = cols;
  return 0;
}

/* The range of NEST's outer loop, NULL if its body does not start with
   one.  */
static const flat_range *
outer_range (const flat_nest *nest)
{
  const flat_stmt *s = nest->body.first;
  if (!s)
    return NULL;
  switch (s->kind)
    {
    case FLAT_S_MAP:
    case FLAT_S_LOOP:
      return &s->u.loop.range;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return &s->u.red.range;
    default:
      return NULL;
    }
}

/* flat_extent_eval, or with OUTER the range of the outer loop, only its
   iterations [LO, HI) walked.  */
static int
eval_extents (const flat_nest *nest, const flat_value *env,
	      const flat_range *outer, int64_t lo, int64_t hi,
	      flat_extent *out, char *msg, size_t msg_size)
{
  for (int k = 0; k < nest->n_vars; k++)
    out[k] = (flat_extent) { { 0, -1 }, { 0, -1 }, { 0, -1 }, { 0, -1 } };
  walker w = { .nest = nest, .env = env, .out = out, .msg = msg,
	       .msg_size = msg_size, .outer = outer, .slice_lo = lo,
	       .slice_hi = hi };
  if (walk_nest (&w) != 0)
    return -1;
  for (int k = 0; k < nest->n_params; k++)
    {
      const flat_var *m = nest->params[k];
      if (m->kind == FLAT_VAR_MEM && m->clause != FLAT_DATA_NONE
	  && m->extent_lo && m->extent_len
	  && clause_extent (m, env, &out[m->id], msg, msg_size) != 0)
	return -1;
    }
  return 0;
}

int
flat_extent_eval (const flat_nest *nest, const flat_value *env,
		  flat_extent *out, char *msg, size_t msg_size)
{
  return eval_extents (nest, env, NULL, 0, 0, out, msg, msg_size);
}

int
flat_extent_eval_slice (const flat_nest *nest, const flat_value *env,
			int64_t lo, int64_t hi, flat_extent *out, char *msg,
			size_t msg_size)
{
  const flat_range *outer = outer_range (nest);
  if (!outer)
    {
      snprintf (msg, msg_size, "the nest does not start with a loop");
      return -1;
    }
  return eval_extents (nest, env, outer, lo, hi, out, msg, msg_size);
}

int
flat_extent_check (const flat_nest *nest, int *line, char *msg,
		   size_t msg_size, unsigned char *unbounded)
{
  walker w = { .nest = nest, .fail_line = line, .msg = msg,
	       .msg_size = msg_size, .unbounded_out = unbounded };
  *line = 0;
  return walk_nest (&w);
}
