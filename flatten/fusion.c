/* Pass `fusion`: vertical fusion of a map that fills a local array with a
   following reduce that consumes it (paper 001's redomap: reduce ⊙ d
   (map f xs) is redomap ⊙ f d xs), so that no intermediate array is
   materialised and the reduction can be flattened like any other (its
   segmented segred needs no array shared by the two loops):

     let t : f32[64]
     map k = 0 .. 64 { store t[k] = (mul (load x k) 2) }
     let s : f32 = 0
     reduce k_1 = 0 .. 64 with (add s) { set s = (add (load t k_1) s) }
       ->
     let s : f32 = 0
     reduce k_1 = 0 .. 64 with (add s) {
       set s = (add (mul (load x k_1) 2) s)
     }

   Conditions, each needed for the meaning to stay the same: the map's
   body is one store of an expression E to the local array at the map's
   index; the array is declared in the same block and used nowhere else
   than in the map and in the reduce, which reads it only at its own
   index; the reduce has the map's range; only lets stand between them
   (nothing E reads can change); E reads nothing the reduce writes.  */

#include "rules.h"

static int
is_var (const flat_expr *e, const flat_var *v)
{
  e = flat_expr_unwiden (e);
  return e->kind == FLAT_E_VAR && e->u.var == v;
}

typedef struct use_check
{
  const flat_var *array;
  const flat_var *index;	/* the only index it may be read at */
  int bad;
} use_check;

static int
check_use (flat_expr *e, flat_stmt *s, void *data)
{
  use_check *u = data;
  (void) s;
  if (e->kind == FLAT_E_LOAD && e->u.load.mem == u->array
      && !is_var (e->u.load.index, u->index))
    u->bad = 1;
  return 0;
}

static int
check_store (flat_stmt *s, void *data)
{
  use_check *u = data;
  if (s->kind == FLAT_S_STORE && s->u.store.mem == u->array)
    u->bad = 1;
  return 0;
}

/* Whether the reduce R reads ARRAY only at its own index, never writes
   it.  */
static int
reads_only_at_index (flat_stmt *r, const flat_var *array)
{
  use_check u = { array, r->u.red.range.index, 0 };
  flat_walker w = { check_store, check_use, &u };
  (void) flat_walk_block (&r->u.red.body, &w);
  return !u.bad;
}

typedef struct mem_sets
{
  flat_var *loaded[64];
  int n_loaded;
  int overflow;
} mem_sets;

static int
note_load (flat_expr *e, flat_stmt *s, void *data)
{
  mem_sets *m = data;
  (void) s;
  if (e->kind == FLAT_E_LOAD)
    {
      if (m->n_loaded == 64)
	m->overflow = 1;
      else
	m->loaded[m->n_loaded++] = e->u.load.mem;
    }
  return 0;
}

static int
stores_one_of (flat_stmt *s, void *data)
{
  const mem_sets *m = data;
  if (s->kind == FLAT_S_STORE)
    for (int i = 0; i < m->n_loaded; i++)
      if (m->loaded[i] == s->u.store.mem)
	return 1;
  return 0;
}

/* Whether E reads a mem or array that the body of R stores to.  */
static int
reads_what_reduce_writes (flat_expr *e, flat_stmt *r)
{
  mem_sets m = { { 0 }, 0, 0 };
  flat_walker loads = { NULL, note_load, &m };
  (void) flat_walk_expr (e, NULL, &loads);
  if (m.overflow)
    return 1;
  flat_walker stores = { stores_one_of, NULL, &m };
  return flat_walk_block (&r->u.red.body, &stores) != 0;
}

static int
same_range (const flat_range *a, const flat_range *b)
{
  return a->index->type == b->index->type && flat_expr_same (a->lb, b->lb)
    && flat_expr_same (a->ub, b->ub) && flat_expr_same (a->step, b->step);
}

typedef struct subst_loads
{
  flat_nest *nest;
  const flat_var *array;
  const flat_expr *value;	/* E, over the map's index */
  const flat_var *from;
  flat_var *to;
} subst_loads;

/* In place: every load of the array in E becomes E's value at the
   reduce's index.  */
static flat_expr *
replace_loads (const subst_loads *su, flat_expr *e)
{
  if (!e)
    return NULL;
  if (e->kind == FLAT_E_LOAD && e->u.load.mem == su->array)
    return flat_e_copy_subst (su->nest, su->value, su->from, su->to);
  switch (e->kind)
    {
    case FLAT_E_UNARY:
    case FLAT_E_BINARY:
      e->u.op.a = replace_loads (su, e->u.op.a);
      e->u.op.b = replace_loads (su, e->u.op.b);
      break;
    case FLAT_E_CAST:
      e->u.cast = replace_loads (su, e->u.cast);
      break;
    case FLAT_E_SELECT:
      e->u.select.cond = replace_loads (su, e->u.select.cond);
      e->u.select.a = replace_loads (su, e->u.select.a);
      e->u.select.b = replace_loads (su, e->u.select.b);
      break;
    case FLAT_E_CALL:
      for (int k = 0; k < 3; k++)
	e->u.call.args[k] = replace_loads (su, e->u.call.args[k]);
      break;
    case FLAT_E_LOAD:
      e->u.load.index = replace_loads (su, e->u.load.index);
      break;
    default:
      break;
    }
  return e;
}

static int
replace_in_stmt (flat_stmt *s, void *data)
{
  const subst_loads *su = data;
  switch (s->kind)
    {
    case FLAT_S_LET:
      s->u.let.init = replace_loads (su, s->u.let.init);
      break;
    case FLAT_S_SET:
      s->u.set.value = replace_loads (su, s->u.set.value);
      break;
    case FLAT_S_STORE:
      s->u.store.index = replace_loads (su, s->u.store.index);
      s->u.store.value = replace_loads (su, s->u.store.value);
      break;
    case FLAT_S_IF:
      s->u.if_.cond = replace_loads (su, s->u.if_.cond);
      break;
    case FLAT_S_WHILE:
      s->u.while_.cond = replace_loads (su, s->u.while_.cond);
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      s->u.loop.range.lb = replace_loads (su, s->u.loop.range.lb);
      s->u.loop.range.ub = replace_loads (su, s->u.loop.range.ub);
      break;
    default:
      break;
    }
  return 0;
}

/* Unlink the statement after PREV (PREV NULL: the first) from B.  */
static void
unlink_after (flat_block *b, flat_stmt *prev)
{
  flat_stmt *s = prev ? prev->next : b->first;
  if (prev)
    prev->next = s->next;
  else
    b->first = s->next;
  if (b->last == s)
    b->last = prev;
}

/* Fuse map M (after statement M_PREV in B) into a following reduce, if
   the conditions hold.  Returns 1 if it did.  */
static int
try_fuse (flat_nest *nest, flat_block *b, flat_stmt *m_prev, flat_stmt *m)
{
  const flat_stmt *st = m->u.loop.body.first;
  if (!st || st->next || st->kind != FLAT_S_STORE
      || st->u.store.mem->kind != FLAT_VAR_LOCAL_ARRAY
      || !is_var (st->u.store.index, m->u.loop.range.index))
    return 0;
  flat_var *array = st->u.store.mem;
  flat_stmt *r = m->next;
  while (r && r->kind == FLAT_S_LET)
    r = r->next;
  if (!r || r->kind != FLAT_S_REDUCE
      || !same_range (&m->u.loop.range, &r->u.red.range)
      || !reads_only_at_index (r, array)
      || reads_what_reduce_writes (st->u.store.value, r))
    return 0;
  /* The array is used by M, by R and by its let only.  */
  flat_stmt *let_prev = NULL, *let = NULL;
  for (flat_stmt *p = NULL, *s = b->first; s; p = s, s = s->next)
    {
      if (s->kind == FLAT_S_LET && s->u.let.var == array)
	{
	  let_prev = p;
	  let = s;
	  continue;
	}
      if (s == m || s == r)
	continue;
      if (flat_stmt_mentions (s, array))
	return 0;
    }
  if (!let)
    return 0;
  subst_loads su = { nest, array, st->u.store.value, m->u.loop.range.index,
		     r->u.red.range.index };
  flat_walker w = { replace_in_stmt, NULL, &su };
  (void) flat_walk_block (&r->u.red.body, &w);
  /* The let comes before the map (its array is in scope there).  */
  unlink_after (b, m_prev);
  unlink_after (b, let_prev);
  return 1;
}

static void fuse_block (flat_nest *nest, flat_block *b);

static void
fuse_children (flat_nest *nest, flat_stmt *s)
{
  switch (s->kind)
    {
    case FLAT_S_IF:
      fuse_block (nest, &s->u.if_.then_b);
      fuse_block (nest, &s->u.if_.else_b);
      break;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      fuse_block (nest, &s->u.loop.body);
      break;
    case FLAT_S_WHILE:
      fuse_block (nest, &s->u.while_.body);
      break;
    default:
      break;
    }
}

static void
fuse_block (flat_nest *nest, flat_block *b)
{
  flat_stmt *prev = NULL;
  for (flat_stmt *s = b->first; s;)
    {
      if (s->kind == FLAT_S_MAP && try_fuse (nest, b, prev, s))
	{
	  /* Start over: the list changed around S.  */
	  prev = NULL;
	  s = b->first;
	  continue;
	}
      fuse_children (nest, s);
      prev = s;
      s = s->next;
    }
}

int
flat_pass_fusion (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  (void) strategy;
  (void) diag;
  for (flat_stmt *s = nest->body.first; s; s = s->next)
    fuse_children (nest, s);
  return 0;
}
