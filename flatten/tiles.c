/* The tiles of a tiled segmap (ir.h, FLAT_N_SEGMAP_TILED): which loads
   of its reduce's body the work-group stages in local memory, and how
   much local memory that takes.  Rules T1 and T2 (rule_tiling.c) make
   such segmaps, the code generator (codegen/tiled.c) prints them, the
   runtime launches a group per block of points (runtime/launch.c).  */

#include "flatten.h"

#include <string.h>

/* Whether V may appear in the index of a staged load: the group
   evaluates it for every point of its block and iteration of a tile.  */
static int
staged_var (const flat_var *v, const flat_range *dims, int n_dims,
	    const flat_var *k)
{
  return v == k || v->kind == FLAT_VAR_PARAM
    || (v->kind == FLAT_VAR_INDEX && v->plan_index)
    || flat_dim_of (dims, n_dims, v) >= 0;
}

static int
staged_index (const flat_expr *e, const flat_range *dims, int n_dims,
	      const flat_var *k)
{
  switch (e->kind)
    {
    case FLAT_E_CONST:
      return 1;
    case FLAT_E_VAR:
      return staged_var (e->u.var, dims, n_dims, k);
    case FLAT_E_UNARY:
      return staged_index (e->u.op.a, dims, n_dims, k);
    case FLAT_E_BINARY:
      return staged_index (e->u.op.a, dims, n_dims, k)
	&& staged_index (e->u.op.b, dims, n_dims, k);
    case FLAT_E_CAST:
      return staged_index (e->u.cast, dims, n_dims, k);
    case FLAT_E_SELECT:
      return staged_index (e->u.select.cond, dims, n_dims, k)
	&& staged_index (e->u.select.a, dims, n_dims, k)
	&& staged_index (e->u.select.b, dims, n_dims, k);
    default:
      return 0;
    }
}

typedef struct finder
{
  const flat_range *dims;
  int n_dims;
  const flat_var *k;
  flat_tiling *t;
} finder;

/* Whether INDEX, which mentions the one tiled dim of a 1-D block,
   walks a row per point: unit-stride in the reduce's index and not in
   the point's (a[i * n + k]).  Each point reads elements of its own,
   so staging them shares nothing, but e_top's work-items read 4 bytes
   of a row each, a row apart, where the group's fill reads the rows of
   the block a tile deep side by side: coalescing by a transposition
   through local memory (paper 001, section 5; matvec 2^20 x 64 on an
   H200: 0.30 ms a call with e_top).  */
static int
row_walk (const finder *fd, const flat_expr *index)
{
  return fd->t->n_tiled == 1 && flat_expr_unit_stride (index, fd->k)
    && !flat_expr_unit_stride (index, fd->dims[fd->n_dims - 1].index);
}

/* Load E, evaluated at every iteration: a tile of its own, or one
   already made for the same element.  */
static void
consider_load (finder *fd, const flat_expr *e)
{
  flat_tiling *t = fd->t;
  flat_expr *index = e->u.load.index;
  int first = fd->n_dims - t->n_tiled, along = -1, mentioned = 0;

  if (e->u.load.mem->kind != FLAT_VAR_MEM
      || (e->u.load.mem->access & FLAT_ACCESS_WRITE)
      || !staged_index (index, fd->dims, fd->n_dims, fd->k)
      || !flat_expr_mentions (index, fd->k))
    return;
  for (int d = first; d < fd->n_dims; d++)
    if (flat_expr_mentions (index, fd->dims[d].index))
      {
	along = d - first;
	mentioned++;
      }
  if ((mentioned == t->n_tiled && !row_walk (fd, index))
      || flat_tile_of_load (t, e) >= 0 || t->n_tiles == FLAT_MAX_TILE_LOADS)
    return;
  t->tiles[t->n_tiles].load = e;
  t->tiles[t->n_tiles].along = along;
  t->tiles[t->n_tiles].k_fastest = flat_expr_unit_stride (index, fd->k);
  t->n_tiles++;
}

/* The loads of E that every evaluation of E evaluates.  */
static void
find_loads (finder *fd, const flat_expr *e)
{
  switch (e->kind)
    {
    case FLAT_E_LOAD:
      consider_load (fd, e);
      find_loads (fd, e->u.load.index);
      break;
    case FLAT_E_UNARY:
      find_loads (fd, e->u.op.a);
      break;
    case FLAT_E_BINARY:
      find_loads (fd, e->u.op.a);
      if (e->u.op.op != FLAT_OP_LAND && e->u.op.op != FLAT_OP_LOR)
	find_loads (fd, e->u.op.b);
      break;
    case FLAT_E_CAST:
      find_loads (fd, e->u.cast);
      break;
    case FLAT_E_SELECT:
      find_loads (fd, e->u.select.cond);
      break;
    case FLAT_E_CALL:
      for (int a = 0; a < 3 && e->u.call.args[a]; a++)
	find_loads (fd, e->u.call.args[a]);
      break;
    default:
      break;
    }
}

static int
has_store (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_STORE || s->kind == FLAT_S_BREAK;
}

/* Stops at what keeps the reduce's body of tiling DATA from running
   past the end (flat_tiling.unchecked).  */
static int
needs_check (flat_stmt *s, void *data)
{
  (void) data;
  return s->kind == FLAT_S_STORE || s->kind == FLAT_S_LOOP
    || s->kind == FLAT_S_WHILE || s->kind == FLAT_S_MAP
    || s->kind == FLAT_S_REDUCE || s->kind == FLAT_S_SCAN;
}

static int
needs_check_expr (flat_expr *e, flat_stmt *s, void *data)
{
  (void) s;
  if (e->kind == FLAT_E_LOAD)
    return flat_tile_of_load (data, e) < 0;
  return e->kind == FLAT_E_BINARY
    && (e->u.op.op == FLAT_OP_DIV || e->u.op.op == FLAT_OP_MOD)
    && !flat_type_table[e->type].is_float;
}

int
flat_tiling_of (const flat_range *dims, int n_dims, const flat_block *body,
		flat_tiling *t)
{
  const flat_stmt *s, *red = NULL;
  flat_block post;
  flat_walker stores = { has_store, NULL, NULL };

  memset (t, 0, sizeof *t);
  if (n_dims < 1)
    return 0;
  for (s = body->first; s && !flat_stmt_has_soac ((flat_stmt *) s);
       s = s->next)
    if (flat_walk_stmt ((flat_stmt *) s, &stores))
      return 0;
  if (!s || s->kind != FLAT_S_REDUCE)
    return 0;
  red = s;
  post.first = s->next;
  post.last = body->last;
  if (post.first && flat_block_has_soac (&post))
    return 0;
  const flat_range *r = &red->u.red.range;
  if (!flat_range_is_invariant (r) || r->step->kind != FLAT_E_CONST
      || r->step->u.c.i <= 0)
    return 0;
  t->n_tiled = flat_tiled_dims (n_dims);
  t->reduce = red;
  t->depth = t->n_tiled == 2 ? FLAT_TILE_DEPTH : FLAT_TILE_THREADS;
  finder fd = { dims, n_dims, r->index, t };
  for (s = red->u.red.body.first; s; s = s->next)
    switch (s->kind)
      {
      case FLAT_S_LET:
	if (s->u.let.init)
	  find_loads (&fd, s->u.let.init);
	break;
      case FLAT_S_SET:
	find_loads (&fd, s->u.set.value);
	break;
      case FLAT_S_IF:
	find_loads (&fd, s->u.if_.cond);
	break;
      default:
	break;
      }
  /* A block's rows a tile deep: FLAT_TILE_THREADS iterations deep would
     not fit local memory; 32 floats are a 128-byte line of each row.  */
  for (int i = 0; i < t->n_tiles; i++)
    if (t->n_tiled == 1 && t->tiles[i].along >= 0)
      {
	t->transposes = 1;
	t->depth = FLAT_TILE_ROW_DEPTH;
      }
  flat_walker unsafe = { needs_check, needs_check_expr, t };
  t->unchecked = !flat_walk_block (&red->u.red.body, &unsafe);
  return t->n_tiles > 0;
}

int
flat_tiling_split_accs (const flat_tiling *t)
{
  if (t->reduce->u.red.n_accs > FLAT_MAX_SPLIT_ACCS)
    return 0;
  for (int j = 0; j < t->reduce->u.red.n_accs; j++)
    if (t->reduce->u.red.accs[j].lo)
      return 0;
  return t->reduce->u.red.n_accs;
}

int
flat_tiled_split_accs (const flat_kernel *k, const flat_accum **accs)
{
  flat_tiling t;
  int n;

  *accs = NULL;
  if (k->kind != FLAT_N_SEGMAP_TILED
      || !flat_tiling_of (k->dims, k->n_dims, &k->body, &t)
      || (n = flat_tiling_split_accs (&t)) == 0)
    return 0;
  *accs = t.reduce->u.red.accs;
  return n;
}

int
flat_tile_of_load (const flat_tiling *t, const flat_expr *e)
{
  if (e->kind != FLAT_E_LOAD)
    return -1;
  for (int i = 0; i < t->n_tiles; i++)
    if (t->tiles[i].load->u.load.mem == e->u.load.mem
	&& flat_expr_same (t->tiles[i].load->u.load.index, e->u.load.index))
      return i;
  return -1;
}

int64_t
flat_tile_extent (const flat_kernel *k, int d)
{
  int n_tiled = flat_tiled_dims (k->n_dims);

  if (d < k->n_dims - n_tiled)
    return 1;
  return (int64_t) k->tile * flat_tile_items (n_tiled);
}

int64_t
flat_tile_elements (const flat_tiling *t, int i, int r)
{
  const flat_tile *tl = &t->tiles[i];

  int64_t rows = (int64_t) r * flat_tile_items (t->n_tiled);

  if (tl->along < 0)
    return t->depth;
  if (!tl->k_fastest)
    return rows * t->depth;
  if (flat_tile_run (r) > 1)
    return (rows + FLAT_TILE_ROW_PAD) * t->depth;
  return rows * (t->depth + 1);
}

size_t
flat_tiling_bytes (const flat_tiling *t, int r)
{
  size_t bytes = 0;

  for (int i = 0; i < t->n_tiles; i++)
    bytes += (size_t) flat_tile_elements (t, i, r)
      * (size_t) flat_type_table[t->tiles[i].load->type].size;
  return bytes;
}

size_t
flat_tiling_local_bytes (const flat_kernel *k)
{
  flat_tiling t;

  if (!flat_tiling_of (k->dims, k->n_dims, &k->body, &t))
    return 0;
  return flat_tiling_bytes (&t, k->tile);
}
