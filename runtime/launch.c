/* Launches of single kernels (launch.h): the work a kernel has now, the
   local-memory check, the shapes of segmap launches, and the hand-over
   of reductions and scans to segops.c.

     segmap grid  (i : 0 .. 1000)       total 1000, 4 groups x 256
     segmap group (i : 0 .. 50) threads (cast i64 m), m = 100
					50 groups x 128 (the power of two
					that covers 100)
     segmap tiled (i : 0 .. 100, j : 0 .. 70) tile 4
					2 x 2 groups x 256, a block of
					64 x 64 points each
     segred grid  (i, j, k) segments 2  n*m segments: segops.c  */

#include "launch.h"

#include <stdio.h>

/* Note [Private arrays]
   A work-item's local arrays are private memory.  PoCL runs a whole
   work-group on one thread and keeps every item's copy on that thread's
   stack: 256 items with a 64 KiB array each overflow it and the program
   dies.  A grid segmap whose items hold big arrays therefore gets groups
   small enough that their private arrays take at most this many bytes
   together (GPUs spill private arrays to global memory and do not care
   about the group size as much).  */
#define FLAT_PRIVATE_PER_GROUP ((size_t) 4 << 20)

/* Note [Least group]
   A work-group version gets at least a warp's items, where the device
   allows: fewer leave a GPU's warp idle anyway, and PoCL 3.1 crashed
   (segfaults, "Could not find a dominating alternative variable")
   compiling work-group functions of one or two items.  Items past the
   inner parallelism run no iteration.  */
#define FLAT_LEAST_GROUP ((size_t) 32)

size_t
flat_group_items (int64_t threads, size_t max_group)
{
  size_t limit = max_group < FLAT_MAX_GROUP ? max_group : FLAT_MAX_GROUP;
  size_t b = limit < FLAT_LEAST_GROUP ? limit : FLAT_LEAST_GROUP;

  while ((int64_t) b < threads && b * 2 <= limit)
    b *= 2;
  return b;
}

/* The points of dims [FROM, TO) of K into *POINTS, the first dim
   narrowed to L's slice as the kernel narrows it; with BLOCKS, the
   blocks of flat_tile_extent points of a tiled segmap instead.  */
static int
count_points (const flat_launcher *l, const flat_kernel *k, int from,
	      int to, int blocks, int64_t *points, char *err,
	      size_t err_size)
{
  int d;

  *points = 1;
  for (d = from; d < to; d++)
    {
      int64_t trips = flat_range_trip_count (&k->dims[d], l->values);

      if (trips < 0)
	{
	  snprintf (err, err_size, "trip count of dimension %d of %s "
		    "unknown", d, k->name);
	  return -1;
	}
      if (d == 0)
	trips = flat_slice_trips (trips, l->slice.lo, l->slice.hi);
      if (blocks)
	{
	  int64_t extent = flat_tile_extent (k, d);

	  trips = (trips + extent - 1) / extent;
	}
      if (trips > 0 && *points > INT64_MAX / trips)
	{
	  snprintf (err, err_size, "%s has more than 2^63 work-items",
		    k->name);
	  return -1;
	}
      *points *= trips;
    }
  return 0;
}

/* TOTAL groups of GROUP items of stage S, in launches of at most
   FLAT_MAX_GROUPS groups, the first group of each the argument flat_base
   after the nest's (codegen/group_kernel.c, Note [One group per point]),
   then the N_EXTRA arguments EXTRA.  */
static int
launch_groups (const flat_launcher *l, const flat_stage *s, int64_t total,
	       size_t group, const flat_arg *extra, int n_extra,
	       const char **what, char *err, size_t err_size)
{
  int a;
  int64_t base, groups;

  for (a = 0; a < l->n_args; a++)
    l->seg_args[a] = l->args[a];
  l->seg_args[a].size = sizeof base;
  l->seg_args[a++].value = &base;
  for (int e = 0; e < n_extra; e++)
    l->seg_args[a++] = extra[e];
  for (base = 0; base < total; base += groups)
    {
      groups = total - base < FLAT_MAX_GROUPS ? total - base
	       : FLAT_MAX_GROUPS;
      if (flat_stage_launch (l->backend, l->nest, s, l->seg_args, a, total,
			     (size_t) groups, group, what, err, err_size)
	  != 0)
	return -1;
    }
  return 0;
}

/* A segmap K of level GROUP over TOTAL points: one group of
   flat_group_items of its THREADS per point, in launches of at most
   FLAT_MAX_GROUPS groups, the first point of each its last argument
   flat_base (codegen/group_kernel.c, Note [One group per point]).  */
static int
launch_group_segmap (const flat_launcher *l, const flat_kernel *k,
		     const flat_stage *s, int64_t total, const char **what,
		     char *err, size_t err_size)
{
  int ok = 1;
  flat_value threads = flat_eval_expr_loading (k->threads, l->values,
					      l->loader, &ok);
  /* An estimate whose loads this execution does not read counts 0, the
     least group (Note [Estimates that cannot load] in plan.c).  */
  size_t group = flat_group_items (ok ? threads.i : 0, s->max_group);

  return launch_groups (l, s, total, group, NULL, 0, what, err, err_size);
}

/* Note [Slices of a tiled reduce]
   ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
   A tiled segmap whose kernel has split stages (Note [Split tiles] in
   codegen/tiled.c) splits its reduce's iterations where its blocks
   leave a large GPU idle: into as many slices as bring the groups to
   FLAT_TILE_SPLIT_GROUPS (about two of 256 items for each of an H100's
   or H200's 132 multiprocessors), each at least FLAT_TILE_SPLIT_TILES
   tiles of iterations deep, so that a slice's PRE, first fetch and
   parts stay small beside its tiles, and at most FLAT_TILE_SPLIT_MOST:
   the final stage's items fold the parts of a point one after another.
   The guards count the slices the same way (Note [Guards of split
   tiles] in flatten/rule_tiling.c).  FLAT_TILE_SPLIT=N asks for N
   slices instead (as many as there are tiles at most; 1: never split).
   The parts take slices x blocks x copies x FLAT_TILE_THREADS values
   per accumulator (matmul 512^3 at tile 4: 4 x 64 x 16 x 256 floats,
   4 MiB).  */

int64_t
flat_tiled_slices (int64_t trips, int depth, int64_t blocks, int forced,
		   int64_t *chunk)
{
  int64_t tiles, want, most, per;

  if (trips <= 0 || blocks <= 0)
    return 1;
  tiles = (trips - 1) / depth + 1;
  want = forced > 0 ? forced : (FLAT_TILE_SPLIT_GROUPS - 1) / blocks + 1;
  most = forced > 0 ? tiles : tiles / FLAT_TILE_SPLIT_TILES;
  if (forced == 0 && most > FLAT_TILE_SPLIT_MOST)
    most = FLAT_TILE_SPLIT_MOST;
  if (want > most)
    want = most;
  if (want <= 1)
    return 1;
  per = (tiles - 1) / want + 1;
  *chunk = per * depth;
  return (tiles - 1) / per + 1;
}

/* Tiled segmap K over BLOCKS blocks, its reduce in SLICES slices of
   CHUNK iterations: the split stage S[1] into a part per accumulator of
   its N_ACCS ACCS, then the final stage S[2], a group per block and copy
   (Note [Split tiles] in codegen/tiled.c).  */
static int
launch_tiled_split (const flat_launcher *l, const flat_kernel *k,
		    const flat_stage *s, int64_t blocks, int64_t slices,
		    int64_t chunk, int n_accs, const flat_accum *accs,
		    const char **what, char *err, size_t err_size)
{
  flat_arg extra[1 + FLAT_MAX_SPLIT_ACCS];
  int64_t copies = flat_tile_copies (k);
  size_t parts = (size_t) (slices * blocks * copies * FLAT_TILE_THREADS);
  int n = 0;

  *what = "allocating device memory";
  for (; n < n_accs; n++)
    if (flat_pool_alloc (l->pool, (size_t) flat_type_table[accs[n].var->type]
			 .size * parts, &l->seg_buffers[n].handle,
			 &l->seg_buffers[n].capacity, err, err_size) != 0)
      goto fail;
  extra[0].size = sizeof chunk;
  extra[0].value = &chunk;
  for (int j = 0; j < n_accs; j++)
    {
      extra[1 + j].size = 0;
      extra[1 + j].value = l->seg_buffers[j].handle;
    }
  if (launch_groups (l, &s[1], slices * blocks, FLAT_TILE_THREADS, extra,
		     1 + n_accs, what, err, err_size) != 0
      || launch_groups (l, &s[2], blocks * copies, FLAT_TILE_THREADS, extra,
			1 + n_accs, what, err, err_size) != 0)
    goto fail;
  flat_segop_release (l->pool, l->seg_buffers, n);
  return 0;

fail:
  flat_segop_discard (l->backend, l->seg_buffers, n);
  return -1;
}

/* A tiled segmap K (flatten/tiles.c) over the points of DIMS: a group of
   FLAT_TILE_THREADS items per block of flat_tile_extent points of each
   dim, as launch_groups numbers them (codegen/tiled.c); its reduce split
   in slices where its descriptor D allows and its blocks are few.  */
static int
launch_tiled (const flat_launcher *l, const flat_kernel *k,
	      const flat_kernel_desc *d, const flat_stage *s,
	      const char **what, char *err, size_t err_size)
{
  flat_tiling t;
  int64_t blocks, slices = 1, chunk = 0;
  int n_accs = 0;

  if (s->max_group < FLAT_TILE_THREADS)
    {
      *what = "launching a kernel";
      snprintf (err, err_size, "%s needs groups of %d items, the device "
		"allows %zu", k->name, FLAT_TILE_THREADS, s->max_group);
      return -1;
    }
  if (count_points (l, k, 0, k->n_dims, 1, &blocks, err, err_size) != 0)
    return -1;
  if (d->protocol == FLAT_PROTO_TILED_SPLIT
      && flat_tiling_of (k->dims, k->n_dims, &k->body, &t)
      && (n_accs = flat_tiling_split_accs (&t)) > 0)
    slices = flat_tiled_slices (flat_range_trip_count
				(&t.reduce->u.red.range, l->values), t.depth,
				blocks, l->tile_split, &chunk);
  if (slices > 1)
    return launch_tiled_split (l, k, s, blocks, slices, chunk, n_accs,
			       t.reduce->u.red.accs, what, err, err_size);
  return launch_groups (l, s, blocks, FLAT_TILE_THREADS, NULL, 0, what, err,
			err_size);
}

/* Segmap K over TOTAL points: grid-level kernels with FLAT_GROUP_SIZE
   work-items per group (within the stage's limit) and as many groups as
   cover TOTAL, at most FLAT_MAX_GROUPS (the kernel's grid-stride loop
   runs the rest).  */
static int
launch_segmap (const flat_launcher *l, const flat_kernel *k,
	       const flat_kernel_desc *d, const flat_stage *s, int64_t total,
	       const char **what, char *err, size_t err_size)
{
  size_t group = l->group_size < s->max_group ? l->group_size
		 : s->max_group;
  /* See Note [Private arrays].  */
  size_t private_bytes = (size_t) d->private_bytes;
  int64_t groups;

  if (d->protocol == FLAT_PROTO_GROUP_MAP)
    return launch_group_segmap (l, k, s, total, what, err, err_size);
  if (d->protocol == FLAT_PROTO_TILED
      || d->protocol == FLAT_PROTO_TILED_SPLIT)
    return launch_tiled (l, k, d, s, what, err, err_size);
  while (group > 1 && private_bytes > FLAT_PRIVATE_PER_GROUP / group)
    group /= 2;
  groups = (total - 1) / (int64_t) group + 1;
  if (groups > FLAT_MAX_GROUPS)
    groups = FLAT_MAX_GROUPS;
  /* Private histograms are merged once per group: few groups, each over
     many iterations (the kernel's grid-stride loop), amortise that.  */
  if (d->private_histograms > 0 && groups > FLAT_SEGOP_MAX_PARTS)
    groups = FLAT_SEGOP_MAX_PARTS;
  return flat_stage_launch (l->backend, l->nest, s, l->args, l->n_args,
			    total, (size_t) groups, group, what, err,
			    err_size);
}

/* Segred or segscan K over TOTAL iterations (SEGMENTS of them for a
   segmented one).  The new values of its accumulators are the arguments
   of later launches.  */
static int
launch_segop (const flat_launcher *l, const flat_kernel *k,
	      const flat_kernel_desc *d, const flat_stage *stages,
	      int64_t total, int64_t segments, const char **what, char *err,
	      size_t err_size)
{
  flat_segop op;
  int j;

  op.nest = l->nest;
  op.ir = l->ir;
  op.kernel = k;
  op.desc = d;
  op.stages = stages;
  op.nest_args = l->args;
  op.n_nest_args = l->n_args;
  op.total = total;
  op.segments = segments;
  op.group_size = l->group_size;
  op.args = l->seg_args;
  op.buffers = l->seg_buffers;
  if (flat_segop_run (l->backend, l->pool, &op, l->values, what, err,
		      err_size) != 0)
    return -1;
  if (k->n_segments > 0)
    return 0;
  for (j = 0; j < k->n_accs; j++)
    {
      const flat_var *v = k->accs[j].var;

      l->scalars[v->id] = flat_scalar_of (v->type, l->values[v->id]);
      l->acc_updated[v->id] = 1;
    }
  return 0;
}

int
flat_launch (const flat_launcher *l, const flat_kernel *k, int *launched,
	     const char **what, char *err, size_t err_size)
{
  int index = flat_kernel_index (l->ir, k);
  int64_t total, segments = 0, inner;
  const flat_kernel_desc *d;
  size_t local;

  *launched = 0;
  *what = "evaluating the plan";
  if (index < 0)
    {
      snprintf (err, err_size, "launch of a kernel not in the nest");
      return -1;
    }
  d = &l->descs[index];
  local = (size_t) d->local_bytes;
  if (flat_node_irregular (k->kind))
    {
      /* The iterations are the device's to count (segops.c).  */
      if (count_points (l, k, 0, k->n_segments, 0, &segments, err, err_size)
	  != 0)
	return -1;
      total = -1;
    }
  else if (k->n_segments > 0)
    {
      if (count_points (l, k, 0, k->n_segments, 0, &segments, err, err_size)
	  != 0
	  || count_points (l, k, k->n_segments, k->n_dims, 0, &inner, err,
			   err_size) != 0)
	return -1;
      if (inner > 0 && segments > INT64_MAX / inner)
	{
	  snprintf (err, err_size, "%s has more than 2^63 work-items",
		    k->name);
	  return -1;
	}
      total = segments * inner;
    }
  else if (count_points (l, k, 0, k->n_dims, 0, &total, err, err_size) != 0)
    return -1;
  /* A segmented kernel runs its post block for every segment, even an
     empty one.  */
  if (k->n_segments > 0 ? segments == 0 : total == 0)
    return 0;
  if (local > l->local_memory)
    {
      *what = "launching a kernel";
      snprintf (err, err_size, "%s needs %zu bytes of local memory, the "
		"device has %zu", k->name, local, l->local_memory);
      return -1;
    }
  *launched = 1;
  if (d->protocol == FLAT_PROTO_MAP || d->protocol == FLAT_PROTO_GROUP_MAP
      || d->protocol == FLAT_PROTO_TILED
      || d->protocol == FLAT_PROTO_TILED_SPLIT)
    return launch_segmap (l, k, d, &l->stages[index * FLAT_MAX_STAGES],
			  total, what, err, err_size);
  return launch_segop (l, k, d, &l->stages[index * FLAT_MAX_STAGES], total,
		       segments, what, err, err_size);
}
