/* Irregular nested parallelism (paper 002): an inner reduce whose range
   varies with the indices of the maps around it, as a CSR row does.

     map i = 0 .. n { let s = 0;
		      reduce j = (load row i) .. (load row (add i 1))
			with (add s) { set s = (add s (load val j)) };
		      store y[i] = s }

   Regular flattening (G9) needs the inner range invariant; without it
   the reduce ran sequentially in one work-item per row (e_top), so one
   long row held up everything.  The iteration space is an irregular
   array: segment i holds the iterations of row i, and the descriptor of
   the array is its segment sizes and their offsets (the exclusive scan
   of the sizes), from which every flat iteration t finds its segment
   (the last i with offset i <= t) and its inner index (lb_i + (t -
   offset_i) * step).  Rule I1 (rule_g9_segmented, rules_moderate.c)
   makes the reduce a segmented reduction over the flat iterations
   (FLAT_N_SEGRED_IRREGULAR, codegen/segments_irregular.c), whose stages
   compute the descriptor on the device first, and an inner scan a
   segmented scan over them (FLAT_N_SEGSCAN_IRREGULAR,
   codegen/segscan_irregular.c); rule I2 is e_middle, a
   work-group per segment (intra.c), its group sized by the average
   segment; rule I3 makes e_flat the default where the segments come
   from data (rules_incremental.c: the host cannot see their skew); rule
   I6 makes an inner map with such a range an irregular segmap
   (FLAT_N_SEGMAP_IRREGULAR) over the flat iterations with the same
   descriptor (rules_moderate.c).  Rule I4, function lifting, is the
   plugin's (plugin.cc: a helper's marked loops inlined as parsed), rule
   I5, branches by partition, rule_partition.c.  Segments that lie end
   to end (flat_kernel_contiguous: the upper bound is the lower one at
   the next segment, as CSR's are) have their descriptor from the bounds
   themselves where those never decrease, with no scan; so do segments
   whose bounds are affine in the segment index, or the largest
   (lower) and smallest (upper) of a few such pieces
   (flat_kernel_affine: triangles, bands clamped to a matrix), whose
   offsets have a closed form.

   A range is irregular when its bounds are functions of the context's
   indices, params, plan indices, pure lets of the map body before it and
   loads of mems the nest does not write; the lets are substituted, so
   that the host can estimate the parallelism before it picks a version
   (flat_par_irregular_total): for bounds with loads the span from the
   first segment's lower bound to the last one's upper bound (exact for
   CSR, whose segments are contiguous), for affine bounds (triangles,
   bands) the trip count at the middle of the context times the number
   of segments (exact for linear bounds).  */

#include "rules.h"
#include "value.h"

typedef struct bound_check
{
  const flat_context *ctx;
  int loads;
} bound_check;


static int
not_bound (flat_expr *e, flat_stmt *s, void *data)
{
  bound_check *c = data;
  (void) s;
  switch (e->kind)
    {
    case FLAT_E_LOAD:
      c->loads = 1;
      /* Row tables are gathered by the runtime: their host copy is not
	 laid out as the loads index it.  */
      return (e->u.load.mem->access & FLAT_ACCESS_WRITE) != 0
	|| e->u.load.mem->row_width != NULL;
    case FLAT_E_VAR:
      return e->u.var->kind != FLAT_VAR_PARAM && !e->u.var->plan_index
	&& flat_dim_of (c->ctx->dims, c->ctx->n, e->u.var) < 0;
    case FLAT_E_USER:
    case FLAT_E_FIELD:
      return 1;
    default:
      return 0;
    }
}

static int
sets_var (flat_stmt *s, void *data)
{
  return s->kind == FLAT_S_SET && s->u.set.var == data;
}

static int
is_var (const flat_expr *e, const void *v)
{
  return e->kind == FLAT_E_VAR && e->u.var == v;
}

/* E with the lets of PRE substituted (the later first, so that one
   defined by an earlier one is substituted in turn), or NULL if it is
   not a function of CTX's indices, params, plan indices and loads of
   mems the nest does not write.  *LOADS: whether it loads.  */
static flat_expr *
irregular_bound (flat_nest *nest, const flat_context *ctx,
		 const flat_block *pre, const flat_expr *e, int *loads)
{
  flat_stmt *lets[64];
  int n = 0;
  flat_expr *x = flat_e_copy (nest, e);

  for (flat_stmt *s = pre ? pre->first : NULL; s; s = s->next)
    if (s->kind == FLAT_S_LET && s->u.let.init
	&& s->u.let.var->kind == FLAT_VAR_LOCAL && n < 64)
      lets[n++] = s;
  while (n-- > 0)
    {
      flat_var *v = lets[n]->u.let.var;
      flat_walker w = { sets_var, NULL, v };
      if (!flat_walk_block (pre, &w))
	x = flat_e_copy_replace (nest, x, is_var, v, lets[n]->u.let.init);
    }
  bound_check c = { ctx, 0 };
  flat_walker w = { NULL, not_bound, &c };
  if (flat_walk_expr (x, NULL, &w) != 0)
    return NULL;
  *loads |= c.loads;
  return x;
}

flat_expr *
flat_expr_of_points (flat_nest *nest, const flat_context *ctx,
		     const flat_block *pre, const flat_expr *e)
{
  int loads = 0;
  return irregular_bound (nest, ctx, pre, e, &loads);
}

int
flat_expr_of_params (flat_nest *nest, const flat_block *pre,
		     const flat_expr *e)
{
  flat_context none = { .n = 0 };
  int loads = 0;
  return irregular_bound (nest, &none, pre, e, &loads) != NULL && !loads;
}

int
flat_range_regular_in (flat_nest *nest, const flat_block *pre,
		       const flat_range *r, flat_range *out)
{
  flat_context none = { .n = 0 };
  int loads = 0;
  flat_expr *lb = irregular_bound (nest, &none, pre, r->lb, &loads);
  flat_expr *ub = lb ? irregular_bound (nest, &none, pre, r->ub, &loads)
    : NULL;
  if (!ub || loads || !flat_expr_is_invariant (r->step))
    return 0;
  *out = *r;
  out->lb = lb;
  out->ub = ub;
  return 1;
}

int
flat_range_is_irregular (flat_nest *nest, const flat_context *ctx,
			 const flat_block *pre, const flat_range *r)
{
  int loads = 0;
  return ctx->n > 0 && !flat_range_is_invariant (r)
    && r->step->kind == FLAT_E_CONST
    && flat_value_signed (r->step->type, r->step->u.c) > 0
    && !flat_type_table[r->index->type].is_float
    && irregular_bound (nest, ctx, pre, r->lb, &loads)
    && irregular_bound (nest, ctx, pre, r->ub, &loads)
    && flat_par_context (nest, ctx) != NULL;
}

/* E with every index of CTX at its first point (LAST: its last one).  */
static flat_expr *
at_corner (flat_nest *nest, const flat_context *ctx, flat_expr *e, int last)
{
  for (int d = 0; d < ctx->n; d++)
    {
      const flat_range *r = &ctx->dims[d];
      flat_expr *at = flat_e_copy (nest, r->lb);
      if (last)
	{
	  /* lb + (trip - 1) * step, in the index's type.  */
	  flat_expr *k = flat_e_cast (nest, r->lb->type,
				      flat_e_binary (nest, FLAT_OP_SUB,
						     flat_par_trip (nest, r),
						     flat_e_const_int
						     (nest, FLAT_T_I64, 1)));
	  at = flat_e_binary (nest, FLAT_OP_ADD, at,
			      flat_e_binary (nest, FLAT_OP_MUL, k,
					     flat_e_copy (nest, r->step)));
	}
      e = flat_e_copy_replace (nest, e, is_var, r->index, at);
    }
  return e;
}

flat_expr *
flat_par_irregular_total (flat_nest *nest, const flat_context *ctx,
			  const flat_block *pre, const flat_range *r)
{
  int loads = 0;
  flat_expr *lb = irregular_bound (nest, ctx, pre, r->lb, &loads);
  flat_expr *ub = irregular_bound (nest, ctx, pre, r->ub, &loads);
  flat_expr *points = flat_par_context (nest, ctx);
  flat_range span = { r->index, NULL, NULL, r->step };
  if (!lb || !ub || !points)
    return NULL;
  if (!loads)
    {
      span.lb = flat_par_at_middle (nest, ctx, lb);
      span.ub = flat_par_at_middle (nest, ctx, ub);
      return flat_par_product (nest, points, flat_par_trip (nest, &span));
    }
  span.lb = at_corner (nest, ctx, lb, 0);
  span.ub = at_corner (nest, ctx, ub, 1);
  /* The corners are read only when the context has points: the nest
     itself reads them then.  */
  flat_expr *zero = flat_e_const_int (nest, FLAT_T_I64, 0);
  return flat_e_select (nest,
			flat_e_binary (nest, FLAT_OP_GT,
				       flat_e_copy (nest, points), zero),
			flat_par_trip (nest, &span),
			flat_e_const_int (nest, FLAT_T_I64, 0));
}

typedef struct data_ranges
{
  flat_nest *nest;
  const flat_context *ctx;
  const flat_block *body;
  int found;
} data_ranges;

static int
note_data_range (flat_stmt *s, void *data)
{
  data_ranges *d = data;
  int loads = 0;
  if ((s->kind == FLAT_S_MAP || s->kind == FLAT_S_REDUCE
       || s->kind == FLAT_S_SCAN)
      && !flat_range_is_invariant (&s->u.loop.range)
      && irregular_bound (d->nest, d->ctx, d->body, s->u.loop.range.lb,
			  &loads)
      && irregular_bound (d->nest, d->ctx, d->body, s->u.loop.range.ub,
			  &loads))
    d->found |= loads;
  return 0;
}

int
flat_block_has_data_ranges (flat_nest *nest, const flat_context *ctx,
			    const flat_block *b)
{
  data_ranges d = { nest, ctx, b, 0 };
  flat_walker w = { note_data_range, NULL, &d };
  flat_walk_block (b, &w);
  return d.found;
}

flat_expr *
flat_par_irregular_average (flat_nest *nest, const flat_context *ctx,
			    const flat_block *pre, const flat_range *r)
{
  flat_expr *total = flat_par_irregular_total (nest, ctx, pre, r);
  if (!total)
    return NULL;
  flat_expr *points = flat_e_binary (nest, FLAT_OP_MAX,
				     flat_par_context (nest, ctx),
				     flat_e_const_int (nest, FLAT_T_I64, 1));
  return flat_e_binary (nest, FLAT_OP_DIV, total, points);
}

/* ---- Contiguous segments ---------------------------------------------- */

/* Whether E is segment index I, bare or converted.  */
static int
is_index_term (const flat_expr *e, const flat_var *i)
{
  if (e->kind == FLAT_E_CAST)
    e = e->u.cast;
  return e->kind == FLAT_E_VAR && e->u.var == i;
}

/* Whether E is the integer constant STEP.  */
static int
is_step (const flat_expr *e, int64_t step)
{
  return e->kind == FLAT_E_CONST && !flat_type_table[e->type].is_float
    && flat_value_signed (e->type, e->u.c) == step;
}

/* Whether E is (add X STEP).  */
static int
is_advanced (const flat_expr *e, const flat_expr *x, int64_t step)
{
  return e->kind == FLAT_E_BINARY && e->u.op.op == FLAT_OP_ADD
    && e->type == x->type && flat_expr_same (e->u.op.a, x)
    && is_step (e->u.op.b, step);
}

/* Whether HI is LO with segment index I advanced by STEP: every index
   term X of LO (I, or I converted) is (add X STEP) in HI, or I is
   (add I STEP) under the same conversion; the rest is the same.  */
static int
shifted (const flat_expr *hi, const flat_expr *lo, const flat_var *i,
	 int64_t step)
{
  if (is_index_term (lo, i))
    return is_advanced (hi, lo, step)
      || (lo->kind == FLAT_E_CAST && hi->kind == FLAT_E_CAST
	  && hi->type == lo->type
	  && is_advanced (hi->u.cast, lo->u.cast, step));
  if (hi->kind != lo->kind || hi->type != lo->type)
    return 0;
  switch (lo->kind)
    {
    case FLAT_E_UNARY:
      return hi->u.op.op == lo->u.op.op
	&& shifted (hi->u.op.a, lo->u.op.a, i, step);
    case FLAT_E_BINARY:
      return hi->u.op.op == lo->u.op.op
	&& shifted (hi->u.op.a, lo->u.op.a, i, step)
	&& shifted (hi->u.op.b, lo->u.op.b, i, step);
    case FLAT_E_CAST:
      return shifted (hi->u.cast, lo->u.cast, i, step);
    case FLAT_E_LOAD:
      return hi->u.load.mem == lo->u.load.mem
	&& shifted (hi->u.load.index, lo->u.load.index, i, step);
    case FLAT_E_CONST:
    case FLAT_E_VAR:
      return flat_expr_same (hi, lo);
    default:
      return 0;
    }
}

/* Whether the segments of irregular kernel K lie end to end, as CSR
   rows do: one segment dim i of constant step S, an inner range of
   step 1 whose upper bound is its lower bound at i + S (row[i] ..
   row[i + 1]).  Where the bounds also never decrease, the offset of
   segment v is lb(v) - lb(0), and the descriptor needs no scan
   (codegen/segments_irregular.c).  */
int
flat_kernel_contiguous (const flat_kernel *k)
{
  const flat_range *seg, *in;
  const flat_expr *s;

  if (!flat_node_irregular (k->kind) || k->n_segments != 1)
    return 0;
  seg = &k->dims[0];
  in = &k->dims[1];
  s = seg->step;
  if (!s || s->kind != FLAT_E_CONST || flat_type_table[s->type].is_float
      || !in->step || !is_step (in->step, 1))
    return 0;
  return shifted (in->ub, in->lb, seg->index,
		  flat_value_signed (s->type, s->u.c));
}

/* ---- Affine segments -------------------------------------------------- */

/* Whether T is a signed integer type, in which C does not wrap.  */
static int
is_signed_int (flat_type t)
{
  return !flat_type_table[t].is_float && flat_type_table[t].is_signed
    && t != FLAT_T_BOOL;
}

const flat_expr *
flat_pre_let_value (const flat_block *pre, const flat_var *v)
{
  const flat_expr *value = NULL;

  if (v->kind != FLAT_VAR_LOCAL)
    return NULL;
  for (flat_stmt *s = pre->first; s; s = s->next)
    if (s->kind == FLAT_S_LET && s->u.let.var == v)
      value = s->u.let.init;
    else if (s->kind != FLAT_S_LET && flat_stmt_mentions (s, v))
      return NULL;
  return value;
}

/* Whether conversion E narrows its operand.  */
static int
narrowing (const flat_expr *e)
{
  return flat_type_table[e->type].size
    < flat_type_table[e->u.cast->type].size;
}

/* The degree of E in segment index I as a polynomial with constant and
   param coefficients, the lets of PRE substituted: 0 or 1, or -1 where E
   is no such polynomial of degree at most 1 (a load, a division, a
   select, a narrowing or unsigned conversion, another variable).  */
static int
affine_degree (const flat_expr *e, const flat_var *i, const flat_block *pre)
{
  const flat_expr *let;
  int a, b;

  if (!is_signed_int (e->type))
    return -1;
  switch (e->kind)
    {
    case FLAT_E_CONST:
      return 0;
    case FLAT_E_VAR:
      if (e->u.var == i)
	return 1;
      if (e->u.var->kind == FLAT_VAR_PARAM)
	return 0;
      let = flat_pre_let_value (pre, e->u.var);
      return let ? affine_degree (let, i, pre) : -1;
    case FLAT_E_CAST:
      return narrowing (e) ? -1 : affine_degree (e->u.cast, i, pre);
    case FLAT_E_UNARY:
      return e->u.op.op == FLAT_OP_NEG ? affine_degree (e->u.op.a, i, pre)
	: -1;
    case FLAT_E_BINARY:
      a = affine_degree (e->u.op.a, i, pre);
      b = affine_degree (e->u.op.b, i, pre);
      if (a < 0 || b < 0)
	return -1;
      switch (e->u.op.op)
	{
	case FLAT_OP_ADD:
	case FLAT_OP_SUB:
	  return a > b ? a : b;
	case FLAT_OP_MUL:
	  return a + b <= 1 ? a + b : -1;
	default:
	  return -1;
	}
    default:
      return -1;
    }
}

/* Whether E, of a signed integer type, is the larger (LOWER) or the
   smaller (!LOWER) of *A and *B: the op max or min, or a select between
   the two operands of its comparison, as C's `a < b ? a : b' is.  */
static int
min_max_of (const flat_expr *e, int lower, const flat_expr **a,
	    const flat_expr **b)
{
  if (e->kind == FLAT_E_BINARY
      && e->u.op.op == (lower ? FLAT_OP_MAX : FLAT_OP_MIN))
    {
      *a = e->u.op.a;
      *b = e->u.op.b;
      return 1;
    }
  if (e->kind != FLAT_E_SELECT || e->u.select.cond->kind != FLAT_E_BINARY)
    return 0;
  const flat_expr *c = e->u.select.cond;
  const flat_expr *x = e->u.select.a, *y = e->u.select.b;
  int less = c->u.op.op == FLAT_OP_LT || c->u.op.op == FLAT_OP_LE;
  int more = c->u.op.op == FLAT_OP_GT || c->u.op.op == FLAT_OP_GE;
  int same = flat_expr_same (c->u.op.a, x) && flat_expr_same (c->u.op.b, y);
  int swapped = flat_expr_same (c->u.op.a, y)
    && flat_expr_same (c->u.op.b, x);
  int is_min = (less && same) || (more && swapped);
  int is_max = (more && same) || (less && swapped);

  *a = x;
  *b = y;
  return lower ? is_max : is_min;
}

/* The pieces of bound E of a kernel with segment index I and pre block
   PRE into OUT (*N of them so far, at most FLAT_AFFINE_PIECES), each
   with the terms of TERMS added: E is the largest (LOWER) or the
   smallest of them.  0, or -1 where E is no such bound.  */
static int
collect_pieces (const flat_expr *e, const flat_var *i, const flat_block *pre,
		int lower, const flat_affine_piece *terms,
		flat_affine_piece *out, int *n)
{
  flat_affine_piece more = *terms;
  const flat_expr *a, *b, *let;

  if (!is_signed_int (e->type))
    return -1;
  if (affine_degree (e, i, pre) >= 0)
    {
      if (*n == FLAT_AFFINE_PIECES)
	return -1;
      out[*n] = *terms;
      out[(*n)++].base = e;
      return 0;
    }
  switch (e->kind)
    {
    case FLAT_E_VAR:
      let = flat_pre_let_value (pre, e->u.var);
      return let ? collect_pieces (let, i, pre, lower, terms, out, n) : -1;
    case FLAT_E_CAST:
      /* A widening conversion of a signed value keeps its order.  */
      return narrowing (e) ? -1
	: collect_pieces (e->u.cast, i, pre, lower, terms, out, n);
    case FLAT_E_BINARY:
      if (e->u.op.op == FLAT_OP_ADD || e->u.op.op == FLAT_OP_SUB)
	{
	  /* max (x, y) + t is max (x + t, y + t), and so with t
	     subtracted; max (x, y) subtracted is not a max.  */
	  int right = affine_degree (e->u.op.b, i, pre) >= 0;
	  if (more.n_terms == FLAT_AFFINE_TERMS
	      || (!right && (e->u.op.op == FLAT_OP_SUB
			     || affine_degree (e->u.op.a, i, pre) < 0)))
	    return -1;
	  more.terms[more.n_terms] = right ? e->u.op.b : e->u.op.a;
	  more.signs[more.n_terms++] = e->u.op.op == FLAT_OP_SUB ? -1 : 1;
	  return collect_pieces (right ? e->u.op.a : e->u.op.b, i, pre, lower,
				 &more, out, n);
	}
      /* Fall through.  */
    default:
      if (!min_max_of (e, lower, &a, &b)
	  || collect_pieces (a, i, pre, lower, terms, out, n) != 0)
	return -1;
      return collect_pieces (b, i, pre, lower, terms, out, n);
    }
}

int
flat_kernel_affine_pieces (const flat_kernel *k, flat_affine_piece *lower,
			   int *n_lower, flat_affine_piece *upper,
			   int *n_upper)
{
  const flat_range *seg, *in;
  const flat_affine_piece none = { NULL, { NULL }, { 0 }, 0 };

  *n_lower = *n_upper = 0;
  if (!flat_node_irregular (k->kind) || k->n_segments != 1)
    return 0;
  seg = &k->dims[0];
  in = &k->dims[1];
  return is_signed_int (seg->index->type) && in->step && is_step (in->step, 1)
    && collect_pieces (in->lb, seg->index, &k->pre, 1, &none, lower,
		       n_lower) == 0
    && collect_pieces (in->ub, seg->index, &k->pre, 0, &none, upper,
		       n_upper) == 0;
}

int
flat_kernel_affine (const flat_kernel *k)
{
  flat_affine_piece lower[FLAT_AFFINE_PIECES], upper[FLAT_AFFINE_PIECES];
  int n_lower, n_upper;

  return flat_kernel_affine_pieces (k, lower, &n_lower, upper, &n_upper);
}
