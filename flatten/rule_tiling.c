/* Rules T1, T2 and T3: block tiling and register tiling of a redomap
   inside a map nest (paper 001, sections 5 and 6: the operands a
   redomap reads at every point of a block are staged in local memory
   once per group;
   paper 000, section 2.2: the register-tiled version of matrix
   multiplication).

     map i { map j { let s = 0;
		     reduce k = 0..q with (add s) {
		       set s = s + a[i*q+k] * b[k*m+j] };
		     store c[i*m+j] = s } }

   e_top at map j is a segmap grid (i, j) whose work-items each walk k,
   reading a row of a and a column of b from global memory: every
   element of a is read m times, every element of b n times.  A tiled
   segmap over the same (i, j) gives each work-group a block of points;
   per FLAT_TILE_DEPTH iterations of k the group copies the block's rows
   of a and columns of b into local memory (a[i*q+k] mentions i but not
   j, so the points of a row of the block share it), synchronises, and
   every work-item runs its points' iterations from there:

     kernel k5 segmap tiled (i, j) tile 1     T1, block tiling: one point
					      per item, 16 x 16 per group
     kernel k6 segmap tiled (i, j) tile 4     T2, register tiling: 4 x 4
					      points per item, their
					      accumulators in registers,
					      each staged value read once
					      for 4 of them
     kernel k7 segmap tiled (i, j) tile 8     T2 for a small body: 8 x 8

   Each point still runs its reduce's iterations in order, so the
   results are those of e_top, bit for bit, unless the runtime splits
   them over several groups where the blocks are few (Note [Split
   tiles] in codegen/tiled.c).  A 1-D map (n-body: map i { reduce j {
   f (p[i], p[j]) } }) stages p[j] for the whole group.

   The guards, beside e_top's own (S the slices of a split reduce, Note
   [Guards of split tiles]; each Par 0 where a block is more than twice
   a tiled dim):

     guard top (q >= depth ? Par / 64 * S : 0) { launch k7 }
     else guard top (Par / 8 * S) { launch k6 }
     else guard top (q >= depth ? Par * S : 0) { launch k5 }
     else launch e_top

   Tiling pays once a tile's depth of iterations reuses what it staged
   (a transposition tile, which a 1-D block stages for coalescing only,
   from T1_ROW_WALK_MIN iterations on): with fewer iterations e_top runs
   (Par, forced to 0, keeps the thresholds' meaning: a threshold of 0
   takes the tiled version whatever q is).  Register tiling needs about
   Par / 64 items to fill the device at 8 x 8 tiles; a 2-D block's 4 x 4
   tiles pay from half a device of items, Par / 8 (T2_FILL).  They pay
   however shallow the reduce: each item reads 4 + 4 operands for its 16
   points and stores them in runs of 4 (matmul on an H200, kernel ms:
   2048 x 2048 x 4, tile 4 0.028 against e_top's 0.043; 4096 x 4096 x 1,
   0.060 against 0.103, where a group per row took 0.051).

   A tiled version whose block is more than twice as long as a tiled
   dim along it is not taken (its guard gets Par 0): a block of 128 x
   128 points over 16 centres of k-means leaves seven eighths of its
   items idle.

   Rule T3 orders them before e_top and e_middle of the level above,
   the item per row i walking all its points j sequentially and the
   group per row i whose items take the points j, each reading its
   operands from global memory: where the map body at i is that one map
   over j and the level below tiles in two dims with T3_REGISTER_MIN
   iterations (a tile's depth where the 4 x 4 register tile does not
   fit), their guards get Par 0 and only a threshold of 0 takes them
   (matmul 256^3 on an H200: 0.043 ms for e_middle, 0.026 for tile 1;
   k-means distances of 2^20 points to 16 centres in 32 dimensions,
   e_top of the points 2.59 ms, tile 1 0.233).  The register tile pays
   from 2 iterations, where tile 1 needs a tile's depth.  */

#include "rules.h"

/* The tiled segmap of B in SUB at register tile R, NULL if its tiles do
   not fit FLAT_MAX_STATIC_LOCAL.  */
static flat_kernel *
tiled_kernel (flat_flattener *f, const flat_context *sub,
	      const flat_block *b, int r)
{
  int saved = f->nest->n_kernels;
  flat_kernel *k = flat_kernel_new (f->nest, FLAT_N_SEGMAP_TILED, sub->n,
				    0);
  for (int d = 0; d < sub->n; d++)
    k->dims[d] = sub->dims[d];
  k->body = *b;
  k->tile = r;
  if (flat_tiling_local_bytes (k) <= FLAT_MAX_STATIC_LOCAL)
    return k;
  flat_rules_rollback (f->nest, saved);
  return NULL;
}

/* Iterations from which a transposition tile (tiles.c, row_walk) pays:
   e_top's items walking rows of 24 or 37 floats were served from the L1
   cache (matvec on an H200: 0.09 ms a call, the tiled version 0.15 to
   0.17), rows of 64 to 256 floats were not (0.30 ms; tiled 0.18).  */
enum { T1_ROW_WALK_MIN = 64 };

/* Register tiles of rule T2: 4 x 4 points per item of a 2-D block (64 x
   64 points per group) and, for a small body, 8 x 8 (128 x 128 points:
   twice the arithmetic per value read from local memory, but a quarter
   of the groups); 4 points per item of a 1-D block.

   Note [Register tiles of large bodies]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A register tile copies the reduce's body once per point of an item:
   64 copies at 8 x 8.  Their values take registers on a GPU, and
   spill beyond; PoCL, which runs a group's 256 items in one function,
   keeps them for all the items in one stack frame: the 8 x 8 tile of
   a body of 114 nodes (a fuzzer's reduce of one long expression) took
   a frame of 8 MB and overflowed the stack of PoCL's thread, a crash
   of the program.  So a register tile is made only where its points
   per item times the body's nodes (statements and expression nodes)
   are at most T2_COPIED_NODES: 40 nodes at 8 x 8, which matmul's body
   (22 nodes) and k-means distances' (26) keep, 160 at 4 x 4.  */
enum { T2_TILE = 4, T2_LARGE_TILE = 8, T2_COPIED_NODES = 64 * 40 };

/* What the guard of a 2-D block's 4 x 4 register tile divides Par by:
   half its points per item, as it pays with half a device of items
   (matmul on an H200, kernel ms by events: 512^3, 16384 items, 0.036
   against tile 1's 0.056; 256^3, 4096 items, 0.022 against tile 1's
   0.017, which keeps it; by the host clock, 512 x 512 x 64, 0.019
   against 0.021).  */
enum { T2_FILL = T2_TILE * T2_TILE / 2 };

/* Iterations of the reduce from which rule T3 puts the 4 x 4 register
   tile before e_top and e_middle of the level above (matmul on an
   H200, kernel ms, tile 4 against e_middle: 4096 x 4096 x 1, 0.042
   against 0.034; x 2, 0.044 against 0.054; 2048 x 2048 x 4, 0.013
   against 0.016).  */
enum { T3_REGISTER_MIN = 2 };

/* A load of a 1-D block's reduce that the group does not stage, read
   at a point of its own (its index mentions the tiled dim): column j of
   matvec_t's matrix, a[i * n + j], beside the staged x[i].  */
typedef struct point_stream
{
  const flat_tiling *t;
  const flat_var *index;	/* the tiled dim's */
} point_stream;

static int
streams_points (flat_expr *e, flat_stmt *s, void *data)
{
  const point_stream *p = data;

  (void) s;
  return e->kind == FLAT_E_LOAD && flat_tile_of_load (p->t, e) < 0
	 && flat_expr_mentions (e->u.load.index, p->index);
}

/* Whether the reduce of 1-D tiling T in SUB reads such a load at each
   iteration.  Its tiles then save only the staged operand's reads, and
   the stream of the points' own sets the pace: matvec_t 8192 x 8192
   (x[i] staged, each column read down) took 0.104 ms tiled against the
   lanes of its segmented reduction's 0.085 on an H200.  */
static int
reads_point_stream (const flat_context *sub, const flat_tiling *t)
{
  point_stream p = { t, sub->dims[sub->n - 1].index };
  flat_walker w = { NULL, streams_points, &p };

  return t->n_tiled == 1 && !t->transposes
	 && flat_walk_block (&t->reduce->u.red.body, &w) != 0;
}

/* Count a node: a statement, or an expression node.  */
static int
count_stmt (flat_stmt *s, void *data)
{
  (void) s;
  ++*(int *) data;
  return 0;
}

static int
count_expr (flat_expr *e, flat_stmt *s, void *data)
{
  (void) e;
  return count_stmt (s, data);
}

/* Whether T's register tile R (points per item R, or R x R in two
   dims) copies its reduce's body few enough times (Note [Register
   tiles of large bodies]).  */
static int
register_tile_fits (const flat_tiling *t, int r)
{
  int nodes = 0, points = t->n_tiled == 2 ? r * r : r;
  flat_walker w = { count_stmt, count_expr, &nodes };

  flat_walk_block (&t->reduce->u.red.body, &w);
  return points * nodes <= T2_COPIED_NODES;
}

static flat_expr *
i64 (flat_nest *nest, int64_t v)
{
  return flat_e_const_int (nest, FLAT_T_I64, v);
}

/* Note [Guards of split tiles]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A tiled segmap whose reduce may be split (flat_tiling_split_accs)
   runs, where its blocks are few, a group per block and slice of the
   reduce's iterations (Note [Slices of a tiled reduce] in
   runtime/launch.c): its guard counts its items times the slices, as
   the runtime will cut them,

     tiles = ceil (q / depth)
     S0 = max (1, min (ceil (SPLIT_GROUPS / blocks),
		       min (SPLIT_MOST, tiles / SPLIT_TILES)))
     S = ceil (tiles / ceil (tiles / S0))     (whole tiles a slice)

   with the blocks counted as the runtime counts them (block_count).
   So a tiled version takes few points with a long reduce: matmul 64 x
   64 x 4096 on an H200 ran tile 1 split in 16 in 0.019 ms, the
   segmented reduction that its guards chose before in 0.033; 128 x 128
   x 1024 tile 4 split in 16 0.015 against 0.038; n-body over 8192
   bodies 0.132 against a group per body's 0.149.  The guard of G3
   above them (Par(Sigma') >= t_top, e_top and its tiled versions
   against e_middle and e_flat) takes the largest of their Pars too: 64
   x 64 points alone would not reach it.  A transposition tile is not
   counted split: a row walked per point shares nothing, and a group per
   row reads it as well (matvec 8192^2: split in 8, 0.115 ms; a group
   per row, which its guards chose before, 0.079).  */
static flat_expr *
split_slices (flat_nest *nest, const flat_tiling *t, flat_expr *blocks,
	      flat_expr *q)
{
  flat_expr *one = i64 (nest, 1);
  flat_expr *want
    = flat_e_binary (nest, FLAT_OP_DIV,
		     flat_e_binary (nest, FLAT_OP_ADD, blocks,
				    i64 (nest, FLAT_TILE_SPLIT_GROUPS - 1)),
		     flat_e_binary (nest, FLAT_OP_MAX, one, blocks));
  flat_expr *tiles
    = flat_e_binary (nest, FLAT_OP_DIV,
		     flat_e_binary (nest, FLAT_OP_ADD, q,
				    i64 (nest, t->depth - 1)),
		     i64 (nest, t->depth));
  flat_expr *most
    = flat_e_binary (nest, FLAT_OP_MIN,
		     flat_e_binary (nest, FLAT_OP_DIV, tiles,
				    i64 (nest, FLAT_TILE_SPLIT_TILES)),
		     i64 (nest, FLAT_TILE_SPLIT_MOST));
  flat_expr *asked
    = flat_e_binary (nest, FLAT_OP_MAX, one,
		     flat_e_binary (nest, FLAT_OP_MIN, want, most));
  /* Whole tiles a slice, as the runtime rounds them.  */
  flat_expr *per
    = flat_e_binary (nest, FLAT_OP_MAX, one,
		     flat_e_binary (nest, FLAT_OP_DIV,
				    flat_e_binary (nest, FLAT_OP_ADD, tiles,
						   flat_e_binary
						   (nest, FLAT_OP_SUB, asked,
						    one)),
				    asked));
  return flat_e_binary (nest, FLAT_OP_MAX, one,
			flat_e_binary (nest, FLAT_OP_DIV,
				       flat_e_binary (nest, FLAT_OP_ADD, tiles,
						      flat_e_binary
						      (nest, FLAT_OP_SUB, per,
						       one)),
				       per));
}

/* The blocks of K, tiled segmap over SUB, as the runtime counts them
   (runtime/launch.c): a block per point of the dims it does not tile,
   ceil (trips / extent) along each tiled one.  */
static flat_expr *
block_count (flat_nest *nest, const flat_context *sub, const flat_kernel *k)
{
  flat_expr *blocks = i64 (nest, 1);

  for (int d = 0; d < k->n_dims; d++)
    {
      flat_expr *trips = flat_par_trip (nest, &sub->dims[d]);
      int64_t extent = flat_tile_extent (k, d);

      if (extent > 1)
	trips = flat_e_binary (nest, FLAT_OP_DIV,
			       flat_e_binary (nest, FLAT_OP_ADD, trips,
					      i64 (nest, extent - 1)),
			       i64 (nest, extent));
      blocks = flat_e_binary (nest, FLAT_OP_MUL, blocks, trips);
    }
  return blocks;
}

/* Whether each tiled dim of K, tiled segmap over SUB, is at least half
   its block's extent along it (a boolean expression).  */
static flat_expr *
blocks_filled (flat_nest *nest, const flat_context *sub, const flat_kernel *k)
{
  flat_expr *filled = NULL;

  for (int d = k->n_dims - flat_tiled_dims (k->n_dims); d < k->n_dims; d++)
    {
      flat_expr *half
	= flat_e_binary (nest, FLAT_OP_GE,
			 flat_par_trip (nest, &sub->dims[d]),
			 i64 (nest, flat_tile_extent (k, d) / 2));
      filled = filled ? flat_e_binary (nest, FLAT_OP_LAND, filled, half)
	       : half;
    }
  return filled;
}

/* PLAN under a guard that takes the tiled segmap of B in SUB at
   register tile R (T1 for 1) where the reduce of T has a tile's depth
   of iterations (any depth for a 2-D block's T2_TILE), and Par(SUB) /
   (points per item) suffices, times the slices of a split reduce (Note
   [Guards of split tiles]), where its blocks are half filled at least
   and a 1-D block's reduce reads no stream of its points' own
   (reads_point_stream);
   *PAR_TOP, where not NULL, raised to that Par where it counts
   slices.  */
static flat_block
guard_tiled (flat_flattener *f, const flat_context *sub, const flat_block *b,
	     const flat_tiling *t, int r, flat_block plan,
	     flat_expr **par_top)
{
  flat_nest *nest = f->nest;
  flat_kernel *k = tiled_kernel (f, sub, b, r);
  if (!k)
    return plan;
  flat_expr *points = flat_par_context (nest, sub);
  flat_expr *q = flat_par_trip (nest, &t->reduce->u.red.range);
  int per_item = t->n_tiled != 2 ? r : r == T2_TILE ? T2_FILL : r * r;
  int split = !t->transposes && flat_tiling_split_accs (t) > 0;
  flat_expr *items = points;
  if (per_item > 1)
    items = flat_e_binary (nest, FLAT_OP_DIV, points, i64 (nest, per_item));
  if (split)
    items = flat_e_binary (nest, FLAT_OP_MUL, items,
			   split_slices (nest, t, block_count (nest, sub, k),
					 q));
  items = flat_e_select (nest, blocks_filled (nest, sub, k), items,
			 i64 (nest, 0));
  if (t->n_tiled != 2 || r != T2_TILE)
    {
      int least = t->transposes ? T1_ROW_WALK_MIN : t->depth;
      flat_expr *deep = flat_e_binary (nest, FLAT_OP_GE, q,
				       i64 (nest, least));
      items = flat_e_select (nest, deep, items, i64 (nest, 0));
    }
  if (reads_point_stream (sub, t))
    items = i64 (nest, 0);
  if (par_top && split)
    *par_top = flat_e_binary (nest, FLAT_OP_MAX, *par_top, items);
  return flat_plan_guard (nest, FLAT_GUARD_TOP, items,
			  flat_plan_launch (nest, k), plan);
}

flat_block
flat_rule_tiles (flat_flattener *f, const flat_context *sub,
		 const flat_block *b, flat_kernel *top, flat_expr **par_top)
{
  flat_tiling t;
  flat_block plan = flat_plan_launch (f->nest, top);

  if (f->strategy != FLAT_STRATEGY_INCREMENTAL
      || !flat_tiling_of (sub->dims, sub->n, b, &t))
    return plan;
  /* T1.  */
  plan = guard_tiled (f, sub, b, &t, 1, plan, par_top);
  /* T2.  */
  if (register_tile_fits (&t, T2_TILE))
    plan = guard_tiled (f, sub, b, &t, T2_TILE, plan, par_top);
  if (t.n_tiled == 2 && register_tile_fits (&t, T2_LARGE_TILE))
    plan = guard_tiled (f, sub, b, &t, T2_LARGE_TILE, plan, par_top);
  return plan;
}

flat_expr *
flat_rule_t3 (flat_flattener *f, const flat_context *sub,
	      const flat_block *b, flat_expr *par)
{
  flat_nest *nest = f->nest;
  const flat_stmt *m = b->first;
  flat_context below = *sub;
  flat_tiling t;

  if (f->strategy != FLAT_STRATEGY_INCREMENTAL || !m || m != b->last
      || m->kind != FLAT_S_MAP || below.n == FLAT_MAX_CONTEXT
      || !flat_range_is_invariant (&m->u.loop.range))
    return par;
  below.dims[below.n++] = m->u.loop.range;
  if (!flat_tiling_of (below.dims, below.n, &m->u.loop.body, &t)
      || t.n_tiled != 2 || flat_tiling_bytes (&t, 1) > FLAT_MAX_STATIC_LOCAL)
    return par;
  flat_expr *q = flat_par_trip (nest, &t.reduce->u.red.range);
  int least = flat_tiling_bytes (&t, T2_TILE) <= FLAT_MAX_STATIC_LOCAL
		&& register_tile_fits (&t, T2_TILE)
	      ? T3_REGISTER_MIN : t.depth;
  return flat_e_select (nest,
			flat_e_binary (nest, FLAT_OP_GE, q,
				       flat_e_const_int (nest, FLAT_T_I64,
							 least)),
			flat_e_const_int (nest, FLAT_T_I64, 0), par);
}
