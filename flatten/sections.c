/* Pass `sections`: array-section accumulators (SPEC 2.2, `reduce(OP:
   a[lo:len])`) become what the rest of the pipeline knows, so that no
   reduce has one afterwards.  The body may touch A only by updates
   `a[e] = a[e] OP v` (sections.h), v not reading A; anything else
   rejects the nest at its line.  Then, in this order:

   1. Rule G4 (rule_g4.c), the vectorised form: every iteration updates
      a[j + c] for all j of an inner map.  The reduce becomes a map over
      j of scalar reductions: a segmented reduction, as exact and as
      deterministic as any other.

   2. Atomic updates, the histogram form, for the accumulators whose
      operator gives the same result in any order on their type: integer
      types of 4 or 8 bytes (every builtin operator wraps or is bitwise
      there).  Each update becomes `atomic OP a[e] = v` and the reduce a
      map (or a reduce of its scalar accumulators).  Floats are left out
      on purpose: a sum in a different order rounds differently, and
      even min and max would tell -0.0 from +0.0 by order.

   3. Per element, for the others (floats, 1- and 2-byte types): a map
      over the section's elements b of a reduce over the iterations
      whose updates count only where e == b.  Exact and deterministic,
      but it reads the input once per element: O(n len) work, which is
      fine for the small sections of float histograms (K-means sums) and
      slow for big ones.  Each such accumulator gets a map of its own,
      so the body may have no other effects.  */

#include <string.h>

#include "sections.h"

typedef struct sections
{
  flat_nest *nest;
  flat_stmt *reduce;		/* the reduce being lowered */
  flat_var **t;			/* by accumulator: the scalar for a[e] */
  flat_section_update *u;
  int n, cap;
  flat_diag *diag;
} sections;

/* The accumulator of REDUCE that is a section of MEM, or -1.  */
static int
section_of (const flat_stmt *reduce, const flat_var *mem)
{
  for (int k = 0; k < reduce->u.red.n_accs; k++)
    if (reduce->u.red.accs[k].lo && reduce->u.red.accs[k].var == mem)
      return k;
  return -1;
}

static int
reads_section (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  return e->kind == FLAT_E_LOAD && section_of (data, e->u.load.mem) >= 0;
}

/* Whether E reads any section accumulator of REDUCE.  */
static int
mentions_section (flat_expr *e, flat_stmt *reduce)
{
  flat_walker w = { NULL, reads_section, reduce };
  return flat_walk_expr (e, NULL, &w);
}

/* The element a[e] that an update reads: the load of the same element
   as the store writes.  */
typedef struct element
{
  const flat_var *mem;
  const flat_expr *index;
} element;

static int
is_element (const flat_expr *e, const void *data)
{
  const element *el = data;
  return e->kind == FLAT_E_LOAD && e->u.load.mem == el->mem
    && flat_expr_same_value (e->u.load.index, el->index);
}

static int
is_var (const flat_expr *e, const void *data)
{
  return e->kind == FLAT_E_VAR && e->u.var == data;
}

/* The update of accumulator K that store S makes, in U; -1 with the
   reason if S is not one.  */
static int
make_update (sections *c, flat_stmt *s, int k, flat_section_update *u)
{
  const flat_accum *a = &c->reduce->u.red.accs[k];
  element el = { a->var, s->u.store.index };

  u->store = s;
  u->acc = k;
  u->t = c->t[k];
  u->value = flat_e_copy_replace (c->nest, s->u.store.value, is_element, &el,
				  flat_e_var (c->nest, u->t));
  if (mentions_section (s->u.store.index, c->reduce)
      || mentions_section (u->value, c->reduce)
      || !flat_reduction_is_update (u->value, u->t, a->op, NULL))
    {
      const char *op = flat_reduction_op_spelling (a->op);
      flat_diag_set (c->diag, s->line, "the update of array-section "
		     "accumulator '%s' is not '%s[e] = %s[e] %s v' (v not "
		     "reading '%s')", a->var->name, a->var->name,
		     a->var->name, op, a->var->name);
      return -1;
    }
  return 0;
}

static int
collect_stmt (flat_stmt *s, void *data)
{
  sections *c = data;
  if (s->kind != FLAT_S_STORE)
    return 0;
  int k = section_of (c->reduce, s->u.store.mem);
  if (k < 0)
    return 0;
  if (c->n == c->cap)
    {
      flat_section_update *u;
      c->cap = c->cap ? 2 * c->cap : 8;
      u = flat_arena_alloc (c->nest->arena, c->cap * sizeof *u);
      if (c->n)
	memcpy (u, c->u, c->n * sizeof *u);
      c->u = u;
    }
  return make_update (c, s, k, &c->u[c->n++]);
}

static int
collect_expr (flat_expr *e, flat_stmt *s, void *data)
{
  sections *c = data;
  if (s->kind == FLAT_S_STORE && section_of (c->reduce, s->u.store.mem) >= 0)
    return 0;			/* an update, checked whole */
  if (e->kind != FLAT_E_LOAD)
    return 0;
  int k = section_of (c->reduce, e->u.load.mem);
  if (k < 0)
    return 0;
  const flat_accum *a = &c->reduce->u.red.accs[k];
  flat_diag_set (c->diag, s->line, "array-section accumulator '%s' is read "
		 "in the body of the reduction; only '%s[e] = %s[e] %s v' may "
		 "use it", a->var->name, a->var->name, a->var->name,
		 flat_reduction_op_spelling (a->op));
  return -1;
}

/* `if (c) { store a[e] = v }' on a section accumulator is the store
   `a[e] = c ? v : a[e]', which is an update when it computes a min or
   max (`if (v > a[e]) a[e] = v;'): rewrite it so in B and below.  */
static void
conditional_stores (sections *c, flat_block *b)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_IF:
	{
	  flat_stmt *t = s->u.if_.then_b.first;
	  if (t && !t->next && !s->u.if_.else_b.first
	      && t->kind == FLAT_S_STORE && !t->u.store.atomic
	      && section_of (c->reduce, t->u.store.mem) >= 0)
	    {
	      flat_expr *cond = s->u.if_.cond;
	      flat_stmt store = *t;
	      store.next = s->next;
	      store.line = s->line;
	      store.u.store.value = flat_e_select
		(c->nest, cond, t->u.store.value,
		 flat_e_load (c->nest, t->u.store.mem,
			      flat_e_copy (c->nest, t->u.store.index)));
	      *s = store;
	      break;
	    }
	  conditional_stores (c, &s->u.if_.then_b);
	  conditional_stores (c, &s->u.if_.else_b);
	  break;
	}
      case FLAT_S_LOOP:
      case FLAT_S_MAP:
	conditional_stores (c, &s->u.loop.body);
	break;
      case FLAT_S_REDUCE:
      case FLAT_S_SCAN:
	conditional_stores (c, &s->u.red.body);
	break;
      case FLAT_S_WHILE:
	conditional_stores (c, &s->u.while_.body);
	break;
      default:
	break;
      }
}

/* The updates of C->reduce's section accumulators in BLOCK, into C->u.  */
static int
collect (sections *c, flat_block *block)
{
  flat_walker w = { collect_stmt, collect_expr, c };
  c->n = 0;
  conditional_stores (c, block);
  return flat_walk_block (block, &w) ? -1 : 0;
}

/* ---- Atomic updates ------------------------------------------------------ */

static int
atomic_is_exact (const flat_accum *a)
{
  const flat_type_info *t = &flat_type_table[a->var->type];
  return !t->is_float && (t->size == 4 || t->size == 8);
}

/* Update U becomes `atomic OP a[e] = v`, v its value with a[e] at OP's
   identity.  */
static void
make_atomic (flat_nest *nest, const flat_accum *a,
	     const flat_section_update *u)
{
  flat_value id = flat_op_identity (a->op, a->var->type);
  flat_expr *idc = flat_e_const_int (nest, a->var->type, id.i);
  flat_stmt *s = u->store;

  s->u.store.value = flat_e_copy_replace (nest, u->value, is_var, u->t, idc);
  s->u.store.atomic = 1;
  s->u.store.op = a->op;
}

/* REDUCE without its section accumulators; a map if none is left.  */
static void
drop_sections (flat_nest *nest, flat_stmt *reduce)
{
  int n = 0;
  for (int k = 0; k < reduce->u.red.n_accs; k++)
    n += !reduce->u.red.accs[k].lo;
  flat_accum *accs = n ? flat_accums_new (nest, n) : NULL;
  n = 0;
  for (int k = 0; k < reduce->u.red.n_accs; k++)
    if (!reduce->u.red.accs[k].lo)
      accs[n++] = reduce->u.red.accs[k];
  reduce->u.red.n_accs = n;
  reduce->u.red.accs = accs;
  if (n == 0)
    reduce->kind = FLAT_S_MAP;	/* range and body stay where they are */
}

/* ---- Start and end of a scalar reduction of a section's element -------- */

flat_stmt *
flat_section_start (flat_nest *nest, const flat_accum *a, flat_var *acc,
		    int line)
{
  flat_value id = flat_op_identity (a->op, a->var->type);
  flat_stmt *let = flat_s_new (nest, FLAT_S_LET, line);
  let->u.let.var = acc;
  let->u.let.init = flat_type_table[a->var->type].is_float
    ? flat_e_const_float (nest, a->var->type, id.f)
    : flat_e_const_int (nest, a->var->type, id.i);
  return let;
}

flat_stmt *
flat_section_end (flat_nest *nest, const flat_accum *a, flat_expr *index,
		  flat_var *acc, int line)
{
  flat_expr *old = flat_e_load (nest, a->var, flat_e_copy (nest, index));
  flat_expr *v = flat_e_binary (nest, a->op, old, flat_e_var (nest, acc));
  flat_stmt *store = flat_s_new (nest, FLAT_S_STORE, line);
  store->u.store.mem = a->var;
  store->u.store.index = index;
  store->u.store.value = v->type == a->var->type ? v
    : flat_e_cast (nest, a->var->type, v);
  return store;
}

/* ---- Per element --------------------------------------------------------- */

/* What edit_block does to the (not atomic) updates of a block: those of
   accumulator KEEP count where their index is BIN, into ACC; the others
   are dropped (their own map, or their atomic form, makes them).  */
typedef struct per_element
{
  sections *c;
  int keep;
  flat_var *bin, *acc;
} per_element;

/* S, an update in a copy of the body: NULL to drop it, else S turned into
   `if (e == bin) { set acc = V[acc] }`.  */
static flat_stmt *
edit_update (const per_element *pe, flat_stmt *s)
{
  flat_nest *nest = pe->c->nest;
  int k = section_of (pe->c->reduce, s->u.store.mem);
  flat_section_update u;
  if (k != pe->keep || make_update (pe->c, s, k, &u) != 0)
    return NULL;
  flat_stmt *set = flat_s_new (nest, FLAT_S_SET, s->line);
  set->u.set.var = pe->acc;
  set->u.set.value = flat_e_copy_subst (nest, u.value, u.t, pe->acc);
  flat_expr *index = s->u.store.index;
  if (index->type != FLAT_T_I64)
    index = flat_e_cast (nest, FLAT_T_I64, index);
  flat_expr *cond = flat_e_binary (nest, FLAT_OP_EQ, index,
				   flat_e_var (nest, pe->bin));
  s->kind = FLAT_S_IF;
  memset (&s->u, 0, sizeof s->u);
  s->u.if_.cond = cond;
  flat_block_append (&s->u.if_.then_b, set);
  return s;
}

static void
edit_block (const per_element *pe, flat_block *b)
{
  flat_block out = { NULL, NULL };
  flat_stmt *next;
  for (flat_stmt *s = b->first; s; s = next)
    {
      next = s->next;
      s->next = NULL;
      switch (s->kind)
	{
	case FLAT_S_IF:
	  edit_block (pe, &s->u.if_.then_b);
	  edit_block (pe, &s->u.if_.else_b);
	  break;
	case FLAT_S_LOOP:
	case FLAT_S_MAP:
	  edit_block (pe, &s->u.loop.body);
	  break;
	case FLAT_S_REDUCE:
	case FLAT_S_SCAN:
	  edit_block (pe, &s->u.red.body);
	  break;
	case FLAT_S_WHILE:
	  edit_block (pe, &s->u.while_.body);
	  break;
	case FLAT_S_STORE:
	  if (!s->u.store.atomic
	      && section_of (pe->c->reduce, s->u.store.mem) >= 0)
	    s = edit_update (pe, s);
	  break;
	default:
	  break;
	}
      if (s)
	flat_block_append (&out, s);
    }
  *b = out;
}

/* The map over the section of accumulator K:
     map bin = lo .. lo + len { let acc = identity;
       reduce i with (OP acc) { BODY, its updates of a[e] counting into
       acc where e == bin, the others dropped };
       store a[bin] = a[bin] OP acc }  */
static flat_stmt *
per_element_map (sections *c, int k, flat_block body)
{
  flat_nest *nest = c->nest;
  const flat_stmt *reduce = c->reduce;
  const flat_accum *a = &reduce->u.red.accs[k];
  char *name = flat_arena_printf (nest->arena, "%s_bin", a->var->name);
  per_element pe = { c, k, flat_var_new (nest, FLAT_VAR_INDEX, FLAT_T_I64,
					 name),
		     flat_var_new (nest, FLAT_VAR_LOCAL, a->var->type,
				   a->var->name) };
  edit_block (&pe, &body);

  flat_stmt *red = flat_s_new (nest, FLAT_S_REDUCE, reduce->line);
  red->u.red.range = reduce->u.red.range;
  red->u.red.range.lb = flat_e_copy (nest, reduce->u.red.range.lb);
  red->u.red.range.ub = flat_e_copy (nest, reduce->u.red.range.ub);
  red->u.red.range.step = flat_e_copy (nest, reduce->u.red.range.step);
  red->u.red.body = body;
  red->u.red.n_accs = 1;
  red->u.red.accs = flat_accums_new (nest, 1);
  red->u.red.accs[0].op = a->op;
  red->u.red.accs[0].var = pe.acc;

  flat_stmt *map = flat_s_new (nest, FLAT_S_MAP, reduce->line);
  flat_range *r = &map->u.loop.range;
  r->index = pe.bin;
  r->lb = flat_e_copy (nest, a->lo);
  r->ub = flat_e_binary (nest, FLAT_OP_ADD, flat_e_copy (nest, a->lo),
			 flat_e_copy (nest, a->len));
  r->step = flat_e_const_int (nest, FLAT_T_I64, 1);
  flat_block_append (&map->u.loop.body,
		     flat_section_start (nest, a, pe.acc, reduce->line));
  flat_block_append (&map->u.loop.body, red);
  flat_block_append (&map->u.loop.body,
		     flat_section_end (nest, a, flat_e_var (nest, pe.bin),
				       pe.acc, reduce->line));
  return map;
}

static int
other_effect (flat_stmt *s, void *data)
{
  return s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM
    && section_of (data, s->u.store.mem) < 0;
}

/* ---- The pass ------------------------------------------------------------ */

/* Lower C->reduce, the statement after PREV in B (PREV NULL: the first);
   its updates are in C->u.  */
static int
lower (sections *c, flat_block *b, flat_stmt *prev)
{
  flat_stmt *reduce = c->reduce;
  int n_per_element = 0, n_scalar = 0;
  for (int k = 0; k < reduce->u.red.n_accs; k++)
    {
      const flat_accum *a = &reduce->u.red.accs[k];
      n_scalar += !a->lo;
      n_per_element += a->lo && !atomic_is_exact (a);
    }
  if (n_scalar == 0
      && flat_rule_g4_interchange (c->nest, reduce, c->u, c->n) == 0)
    return 0;
  if (n_per_element > 0)
    {
      flat_walker w = { other_effect, NULL, reduce };
      if (n_scalar > 0 || flat_walk_block (&reduce->u.red.body, &w))
	{
	  flat_diag_set (c->diag, reduce->line, "an array-section "
			 "accumulator of a floating-point, 1- or 2-byte type "
			 "is reduced element by element, which needs a loop "
			 "without other effects or scalar accumulators");
	  return -1;
	}
    }
  /* The maps per element copy the body before the atomic forms change
     it, and the last one takes the original if nothing else does.  */
  flat_stmt *maps[64];
  int n_maps = 0, n_atomic = reduce->u.red.n_accs - n_per_element;
  if (n_per_element > (int) (sizeof maps / sizeof maps[0]))
    {
      flat_diag_set (c->diag, reduce->line, "more than %d array-section "
		     "accumulators", (int) (sizeof maps / sizeof maps[0]));
      return -1;
    }
  for (int k = 0; k < reduce->u.red.n_accs; k++)
    {
      const flat_accum *a = &reduce->u.red.accs[k];
      if (!a->lo || atomic_is_exact (a))
	continue;
      int last = n_maps == n_per_element - 1 && n_atomic == 0;
      flat_block body = last ? reduce->u.red.body
	: flat_block_subst (c->nest, &reduce->u.red.body, NULL, NULL);
      maps[n_maps++] = per_element_map (c, k, body);
    }
  for (int i = 0; i < c->n; i++)
    if (atomic_is_exact (&reduce->u.red.accs[c->u[i].acc]))
      make_atomic (c->nest, &reduce->u.red.accs[c->u[i].acc], &c->u[i]);
  /* REDUCE stays if it still does something: atomic updates, scalar
     accumulators.  */
  flat_stmt *after = reduce->next, *first = n_atomic > 0 ? reduce : NULL;
  if (n_atomic > 0 && n_per_element > 0)
    {
      per_element drop = { c, -1, NULL, NULL };
      edit_block (&drop, &reduce->u.red.body);
    }
  if (n_atomic > 0)
    drop_sections (c->nest, reduce);
  flat_stmt *last = first;
  for (int i = 0; i < n_maps; i++)
    {
      if (last)
	last->next = maps[i];
      else
	first = maps[i];
      last = maps[i];
    }
  last->next = after;
  if (prev)
    prev->next = first;
  else
    b->first = first;
  if (!after)
    b->last = last;
  return 0;
}

static int lower_block (sections *c, flat_block *b);

static int
lower_children (sections *c, flat_stmt *s)
{
  switch (s->kind)
    {
    case FLAT_S_IF:
      return lower_block (c, &s->u.if_.then_b)
	|| lower_block (c, &s->u.if_.else_b) ? -1 : 0;
    case FLAT_S_LOOP:
    case FLAT_S_MAP:
      return lower_block (c, &s->u.loop.body);
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return lower_block (c, &s->u.red.body);
    case FLAT_S_WHILE:
      return lower_block (c, &s->u.while_.body);
    default:
      return 0;
    }
}

static int
has_section (const flat_stmt *s)
{
  if (s->kind != FLAT_S_REDUCE)
    return 0;
  for (int k = 0; k < s->u.red.n_accs; k++)
    if (s->u.red.accs[k].lo)
      return 1;
  return 0;
}

static int
lower_block (sections *c, flat_block *b)
{
  flat_stmt *prev = NULL;
  for (flat_stmt *s = b->first; s; prev = s, s = s->next)
    {
      if (lower_children (c, s) != 0)
	return -1;
      if (!has_section (s))
	continue;
      flat_var *t[s->u.red.n_accs];
      for (int k = 0; k < s->u.red.n_accs; k++)
	t[k] = !s->u.red.accs[k].lo ? NULL
	  : flat_var_new (c->nest, FLAT_VAR_LOCAL, s->u.red.accs[k].var->type,
			  s->u.red.accs[k].var->name);
      c->reduce = s;
      c->t = t;
      if (collect (c, &s->u.red.body) != 0)
	return -1;
      for (int k = 0; k < s->u.red.n_accs; k++)
	{
	  int updates = 0;
	  for (int i = 0; i < c->n; i++)
	    updates += c->u[i].acc == k;
	  if (t[k] && updates == 0)
	    {
	      flat_diag_set (c->diag, s->line, "array-section accumulator "
			     "'%s' is not updated in the loop",
			     s->u.red.accs[k].var->name);
	      return -1;
	    }
	}
      flat_stmt *next = s->next;
      if (lower (c, b, prev) != 0)
	return -1;
      /* Go on after what replaced S.  */
      s = prev ? prev->next : b->first;
      while (s->next != next)
	s = s->next;
    }
  return 0;
}

int
flat_pass_sections (flat_nest *nest, flat_strategy strategy,
		    flat_diag *diag)
{
  (void) strategy;
  sections c;
  memset (&c, 0, sizeof c);
  c.nest = nest;
  c.diag = diag;
  return lower_block (&c, &nest->body);
}
