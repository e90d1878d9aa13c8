/* Rule I5, branches by partition (paper 002, the flattening of if and
   match by partitioning the points by branch): a map whose body
   branches on a condition that varies with the point, some arms of the
   chain of ifs (a switch, lowered by switches.c) holding a loop and
   others none, e.g. particles of which a few take a long path.

     map i { let v = (load x i);
	     if (gt v 0) { loop k ... { ... } } else { store y[i] = 0 } }

   One work-item per point (G2) makes every warp holding a point of the
   long arm wait for it: with 5 % of the points there, most warps do.
   The partitioned segmap (FLAT_N_SEGMAP_PARTITIONED,
   codegen/segmap_partitioned.c) first sorts the points by arm, those of
   the first arm first, each part in its order, and runs the map over
   the sorted points: a warp's points take one arm, the long arm's
   points fill warps of their own.  Each arm thus runs as its own map
   over its part, their results stored where the points say, as the
   thesis's rule scatters them back; the arms' inner loops stay
   sequential in their work-items, as in G2.  Where the arms hold inner
   SOACs, the partitioned version stands beside G3's e_top, under its
   top guard (e_top_versions in rules_incremental.c), the SOACs
   sequential in their work-items as in e_top; the other versions
   split them.

   The partition evaluates the conditions with the body's lets
   substituted, so they must be functions of the point, params and
   memory the nest does not write (flat_expr_of_points), and not on
   params alone (every point would take one arm); the statements before
   the if may be anything without a loop.  The host cannot see
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

/* The arms of the chain of ifs from S (an if whose else block is one
   if goes on with that one), at most FLAT_PARTITION_ARMS: each if's
   condition into CONDS, the arms into ARMS (the last one, the last
   else, holds the rest of a longer chain); returns their number.  */
static int
chain_arms (flat_stmt *s, flat_expr **conds, const flat_block **arms)
{
  int n = 0;

  for (;;)
    {
      const flat_block *e = &s->u.if_.else_b;
      conds[n] = s->u.if_.cond;
      arms[n++] = &s->u.if_.then_b;
      if (n + 1 == FLAT_PARTITION_ARMS || !e->first || e->first != e->last
	  || e->first->kind != FLAT_S_IF)
	{
	  arms[n++] = e;
	  return n;
	}
      s = e->first;
    }
}

/* The if of B, a map's body in NEST, that I5 sorts by, after
   statements without loops: some arms of its chain have a loop and some
   have none, and some condition is not of params alone (a switch on a
   flag sends every point to one arm: nothing to sort); or NULL.
   *N_ARMS, CONDS and ARMS: its chain.  */
static flat_stmt *
partition_if (flat_nest *nest, const flat_block *b, int *n_arms,
	      flat_expr **conds, const flat_block **arms)
{
  flat_stmt *s;
  int loops = 0, varies = 0;

  flat_walker w = { find_loop, NULL, NULL };

  for (s = b->first; s && s->kind != FLAT_S_IF; s = s->next)
    if (flat_walk_stmt (s, &w) != 0)
      return NULL;
  if (!s)
    return NULL;
  *n_arms = chain_arms (s, conds, arms);
  for (int a = 0; a < *n_arms; a++)
    {
      loops += has_loop (arms[a]);
      varies |= a < *n_arms - 1 && !flat_expr_of_params (nest, b, conds[a]);
    }
  return varies && loops > 0 && loops < *n_arms ? s : NULL;
}

int
flat_rule_i5_sorts (flat_nest *nest, const flat_block *b)
{
  flat_expr *conds[FLAT_PARTITION_ARMS];
  const flat_block *arms[FLAT_PARTITION_ARMS];
  int n_arms;
  return partition_if (nest, b, &n_arms, conds, arms) != NULL;
}

flat_block
flat_rule_i5_partition (flat_flattener *f, const flat_context *ctx,
			const flat_block *b, flat_block predicated)
{
  flat_nest *nest = f->nest;
  flat_expr *conds[FLAT_PARTITION_ARMS];
  const flat_block *arms[FLAT_PARTITION_ARMS];
  int n_arms;
  flat_stmt *branch = partition_if (nest, b, &n_arms, conds, arms);

  if (!branch || f->strategy != FLAT_STRATEGY_INCREMENTAL || ctx->n == 0)
    return predicated;
  for (int d = 0; d < ctx->n; d++)
    if (!flat_range_is_invariant (&ctx->dims[d]))
      return predicated;
  /* The arm of a point: the first whose condition holds, else the
     last.  */
  flat_expr *arm = flat_e_const_int (nest, FLAT_T_I32, n_arms - 1);
  for (int a = n_arms - 2; a >= 0; a--)
    {
      flat_expr *cond = flat_expr_of_points (nest, ctx, b, conds[a]);
      if (!cond)
	return predicated;
      arm = flat_e_select (nest, cond, flat_e_const_int (nest, FLAT_T_I32, a),
			   arm);
    }
  flat_kernel *k = flat_kernel_new (nest, FLAT_N_SEGMAP_PARTITIONED, ctx->n,
				    0);
  for (int d = 0; d < ctx->n; d++)
    k->dims[d] = ctx->dims[d];
  k->body = flat_block_concat (nest, b, NULL);
  k->partition = arm;
  k->arms = n_arms;
  return flat_plan_guard (nest, FLAT_GUARD_TOP,
			  flat_e_const_int (nest, FLAT_T_I64, 0), predicated,
			  flat_plan_launch (nest, k));
}
