/* e_middle of rule G3 (paper 000): the context Sigma' at the grid level,
   one work-group per point, and the inner parallelism of the map body at
   the work-group level (level 0).

     Sigma' = (i)   body { let s = 0; reduce k = 0..m with (add s) { B };
			   store y[i] = s }
       ->  kernel k1 segmap group (i) threads (max m 0) {
	     let s = 0
	     segred0 k = 0..m with (add s) { B }
	     store y[i] = s
	   }
	   Par(e_middle) = max (m, 0) <= FLAT_MAX_GROUP ? Par(i) * max (m, 0) : 0
	   (Par(i) * min (max (m, 0), FLAT_MAX_GROUP) where the group reads
	   coalesced: inner_coalesced)

   The top-most SOACs of the body (also inside its ifs and loops) become
   level-0 statements; SOACs inside them run sequentially in one
   work-item (rule G1 at level 0).  The version exists when every one of
   them is regular (its bounds invariant, so Par(e_middle) and the group
   size are known before the launch) or irregular (rule I2, a work-group
   per segment: its group size and Par from the average segment, which
   the host estimates, irregular.c), and the shared local memory fits
   FLAT_MAX_STATIC_LOCAL; whether it fits the device is the runtime's
   question.  */

#include "rules.h"

/* Where the level-0 statements are: the context and the map body.  */
typedef struct level0
{
  flat_nest *nest;
  const flat_context *ctx;
  const flat_block *body;
  flat_expr *threads;
  int regular;
} level0;

static flat_block to_level0 (level0 *l, const flat_block *b);

/* A copy of S with its top-most SOACs at level 0; l->threads gets the
   largest of their trip counts (of an irregular one, its average).  */
static flat_stmt *
stmt_to_level0 (level0 *l, const flat_stmt *s)
{
  flat_block one = flat_block_of (l->nest, s);
  flat_stmt *c = one.first;
  flat_expr *trip;
  flat_range regular;
  switch (s->kind)
    {
    case FLAT_S_MAP:
    case FLAT_S_REDUCE:
    case FLAT_S_SCAN:
      c->group = 1;
      if (flat_range_is_invariant (&s->u.loop.range))
	trip = flat_par_trip (l->nest, &s->u.loop.range);
      else if (flat_range_regular_in (l->nest, l->body, &s->u.loop.range,
				      &regular))
	trip = flat_par_trip (l->nest, &regular);
      else
	trip = flat_par_irregular_average (l->nest, l->ctx, l->body,
					   &s->u.loop.range);
      if (!trip)
	l->regular = 0;
      else
	l->threads = flat_par_larger (l->nest, l->threads, trip);
      break;
    case FLAT_S_IF:
      c->u.if_.then_b = to_level0 (l, &s->u.if_.then_b);
      c->u.if_.else_b = to_level0 (l, &s->u.if_.else_b);
      break;
    case FLAT_S_LOOP:
      c->u.loop.body = to_level0 (l, &s->u.loop.body);
      break;
    case FLAT_S_WHILE:
      c->u.while_.body = to_level0 (l, &s->u.while_.body);
      break;
    default:
      break;
    }
  return c;
}

static flat_block
to_level0 (level0 *l, const flat_block *b)
{
  flat_block out = { NULL, NULL };
  for (const flat_stmt *s = b->first; s; s = s->next)
    flat_block_append (&out, stmt_to_level0 (l, s));
  return out;
}

/* Whether INDEX, of an access under level-0 SOAC index K, is the same
   for all of the group's items or walks K with a unit stride.  */
static int
coalesced_index (const flat_expr *index, const flat_var *k)
{
  return !flat_expr_mentions ((flat_expr *) index, k)
    || flat_expr_unit_stride (index, k);
}

static int
uncoalesced_load (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  return e->kind == FLAT_E_LOAD
    && !coalesced_index (e->u.load.index, data);
}

static int
uncoalesced_store (flat_stmt *s, void *data)
{
  return s->kind == FLAT_S_STORE && s->u.store.mem->kind == FLAT_VAR_MEM
    && !coalesced_index (s->u.store.index, data);
}

/* Whether the items of e_middle's group read and write memory coalesced:
   B's SOACs are its top-level statements, and each of their accesses
   that depends on the SOAC's index walks it with a unit stride.  Such a
   group walks an inner space longer than FLAT_MAX_GROUP at the copy
   bandwidth (matvec 8192^2 on an H200: 0.090 ms against 0.115 for G9's
   chunks), where a column walk does not (matmul's group per point
   reading b[k * m + j] over k: 0.113 ms at 64 x 64 x 4096, the
   segmented segred 0.048).  */
static int
inner_coalesced (const flat_block *b)
{
  for (const flat_stmt *s = b->first; s; s = s->next)
    {
      if (!flat_stmt_has_soac ((flat_stmt *) s))
	continue;
      if (s->kind != FLAT_S_MAP && s->kind != FLAT_S_REDUCE
	  && s->kind != FLAT_S_SCAN)
	return 0;
      const flat_range *r = s->kind == FLAT_S_MAP ? &s->u.loop.range
			    : &s->u.red.range;
      const flat_block *body = s->kind == FLAT_S_MAP ? &s->u.loop.body
			       : &s->u.red.body;
      flat_walker w = { uncoalesced_store, uncoalesced_load,
			(void *) r->index };
      if (flat_walk_block (body, &w))
	return 0;
    }
  return 1;
}

flat_kernel *
flat_intra_kernel (flat_flattener *f, const flat_context *ctx,
		   const flat_block *b, flat_expr **par)
{
  flat_nest *nest = f->nest;
  level0 l = { nest, ctx, b, NULL, 1 };
  flat_block body = to_level0 (&l, b);
  flat_expr *threads = l.threads;
  if (!l.regular || !threads)
    return NULL;
  flat_kernel *k = flat_kernel_new (nest, FLAT_N_SEGMAP_GROUP, ctx->n, 0);
  for (int d = 0; d < ctx->n; d++)
    k->dims[d] = ctx->dims[d];
  k->body = body;
  k->threads = threads;
  if (flat_kernel_local_bytes (k) > FLAT_MAX_STATIC_LOCAL)
    {
      flat_rules_rollback (nest, nest->n_kernels - 1);
      return NULL;
    }
  /* The parallelism e_middle uses where its inner parallelism fits one
     work-group, else 0: a group that walks a larger inner space
     FLAT_MAX_GROUP items at a time leaves the grid-level versions below
     it more parallelism and locality (the tiled ones, e_flat); such a
     version is still there for a forced or tuned threshold of 0.  A
     group that reads coalesced walks a larger space well: then the
     FLAT_MAX_GROUP items it runs at once count.  */
  flat_expr *max_group = flat_e_const_int (nest, FLAT_T_I64, FLAT_MAX_GROUP);
  if (inner_coalesced (b))
    {
      *par = flat_par_product (nest, flat_par_context (nest, ctx),
			       flat_e_binary (nest, FLAT_OP_MIN,
					      flat_e_copy (nest, threads),
					      max_group));
      return k;
    }
  flat_expr *fits = flat_e_binary (nest, FLAT_OP_LE,
				   flat_e_copy (nest, threads), max_group);
  *par = flat_e_select (nest, fits,
			flat_par_product (nest, flat_par_context (nest, ctx),
					  flat_e_copy (nest, threads)),
			flat_e_const_int (nest, FLAT_T_I64, 0));
  return k;
}
