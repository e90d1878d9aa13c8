/* Pass `coalescing' (rule COALESCED-DIM, coalesced_dim below): which
   dim of a grid segmap consecutive work-items take.

   Note [Coalesced dim]
   ~~~~~~~~~~~~~~~~~~~~
   A grid segmap runs one work-item per point of its dims, linearised;
   by default the last dim varies fastest, C's order of the loops.  A
   global access whose index is unit-stride in the fastest dim's index
   is coalesced: the items of a warp touch consecutive elements.  Code
   written for column-major data (ported from Fortran, or a loop order
   chosen for another machine) indexes its arrays `a[j * R + i]' inside
   `for i { for j }', and every access of a warp then lands in another
   row.  Lee et al. (paper 004) choose, per nest level, the dimension
   that maps to consecutive threads by scoring the accesses each choice
   coalesces; so does this pass, on the kernel's body:

     - every load and store of a mem scores for each dim whose index it
       is unit-stride in (flat_expr_unit_stride: the index plus what does
       not mention it);
     - an access inside a sequential loop of the body runs once per
       iteration: it weighs LOOP_WEIGHT times more per loop around it
       (the trip counts are not known here; up to three loops count);
     - the dim with the strictly highest score becomes the fastest; ties
       keep the last dim.

   Only the order in which the points are handed out changes: each point
   runs the same body, and a segmap's points are independent (the
   collisions pass proved it), so the results are the same; the dims,
   and dim 0's slices over several devices, are unchanged.  Reductions
   and scans keep C's order, which fixes their combining order.  In the
   text: `kernel k0 segmap grid (i : ..., j : ...) fastest i'.  */

#include "flatten.h"

/* How much more an access inside one more sequential loop weighs, and
   the most loops that count.  */
#define LOOP_WEIGHT 8
#define MAX_LOOPS 3

/* Kernels of more dims keep the last one fastest.  */
#define MAX_SCORED_DIMS 16

typedef struct scores
{
  const flat_kernel *k;
  long long *score;		/* per dim */
  long long weight;		/* of an access at this depth */
  int depth;			/* sequential loops around it */
} scores;

/* Score the access of MEM at INDEX.  */
static void
score_access (scores *sc, const flat_var *mem, const flat_expr *index)
{
  if (mem->kind != FLAT_VAR_MEM)
    return;
  for (int d = 0; d < sc->k->n_dims; d++)
    if (flat_expr_unit_stride (index, sc->k->dims[d].index))
      sc->score[d] += sc->weight;
}

static int
score_load (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  if (e->kind == FLAT_E_LOAD)
    score_access (data, e->u.load.mem, e->u.load.index);
  return 0;
}

static void score_block (scores *sc, const flat_block *b);

/* The loads of E.  */
static void
score_expr (scores *sc, flat_expr *e, flat_stmt *s)
{
  flat_walker w = { NULL, score_load, sc };

  if (e)
    (void) flat_walk_expr (e, s, &w);
}

/* B, the body of a sequential loop around the accesses of SC.  */
static void
score_loop_body (scores *sc, const flat_block *b)
{
  long long saved = sc->weight;

  if (++sc->depth <= MAX_LOOPS)
    sc->weight *= LOOP_WEIGHT;
  score_block (sc, b);
  sc->depth--;
  sc->weight = saved;
}

/* Loop S over range R with body B.  */
static void
score_range_loop (scores *sc, flat_stmt *s, const flat_range *r,
		  const flat_block *b)
{
  score_expr (sc, r->lb, s);
  score_expr (sc, r->ub, s);
  score_loop_body (sc, b);
}

static void
score_stmt (scores *sc, flat_stmt *s)
{
  switch (s->kind)
    {
    case FLAT_S_LET:
      score_expr (sc, s->u.let.init, s);
      break;
    case FLAT_S_SET:
      score_expr (sc, s->u.set.value, s);
      break;
    case FLAT_S_STORE:
      score_access (sc, s->u.store.mem, s->u.store.index);
      score_expr (sc, s->u.store.index, s);
      score_expr (sc, s->u.store.value, s);
      break;
    case FLAT_S_IF:
      score_expr (sc, s->u.if_.cond, s);
      score_block (sc, &s->u.if_.then_b);
      score_block (sc, &s->u.if_.else_b);
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      score_range_loop (sc, s, &s->u.loop.range, &s->u.loop.body);
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      score_range_loop (sc, s, &s->u.red.range, &s->u.red.body);
      break;
    case FLAT_S_WHILE:
      score_expr (sc, s->u.while_.cond, s);
      score_loop_body (sc, &s->u.while_.body);
      break;
    case FLAT_S_SWITCH:
      score_expr (sc, s->u.switch_.value, s);
      for (flat_case *c = s->u.switch_.cases; c; c = c->next)
	score_block (sc, &c->body);
      break;
    default:
      break;
    }
}

static void
score_block (scores *sc, const flat_block *b)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    score_stmt (sc, s);
}

/* Rule COALESCED-DIM: the dim of grid segmap K that consecutive
   work-items take (Note [Coalesced dim]); NULL for the last.  */
static const flat_var *
coalesced_dim (const flat_kernel *k)
{
  long long score[MAX_SCORED_DIMS] = { 0 };
  scores sc = { k, score, 1, 0 };
  int best = k->n_dims - 1;

  if (k->kind != FLAT_N_SEGMAP || k->n_dims < 2 || k->n_dims > MAX_SCORED_DIMS)
    return NULL;
  score_block (&sc, &k->body);
  for (int d = 0; d < k->n_dims - 1; d++)
    if (score[d] > score[best])
      best = d;
  return best == k->n_dims - 1 ? NULL : k->dims[best].index;
}

int
flat_pass_coalescing (flat_nest *nest, flat_strategy strategy,
		      flat_diag *diag)
{
  (void) strategy;
  (void) diag;
  for (int k = 0; k < nest->n_kernels; k++)
    nest->kernels[k]->fastest = coalesced_dim (nest->kernels[k]);
  return 0;
}
