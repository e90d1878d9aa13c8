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

   3. Per element, for the others (floats, 1- and 2-byte types; and
      then every section of the loop): one map over the elements b of
      the sections of a reduce over the iterations whose updates count
      only where e == lo + b (&& and || on a type other than bool also
      note whether an update fell on the element, which keeps its value
      if none did).  Exact and deterministic, but it reads the
      input once per element: O(n len) work, which is fine for the small
      sections of float histograms (K-means sums) and slow for big ones.
      The body runs once per element, so it may have no other effects
      and no scalar accumulators.  */

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

  /* `a[e] = C': `a[e] = a[e] OP C', as for a scalar (GCC folds
     `h[k] = 0u < h[k] ? 0u : h[k]' into `h[k] = 0u').  */
  flat_expr *constant = flat_reduction_constant_update
    (c->nest, flat_e_load (c->nest, a->var, flat_e_copy (c->nest,
							  s->u.store.index)),
     a->var->type, a->op, s->u.store.value);

  if (constant)
    s->u.store.value = constant;
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
		     "reading '%s')", a->var->source, a->var->source,
		     a->var->source, op, a->var->source);
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
		 "use it", a->var->source, a->var->source, a->var->source,
		 flat_reduction_op_spelling (a->op));
  return -1;
}

static int
is_the_element (flat_expr *e, flat_stmt *s, void *data)
{
  const flat_stmt *store = data;
  element el = { store->u.store.mem, store->u.store.index };
  (void) s;
  return is_element (e, &el);
}

/* Whether COND reads the element STORE writes.  */
static int
reads_element (flat_expr *cond, flat_stmt *store)
{
  flat_walker w = { NULL, is_the_element, store };
  return flat_walk_expr (cond, NULL, &w);
}

/* `if (c) { store a[e] = v }' on a section accumulator is the store
   `a[e] = c ? v : a[e]', which is an update when it computes a min or
   max (`if (v > a[e]) a[e] = v;'): rewrite it so in B and below where c
   reads a[e] (other conditions keep their if around the update).  */
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
	      && section_of (c->reduce, t->u.store.mem) >= 0
	      && reads_element (s->u.if_.cond, t))
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

int
flat_section_reducible (const flat_accum *a)
{
  return (a->op != FLAT_OP_LAND && a->op != FLAT_OP_LOR)
    || a->var->type == FLAT_T_BOOL;
}

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
  flat_expr *v;
  if (a->var->type != FLAT_T_BOOL
      && (a->op == FLAT_OP_LAND || a->op == FLAT_OP_LOR))
    {
      /* The IR's && and || take bools, as C's take any scalar.  */
      flat_expr *zero = flat_e_const_int (nest, a->var->type, 0);
      v = flat_e_binary (nest, a->op,
			 flat_e_binary (nest, FLAT_OP_NE, old, zero),
			 flat_e_binary (nest, FLAT_OP_NE, flat_e_var (nest, acc),
					flat_e_copy (nest, zero)));
    }
  else
    v = flat_e_binary (nest, a->op, old, flat_e_var (nest, acc));
  if (v->type != a->var->type)
    v = flat_e_cast (nest, a->var->type, v);
  flat_stmt *store = flat_s_new (nest, FLAT_S_STORE, line);
  store->u.store.mem = a->var;
  store->u.store.index = index;
  store->u.store.value = v;
  return store;
}

/* ---- Per element --------------------------------------------------------- */

/* What edit_stmt does to the updates of the body: the update of
   accumulator K at a[e] counts into ACC[K] where e == lo_K + bin.  */
typedef struct per_element
{
  sections *c;
  flat_var *bin;
  flat_var **acc;
  flat_var **touched;		/* by accumulator, or NULL: needs_touched */
} per_element;

/* Whether accumulator A's element must know if any update fell on it:
   && and || on a type other than bool give 0 or 1, where an element
   that no update touches keeps its value (5 stays 5, 5 && 1 is 1).  */
static int
needs_touched (const flat_accum *a)
{
  return !flat_section_reducible (a);
}

/* S, an update: `if (e == lo + bin) { set acc = V[acc] }`, and
   `set touched = touched || true` if the accumulator has a flag.  */
static void
edit_update (const per_element *pe, flat_stmt *s)
{
  flat_nest *nest = pe->c->nest;
  int k = section_of (pe->c->reduce, s->u.store.mem);
  const flat_accum *a = &pe->c->reduce->u.red.accs[k];
  flat_section_update u;
  if (make_update (pe->c, s, k, &u) != 0)
    return;			/* checked before: cannot happen */
  flat_stmt *set = flat_s_new (nest, FLAT_S_SET, s->line);
  set->u.set.var = pe->acc[k];
  set->u.set.value = flat_e_copy_subst (nest, u.value, u.t, pe->acc[k]);
  flat_expr *index = s->u.store.index;
  if (index->type != FLAT_T_I64)
    index = flat_e_cast (nest, FLAT_T_I64, index);
  flat_expr *cond = flat_e_binary
    (nest, FLAT_OP_EQ, index,
     flat_e_binary (nest, FLAT_OP_ADD, flat_e_copy (nest, a->lo),
		    flat_e_var (nest, pe->bin)));
  s->kind = FLAT_S_IF;
  memset (&s->u, 0, sizeof s->u);
  s->u.if_.cond = cond;
  flat_block_append (&s->u.if_.then_b, set);
  if (pe->touched[k])
    {
      flat_stmt *mark = flat_s_new (nest, FLAT_S_SET, s->line);
      mark->u.set.var = pe->touched[k];
      mark->u.set.value
	= flat_e_binary (nest, FLAT_OP_LOR,
			 flat_e_var (nest, pe->touched[k]),
			 flat_e_const_int (nest, FLAT_T_BOOL, 1));
      flat_block_append (&s->u.if_.then_b, mark);
    }
}

static int
edit_stmt (flat_stmt *s, void *data)
{
  const per_element *pe = data;
  if (s->kind == FLAT_S_STORE && section_of (pe->c->reduce, s->u.store.mem)
      >= 0)
    edit_update (pe, s);
  return 0;
}

/* `if (bin < len) { S }`.  */
static flat_stmt *
within (flat_nest *nest, const flat_accum *a, flat_var *bin, flat_stmt *s)
{
  flat_stmt *guard = flat_s_new (nest, FLAT_S_IF, s->line);
  guard->u.if_.cond = flat_e_binary (nest, FLAT_OP_LT, flat_e_var (nest, bin),
				     flat_e_copy (nest, a->len));
  flat_block_append (&guard->u.if_.then_b, s);
  return guard;
}

/* REDUCE (only section accumulators) becomes, in place, one map over the
   elements of its sections, each element a reduction over all
   iterations of the contributions that fall on it:
     map bin = 0 .. max (len_K) {
       let acc_K = identity ...
       reduce i with (OP_K acc_K, ...) { BODY, its updates of a_K[e]
	 counting into acc_K where e == lo_K + bin }
       if (bin < len_K) { store a_K[lo_K + bin] = a_K[lo_K + bin] OP acc_K }
       ... }
   with, for && and || on a type other than bool, a flag touched_K (||
   on bool) that the updates set, and the store's value
   (select touched_K (a_K[...] OP acc_K) a_K[...]).  */
static void
per_element_map (sections *c)
{
  flat_nest *nest = c->nest;
  flat_stmt *reduce = c->reduce;
  int n = reduce->u.red.n_accs;
  per_element pe = { c, flat_var_new (nest, FLAT_VAR_INDEX, FLAT_T_I64,
				      "bin"),
		     flat_arena_alloc (nest->arena, n * sizeof (flat_var *)),
		     flat_arena_alloc (nest->arena, n * sizeof (flat_var *)) };
  int n_accs = n;
  for (int k = 0; k < n; k++)
    n_accs += needs_touched (&reduce->u.red.accs[k]);
  flat_accum *accs = flat_accums_new (nest, n_accs);
  int extra = n;
  flat_expr *bins = NULL;
  flat_block body = { NULL, NULL }, after = { NULL, NULL };

  for (int k = 0; k < n; k++)
    {
      const flat_accum *a = &reduce->u.red.accs[k];
      pe.acc[k] = flat_var_new (nest, FLAT_VAR_LOCAL, a->var->type,
				a->var->source);
      accs[k].op = a->op;
      accs[k].var = pe.acc[k];
      flat_expr *at = flat_e_binary (nest, FLAT_OP_ADD,
				     flat_e_copy (nest, a->lo),
				     flat_e_var (nest, pe.bin));
      flat_block_append (&body, flat_section_start (nest, a, pe.acc[k],
						    reduce->line));
      flat_stmt *end = flat_section_end (nest, a, flat_e_copy (nest, at),
					 pe.acc[k], reduce->line);
      pe.touched[k] = NULL;
      if (needs_touched (a))
	{
	  flat_var *t = flat_var_new (nest, FLAT_VAR_LOCAL, FLAT_T_BOOL,
				      "touched");
	  flat_stmt *let = flat_s_new (nest, FLAT_S_LET, reduce->line);
	  let->u.let.var = t;
	  let->u.let.init = flat_e_const_int (nest, FLAT_T_BOOL, 0);
	  flat_block_append (&body, let);
	  accs[extra].op = FLAT_OP_LOR;
	  accs[extra++].var = t;
	  pe.touched[k] = t;
	  end->u.store.value
	    = flat_e_select (nest, flat_e_var (nest, t), end->u.store.value,
			     flat_e_load (nest, a->var, flat_e_copy (nest, at)));
	}
      flat_block_append (&after, within (nest, a, pe.bin, end));
      bins = bins ? flat_e_binary (nest, FLAT_OP_MAX, bins,
				   flat_e_copy (nest, a->len))
	: flat_e_copy (nest, a->len);
    }
  flat_walker w = { edit_stmt, NULL, &pe };
  flat_walk_block (&reduce->u.red.body, &w);

  flat_stmt *red = flat_s_new (nest, FLAT_S_REDUCE, reduce->line);
  red->u.red.range = reduce->u.red.range;
  red->u.red.body = reduce->u.red.body;
  red->u.red.n_accs = n_accs;
  red->u.red.accs = accs;
  flat_block_append (&body, red);
  body.last->next = after.first;
  body.last = after.last;

  reduce->kind = FLAT_S_MAP;
  memset (&reduce->u, 0, sizeof reduce->u);
  flat_range *r = &reduce->u.loop.range;
  r->index = pe.bin;
  r->lb = flat_e_const_int (nest, FLAT_T_I64, 0);
  r->ub = bins;
  r->step = flat_e_const_int (nest, FLAT_T_I64, 1);
  reduce->u.loop.body = body;
}

static int
other_effect (flat_stmt *s, void *data)
{
  return s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM
    && section_of (data, s->u.store.mem) < 0;
}

/* ---- The pass ------------------------------------------------------------ */

/* Lower C->reduce, in place; its updates are in C->u.  */
static int
lower (sections *c)
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
  if (n_per_element == 0)
    {
      for (int i = 0; i < c->n; i++)
	make_atomic (c->nest, &reduce->u.red.accs[c->u[i].acc], &c->u[i]);
      drop_sections (c->nest, reduce);
      return 0;
    }
  /* Element by element, all sections of the loop together (one
     statement, as the root of a nest must be).  */
  flat_walker w = { other_effect, NULL, reduce };
  if (n_scalar > 0 || flat_walk_block (&reduce->u.red.body, &w))
    {
      flat_diag_set (c->diag, reduce->line, "an array-section accumulator "
		     "of a floating-point, 1- or 2-byte type is reduced "
		     "element by element, which needs a loop without other "
		     "effects or scalar accumulators");
      return -1;
    }
  per_element_map (c);
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
  for (flat_stmt *s = b->first; s; s = s->next)
    {
      if (lower_children (c, s) != 0)
	return -1;
      if (!has_section (s))
	continue;
      flat_var *t[s->u.red.n_accs];
      for (int k = 0; k < s->u.red.n_accs; k++)
	t[k] = !s->u.red.accs[k].lo ? NULL
	  : flat_var_new (c->nest, FLAT_VAR_LOCAL, s->u.red.accs[k].var->type,
			  s->u.red.accs[k].var->source);
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
			     s->u.red.accs[k].var->source);
	      return -1;
	    }
	}
      if (lower (c) != 0)
	return -1;
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
