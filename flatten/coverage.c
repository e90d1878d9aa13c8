/* Pass `coverage`: which write-only mems the nest writes densely, every
   element of their write extent, so that the runtime need not copy them
   in (a nest copies in only what it reads).  SPEC 2.5 keeps the
   elements a nest does not write; an array the nest provably overwrites
   whole has no such elements.

     map i = 0 .. n { map j = 0 .. m { store c[i*m + j] = ... } }
       ->  mem c : f32 write covered

   A mem is covered when the nest does not read it, has no data clause
   (a clause's range may be wider than the writes), and stores to it
   exactly once: unconditionally, at the top of the innermost body of the
   perfectly nested maps at the nest's root, at an index that walks their
   product without gaps, the row-major linearisation of the maps

     i_1 * W_2 ... + i_k-1 * W_k + i_k (+ an invariant offset)

   in which every inner map runs 0 .. W step 1 with W the very expression
   it is multiplied by, and the outermost runs LB .. UB step 1.  The
   runtime's extent of such an index is exactly the set written.  */

#include "rules.h"

static int
is_const (const flat_expr *e, int64_t v)
{
  return e->kind == FLAT_E_CONST && !flat_type_table[e->type].is_float
    && e->u.c.i == v;
}

static int
is_index (const flat_expr *e, const flat_range *dim)
{
  e = flat_expr_unwiden (e);
  return e->kind == FLAT_E_VAR && e->u.var == dim->index;
}

/* Whether E walks dims [0, K) of DIMS densely (the linearisation above,
   without offset).  */
static int
dense (const flat_expr *e, const flat_range *dims, int k)
{
  const flat_range *inner = &dims[k - 1];
  e = flat_expr_unwiden (e);
  if (k == 1)
    return is_index (e, inner);
  if (e->kind != FLAT_E_BINARY || e->u.op.op != FLAT_OP_ADD
      || !is_const (inner->lb, 0))
    return 0;
  for (int side = 0; side < 2; side++)
    {
      const flat_expr *idx = side ? e->u.op.a : e->u.op.b;
      const flat_expr *rest = flat_expr_unwiden (side ? e->u.op.b : e->u.op.a);
      if (!is_index (idx, inner) || rest->kind != FLAT_E_BINARY
	  || rest->u.op.op != FLAT_OP_MUL)
	continue;
      for (int f = 0; f < 2; f++)
	{
	  const flat_expr *w = flat_expr_unwiden (f ? rest->u.op.a : rest->u.op.b);
	  const flat_expr *outer = f ? rest->u.op.b : rest->u.op.a;
	  if (flat_expr_same (w, flat_expr_unwiden (inner->ub))
	      && dense (outer, dims, k - 1))
	    return 1;
	}
    }
  return 0;
}

/* DENSE with an optional invariant offset added.  */
static int
dense_with_offset (const flat_expr *e, const flat_range *dims, int k)
{
  e = flat_expr_unwiden (e);
  if (dense (e, dims, k))
    return 1;
  if (e->kind != FLAT_E_BINARY || e->u.op.op != FLAT_OP_ADD)
    return 0;
  return (dense (e->u.op.a, dims, k)
	  && flat_expr_is_invariant ((flat_expr *) e->u.op.b))
    || (dense (e->u.op.b, dims, k)
	&& flat_expr_is_invariant ((flat_expr *) e->u.op.a));
}

static int
count_store (flat_stmt *s, void *data)
{
  if (s->kind == FLAT_S_STORE && s->u.store.mem == ((void **) data)[0])
    (*(int *) ((void **) data)[1])++;
  return 0;
}

int
flat_pass_coverage (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  (void) diag;
  flat_range dims[FLAT_MAX_CONTEXT];
  int k = 0;
  const flat_stmt *m = nest->body.first;
  /* The perfectly nested maps at the root, each step 1.  */
  while (m && m->kind == FLAT_S_MAP && k < FLAT_MAX_CONTEXT
	 && is_const (m->u.loop.range.step, 1)
	 && flat_range_is_invariant ((flat_range *) &m->u.loop.range))
    {
      dims[k++] = m->u.loop.range;
      const flat_stmt *inner = m->u.loop.body.first;
      if (!inner || inner->next || inner->kind != FLAT_S_MAP)
	break;
      m = inner;
    }
  if (k == 0 || m->kind != FLAT_S_MAP || m->u.loop.range.index
      != dims[k - 1].index)
    return 0;
  for (const flat_stmt *s = m->u.loop.body.first; s; s = s->next)
    {
      flat_var *mem = s->kind == FLAT_S_STORE ? s->u.store.mem : NULL;
      if (!mem || mem->kind != FLAT_VAR_MEM || mem->access != FLAT_ACCESS_WRITE
	  || mem->clause != FLAT_DATA_NONE
	  || !dense_with_offset (s->u.store.index, dims, k))
	continue;
      int stores = 0;
      void *data[2] = { mem, &stores };
      flat_walker w = { count_store, NULL, data };
      flat_walk_block (&nest->body, &w);
      if (stores == 1)
	mem->access |= FLAT_ACCESS_COVERED;
    }
  return 0;
}
