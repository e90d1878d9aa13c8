/* Unit strides of loads in a segment dim and a reduced dim, for the
   lanes stage of segmented reductions (codegen/lanes_protocol.c) and for
   the flattening rules that weigh it (rules_incremental.c).

   The coefficients are found only for the shapes of C's index
   arithmetic on the dims' indices (sums, differences, products with
   expressions that do not mention the index, widening casts); anything
   else, a local variable among them, means not unit-stride.  */

#include "flatten.h"

/* The coefficient of an index variable in an expression.  */
typedef enum stride
{
  STRIDE_ZERO,			/* does not mention it */
  STRIDE_ONE,			/* the variable plus what does not */
  STRIDE_OTHER,			/* linear with another coefficient */
  STRIDE_UNKNOWN		/* not linear, or not known */
} stride;

/* Whether E mentions variable V (a load or a local variable counts as
   mentioning it: its value is not known here).  */
static int
mentions (const flat_expr *e, const flat_var *v)
{
  switch (e->kind)
    {
    case FLAT_E_CONST:
      return 0;
    case FLAT_E_VAR:
      return e->u.var == v || e->u.var->kind == FLAT_VAR_LOCAL;
    case FLAT_E_UNARY:
      return mentions (e->u.op.a, v);
    case FLAT_E_BINARY:
      return mentions (e->u.op.a, v) || mentions (e->u.op.b, v);
    case FLAT_E_CAST:
      return mentions (e->u.cast, v);
    default:
      return 1;
    }
}

static int
is_const_one (const flat_expr *e)
{
  while (e->kind == FLAT_E_CAST)
    e = e->u.cast;
  return e->kind == FLAT_E_CONST && !flat_type_table[e->type].is_float
    && e->u.c.i == 1;
}

/* The coefficient of V in E.  */
static stride
stride_of (const flat_expr *e, const flat_var *v)
{
  stride a, b;

  if (!mentions (e, v))
    return STRIDE_ZERO;
  switch (e->kind)
    {
    case FLAT_E_VAR:
      return e->u.var == v ? STRIDE_ONE : STRIDE_UNKNOWN;
    case FLAT_E_CAST:
      if (flat_type_table[e->type].is_float
	  || flat_type_table[e->u.cast->type].is_float)
	return STRIDE_UNKNOWN;
      return stride_of (e->u.cast, v);
    case FLAT_E_UNARY:
      return e->u.op.op == FLAT_OP_NEG
	&& stride_of (e->u.op.a, v) != STRIDE_UNKNOWN
	? STRIDE_OTHER : STRIDE_UNKNOWN;
    case FLAT_E_BINARY:
      a = stride_of (e->u.op.a, v);
      b = stride_of (e->u.op.b, v);
      if (a == STRIDE_UNKNOWN || b == STRIDE_UNKNOWN)
	return STRIDE_UNKNOWN;
      switch (e->u.op.op)
	{
	case FLAT_OP_ADD:
	  return a == STRIDE_ZERO ? b : b == STRIDE_ZERO ? a : STRIDE_OTHER;
	case FLAT_OP_SUB:
	  return b == STRIDE_ZERO ? a : STRIDE_OTHER;
	case FLAT_OP_MUL:
	  if (a != STRIDE_ZERO && b != STRIDE_ZERO)
	    return STRIDE_UNKNOWN;
	  if (a == STRIDE_ZERO)
	    return b == STRIDE_ONE && is_const_one (e->u.op.a)
	      ? STRIDE_ONE : STRIDE_OTHER;
	  return a == STRIDE_ONE && is_const_one (e->u.op.b)
	    ? STRIDE_ONE : STRIDE_OTHER;
	default:
	  return STRIDE_UNKNOWN;
	}
    default:
      return STRIDE_UNKNOWN;
    }
}

typedef struct lanes
{
  const flat_var *seg;		/* the last segment dim's index */
  const flat_var *inner;	/* the last dim's index */
  int unit;			/* some load is unit-stride in seg, not in
				   inner */
} lanes;

/* Stops on a load that rules the lanes stage out.  */
static int
check_load (flat_expr *e, flat_stmt *s, void *data)
{
  lanes *l = data;
  stride seg;

  (void) s;
  if (e->kind != FLAT_E_LOAD || e->u.load.mem->kind != FLAT_VAR_MEM)
    return 0;
  seg = stride_of (e->u.load.index, l->seg);
  if (seg == STRIDE_ONE && stride_of (e->u.load.index, l->inner) != STRIDE_ONE)
    l->unit = 1;
  return seg != STRIDE_ZERO && seg != STRIDE_ONE;
}

int
flat_lanes_body (const flat_block *body, const flat_range *seg,
		 const flat_var *inner)
{
  lanes l = { seg->index, inner, 0 };
  flat_walker w = { NULL, check_load, &l };

  return is_const_one (seg->step) && !flat_walk_block (body, &w) && l.unit;
}


int
flat_expr_unit_stride (const flat_expr *e, const flat_var *v)
{
  return stride_of (e, v) == STRIDE_ONE;
}
