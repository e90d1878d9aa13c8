/* Incremental flattening (paper 000, section 3.2, Figures 3 and 4): at
   each map with inner parallelism, every mapping of that parallelism to
   the hardware levels, each a code version, chosen at run time by
   comparing the parallelism actually present with tunable thresholds.

     map i = 0..n { map j = 0..m { let s = 0;
				   reduce k = 0..q with (add s) { B };
				   store c[i*m+j] = s } }
   G3 at map i, Sigma' = (i), its body has inner SOACs:
     guard top Par(i) { launch e_top: segmap grid (i) { whole body } }
     else guard intra Par(i) * m { launch e_middle: segmap group (i)
				     { segmap0 j { ... } } }
     else e_flat: Sigma' ⊢ body, where G3 fires again at map j:
       guard top Par(i, j) { segmap grid (i, j) { s = reduce...; store } }
       else guard intra Par(i, j) * q { segmap group (i, j)
					 { segred0 k ...; store } }
       else G9: segred grid (i, j | k) pre { let s = 0 } { B }
		post { store c[i*m+j] = s }

   The rules, by name:
     G0  the empty context and no rule: the statements stay as they are
	 (a sequential body inside its kernel): flat_rule_g0_identity;
     G1  a context at level 0 is manifested over the expression: inside
	 a work-group version the level-0 statements' bodies run
	 sequentially (intra.c);
     G2  a map with no inner SOAC: segmap of the grid over Sigma':
	 flat_rule_map;
     G3  a map with inner SOACs: e_top, e_middle, e_flat and their two
	 guards: rule_g3_versions;
     G8  an if with a condition invariant to the context: the host
	 decides, each branch flattened (rules_moderate.c, where the split
	 points of distribution are);
     T1, T2  e_top of a map body that is a redomap reading operands
	 shared by the points of a block: block- and register-tiled
	 versions beside it (rule_tiling.c);
     G9  a redomap or scanomap in a context: a segmented segred or
	 segscan (rule_g9_segmented, rules_moderate.c); its decomposition
	 into a map and a reduce or scan (e_rec), useful only when the
	 mapped function has inner parallelism, is not done: such a
	 redomap runs its inner SOACs sequentially in the kernel.
   The host version is one more: the root of every plan is a guard on
   the nest's largest parallelism, whose else-branch runs the original
   loop (flat_pass_kernels).

   Strategies (plugin argument strategy=): incremental builds the whole
   tree; moderate one fixed version (maps distributed and interchanged,
   G6/G7/G8, inner redomaps sequential: e_top wherever e_flat would need
   G9 or a work-group); full always e_flat where it exists.  */

#include "rules.h"

flat_block
flat_plan_launch (flat_nest *nest, flat_kernel *k)
{
  flat_block b = { NULL, NULL };
  flat_stmt *launch = flat_s_new (nest, FLAT_S_LAUNCH, nest->line);
  launch->u.launch.kernel = k;
  flat_block_append (&b, launch);
  return b;
}

flat_block
flat_plan_guard (flat_nest *nest, flat_guard_kind kind, flat_expr *par,
		 flat_block then_b, flat_block else_b)
{
  flat_block b = { NULL, NULL };
  flat_stmt *g = flat_s_new (nest, FLAT_S_GUARD, nest->line);
  g->u.guard.threshold = "";
  g->u.guard.kind = kind;
  g->u.guard.par = par;
  g->u.guard.then_b = then_b;
  g->u.guard.else_b = else_b;
  flat_block_append (&b, g);
  return b;
}

void
flat_rules_rollback (flat_nest *nest, int n_kernels)
{
  nest->n_kernels = n_kernels;
}

flat_kernel *
flat_segmap_grid (flat_flattener *f, const flat_context *ctx,
		  const flat_block *b)
{
  flat_kernel *k = flat_kernel_new (f->nest, FLAT_N_SEGMAP, ctx->n, 0);
  for (int d = 0; d < ctx->n; d++)
    k->dims[d] = ctx->dims[d];
  k->body = *b;
  return k;
}

/* G0: with an empty context the statements are the target code: a
   segmap with no dims runs them once (a nest whose marked loop is not a
   map never gets here; a map always extends the context).  */
static flat_block
flat_rule_g0_identity (flat_flattener *f, const flat_block *b)
{
  flat_context none = { .n = 0 };
  return flat_plan_launch (f->nest, flat_segmap_grid (f, &none, b));
}

/* The accesses of an inner reduce's or map's body over INNER in the map
   nest SUB, for middle_uncoalesced.  */
typedef struct inner_accesses
{
  const flat_context *sub;
  const flat_var *inner;
  int column;			/* one walks the points with a unit stride
				   and the iterations with another: a
				   column per point */
  int point_row;		/* one that a point reads apart (its index
				   mentions one of SUB's indices) walks the
				   iterations with a unit stride: a row per
				   point */
  int row;			/* one walks the iterations with a unit
				   stride */
} inner_accesses;

static void
classify_index (inner_accesses *r, const flat_expr *index)
{
  if (!flat_expr_unit_stride (index, r->inner))
    {
      if (flat_expr_mentions ((flat_expr *) index, r->inner)
	  && flat_expr_unit_stride (index, r->sub->dims[r->sub->n - 1].index))
	r->column = 1;
      return;
    }
  r->row = 1;
  for (int d = 0; d < r->sub->n; d++)
    if (flat_expr_mentions ((flat_expr *) index, r->sub->dims[d].index))
      r->point_row = 1;
}

static int
classify_load (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  if (e->kind == FLAT_E_LOAD)
    classify_index (data, e->u.load.index);
  return 0;
}

static int
classify_store (flat_stmt *s, void *data)
{
  if (s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM)
    classify_index (data, s->u.store.index);
  return 0;
}

/* Whether e_middle of B, the body of the innermost map of SUB, would
   read nothing coalesced where another version does: a work-group per
   point whose items split an inner SOAC reads with a unit stride only
   what is unit-stride in the SOAC's index.
     - A reduce that reads a column per point and no row of a point
       (column sums, matvec_t's A[i][j] beside x[i], which every point
       shares) reads a column per group, one row per item, where G9's
       segmented segred has a lanes stage (codegen.h) that reads it
       coalesced.  (Matrix products keep e_middle: a row of one operand
       is read coalesced.)
     - An inner map whose accesses walk columns and none its own rows
       (column-major data under `for i { for j }') does the same, where
       e_top's items, one per point, and e_flat's, consecutive in the
       point's dim (Note [Coalesced dim] in coalescing.c), are
       coalesced.
   Futhark would transpose the array for e_middle; Flat does not copy
   the user's arrays, so it leaves that version out.  */
static int
middle_uncoalesced (const flat_context *sub, const flat_block *b)
{
  const flat_stmt *s;

  for (s = b->first; s; s = s->next)
    if (s->kind == FLAT_S_REDUCE
	&& flat_lanes_body (&s->u.red.body, &sub->dims[sub->n - 1],
			    s->u.red.range.index))
      {
	inner_accesses r = { sub, s->u.red.range.index, 0, 0, 0 };
	flat_walker w = { NULL, classify_load, &r };

	flat_walk_block (&s->u.red.body, &w);
	if (r.column && !r.point_row)
	  return 1;
      }
    else if (s->kind == FLAT_S_MAP)
      {
	inner_accesses r = { sub, s->u.loop.range.index, 0, 0, 0 };
	flat_walker w = { classify_store, classify_load, &r };

	flat_walk_block (&s->u.loop.body, &w);
	if (r.column && !r.row)
	  return 1;
      }
  return 0;
}

/* e_top, kernel TOP of map body B in context SUB, beside the versions
   that run B one point per work-item too: tiled where B reuses operands
   across points (T1, T2), partitioned where it branches to inner loops
   or SOACs on some points only (I5; the arms' SOACs stay sequential in
   their work-items, as in TOP).  */
static flat_block
e_top_versions (flat_flattener *f, const flat_context *sub,
		const flat_block *b, flat_kernel *top, flat_expr **par_top)
{
  return flat_rule_i5_partition (f, sub, b,
				 flat_rule_tiles (f, sub, b, top, par_top));
}

/* G3: the three versions of map body B in context SUB (Sigma').  */
static flat_block
rule_g3_versions (flat_flattener *f, const flat_context *sub,
		  const flat_block *b)
{
  flat_nest *nest = f->nest;
  flat_block flat;
  if (f->strategy != FLAT_STRATEGY_INCREMENTAL)
    {
      int saved = nest->n_kernels;
      if (flat_rule_g6_distribute (f, sub, NULL, b, &flat) == 0)
	return flat;
      flat_rules_rollback (nest, saved);
      if (flat_rule_i5_flat_arms (f, sub, b, &flat) == 0)
	return flat;
      return flat_plan_launch (nest, flat_segmap_grid (f, sub, b));
    }

  flat_kernel *top = flat_segmap_grid (f, sub, b);
  flat_expr *par_middle = NULL;
  flat_kernel *middle = middle_uncoalesced (sub, b) ? NULL
    : flat_intra_kernel (f, sub, b, &par_middle);
  if (middle)
    par_middle = flat_rule_t3 (f, sub, b, par_middle);
  int saved = nest->n_kernels;
  int have_flat = flat_rule_g6_distribute (f, sub, NULL, b, &flat) == 0;
  if (!have_flat)
    {
      flat_rules_rollback (nest, saved);
      have_flat = flat_rule_i5_flat_arms (f, sub, b, &flat) == 0;
    }
  if (!have_flat)
    {
      /* No e_flat: flattening stops here, the body is sequential (G1's
	 manifestation at this level).  */
      if (!middle)
	return e_top_versions (f, sub, b, top, NULL);
      flat = flat_plan_launch (nest, top);
    }
  flat_expr *par_top = flat_rule_t3 (f, sub, b, flat_par_context (nest, sub));
  /* I5's e_flat over the arms of a regular body is not irregular:
     its descriptor's flat stage costs more an iteration than e_top's
     loop, which the sorted points keep busy (bench/src/branch_rows.c:
     0.93 ms against 0.11 on the H200), so the regular guards choose.  */
  int irregular = have_flat && flat_block_has_data_ranges (nest, sub, b);
  if (irregular)
    {
      /* Rule I3, the guards of an irregular level whose segments come
	 from data: one long segment stalls e_top and e_middle, however
	 many points there are, and the host does not see the segments.
	 e_flat, balanced whatever they are, is the default; a threshold
	 of 0 (flat-tune) takes the others.  */
      par_top = flat_e_const_int (nest, FLAT_T_I64, 0);
      par_middle = flat_e_const_int (nest, FLAT_T_I64, 0);
    }
  flat_block rest = middle
    ? flat_plan_guard (nest, FLAT_GUARD_INTRA, par_middle,
		       flat_plan_launch (nest, middle), flat)
    : flat;
  flat_block tops = e_top_versions (f, sub, b, top,
				    irregular ? NULL : &par_top);
  return flat_plan_guard (nest, FLAT_GUARD_TOP, par_top, tops, rest);
}

flat_block
flat_rule_map (flat_flattener *f, const flat_context *ctx, flat_stmt *m)
{
  flat_context sub = *ctx;
  const flat_block *b = &m->u.loop.body;
  if (sub.n == FLAT_MAX_CONTEXT)
    {
      /* Deeper than any real nest: the map stays sequential inside the
	 context's segmap.  */
      flat_block one = flat_block_of (f->nest, m);
      return flat_plan_launch (f->nest, flat_segmap_grid (f, ctx, &one));
    }
  sub.dims[sub.n++] = m->u.loop.range;
  /* G2: no inner parallelism; also a map whose own bounds are not
     invariant (no Par, so no guard can choose for it).  Beside it, I5
     where the body branches to a loop on some points only.  */
  if (!flat_block_has_soac (b) || !flat_range_is_invariant (&m->u.loop.range))
    return flat_rule_i5_partition (f, &sub, b,
				   flat_plan_launch (f->nest,
						     flat_segmap_grid (f, &sub,
								       b)));
  return rule_g3_versions (f, &sub, b);
}

/* A top-level reduce or scan: a segred or segscan over its range, whose
   contrib block (scan) is the body up to its one update, without
   stores.  */
static flat_block
rule_top_redomap (flat_flattener *f, flat_stmt *red)
{
  flat_nest *nest = f->nest;
  flat_kernel *k = flat_kernel_new (nest, red->kind == FLAT_S_REDUCE
				    ? FLAT_N_SEGRED : FLAT_N_SEGSCAN, 1, 0);
  k->dims[0] = red->u.red.range;
  k->body = red->u.red.body;
  k->n_accs = red->u.red.n_accs;
  k->accs = red->u.red.accs;
  if (red->kind == FLAT_S_SCAN)
    k->contrib = flat_scan_contrib (nest, &red->u.red.body, k->accs[0].var);
  return flat_plan_launch (nest, k);
}

/* Threshold names in plan order (SPEC 2.6): "<nest>.<k>".  */
static void
name_guards (flat_nest *nest, const flat_block *b, int *k)
{
  for (flat_stmt *s = b->first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_GUARD:
	s->u.guard.threshold = flat_arena_printf (nest->arena, "%s.%d",
						  nest->name, (*k)++);
	name_guards (nest, &s->u.guard.then_b, k);
	name_guards (nest, &s->u.guard.else_b, k);
	break;
      case FLAT_S_IF:
	name_guards (nest, &s->u.if_.then_b, k);
	name_guards (nest, &s->u.if_.else_b, k);
	break;
      case FLAT_S_LOOP:
	name_guards (nest, &s->u.loop.body, k);
	break;
      default:
	break;
      }
}

int
flat_pass_kernels (flat_nest *nest, flat_strategy strategy, flat_diag *diag)
{
  flat_flattener f = { nest, strategy };
  flat_stmt *outer = nest->body.first;
  if (!outer || outer->next)
    {
      flat_diag_set (diag, nest->line, "internal error: a nest must consist "
		     "of one marked loop");
      return -1;
    }
  flat_block device;
  switch (outer->kind)
    {
    case FLAT_S_MAP:
      {
	flat_context none = { .n = 0 };
	device = flat_rule_map (&f, &none, outer);
      }
      break;
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      device = rule_top_redomap (&f, outer);
      break;
    default:
      device = flat_rule_g0_identity (&f, &nest->body);
      break;
    }
  /* The host version: below a threshold on the largest parallelism the
     original loop runs (a nest whose own bounds are not invariant has no
     Par and always goes to the device).  */
  int ranged = outer->kind == FLAT_S_MAP || outer->kind == FLAT_S_REDUCE
    || outer->kind == FLAT_S_SCAN;
  flat_expr *work = ranged && flat_range_is_invariant (&outer->u.loop.range)
    ? flat_par_max (nest, &nest->body) : NULL;
  if (work)
    {
      flat_block host = { NULL, NULL };
      flat_block_append (&host, flat_s_new (nest, FLAT_S_HOST, nest->line));
      nest->plan = flat_plan_guard (nest, FLAT_GUARD_HOST, work, device,
				    host);
    }
  else
    nest->plan = device;
  int k = 0;
  name_guards (nest, &nest->plan, &k);
  return 0;
}
