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
   sequential in their work-items as in e_top.

   The partition evaluates the conditions with the body's lets
   substituted, so they must be functions of the point, params and
   memory the nest does not write (flat_expr_of_points), and not on
   params alone (every point would take one arm); the statements before
   the if may be anything without a loop.  The host cannot see
   how many points take each arm, so the partitioned version is the
   default and the predicated one is guarded by a parallelism of 0
   (flat-tune can take it).

   Where the arms hold inner SOACs, their parallelism is flattened too
   (flat_rule_i5_flat_arms, e_flat of such a body, which G6 cannot
   distribute over the if): each arm with SOACs becomes a map of its
   own over all points whose SOACs and loops have empty ranges at the
   points of other arms, and the arms without SOACs one map more, in
   which the others are empty:

     map i { if (gt (load x i) 0) { let s = 0; reduce j = 0 .. m {..};
				     store y[i] = s }
	     else { store y[i] = -1 } }
   =>
     map i { let arm = (gt (load x i) 0); let s = 0;
	     reduce j = 0 .. (select arm m 0) {..};
	     if arm { store y[i] = s } }
     map i { if (gt (load x i) 0) { } else { store y[i] = -1 } }

   each flattened by the rules as any map (the first, its inner range
   now of the data, by the irregular rules I1 to I3: its segments are
   the arm's points, the descriptor's scan of their sizes is the
   thesis's partition, and the flattened reduction runs over the arm's
   iterations alone).  It is e_flat under G3's guards
   (rules_incremental.c), the default only where an arm's own range is
   of the data.  The arm's own lets and sets take their values
   only at its points (a select, which C evaluates lazily, so that a
   load or a division guarded by the condition stays guarded), its
   other statements sit in an if.  The maps are independent: each point
   runs one arm, and the conditions read no memory the nest writes.  */

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

/* The if of B, a map's body in NEST, that I5 partitions by, after
   statements without loops, and some condition of whose chain is not of
   params alone (a switch on a flag sends every point to one arm:
   nothing to sort); or NULL.  To sort (SOACS 0), some arms of the chain
   have a loop and some none; to flatten the arms (SOACS 1), some have a
   SOAC.  *N_ARMS, CONDS and ARMS: its chain.  */
static flat_stmt *
partition_if (flat_nest *nest, const flat_block *b, int soacs, int *n_arms,
	      flat_expr **conds, const flat_block **arms)
{
  flat_stmt *s;
  int loops = 0, with_soacs = 0, varies = 0;

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
      with_soacs += flat_block_has_soac (arms[a]);
      varies |= a < *n_arms - 1 && !flat_expr_of_params (nest, b, conds[a]);
    }
  if (!varies)
    return NULL;
  return (soacs ? with_soacs > 0 : loops > 0 && loops < *n_arms) ? s : NULL;
}

int
flat_rule_i5_sorts (flat_nest *nest, const flat_block *b)
{
  flat_expr *conds[FLAT_PARTITION_ARMS];
  const flat_block *arms[FLAT_PARTITION_ARMS];
  int n_arms;
  return partition_if (nest, b, 0, &n_arms, conds, arms) != NULL;
}

/* The conditions CONDS (the first N_ARMS - 1 of a chain of N_ARMS
   arms) of map body B in context CTX as bool expressions of the point
   (flat_expr_of_points) into OUT: 0, or -1 if some condition is not
   one or a dim of CTX is not invariant.  */
static int
point_conds (flat_nest *nest, const flat_context *ctx, const flat_block *b,
	     int n_arms, flat_expr **conds, flat_expr **out)
{
  for (int d = 0; d < ctx->n; d++)
    if (!flat_range_is_invariant (&ctx->dims[d]))
      return -1;
  for (int a = 0; a < n_arms - 1; a++)
    {
      out[a] = flat_expr_of_points (nest, ctx, b, conds[a]);
      if (!out[a])
	return -1;
      if (out[a]->type != FLAT_T_BOOL)
	out[a] = flat_e_binary (nest, FLAT_OP_NE, out[a],
				flat_e_const_int (nest, out[a]->type, 0));
    }
  return 0;
}

flat_block
flat_rule_i5_partition (flat_flattener *f, const flat_context *ctx,
			const flat_block *b, flat_block predicated)
{
  flat_nest *nest = f->nest;
  flat_expr *conds[FLAT_PARTITION_ARMS];
  const flat_block *arms[FLAT_PARTITION_ARMS];
  int n_arms;
  flat_stmt *branch = partition_if (nest, b, 0, &n_arms, conds, arms);

  if (!branch || f->strategy != FLAT_STRATEGY_INCREMENTAL || ctx->n == 0)
    return predicated;
  flat_expr *pc[FLAT_PARTITION_ARMS];
  if (point_conds (nest, ctx, b, n_arms, conds, pc) != 0)
    return predicated;
  /* The arm of a point: the first whose condition holds, else the
     last.  */
  flat_expr *arm = flat_e_const_int (nest, FLAT_T_I32, n_arms - 1);
  for (int a = n_arms - 2; a >= 0; a--)
    arm = flat_e_select (nest, pc[a], flat_e_const_int (nest, FLAT_T_I32, a),
			 arm);
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

/* ---- Flattened arms ---------------------------------------------------- */

/* E where the arm's flag ARM holds, else the zero of E's type: C's
   conditional evaluates E only where ARM holds.  */
static flat_expr *
only_in_arm (flat_nest *nest, flat_var *arm, flat_expr *e)
{
  if (e->kind == FLAT_E_CONST)
    return e;
  return flat_e_select (nest, flat_e_var (nest, arm), e,
			flat_e_const_int (nest, e->type, 0));
}

/* Range R with no iterations where ARM does not hold: lb .. ub becomes
   lb' .. (select ARM ub lb'), lb' the lower bound only in the arm.  -1
   if the step is not constant.  */
static int
range_only_in_arm (flat_nest *nest, flat_var *arm, flat_range *r)
{
  if (r->step->kind != FLAT_E_CONST)
    return -1;
  r->lb = only_in_arm (nest, arm, r->lb);
  r->ub = flat_e_select (nest, flat_e_var (nest, arm), r->ub, r->lb);
  return 0;
}

/* The statements of ARM_B with effect only at the points where flag ARM
   holds, appended to OUT: lets and sets take their values there, the
   ranges of loops and SOACs are empty elsewhere, other statements go
   into an if.  -1 where a SOAC sits in an if or a while (a branch
   inside the arm: not flattened here).  */
static int
predicate_arm (flat_nest *nest, flat_var *arm, const flat_block *arm_b,
	       flat_block *out)
{
  for (const flat_stmt *s = arm_b->first; s; s = s->next)
    {
      flat_stmt *c = flat_block_of (nest, s).first;
      switch (s->kind)
	{
	case FLAT_S_LET:
	  if (c->u.let.init)
	    c->u.let.init = only_in_arm (nest, arm, c->u.let.init);
	  break;
	case FLAT_S_SET:
	  c->u.set.value = flat_e_select (nest, flat_e_var (nest, arm),
					  c->u.set.value,
					  flat_e_var (nest, c->u.set.var));
	  break;
	case FLAT_S_LOOP:
	case FLAT_S_MAP:
	  if (range_only_in_arm (nest, arm, &c->u.loop.range) != 0)
	    return -1;
	  break;
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  if (range_only_in_arm (nest, arm, &c->u.red.range) != 0)
	    return -1;
	  break;
	default:
	  {
	    flat_block one = { c, c };
	    if (flat_block_has_soac (&one))
	      return -1;
	    c = flat_s_new (nest, FLAT_S_IF, s->line);
	    c->u.if_.cond = flat_e_var (nest, arm);
	    c->u.if_.then_b = one;
	  }
	}
      flat_block_append (out, c);
    }
  return 0;
}

/* Copies of the statements of B before BRANCH, to run again in each
   arm's map.  */
static flat_block
before_branch (flat_nest *nest, const flat_block *b, const flat_stmt *branch)
{
  flat_block out = { NULL, NULL };
  for (const flat_stmt *s = b->first; s != branch; s = s->next)
    flat_block_append (&out, flat_block_of (nest, s).first);
  return out;
}

/* The chain of ifs of CONDS and ARMS (N_ARMS), the arms with SOACs
   empty, after the statements of B before BRANCH.  */
static flat_block
arms_without_soacs (flat_nest *nest, const flat_block *b,
		    const flat_stmt *branch, int n_arms, flat_expr **conds,
		    const flat_block **arms)
{
  flat_block empty = { NULL, NULL }, out = before_branch (nest, b, branch);
  flat_block chain = flat_block_has_soac (arms[n_arms - 1]) ? empty
    : flat_block_concat (nest, arms[n_arms - 1], NULL);
  for (int a = n_arms - 2; a >= 0; a--)
    {
      flat_stmt *s = flat_s_new (nest, FLAT_S_IF, branch->line);
      s->u.if_.cond = conds[a];
      s->u.if_.then_b = flat_block_has_soac (arms[a]) ? empty
	: flat_block_concat (nest, arms[a], NULL);
      s->u.if_.else_b = chain;
      chain = (flat_block) { s, s };
    }
  if (chain.first)
    flat_block_append (&out, chain.first);
  return out;
}

/* Whether a point takes arm A of a chain of N_ARMS arms, the first
   N_ARMS - 1 with conditions PC: none of those before holds, and its
   own does (the last arm has none).  */
static flat_expr *
arm_condition (flat_nest *nest, int a, int n_arms, flat_expr **pc)
{
  flat_expr *p = a < n_arms - 1 ? pc[a] : NULL;
  for (int c = a - 1; c >= 0; c--)
    {
      flat_expr *not_c = flat_e_unary (nest, FLAT_OP_NOT, pc[c]);
      p = p ? flat_e_binary (nest, FLAT_OP_LAND, not_c, p) : not_c;
    }
  return p;
}

/* A map statement over the last dim of SUB running BODY.  */
static flat_stmt *
map_of (flat_nest *nest, const flat_context *sub, flat_block body, int line)
{
  flat_stmt *m = flat_s_new (nest, FLAT_S_MAP, line);
  m->u.loop.range = sub->dims[sub->n - 1];
  m->u.loop.body = body;
  return m;
}

int
flat_rule_i5_flat_arms (flat_flattener *f, const flat_context *sub,
			const flat_block *b, flat_block *plan)
{
  flat_nest *nest = f->nest;
  flat_expr *conds[FLAT_PARTITION_ARMS];
  const flat_block *arms[FLAT_PARTITION_ARMS];
  int n_arms, saved = nest->n_kernels, soacs = 0;
  flat_stmt *branch = partition_if (nest, b, 1, &n_arms, conds, arms);

  /* The if ends the body, and what comes before it can run again in
     every arm's map: no stores (the first if is the branch, so they
     would be at its level).  */
  if (!branch || branch->next || sub->n == 0)
    return -1;
  for (const flat_stmt *s = b->first; s != branch; s = s->next)
    if (s->kind == FLAT_S_STORE)
      return -1;
  flat_expr *pc[FLAT_PARTITION_ARMS];
  if (point_conds (nest, sub, b, n_arms, conds, pc) != 0)
    return -1;

  flat_context outer = *sub;
  outer.n--;
  flat_block out = { NULL, NULL };
  for (int a = 0; a < n_arms; a++)
    {
      if (!flat_block_has_soac (arms[a]))
	continue;
      soacs++;
      flat_var *flag = flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_BOOL,
				     "arm");
      flat_stmt *let = flat_s_new (nest, FLAT_S_LET, branch->line);
      let->u.let.var = flag;
      let->u.let.init = arm_condition (nest, a, n_arms, pc);
      flat_block body = before_branch (nest, b, branch);
      flat_block_append (&body, let);
      if (predicate_arm (nest, flag, arms[a], &body) != 0)
	{
	  flat_rules_rollback (nest, saved);
	  return -1;
	}
      flat_block mine = flat_rule_map (f, &outer,
				       map_of (nest, sub, body,
					       branch->line));
      out = flat_block_concat (nest, &out, &mine);
    }
  if (soacs < n_arms)
    {
      flat_block rest = flat_rule_map (f, &outer,
				       map_of (nest, sub,
					       arms_without_soacs (nest, b,
								   branch,
								   n_arms,
								   conds,
								   arms),
					       branch->line));
      out = flat_block_concat (nest, &out, &rest);
    }
  *plan = out;
  return 0;
}
