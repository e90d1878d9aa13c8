/* Pass `segmap`: the kernel and plan of a map nest, with all of its
   parallelism at the grid level that can be mapped there directly.

   The outer maps that are perfectly nested and rectangular (no statement
   between them, bounds not depending on an enclosing map's index) become
   the dims of one grid-level segmap; whatever is inside the innermost of
   them runs sequentially in each work-item, inner maps included.

     map i = 0..n { map j = 0..m { B } }
       ->  kernel k0 segmap grid (i = 0..n, j = 0..m) { B }
           plan { launch k0 }

   This is the e_top version of incremental flattening (paper 000, rule
   G1/G2) taken alone; the other versions and their guards are built by
   the flattening rules.  */

#include "flatten.h"

static int
mentions_var (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  return e->kind == FLAT_E_VAR && e->u.var == (const flat_var *) data;
}

static int
range_mentions (flat_range *r, const flat_var *v)
{
  flat_walker w = { NULL, mentions_var, (void *) v };
  return flat_walk_expr (r->lb, NULL, &w) || flat_walk_expr (r->ub, NULL, &w)
    || flat_walk_expr (r->step, NULL, &w);
}

int
flat_pass_segmap (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  flat_stmt *outer = nest->body.first;
  if (!outer || outer->kind != FLAT_S_MAP || outer->next)
    {
      flat_diag_set (diag, nest->line, "internal error: a map nest must "
		     "consist of one map");
      return -1;
    }
  flat_range *dims[16];
  int n = 0;
  flat_stmt *m = outer;
  const flat_block *body = NULL;
  for (;;)
    {
      dims[n++] = &m->u.loop.range;
      body = &m->u.loop.body;
      flat_stmt *inner = body->first;
      if (n == 16 || !inner || inner->next || inner->kind != FLAT_S_MAP)
	break;
      int dependent = 0;
      for (int k = 0; k < n; k++)
	if (range_mentions (&inner->u.loop.range, dims[k]->index))
	  dependent = 1;
      if (dependent)
	break;
      m = inner;
    }
  flat_kernel *k = flat_kernel_new (nest, FLAT_K_SEGMAP, FLAT_LEVEL_GRID, n);
  for (int d = 0; d < n; d++)
    k->dims[d] = *dims[d];
  k->body = *body;
  flat_stmt *launch = flat_s_new (nest, FLAT_S_LAUNCH, nest->line);
  launch->u.launch.kernel = k;
  flat_block_append (&nest->plan, launch);
  return 0;
}
