/* Pass `accesses`: which mems the nest reads and which it writes.  The
   runtime copies in what is read or partly written and copies out what is
   written; the code generator marks read-only mems const.

     store y[i] = (load x i)   ->   mem x : f32 read,  mem y : f32 write  */

#include "flatten.h"

static int
mark_load (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  (void) data;
  if (e->kind == FLAT_E_LOAD && e->u.load.mem->kind == FLAT_VAR_MEM)
    e->u.load.mem->access |= FLAT_ACCESS_READ;
  return 0;
}

static int
mark_store (flat_stmt *s, void *data)
{
  (void) data;
  if (s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM)
    s->u.store.mem->access |= FLAT_ACCESS_WRITE
      | (s->u.store.atomic ? FLAT_ACCESS_READ : 0);
  return 0;
}

int
flat_pass_accesses (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  (void) diag;
  for (int i = 0; i < nest->n_params; i++)
    nest->params[i]->access = 0;
  flat_walker w = { mark_store, mark_load, NULL };
  flat_walk_block (&nest->body, &w);
  return 0;
}
