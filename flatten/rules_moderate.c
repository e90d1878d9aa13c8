/* Moderate flattening (paper 000 section 3.1, PLDI 2017 Figure 12), on
   which incremental flattening is built: e_flat of a map body B in
   context Sigma' is B distributed over Sigma' (rule G6), its inner SOACs
   the split points, each flattened by its own rule:

     map i { let t = x[i] * 2;              plan {
	     map j { store y[i,j] = t };      Sigma'=(i) ⊢ map j: G2/G3
	     store z[i] = t;                    with "let t" in its body
	     loop s = 0..q {                  segmap (i) { let t...; store z }
	       map j { ... } } }              loop s_1 = 0..q {   (G7)
						Sigma' ⊢ map j { ... } }
					    }

   Let-floating: the pure scalar statements of B (no store to a mem, no
   load of a mem the nest writes, no SOAC) are not split points; they are
   recomputed in every kernel after them instead of being expanded into
   arrays of the context's size.  Statements with stores and no SOAC are
   grouped into one segmap of the context between split points.  A value
   that would have to cross a split point otherwise (a scalar an impure
   statement or a SOAC defines, a local array a SOAC writes) would need
   array expansion, which is not done: then B has no e_flat and the
   caller keeps e_top.

   The split points:
     map          G2/G3 again in Sigma' extended by the map (rule G3's
		  recursion, flat_rule_map);
     reduce, scan G9: a segmented segred or segscan over Sigma'
		  (segments) and the reduce's or scan's range, the pure
		  statements before it as its pre block (they declare its
		  accumulators), the statements after it up to the next
		  split point as its post block; not under
		  strategy=moderate, which keeps inner redomaps and
		  scanomaps sequential;
     if           G8: the condition invariant to Sigma' (a function of
		  params): a host if, each branch distributed;
     loop         G7, map-loop interchange: an invariant trip count and
		  no scalar carried from one iteration to the next: a host
		  loop (its index a plan index) around the distributed body;
     while        no e_flat (its trip count is data).

   G4 (reduce-map interchange), for a reduction whose operator is a map
   over arrays, `reduce(+: a[0:k])' in C, is not here: the sections pass
   applies it (rule_g4.c) before the kernels pass runs.  G5 (rearrange)
   applies to explicit transpositions, which C loops do not have: the
   lifter sees the permuted indices directly.  */

#include "rules.h"

/* ---- What a statement does ----------------------------------------------- */

typedef struct effects
{
  const flat_nest *nest;
  int stores_mem;		/* stores to a mem */
  int loads_written;		/* loads a mem the nest writes */
  int soac;
} effects;

static int
effects_stmt (flat_stmt *s, void *data)
{
  effects *e = data;
  if (s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM)
    e->stores_mem = 1;
  if (s->kind == FLAT_S_MAP || s->kind == FLAT_S_REDUCE
      || s->kind == FLAT_S_SCAN)
    e->soac = 1;
  return 0;
}

static int
effects_expr (flat_expr *x, flat_stmt *s, void *data)
{
  (void) s;
  effects *e = data;
  if (x->kind == FLAT_E_LOAD && (x->u.load.mem->access & FLAT_ACCESS_WRITE))
    e->loads_written = 1;
  return 0;
}

static effects
effects_of (flat_stmt *s)
{
  effects e = { 0 };
  flat_walker w = { effects_stmt, effects_expr, &e };
  (void) flat_walk_stmt (s, &w);
  return e;
}

/* Variables S writes (sets, local-array stores, accumulators of its
   reduces and scans) that S does not declare itself: what S passes on to
   the statements after it.  */
typedef struct outer_writes
{
  flat_stmt *root;
  const flat_stmt *reduce;	/* its accumulators may be written */
  int found;
} outer_writes;

static int
declares (flat_stmt *s, void *data)
{
  return s->kind == FLAT_S_LET && s->u.let.var == data;
}

static int
declared_in (flat_stmt *root, const flat_var *v)
{
  flat_walker w = { declares, NULL, (void *) v };
  return flat_walk_stmt (root, &w);
}

static void
check_write (outer_writes *o, const flat_var *v)
{
  for (int j = 0; o->reduce && j < o->reduce->u.red.n_accs; j++)
    if (o->reduce->u.red.accs[j].var == v)
      return;
  if (!declared_in (o->root, v))
    o->found = 1;
}

static int
outer_write_stmt (flat_stmt *s, void *data)
{
  outer_writes *o = data;
  if (s->kind == FLAT_S_SET)
    check_write (o, s->u.set.var);
  else if (s->kind == FLAT_S_STORE
	   && s->u.store.mem->kind == FLAT_VAR_LOCAL_ARRAY)
    check_write (o, s->u.store.mem);
  return 0;
}

/* Whether S writes a variable declared outside it, other than the
   accumulators of REDUCE (if not NULL).  */
static int
writes_outer (flat_stmt *s, const flat_stmt *reduce)
{
  outer_writes o = { s, reduce, 0 };
  flat_walker w = { outer_write_stmt, NULL, &o };
  (void) flat_walk_stmt (s, &w);
  return o.found;
}

/* Whether S loads or stores a mem that BODY stores to, or stores to one
   that BODY loads.  */
typedef struct touches_stored
{
  const flat_block *body;
  int found;
} touches_stored;

static int
touched_stmt (flat_stmt *s, void *data)
{
  touches_stored *t = data;
  if (s->kind == FLAT_S_STORE
      && (flat_block_stores (t->body, s->u.store.mem)
	  || flat_block_loads (t->body, s->u.store.mem)))
    t->found = 1;
  return t->found;
}

static int
touched_expr (flat_expr *e, flat_stmt *s, void *data)
{
  touches_stored *t = data;
  (void) s;
  if (e->kind == FLAT_E_LOAD && flat_block_stores (t->body, e->u.load.mem))
    t->found = 1;
  return t->found;
}

static int
touches_stored_by (flat_stmt *s, const flat_block *body)
{
  touches_stored t = { body, 0 };
  flat_walker w = { touched_stmt, touched_expr, &t };
  (void) flat_walk_stmt (s, &w);
  return t.found;
}

/* ---- Distribution ------------------------------------------------------- */

typedef struct distribution
{
  flat_flattener *f;
  const flat_context *ctx;
  flat_block pre;		/* pure statements so far: rematerialised */
  flat_block pending;		/* impure statements since the last split */
  flat_block plan;
  /* The kernel of the last G9 split point, whose post block takes the
     statements up to the next split point, and its number (from 1; 0
     when there is none); for each variable that a G9 split point or its
     post block defines, the number of that split point: no later split
     point or post block may use it.  */
  flat_kernel *open_segred;
  int open_split;
  int n_splits;
  int *post_defined;		/* by var id, N_POST_VARS of them */
  int n_post_vars;
} distribution;

/* A distribution of the body of the innermost map of CTX, with the pure
   statements PREFIX before it.  */
static distribution
distribution_new (flat_flattener *f, const flat_context *ctx,
		  const flat_block *prefix)
{
  distribution d = { f, ctx, flat_block_concat (f->nest, prefix, NULL),
		     { NULL, NULL }, { NULL, NULL }, NULL, 0, 0, NULL,
		     f->nest->n_vars };
  d.post_defined = flat_arena_alloc (f->nest->arena,
				     ((size_t) d.n_post_vars + 1)
				     * sizeof *d.post_defined);
  return d;
}

/* B's statements (a block of its own) moved to the end of the plan.  */
static void
append_plan (distribution *d, flat_block b)
{
  if (!b.first)
    return;
  if (d->plan.last)
    d->plan.last->next = b.first;
  else
    d->plan.first = b.first;
  d->plan.last = b.last;
}

/* The impure statements since the last split point, as one segmap of the
   context after the rematerialised pure ones.  */
static void
flush_pending (distribution *d)
{
  if (!d->pending.first)
    return;
  flat_block body = flat_block_concat (d->f->nest, &d->pre, &d->pending);
  append_plan (d, flat_plan_launch (d->f->nest,
				    flat_segmap_grid (d->f, d->ctx, &body)));
  d->pending.first = d->pending.last = NULL;
}

static int
is_post_defined (const flat_var *v, const void *data)
{
  const distribution *d = data;
  return v->id < d->n_post_vars && d->post_defined[v->id] != 0
    && d->post_defined[v->id] != d->open_split;
}

/* Whether S uses a value that a G9 split point other than the open one
   produced (the open one's values are right in its own post block
   only).  */
static int
uses_post_defs (const distribution *d, flat_stmt *s)
{
  return flat_stmt_mentions_any (s, is_post_defined, d);
}

/* Remember V as defined by the open G9 split point or its post
   block.  */
static void
post_define (distribution *d, const flat_var *v)
{
  if (v->id < d->n_post_vars)
    d->post_defined[v->id] = d->open_split;
}

/* G9: a redomap or scanomap R (a reduce or a scan) in the context, as a
   segmented segred or segscan (codegen.h) over the context (the
   segments) and R's range.  A scan's contrib block is its body up to the
   update, as for a top-level scan.  Rule I1 (irregular.c): a reduce or
   a scan whose range is irregular, as an irregular segred or segscan.  */
static int
rule_g9_segmented (distribution *d, flat_stmt *r)
{
  flat_nest *nest = d->f->nest;
  flat_range range = r->u.red.range;
  int irregular = !flat_range_is_invariant (&range)
    && !flat_range_regular_in (nest, &d->pre, &r->u.red.range, &range);
  if (d->f->strategy == FLAT_STRATEGY_MODERATE
      || d->ctx->n + 1 > FLAT_MAX_CONTEXT)
    return -1;
  if (irregular
      && !flat_range_is_irregular (nest, d->ctx, &d->pre, &r->u.red.range))
    return -1;
  /* Its accumulators start in the rematerialised prefix.  */
  for (int j = 0; j < r->u.red.n_accs; j++)
    {
      int declared = 0;
      for (flat_stmt *p = d->pre.first; p; p = p->next)
	declared |= p->kind == FLAT_S_LET && p->u.let.var == r->u.red.accs[j].var;
      if (!declared)
	return -1;
    }
  if (writes_outer (r, r))
    return -1;
  flush_pending (d);
  int seg = d->ctx->n > 0;
  flat_kernel *k = flat_kernel_new (nest, r->kind == FLAT_S_REDUCE
				    ? (irregular ? FLAT_N_SEGRED_IRREGULAR
				       : seg ? FLAT_N_SEGRED_SEGMENTED
				       : FLAT_N_SEGRED)
				    : (irregular ? FLAT_N_SEGSCAN_IRREGULAR
				       : seg ? FLAT_N_SEGSCAN_SEGMENTED
				       : FLAT_N_SEGSCAN),
				    d->ctx->n + 1, d->ctx->n);
  for (int i = 0; i < d->ctx->n; i++)
    k->dims[i] = d->ctx->dims[i];
  k->dims[d->ctx->n] = range;
  k->pre = flat_block_concat (nest, &d->pre, NULL);
  k->body = r->u.red.body;
  k->n_accs = r->u.red.n_accs;
  k->accs = r->u.red.accs;
  if (r->kind == FLAT_S_SCAN)
    k->contrib = flat_scan_contrib (nest, &r->u.red.body, k->accs[0].var);
  append_plan (d, flat_plan_launch (nest, k));
  d->open_segred = k;
  d->open_split = ++d->n_splits;
  for (int j = 0; j < r->u.red.n_accs; j++)
    post_define (d, r->u.red.accs[j].var);
  return 0;
}

/* Rule I6 (irregular.c): a map M whose range is irregular in the
   context, as an irregular segmap over the context (the segments) and
   M's range, the pure statements before it as its pre block; its body
   runs in one work-item per flat iteration (inner SOACs sequential).  */
static int
rule_i6_irregular_map (distribution *d, flat_stmt *m)
{
  flat_nest *nest = d->f->nest;
  if (d->f->strategy != FLAT_STRATEGY_INCREMENTAL
      || d->ctx->n + 1 > FLAT_MAX_CONTEXT
      || !flat_range_is_irregular (nest, d->ctx, &d->pre, &m->u.loop.range))
    return -1;
  flush_pending (d);
  flat_kernel *k = flat_kernel_new (nest, FLAT_N_SEGMAP_IRREGULAR,
				    d->ctx->n + 1, d->ctx->n);
  for (int i = 0; i < d->ctx->n; i++)
    k->dims[i] = d->ctx->dims[i];
  k->dims[d->ctx->n] = m->u.loop.range;
  k->pre = flat_block_concat (nest, &d->pre, NULL);
  k->body = m->u.loop.body;
  append_plan (d, flat_plan_launch (nest, k));
  return 0;
}

static int distribute_block (distribution *d, const flat_block *b);

/* A nested distribution of block B with the same context and prefix,
   whose plan is returned in *PLAN.  */
static int
distribute_nested (distribution *d, const flat_block *b, flat_block *plan)
{
  distribution inner = distribution_new (d->f, d->ctx, &d->pre);
  if (distribute_block (&inner, b) != 0)
    return -1;
  flush_pending (&inner);
  *plan = inner.plan;
  return 0;
}

/* G8: an if whose condition the host can evaluate.  */
static int
rule_g8_if (distribution *d, flat_stmt *s)
{
  flat_block then_plan, else_plan;
  if (!flat_expr_is_invariant (s->u.if_.cond) || writes_outer (s, NULL))
    return -1;
  flush_pending (d);
  if (distribute_nested (d, &s->u.if_.then_b, &then_plan) != 0
      || distribute_nested (d, &s->u.if_.else_b, &else_plan) != 0)
    return -1;
  flat_stmt *c = flat_s_new (d->f->nest, FLAT_S_IF, s->line);
  c->u.if_.cond = s->u.if_.cond;
  c->u.if_.then_b = then_plan;
  c->u.if_.else_b = else_plan;
  flat_block one = { c, c };
  append_plan (d, one);
  return 0;
}

static int
has_break (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_BREAK;
}

int
flat_loop_carries (flat_stmt *loop)
{
  flat_walker breaks = { has_break, NULL, NULL };
  return writes_outer (loop, NULL)
    || flat_walk_block (&loop->u.loop.body, &breaks);
}

/* G7: map-loop interchange.  The loop's index becomes a plan index (a
   copy of it, since e_top keeps the loop inside its kernel).  */
static int
rule_g7_interchange (distribution *d, flat_stmt *s)
{
  flat_nest *nest = d->f->nest;
  if (!flat_range_is_invariant (&s->u.loop.range) || flat_loop_carries (s))
    return -1;
  flush_pending (d);
  const flat_var *t = s->u.loop.range.index;
  flat_var *host_t = flat_var_new (nest, FLAT_VAR_INDEX, t->type, t->name);
  host_t->plan_index = 1;
  flat_block body = flat_block_subst (nest, &s->u.loop.body, t, host_t);
  flat_block plan;
  if (distribute_nested (d, &body, &plan) != 0)
    {
      host_t->plan_index = 0;
      return -1;
    }
  flat_stmt *loop = flat_s_new (nest, FLAT_S_LOOP, s->line);
  loop->u.loop.range = s->u.loop.range;
  loop->u.loop.range.index = host_t;
  loop->u.loop.body = plan;
  flat_block one = { loop, loop };
  append_plan (d, one);
  return 0;
}

/* Split point S (a statement with SOACs).  */
static int
split_point (distribution *d, flat_stmt *s)
{
  d->open_segred = NULL;
  d->open_split = 0;
  if (uses_post_defs (d, s))
    return -1;
  switch (s->kind)
    {
    case FLAT_S_MAP:
      {
	if (writes_outer (s, NULL))
	  return -1;
	if (!flat_range_is_invariant (&s->u.loop.range))
	  return rule_i6_irregular_map (d, s);
	flush_pending (d);
	flat_block one = flat_block_of (d->f->nest, s);
	one.first->u.loop.body = flat_block_concat (d->f->nest, &d->pre,
						    &s->u.loop.body);
	append_plan (d, flat_rule_map (d->f, d->ctx, one.first));
	return 0;
      }
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      return rule_g9_segmented (d, s);
    case FLAT_S_IF:
      return rule_g8_if (d, s);
    case FLAT_S_LOOP:
      return rule_g7_interchange (d, s);
    default:
      return -1;
    }
}

/* A statement without SOACs: pure ones float into the prefix, impure ones
   wait for the next split point; after a reduce split point both go to
   its post block.  */
static int
scalar_stmt (distribution *d, flat_stmt *s)
{
  effects e = effects_of (s);
  flat_nest *nest = d->f->nest;
  if (uses_post_defs (d, s))
    return -1;
  if (d->open_segred)
    {
      /* A segmented scan runs its post block in the group of the
	 segment's last chunk while other groups run the body of its
	 other chunks: the post block must not touch what the body
	 stores, nor store what it loads (a segmented reduction and an
	 irregular scan run their post blocks in a later launch).  */
      if (d->open_segred->kind == FLAT_N_SEGSCAN_SEGMENTED
	  && touches_stored_by (s, &d->open_segred->body))
	return -1;
      flat_block one = flat_block_of (nest, s);
      flat_block_append (&d->open_segred->post, one.first);
      if (s->kind == FLAT_S_LET)
	post_define (d, s->u.let.var);
      else if (s->kind == FLAT_S_SET)
	post_define (d, s->u.set.var);
      else if (writes_outer (s, NULL))
	return -1;
      return 0;
    }
  if (!e.stores_mem && !e.loads_written)
    {
      flat_block one = flat_block_of (nest, s);
      flat_block_append (&d->pre, one.first);
      return 0;
    }
  if (s->kind == FLAT_S_LET || s->kind == FLAT_S_SET || writes_outer (s, NULL))
    return -1;
  flat_block one = flat_block_of (nest, s);
  flat_block_append (&d->pending, one.first);
  return 0;
}

static int
distribute_block (distribution *d, const flat_block *b)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    if ((flat_stmt_has_soac (s) ? split_point (d, s) : scalar_stmt (d, s))
	!= 0)
      return -1;
  return 0;
}

int
flat_rule_g6_distribute (flat_flattener *f, const flat_context *ctx,
			 const flat_block *prefix, const flat_block *b,
			 flat_block *plan)
{
  distribution d = distribution_new (f, ctx, prefix);
  if (distribute_block (&d, b) != 0)
    return -1;
  flush_pending (&d);
  *plan = d.plan;
  return 0;
}
