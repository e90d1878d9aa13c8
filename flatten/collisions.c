/* Pass `collisions`: reject stores that provably collide between the
   iterations of an enclosing map.

   A store inside `map i` must write an element that depends on i: either
   its index depends on i (through locals, loads and loop bounds, computed
   to a fixed point) or the store is guarded by a condition that does.

     map i { store a[0] = x[i] }          -> rejected: does not depend on i
     map i { store a[idx[i]] = x[i] }     -> accepted (data-dependent)
     map i { if (eq i 0) store a[0] = 1 } -> accepted (only one i writes)

   A reduce or scan counts as a map here: its iterations run in parallel
   too, so `reduce i { store a[0] = x[i] }` collides the same way.  Its
   accumulators are scalars (the sets of them propagate dependences like
   any set), not mems.

   Dependences are bit sets over the nest's maps, numbered in order.  */

#include <string.h>
#include <stdlib.h>

#include "flatten.h"

typedef uint64_t deps;
#define ALL_DEPS (~(deps) 0)

typedef struct collisions
{
  flat_nest *nest;
  deps *var_deps;		/* by var id */
  int changed;
  int n_maps;
  const flat_var *map_index[64];
  flat_diag *diag;
} collisions;

static deps
expr_deps (collisions *c, const flat_expr *e)
{
  if (!e)
    return 0;
  switch (e->kind)
    {
    case FLAT_E_VAR:
      return c->var_deps[e->u.var->id];
    case FLAT_E_UNARY:
      return expr_deps (c, e->u.op.a);
    case FLAT_E_BINARY:
      return expr_deps (c, e->u.op.a) | expr_deps (c, e->u.op.b);
    case FLAT_E_CAST:
      return expr_deps (c, e->u.cast);
    case FLAT_E_SELECT:
      return expr_deps (c, e->u.select.cond) | expr_deps (c, e->u.select.a)
	| expr_deps (c, e->u.select.b);
    case FLAT_E_CALL:
      return expr_deps (c, e->u.call.args[0]) | expr_deps (c, e->u.call.args[1])
	| expr_deps (c, e->u.call.args[2]);
    case FLAT_E_LOAD:
      /* A value read from memory may depend on anything.  */
      return ALL_DEPS;
    default:
      return 0;
    }
}

static void
add_deps (collisions *c, const flat_var *v, deps d)
{
  if ((c->var_deps[v->id] | d) != c->var_deps[v->id])
    {
      c->var_deps[v->id] |= d;
      c->changed = 1;
    }
}

static int sweep (collisions *c, const flat_block *b, deps ctrl,
		  deps enclosing, int check);

/* A map, reduce or scan over R with body BODY: R's index gets a bit of
   its own and the body is swept with it among the enclosing ones.  */
static int
sweep_parallel (collisions *c, const flat_range *r, const flat_block *body,
		deps ctrl, deps enclosing, int check)
{
  int m = -1;
  for (int k = 0; k < c->n_maps; k++)
    if (c->map_index[k] == r->index)
      m = k;
  if (m < 0 && c->n_maps < 64)
    {
      m = c->n_maps++;
      c->map_index[m] = r->index;
    }
  deps bit = m >= 0 ? (deps) 1 << m : 0;
  add_deps (c, r->index, bit | expr_deps (c, r->lb) | expr_deps (c, r->ub));
  return sweep (c, body, ctrl, enclosing | bit, check);
}

/* One sweep: propagate dependences into vars (CTRL: those of the
   enclosing conditions); with CHECK, also test every store to a mem
   against ENCLOSING, the maps (reduces, scans) around it.  Returns -1 on
   a collision.  */
static int
sweep (collisions *c, const flat_block *b, deps ctrl, deps enclosing,
       int check)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_LET:
	if (s->u.let.init)
	  add_deps (c, s->u.let.var, ctrl | expr_deps (c, s->u.let.init));
	break;
      case FLAT_S_SET:
	add_deps (c, s->u.set.var, ctrl | expr_deps (c, s->u.set.value));
	break;
      case FLAT_S_STORE:
	if (s->u.store.mem->kind == FLAT_VAR_LOCAL_ARRAY)
	  {
	    /* Treat a local array like a local scalar.  */
	    add_deps (c, s->u.store.mem, ctrl | expr_deps (c, s->u.store.value)
		      | expr_deps (c, s->u.store.index));
	    break;
	  }
	/* Atomic updates of one element by several iterations are what
	   a histogram is made of.  */
	if (check && !s->u.store.atomic)
	  {
	    deps have = ctrl | expr_deps (c, s->u.store.index);
	    deps missing = enclosing & ~have;
	    if (missing)
	      {
		int m = __builtin_ctzll (missing);
		flat_diag_set (c->diag, s->line, "write to '%s' collides "
			       "between iterations: its index does not "
			       "depend on '%s'", s->u.store.mem->source,
			       c->map_index[m]->source);
		return -1;
	      }
	  }
	break;
      case FLAT_S_IF:
	{
	  deps d = ctrl | expr_deps (c, s->u.if_.cond);
	  if (sweep (c, &s->u.if_.then_b, d, enclosing, check)
	      || sweep (c, &s->u.if_.else_b, d, enclosing, check))
	    return -1;
	  break;
	}
      case FLAT_S_WHILE:
	{
	  deps d = ctrl | expr_deps (c, s->u.while_.cond);
	  if (sweep (c, &s->u.while_.body, d, enclosing, check))
	    return -1;
	  break;
	}
      case FLAT_S_LOOP:
	{
	  const flat_range *r = &s->u.loop.range;
	  deps d = ctrl | expr_deps (c, r->lb) | expr_deps (c, r->ub);
	  add_deps (c, r->index, d);
	  if (sweep (c, &s->u.loop.body, d, enclosing, check))
	    return -1;
	  break;
	}
      case FLAT_S_MAP:
	if (sweep_parallel (c, &s->u.loop.range, &s->u.loop.body, ctrl,
			    enclosing, check))
	  return -1;
	break;
      case FLAT_S_REDUCE:
      case FLAT_S_SCAN:
	if (sweep_parallel (c, &s->u.red.range, &s->u.red.body, ctrl,
			    enclosing, check))
	  return -1;
	break;
      default:
	break;
      }
  return 0;
}

int
flat_pass_collisions (flat_nest *nest, flat_strategy strategy,
		      flat_diag *diag)
{
  (void) strategy;
  collisions c;
  memset (&c, 0, sizeof c);
  c.nest = nest;
  c.diag = diag;
  c.var_deps = calloc (nest->n_vars ? nest->n_vars : 1, sizeof (deps));
  if (!c.var_deps)
    {
      flat_diag_set (diag, nest->line, "out of memory");
      return -1;
    }
  for (int i = 0; i < 32; i++)
    {
      c.changed = 0;
      sweep (&c, &nest->body, 0, 0, 0);
      if (!c.changed)
	break;
    }
  int r = sweep (&c, &nest->body, 0, 0, 1);
  free (c.var_deps);
  return r;
}
