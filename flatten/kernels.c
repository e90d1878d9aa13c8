/* Pass `kernels`: the grid-level kernel and the plan of a nest.

   A map nest becomes a segmap, with all of its parallelism at the grid
   level that can be mapped there directly.

   The outer maps that are perfectly nested and rectangular (no statement
   between them, bounds not depending on an enclosing map's index) become
   the dims of one grid-level segmap; whatever is inside the innermost of
   them runs sequentially in each work-item, inner maps included.

     map i = 0..n { map j = 0..m { B } }
       ->  kernel k0 segmap grid (i = 0..n, j = 0..m) { B }
           plan { launch k0 }

   This is the e_top version of incremental flattening (paper 000, rule
   G1/G2) taken alone; the other versions and their guards are built by
   the flattening rules.

   A reduce nest becomes a segred over its range (the body runs on private
   partials; codegen.h gives the two-stage protocol), a scan nest a
   segscan whose contrib block is the body up to its one update, without
   stores:

     scan i with (add a) { let t = x[i]*2; store ex[i] = a; set a = a + t;
                           store in[i] = a }
       ->  kernel k0 segscan (i) with (add a)
             contrib { let t = x[i]*2; set a = a + t }
             body { ...as written... }  */

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

static void
plan_launch (flat_nest *nest, flat_kernel *k)
{
  flat_stmt *launch = flat_s_new (nest, FLAT_S_LAUNCH, nest->line);
  launch->u.launch.kernel = k;
  flat_block_append (&nest->plan, launch);
}

/* A copy of block B without its stores to mems (statements copied,
   expressions shared).  */
static flat_block
without_stores (flat_nest *nest, const flat_block *b)
{
  flat_block out = { NULL, NULL };
  for (const flat_stmt *s = b->first; s; s = s->next)
    {
      if (s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM)
	continue;
      flat_stmt *c = flat_s_new (nest, s->kind, s->line);
      c->u = s->u;
      switch (s->kind)
	{
	case FLAT_S_IF:
	  c->u.if_.then_b = without_stores (nest, &s->u.if_.then_b);
	  c->u.if_.else_b = without_stores (nest, &s->u.if_.else_b);
	  break;
	case FLAT_S_LOOP:
	case FLAT_S_MAP:
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  c->u.loop.body = without_stores (nest, &s->u.loop.body);
	  break;
	case FLAT_S_WHILE:
	  c->u.while_.body = without_stores (nest, &s->u.while_.body);
	  break;
	default:
	  break;
	}
      flat_block_append (&out, c);
    }
  return out;
}

static int
form_segred (flat_nest *nest, flat_stmt *red)
{
  flat_kernel *k = flat_kernel_new (nest, red->kind == FLAT_S_REDUCE
				    ? FLAT_K_SEGRED : FLAT_K_SEGSCAN,
				    FLAT_LEVEL_GRID, 1);
  k->dims[0] = red->u.red.range;
  k->body = red->u.red.body;
  k->n_accs = red->u.red.n_accs;
  k->accs = red->u.red.accs;
  if (red->kind == FLAT_S_SCAN)
    {
      /* The contrib block: the top-level statements through the update
	 (the reductions pass made sure there is exactly one, at the top
	 level).  */
      flat_block prefix = { NULL, NULL };
      const flat_var *acc = k->accs[0].var;
      for (flat_stmt *s = red->u.red.body.first; s; s = s->next)
	{
	  flat_stmt *c = flat_s_new (nest, s->kind, s->line);
	  c->u = s->u;
	  flat_block_append (&prefix, c);
	  if (s->kind == FLAT_S_SET && s->u.set.var == acc)
	    break;
	}
      k->contrib = without_stores (nest, &prefix);
    }
  plan_launch (nest, k);
  return 0;
}

static int
form_segmap (flat_nest *nest, flat_stmt *outer)
{
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
  plan_launch (nest, k);
  return 0;
}

int
flat_pass_kernels (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  flat_stmt *outer = nest->body.first;
  if (!outer || outer->next)
    {
      flat_diag_set (diag, nest->line, "internal error: a nest must consist "
		     "of one marked loop");
      return -1;
    }
  switch (outer->kind)
    {
    case FLAT_S_MAP:
      return form_segmap (nest, outer);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return form_segred (nest, outer);
    default:
      flat_diag_set (diag, nest->line, "internal error: a nest must begin "
		     "with map, reduce or scan");
      return -1;
    }
}
