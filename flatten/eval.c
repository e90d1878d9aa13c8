/* Evaluation of scalar IR expressions with C's semantics, for everything
   that must know a value before a kernel runs: trip counts of maps and
   loops, sizes of the plan, constant folding, the identities and the
   combining of reduction operators (the runtime's final OP of a
   reduction), and the tests.

   Integer arithmetic is done on 64-bit unsigned bits and wrapped back to
   the result type, so (add 127:i8 1:i8) is -128:i8 and (sub 0:u8 1:u8) is
   255:u8.  What C leaves undefined and a kernel could trap on (division by
   zero, shifts by the width or more, float-to-integer casts out of range)
   gives 0 and clears *ok.  */

/* exp10, of mathfns.def, is a GNU function.  */
#define _GNU_SOURCE

#include "ir.h"
#include "value.h"

#include <math.h>

/* ---- Canonical values (value.h) ---------------------------------------- */

flat_value
flat_value_normalize (flat_type type, flat_value v)
{
  const flat_type_info *t = &flat_type_table[type];
  if (t->is_float)
    {
      if (type == FLAT_T_F32)
	v.f = (float) v.f;
      return v;
    }
  if (type == FLAT_T_BOOL)
    return (flat_value) { .u = v.u != 0 };
  if (t->size == 8)
    return v;
  unsigned bits = 8 * (unsigned) t->size;
  uint64_t mask = ((uint64_t) 1 << bits) - 1;
  uint64_t low = v.u & mask;
  if (t->is_signed && (low >> (bits - 1)))
    low |= ~mask;
  return (flat_value) { .u = low };
}

int64_t
flat_value_signed (flat_type type, flat_value v)
{
  if (flat_type_table[type].is_signed || type == FLAT_T_BOOL)
    return v.i;
  unsigned bits = 8 * (unsigned) flat_type_table[type].size;
  if (bits == 64)
    return v.i;
  uint64_t sign = (uint64_t) 1 << (bits - 1);
  return (int64_t) ((v.u ^ sign) - sign);
}

int
flat_value_fits (flat_type type, int64_t x)
{
  if (!flat_type_table[type].is_signed && x < 0)
    return 0;
  return flat_value_normalize (type, (flat_value) { .i = x }).i == x;
}

/* ---- Math functions ----------------------------------------------------- */

/* The C function behind each flat_math: float variants call the float
   function (sinf, not (float) sin), as the C program would.  Kept as a
   generic function pointer, called through its prototype's type, which
   flat_math_table describes.  */
typedef void (*math_fn) (void);

static const math_fn math_impls[FLAT_N_MATH] = {
#define FLAT_MATH_SIG(E, NAME, ARITY, ARG2) \
  [E##_F64] = (math_fn) NAME, [E##_F32] = (math_fn) NAME##f,
#include "mathfns.def"
#undef FLAT_MATH_SIG
};

/* FN of X, the arguments in the types of flat_math_table[FN].  */
static flat_value
call_math (flat_math fn, const flat_value *x)
{
  const flat_math_info *mi = &flat_math_table[fn];
  math_fn f = math_impls[fn];
  int single = mi->type == FLAT_T_F32;
  double r;

  if (mi->arity == 2 && !flat_type_table[mi->args[1]].is_float)
    r = single ? ((float (*) (float, int)) f) ((float) x[0].f, (int) x[1].i)
      : ((double (*) (double, int)) f) (x[0].f, (int) x[1].i);
  else if (mi->arity == 1)
    r = single ? ((float (*) (float)) f) ((float) x[0].f)
      : ((double (*) (double)) f) (x[0].f);
  else if (mi->arity == 2)
    r = single ? ((float (*) (float, float)) f) ((float) x[0].f,
						 (float) x[1].f)
      : ((double (*) (double, double)) f) (x[0].f, x[1].f);
  else
    r = single ? ((float (*) (float, float, float)) f) ((float) x[0].f,
							(float) x[1].f,
							(float) x[2].f)
      : ((double (*) (double, double, double)) f) (x[0].f, x[1].f, x[2].f);
  return (flat_value) { .f = r };
}

/* ---- Operators ---------------------------------------------------------- */

static flat_value
invalid (int *ok)
{
  *ok = 0;
  return (flat_value) { .i = 0 };
}

/* -1, 0 or 1 as A is below, equal to or above B, both of type T.  */
static int
compare (flat_type t, flat_value a, flat_value b)
{
  if (flat_type_table[t].is_float)
    return (a.f > b.f) - (a.f < b.f);
  if (flat_type_table[t].is_signed)
    return (a.i > b.i) - (a.i < b.i);
  return (a.u > b.u) - (a.u < b.u);
}

static flat_value
eval_float_op (flat_op op, double a, double b, int *ok)
{
  switch (op)
    {
    case FLAT_OP_NEG: return (flat_value) { .f = -a };
    case FLAT_OP_ABS: return (flat_value) { .f = fabs (a) };
    case FLAT_OP_ADD: return (flat_value) { .f = a + b };
    case FLAT_OP_SUB: return (flat_value) { .f = a - b };
    case FLAT_OP_MUL: return (flat_value) { .f = a * b };
    case FLAT_OP_DIV: return (flat_value) { .f = a / b };
    case FLAT_OP_MIN: return (flat_value) { .f = fmin (a, b) };
    case FLAT_OP_MAX: return (flat_value) { .f = fmax (a, b) };
    default: return invalid (ok);
    }
}

/* Integer operator OP on A and B of type T (B of type BT for shifts), in
   64-bit bits, not yet wrapped to T.  */
static flat_value
eval_int_op (flat_op op, flat_type t, flat_value a, flat_value b,
	     flat_type bt, int *ok)
{
  int is_signed = flat_type_table[t].is_signed;
  switch (op)
    {
    case FLAT_OP_NEG: return (flat_value) { .u = -a.u };
    case FLAT_OP_BNOT: return (flat_value) { .u = ~a.u };
    case FLAT_OP_ABS:
      return (flat_value) { .u = is_signed && a.i < 0 ? -a.u : a.u };
    case FLAT_OP_ADD: return (flat_value) { .u = a.u + b.u };
    case FLAT_OP_SUB: return (flat_value) { .u = a.u - b.u };
    case FLAT_OP_MUL: return (flat_value) { .u = a.u * b.u };
    case FLAT_OP_DIV:
    case FLAT_OP_MOD:
      if (b.u == 0)
	return invalid (ok);
      if (!is_signed)
	return (flat_value) { .u = op == FLAT_OP_DIV ? a.u / b.u : a.u % b.u };
      /* INT64_MIN / -1 traps on x86: its wrapped quotient is -a.  */
      if (b.i == -1)
	return (flat_value) { .u = op == FLAT_OP_DIV ? -a.u : 0 };
      return (flat_value) { .i = op == FLAT_OP_DIV ? a.i / b.i : a.i % b.i };
    case FLAT_OP_SHL:
    case FLAT_OP_SHR:
      {
	int64_t count = flat_value_signed (bt, b);
	if (count < 0 || count >= 8 * flat_type_table[t].size)
	  return invalid (ok);
	if (op == FLAT_OP_SHL)
	  return (flat_value) { .u = a.u << count };
	return is_signed ? (flat_value) { .i = a.i >> count }
	  : (flat_value) { .u = a.u >> count };
      }
    case FLAT_OP_BAND: return (flat_value) { .u = a.u & b.u };
    case FLAT_OP_BOR: return (flat_value) { .u = a.u | b.u };
    case FLAT_OP_BXOR: return (flat_value) { .u = a.u ^ b.u };
    case FLAT_OP_MIN: return compare (t, a, b) <= 0 ? a : b;
    case FLAT_OP_MAX: return compare (t, a, b) >= 0 ? a : b;
    default:
      return invalid (ok);
    }
}

/* Comparison OP of A and B of type T; with a NaN only ne holds.  */
static int
comparison_holds (flat_op op, flat_type t, flat_value a, flat_value b)
{
  if (flat_type_table[t].is_float && (isnan (a.f) || isnan (b.f)))
    return op == FLAT_OP_NE;
  int c = compare (t, a, b);
  switch (op)
    {
    case FLAT_OP_LT: return c < 0;
    case FLAT_OP_LE: return c <= 0;
    case FLAT_OP_GT: return c > 0;
    case FLAT_OP_GE: return c >= 0;
    case FLAT_OP_EQ: return c == 0;
    default: return c != 0;
    }
}

/* A of type FROM converted to type TO as a C cast does.  */
static flat_value
convert (flat_type from, flat_type to, flat_value a, int *ok)
{
  const flat_type_info *f = &flat_type_table[from], *t = &flat_type_table[to];
  if (!f->is_float)
    {
      if (!t->is_float)
	return flat_value_normalize (to, a);
      /* Convert directly to the target precision (no double rounding).  */
      if (to == FLAT_T_F32)
	return (flat_value) { .f = f->is_signed ? (float) a.i : (float) a.u };
      return (flat_value) { .f = f->is_signed ? (double) a.i : (double) a.u };
    }
  if (t->is_float)
    return flat_value_normalize (to, a);
  if (to == FLAT_T_BOOL)
    return (flat_value) { .u = a.f != 0 };
  double x = trunc (a.f);
  if (isnan (x))
    return invalid (ok);
  if (t->is_signed)
    {
      if (x < -0x1p63 || x >= 0x1p63
	  || !flat_value_fits (to, (int64_t) x))
	return invalid (ok);
      return (flat_value) { .i = (int64_t) x };
    }
  if (x < 0 || x >= 0x1p64)
    return invalid (ok);
  flat_value r = { .u = (uint64_t) x };
  if (flat_value_normalize (to, r).u != r.u)
    return invalid (ok);
  return r;
}

/* Arithmetic operator OP on A and B of type T (B of type BT for shifts),
   wrapped to T.  */
static flat_value
arithmetic (flat_op op, flat_type t, flat_value a, flat_value b,
	    flat_type bt, int *ok)
{
  if (flat_type_table[t].is_float)
    return flat_value_normalize (t, eval_float_op (op, a.f, b.f, ok));
  return flat_value_normalize (t, eval_int_op (op, t, a, b, bt, ok));
}

/* ---- Reduction operators ------------------------------------------------ */

int
flat_op_is_reduction (flat_op op)
{
  return op < FLAT_N_OPS && flat_reduction_table[op].spelling != NULL;
}

/* Note [Identity of float addition]: the identity of add on f32 and f64
   is -0.0, not +0.0: -0.0 + x is x for every x, while +0.0 + -0.0 is
   +0.0, so a partial started at +0.0 would turn a sum of negative zeros
   (the C loop's answer when s starts at -0.0) into +0.0.  Both compare
   equal to 0.  */
flat_value
flat_op_identity (flat_op op, flat_type type)
{
  const flat_type_info *t = &flat_type_table[type];
  flat_identity id = flat_reduction_table[op].identity;
  if (t->is_float)
    switch (id)
      {
      case FLAT_IDENTITY_NEG_ZERO: return (flat_value) { .f = -0.0 };
      case FLAT_IDENTITY_ONE: return (flat_value) { .f = 1.0 };
      case FLAT_IDENTITY_LARGEST: return (flat_value) { .f = INFINITY };
      case FLAT_IDENTITY_SMALLEST: return (flat_value) { .f = -INFINITY };
      default: return (flat_value) { .f = 0.0 };
      }
  /* All ones is the largest value of an unsigned type (and bool); a
     signed type's is all ones but the sign bit, its smallest the sign
     bit alone.  */
  flat_value ones = flat_value_normalize (type, (flat_value) { .u = ~0ULL });
  uint64_t largest = t->is_signed ? ~0ULL >> (65 - 8 * t->size) : ones.u;
  switch (id)
    {
    case FLAT_IDENTITY_ONE: return (flat_value) { .u = 1 };
    case FLAT_IDENTITY_LARGEST: return (flat_value) { .u = largest };
    case FLAT_IDENTITY_SMALLEST:
      return (flat_value) { .u = t->is_signed ? ~largest : 0 };
    case FLAT_IDENTITY_ONES: return ones;
    default: return (flat_value) { .u = 0 };
    }
}

/* land and lor take C's truth of any type (a NaN is true) and give 0 or
   1 of TYPE; an operator C does not define on TYPE (band on floats) or a
   division by zero gives 0.  */
flat_value
flat_op_apply (flat_op op, flat_type type, flat_value a, flat_value b)
{
  int is_float = flat_type_table[type].is_float;
  if (op == FLAT_OP_LAND || op == FLAT_OP_LOR)
    {
      int x = is_float ? a.f != 0 : a.u != 0;
      int y = is_float ? b.f != 0 : b.u != 0;
      int r = op == FLAT_OP_LAND ? x && y : x || y;
      return is_float ? (flat_value) { .f = r } : (flat_value) { .u = r };
    }
  int ok = 1;
  return arithmetic (op, type, a, b, type, &ok);
}

/* ---- Expressions -------------------------------------------------------- */

static flat_value
eval (const flat_expr *e, const flat_value *env, const flat_loader *loader,
      int *ok)
{
  switch (e->kind)
    {
    case FLAT_E_CONST:
      return e->u.c;
    case FLAT_E_VAR:
      return env[e->u.var->id];
    case FLAT_E_CAST:
      return convert (e->u.cast->type, e->type,
		      eval (e->u.cast, env, loader, ok), ok);
    case FLAT_E_SELECT:
      /* Only the chosen arm is evaluated, as with C's ?:.  */
      if (eval (e->u.select.cond, env, loader, ok).u)
	return eval (e->u.select.a, env, loader, ok);
      return eval (e->u.select.b, env, loader, ok);
    case FLAT_E_CALL:
      {
	flat_value x[3];
	for (int k = 0; k < flat_math_table[e->u.call.fn].arity; k++)
	  x[k] = eval (e->u.call.args[k], env, loader, ok);
	return flat_value_normalize (e->type, call_math (e->u.call.fn, x));
      }
    case FLAT_E_LOAD:
      {
	if (!loader)
	  return invalid (ok);
	flat_value index = eval (e->u.load.index, env, loader, ok);
	flat_value v;
	if (!*ok || loader->load (loader->data, e->u.load.mem,
				  flat_value_signed (e->u.load.index->type,
						     index), &v) != 0)
	  return invalid (ok);
	return flat_value_normalize (e->type, v);
      }
    case FLAT_E_USER:		/* flat_combiner_apply, with its nest */
      return invalid (ok);
    case FLAT_E_FIELD:
      return flat_combiner_field (e->u.field.comb, e->u.field.k,
				  eval (e->u.field.packed, env, loader,
						  ok));
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      break;
    }

  flat_op op = e->u.op.op;
  flat_type t = e->u.op.a->type;
  flat_value a = eval (e->u.op.a, env, loader, ok);
  if (op == FLAT_OP_NOT)
    return (flat_value) { .u = a.u == 0 };
  /* && and || evaluate their right operand only when C would.  */
  if (op == FLAT_OP_LAND || op == FLAT_OP_LOR)
    {
      if ((a.u != 0) == (op == FLAT_OP_LOR))
	return (flat_value) { .u = a.u != 0 };
      return (flat_value) { .u = eval (e->u.op.b, env, loader, ok).u != 0 };
    }
  flat_value b = { .i = 0 };
  flat_type bt = t;
  if (e->kind == FLAT_E_BINARY)
    {
      b = eval (e->u.op.b, env, loader, ok);
      bt = e->u.op.b->type;
    }
  if (flat_op_table[op].kind == 'C')
    return (flat_value) { .u = comparison_holds (op, t, a, b) };
  return arithmetic (op, t, a, b, bt, ok);
}

flat_value
flat_eval_expr (const flat_expr *e, const flat_value *env, int *ok)
{
  return eval (e, env, NULL, ok);
}

flat_value
flat_eval_expr_loading (const flat_expr *e, const flat_value *env,
			const flat_loader *loader, int *ok)
{
  return eval (e, env, loader, ok);
}

/* ---- Trip counts -------------------------------------------------------- */

int64_t
flat_range_trip_count (const flat_range *range, const flat_value *env)
{
  int ok = 1;
  flat_type t = range->index->type;
  flat_value lb = flat_eval_expr (range->lb, env, &ok);
  flat_value ub = flat_eval_expr (range->ub, env, &ok);
  flat_value step = flat_eval_expr (range->step, env, &ok);
  int64_t s = flat_value_signed (range->step->type, step);
  if (!ok || s == 0 || flat_type_table[t].is_float)
    return -1;
  /* Iterations run from FIRST towards LAST (exclusive) by |S|.  */
  flat_value first = s > 0 ? lb : ub, last = s > 0 ? ub : lb;
  if (compare (t, first, last) >= 0)
    return 0;
  /* Both are canonical values of T, so the difference fits in 64 bits.  */
  uint64_t span = last.u - first.u;
  uint64_t stride = s > 0 ? (uint64_t) s : -(uint64_t) s;
  uint64_t count = (span - 1) / stride + 1;
  return count > INT64_MAX ? -1 : (int64_t) count;
}
