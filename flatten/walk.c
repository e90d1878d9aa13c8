/* One traversal of blocks, statements and expressions, so each analysis
   or rewrite states only what it looks for (accesses.c, reductions.c,
   fusion.c, sections.c, rules_moderate.c, ...).  Reduces and scans are walked like maps: their range, then
   their body (accumulators are variables, not expressions: not visited).  */

#include "flatten.h"

int
flat_walk_expr (flat_expr *e, flat_stmt *s, const flat_walker *w)
{
  if (!e)
    return 0;
  int r = w->expr ? w->expr (e, s, w->data) : 0;
  if (r)
    return r;
  switch (e->kind)
    {
    case FLAT_E_UNARY:
      return flat_walk_expr (e->u.op.a, s, w);
    case FLAT_E_BINARY:
      r = flat_walk_expr (e->u.op.a, s, w);
      return r ? r : flat_walk_expr (e->u.op.b, s, w);
    case FLAT_E_CAST:
      return flat_walk_expr (e->u.cast, s, w);
    case FLAT_E_SELECT:
      r = flat_walk_expr (e->u.select.cond, s, w);
      r = r ? r : flat_walk_expr (e->u.select.a, s, w);
      return r ? r : flat_walk_expr (e->u.select.b, s, w);
    case FLAT_E_CALL:
      for (int i = 0; i < 3 && !r; i++)
	r = flat_walk_expr (e->u.call.args[i], s, w);
      return r;
    case FLAT_E_LOAD:
      return flat_walk_expr (e->u.load.index, s, w);
    case FLAT_E_FIELD:
      return flat_walk_expr (e->u.field.packed, s, w);
    case FLAT_E_USER:
      r = flat_walk_expr (e->u.user.acc, s, w);
      for (int i = 0; i < e->u.user.comb->n_fields && !r; i++)
	r = flat_walk_expr (e->u.user.fields[i], s, w);
      return r;
    default:
      return 0;
    }
}

static int
walk_range (flat_range *r, flat_stmt *s, const flat_walker *w)
{
  int k = flat_walk_expr (r->lb, s, w);
  k = k ? k : flat_walk_expr (r->ub, s, w);
  return k ? k : flat_walk_expr (r->step, s, w);
}

int
flat_walk_stmt (flat_stmt *s, const flat_walker *w)
{
  int r = w->stmt ? w->stmt (s, w->data) : 0;
  if (r)
    return r;
  switch (s->kind)
    {
    case FLAT_S_LET:
      return flat_walk_expr (s->u.let.init, s, w);
    case FLAT_S_SET:
      return flat_walk_expr (s->u.set.value, s, w);
    case FLAT_S_STORE:
      r = flat_walk_expr (s->u.store.index, s, w);
      return r ? r : flat_walk_expr (s->u.store.value, s, w);
    case FLAT_S_IF:
      r = flat_walk_expr (s->u.if_.cond, s, w);
      r = r ? r : flat_walk_block (&s->u.if_.then_b, w);
      return r ? r : flat_walk_block (&s->u.if_.else_b, w);
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      r = walk_range (&s->u.loop.range, s, w);
      return r ? r : flat_walk_block (&s->u.loop.body, w);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      r = walk_range (&s->u.red.range, s, w);
      return r ? r : flat_walk_block (&s->u.red.body, w);
    case FLAT_S_WHILE:
      r = flat_walk_expr (s->u.while_.cond, s, w);
      return r ? r : flat_walk_block (&s->u.while_.body, w);
    case FLAT_S_GUARD:
      r = flat_walk_expr (s->u.guard.par, s, w);
      r = r ? r : flat_walk_block (&s->u.guard.then_b, w);
      return r ? r : flat_walk_block (&s->u.guard.else_b, w);
    default:
      return 0;
    }
}

int
flat_walk_block (const flat_block *block, const flat_walker *w)
{
  for (flat_stmt *s = block->first; s; s = s->next)
    {
      int r = flat_walk_stmt (s, w);
      if (r)
	return r;
    }
  return 0;
}

static int
stores_to (flat_stmt *s, void *data)
{
  return s->kind == FLAT_S_STORE
    && (!data || s->u.store.mem == (const flat_var *) data);
}

static int
loads_from (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  return e->kind == FLAT_E_LOAD && e->u.load.mem == (const flat_var *) data;
}

int
flat_block_stores (const flat_block *b, const flat_var *mem)
{
  flat_walker w = { stores_to, NULL, (void *) mem };
  return flat_walk_block (b, &w);
}

int
flat_stmt_loads (flat_stmt *s, const flat_var *mem)
{
  flat_walker w = { NULL, loads_from, (void *) mem };
  return flat_walk_stmt (s, &w);
}

int
flat_block_loads (const flat_block *b, const flat_var *mem)
{
  flat_walker w = { NULL, loads_from, (void *) mem };
  return flat_walk_block (b, &w);
}

static int
is_var (flat_expr *e, flat_stmt *s, void *v)
{
  (void) s;
  return e->kind == FLAT_E_VAR && e->u.var == (const flat_var *) v;
}

int
flat_expr_mentions (flat_expr *e, const flat_var *v)
{
  flat_walker w = { NULL, is_var, (void *) v };
  return flat_walk_expr (e, NULL, &w);
}

static int
not_invariant (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  (void) data;
  return e->kind == FLAT_E_LOAD
    || (e->kind == FLAT_E_VAR && e->u.var->kind != FLAT_VAR_PARAM
	&& !e->u.var->plan_index);
}

int
flat_expr_is_invariant (flat_expr *e)
{
  flat_walker w = { NULL, not_invariant, NULL };
  return flat_walk_expr (e, NULL, &w) == 0;
}

int
flat_range_is_invariant (const flat_range *r)
{
  return flat_expr_is_invariant (r->lb) && flat_expr_is_invariant (r->ub)
    && flat_expr_is_invariant (r->step);
}

static int
find_soac (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_MAP || s->kind == FLAT_S_REDUCE
    || s->kind == FLAT_S_SCAN;
}

int
flat_block_has_soac (const flat_block *b)
{
  flat_walker w = { find_soac, NULL, NULL };
  return flat_walk_block (b, &w);
}

int
flat_stmt_has_soac (flat_stmt *s)
{
  flat_walker w = { find_soac, NULL, NULL };
  return flat_walk_stmt (s, &w);
}

/* Counts the reads of one variable.  */
typedef struct reads
{
  const flat_var *var;
  int n;
} reads;

static int
count_read (flat_expr *e, flat_stmt *s, void *data)
{
  reads *r = data;

  (void) s;
  if (e->kind == FLAT_E_VAR && e->u.var == r->var)
    r->n++;
  return 0;
}

int
flat_count_reads (const flat_block *b, flat_stmt *s, const flat_var *v)
{
  reads r = { v, 0 };
  flat_walker w = { NULL, count_read, &r };

  if (s)
    flat_walk_stmt (s, &w);
  else
    flat_walk_block (b, &w);
  return r.n;
}
