/* Rule I5, branches by partition (paper 002, the flattening of if by
   partitioning the points by branch): a map whose body branches on a
   condition that varies with the point, one arm holding a loop and the
   other none, e.g. particles of which a few take a long path.

     map i { let v = (load x i);
	     if (gt v 0) { loop k ... { ... } } else { store y[i] = 0 } }

   One work-item per point (G2) makes every warp holding a point of the
   long arm wait for it: with 5 % of the points there, most warps do.
   The partitioned segmap (FLAT_N_SEGMAP_PARTITIONED,
   codegen/segmap_partitioned.c) first sorts the points, those where
   the condition holds first, each part in its order, and runs the map
   over the sorted points: a warp's points take one arm, the long arm's
   points fill warps of their own.  Each arm thus runs as its own map
   over its part, their results stored where the points say, as the
   thesis's rule scatters them back; the arms' inner loops stay
   sequential in their work-items, as in G2.

   The partition evaluates the condition with the body's lets
   substituted, so it must be a function of the point, params and
   memory the nest does not write (flat_expr_of_points); the statements
   before the if may be anything without a loop.  The host cannot see
   how many points take each arm, so the partitioned version is the
   default and the predicated one is guarded by a parallelism of 0
   (flat-tune can take it).  */

#include "rules.h"

static int
find_loop (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_LOOP || s->kind == FLAT_S_WHILE
    || s->kind == FLAT_S_MAP || s->kind == FLAT_S_REDUCE
    || s->kind == FLAT_S_SCAN;
}

static int
has_loop (const flat_block *b)
{
  flat_walker w = { find_loop, NULL, NULL };
  return flat_walk_block (b, &w) != 0;
}

/* The if of B that I5 sorts by, after statements without loops: one of
   whose arms has a loop and the other none; or NULL.  */
static flat_stmt *
partition_if (const flat_block *b)
{
  flat_stmt *s;

  flat_walker w = { find_loop, NULL, NULL };

  for (s = b->first; s && s->kind != FLAT_S_IF; s = s->next)
    if (flat_walk_stmt (s, &w) != 0)
      return NULL;
  if (!s || flat_expr_is_invariant (s->u.if_.cond))
    return NULL;
  return has_loop (&s->u.if_.then_b) != has_loop (&s->u.if_.else_b) ? s
    : NULL;
}

flat_block
flat_rule_i5_partition (flat_flattener *f, const flat_context *ctx,
			const flat_block *b, flat_block predicated)
{
  flat_nest *nest = f->nest;
  flat_stmt *branch = partition_if (b);

  if (!branch || f->strategy != FLAT_STRATEGY_INCREMENTAL || ctx->n == 0)
    return predicated;
  for (int d = 0; d < ctx->n; d++)
    if (!flat_range_is_invariant (&ctx->dims[d]))
      return predicated;
  flat_expr *cond = flat_expr_of_points (nest, ctx, b, branch->u.if_.cond);
  if (!cond)
    return predicated;
  flat_kernel *k = flat_kernel_new (nest, FLAT_N_SEGMAP_PARTITIONED, ctx->n,
				    0);
  for (int d = 0; d < ctx->n; d++)
    k->dims[d] = ctx->dims[d];
  k->body = flat_block_concat (nest, b, NULL);
  k->partition = cond;
  return flat_plan_guard (nest, FLAT_GUARD_TOP,
			  flat_e_const_int (nest, FLAT_T_I64, 0), predicated,
			  flat_plan_launch (nest, k));
}
