/* Par(...) of paper 000: the degree of parallelism of a map-nest context
   or of a version, as an i64 expression the runtime evaluates from the
   actual sizes before it picks a version.

     map i = 0 .. n { map j = 0 .. m { ... } }
       Par(i, j) = (mul (max (cast i64 n) 0:i64) (max (cast i64 m) 0:i64))

   Only regular parallelism has a Par: a range whose bounds are
   expressions of params and plan indices (flat_expr_is_invariant).  */

#include "rules.h"

static flat_expr *
to_i64 (flat_nest *nest, flat_expr *e)
{
  e = flat_e_copy (nest, e);
  return e->type == FLAT_T_I64 ? e : flat_e_cast (nest, FLAT_T_I64, e);
}

static int
is_int_const (const flat_expr *e, int64_t v)
{
  return e->kind == FLAT_E_CONST && !flat_type_table[e->type].is_float
    && e->u.c.i == v;
}

/* max ((ub - lb + step - 1) / step, 0) for a positive constant step, and
   max (ub, 0) when lb is 0 and step 1.  */
flat_expr *
flat_par_trip (flat_nest *nest, const flat_range *r)
{
  flat_expr *ub = to_i64 (nest, r->ub);
  flat_expr *n;
  if (is_int_const (r->lb, 0) && is_int_const (r->step, 1))
    n = ub;
  else
    {
      flat_expr *step = to_i64 (nest, r->step);
      flat_expr *span = flat_e_binary (nest, FLAT_OP_SUB, ub,
				       to_i64 (nest, r->lb));
      span = flat_e_binary (nest, FLAT_OP_ADD, span,
			    flat_e_binary (nest, FLAT_OP_SUB, step,
					   flat_e_const_int (nest, FLAT_T_I64,
							     1)));
      n = flat_e_binary (nest, FLAT_OP_DIV, span, to_i64 (nest, r->step));
    }
  return flat_e_binary (nest, FLAT_OP_MAX, n,
			flat_e_const_int (nest, FLAT_T_I64, 0));
}

/* Whether E is X, or a max with X among its operands.  */
static int
has_max_operand (const flat_expr *e, const flat_expr *x)
{
  if (flat_expr_same (e, x))
    return 1;
  return e->kind == FLAT_E_BINARY && e->u.op.op == FLAT_OP_MAX
    && (has_max_operand (e->u.op.a, x) || has_max_operand (e->u.op.b, x));
}

flat_expr *
flat_par_larger (flat_nest *nest, flat_expr *a, flat_expr *b)
{
  if (!a || (b && has_max_operand (b, a)))
    return b;
  if (!b || has_max_operand (a, b))
    return a;
  return flat_e_binary (nest, FLAT_OP_MAX, a, b);
}

flat_expr *
flat_par_product (flat_nest *nest, flat_expr *a, flat_expr *b)
{
  if (!a)
    return b;
  if (!b)
    return a;
  return flat_e_binary (nest, FLAT_OP_MUL, a, b);
}

flat_expr *
flat_par_context (flat_nest *nest, const flat_context *ctx)
{
  flat_expr *p = NULL;
  for (int d = 0; d < ctx->n; d++)
    p = flat_par_product (nest, p, flat_par_trip (nest, &ctx->dims[d]));
  return p ? p : flat_e_const_int (nest, FLAT_T_I64, 1);
}

/* Note [Par of triangular ranges]
   An inner range whose bounds read the indices of enclosing SOACs or
   loops (a triangular `j < i', a band `j <= i + w') has a trip count per
   outer iteration.  For the host guard, whose question is "is there
   enough work for the device", it counts with those indices at the
   middle of their ranges: exact on average where the count is affine in
   them (a triangle of n rows has about n (n / 2) points), where counting
   1 per outer iteration sent a 2000-row triangle to the host.  Bounds
   that read anything else (loads, locals) stay irregular: 1.  */

/* An enclosing map's or loop's range, whose index the ranges inside it
   may read.  */
typedef struct par_outer
{
  const flat_range *range;
  const struct par_outer *up;
} par_outer;

static int
is_index (const flat_expr *e, const void *index)
{
  return e->kind == FLAT_E_VAR && e->u.var == index;
}

flat_expr *
flat_par_at_middle (flat_nest *nest, const flat_context *ctx, flat_expr *e)
{
  /* Inner first: an inner range's middle may name outer indices.  */
  for (int d = ctx->n - 1; d >= 0; d--)
    {
      const flat_range *r = &ctx->dims[d];
      flat_expr *half = flat_e_binary
	(nest, FLAT_OP_DIV,
	 flat_e_binary (nest, FLAT_OP_SUB, flat_e_copy (nest, r->ub),
			flat_e_copy (nest, r->lb)),
	 flat_e_const_int (nest, r->lb->type, 2));
      flat_expr *mid = flat_e_binary (nest, FLAT_OP_ADD,
				      flat_e_copy (nest, r->lb), half);
      e = flat_e_copy_replace (nest, e, is_index, r->index, mid);
    }
  return e;
}

/* OUTER as a context, outer first; 0 if it is deeper than a context.  */
static int
context_of (const par_outer *outer, flat_context *ctx)
{
  int depth = 0;

  for (const par_outer *o = outer; o; o = o->up)
    depth++;
  if (depth > FLAT_MAX_CONTEXT)
    return 0;
  ctx->n = depth;
  for (const par_outer *o = outer; o; o = o->up)
    ctx->dims[--depth] = *o->range;
  return 1;
}

/* The trip count of R inside OUTER (Note [Par of triangular ranges]),
   or NULL if it is irregular.  */
static flat_expr *
trip_in (flat_nest *nest, const flat_range *r, const par_outer *outer)
{
  flat_context ctx;
  flat_range m;

  if (flat_range_is_invariant (r))
    return flat_par_trip (nest, r);
  if (!context_of (outer, &ctx))
    return NULL;
  m.index = r->index;
  m.lb = flat_par_at_middle (nest, &ctx, r->lb);
  m.ub = flat_par_at_middle (nest, &ctx, r->ub);
  m.step = flat_par_at_middle (nest, &ctx, r->step);
  return flat_range_is_invariant (&m) ? flat_par_trip (nest, &m) : NULL;
}

/* The average trip count of irregular range R in block B inside the
   maps OUTER, which run every point (UNCONDITIONAL): the estimate of
   irregular.c, whose loads the nest itself makes at the first and last
   points; NULL if there is none.  Under an if or a loop the nest may
   not evaluate R's bounds at those points, and the estimate would read
   what the nest does not; nor where a map of OUTER is triangular, whose
   first or last points may be empty.  */
static flat_expr *
irregular_trip (flat_nest *nest, const flat_range *r, const flat_block *b,
		const par_outer *outer, int unconditional)
{
  flat_context ctx;

  if (!unconditional || !outer || !context_of (outer, &ctx))
    return NULL;
  for (int d = 0; d < ctx.n; d++)
    if (!flat_range_is_invariant (&ctx.dims[d]))
      return NULL;
  return flat_par_irregular_average (nest, &ctx, b, r);
}

/* flat_par_max of B inside the maps OUTER; UNCONDITIONAL: B runs at
   every point of them.  */
static flat_expr *
par_max_in (flat_nest *nest, const flat_block *b, const par_outer *outer,
	    int unconditional)
{
  flat_expr *best = NULL;
  for (flat_stmt *s = b->first; s; s = s->next)
    {
      flat_expr *p = NULL;
      switch (s->kind)
	{
	case FLAT_S_MAP:
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  {
	    flat_expr *trip = trip_in (nest, &s->u.loop.range, outer);
	    par_outer here = { &s->u.loop.range, outer };

	    if (trip)
	      p = par_max_in (nest, &s->u.loop.body, &here, unconditional);
	    else
	      {
		trip = irregular_trip (nest, &s->u.loop.range, b, outer,
				       unconditional);
		p = par_max_in (nest, &s->u.loop.body, outer, 0);
	      }
	    p = flat_par_product (nest, trip, p);
	  }
	  break;
	case FLAT_S_IF:
	  p = flat_par_larger (nest,
			       par_max_in (nest, &s->u.if_.then_b, outer, 0),
			       par_max_in (nest, &s->u.if_.else_b, outer, 0));
	  break;
	case FLAT_S_LOOP:
	  {
	    par_outer here = { &s->u.loop.range, outer };

	    p = par_max_in (nest, &s->u.loop.body,
			    trip_in (nest, &s->u.loop.range, outer)
			    ? &here : outer, 0);
	  }
	  break;
	case FLAT_S_WHILE:
	  p = par_max_in (nest, &s->u.while_.body, outer, 0);
	  break;
	default:
	  break;
	}
      best = flat_par_larger (nest, best, p);
    }
  return best;
}

/* The largest parallelism of B: over its top-most SOACs, the trip count
   times the parallelism of the body; the trip counts of triangular
   SOACs at the middle of their outer maps, other irregular SOACs count
   1.  */
flat_expr *
flat_par_max (flat_nest *nest, const flat_block *b)
{
  return par_max_in (nest, b, NULL, 1);
}
