/* Launches of SEGRED and SEGSCAN kernels by the protocols at the top of
   codegen/codegen.h, as the kernels' descriptors name them.  For a
   kernel k0 over TOTAL iterations, with B
   work-items per group:

     segred k0 with (add s, max m), G groups of CHUNK iterations:
       flat_k0         (nest args, chunk, part_s, part_m)       G x B
       flat_k0_final   (G, part_s, res_s, part_m, res_m)        1 x B
       s = s add res_s[0],  m = m max res_m[0]
     segscan k0 with (add a), tiles of B * scan-items iterations,
     reduce-then-scan, G groups of CHUNK iterations (whole tiles):
       flat_k0_pre     (nest args, chunk, part)                 G x B
       flat_k0         (nest args, chunk, part, res)            G x B
       a = res[0]
     segscan k0 with (add a) on integers, single pass over N tiles of
     values of W words:
       flat_k0_pre     (1 + G + 2 W N, status)       ceil (that / B) x B
       flat_k0         (nest args, status, res)                 G x B
       a = res[0]
     segred k1 segments 2 with (add s), S segments, gps of each:
       flat_k1         (nest args, gps, part_s)     min (S*gps, max) x B
       flat_k1_final   (nest args, gps, part_s)     ceil (S / B') x B'

   The part, res and status buffers come from the pool and go back to
   it; the results are read (a blocking read, which also waits for the
   stages) before this returns, so that a later launch of the plan sees
   the new values as its arguments.  A segmented segred reads nothing
   back.  */

#include "segops.h"

#include "launch.h"

#include "scalar.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The most work-items a group of OP's stages can have.  */
static size_t
stage_limit (const flat_segop *op)
{
  int n = flat_protocol_n_stages (op->desc->protocol);
  size_t limit = FLAT_MAX_GROUP;
  int i;

  for (i = 0; i < n; i++)
    if (op->stages[i].max_group < limit)
      limit = op->stages[i].max_group;
  return limit;
}

/* The largest power of two that is at most LIMIT (1 for 0).  */
static size_t
pow2_at_most (size_t limit)
{
  size_t b = 1;

  while (b * 2 <= limit)
    b *= 2;
  return b;
}

/* The largest power of two that is at most FLAT_GROUP_SIZE,
   FLAT_MAX_GROUP and every stage's max_group.  */
static size_t
group_limit (const flat_segop *op)
{
  size_t limit = stage_limit (op);

  return pow2_at_most (op->group_size < limit ? op->group_size : limit);
}

void
flat_segop_shape (const flat_segop *op, size_t *group, int64_t *n_parts,
		  int64_t *chunk)
{
  size_t b = group_limit (op);
  int64_t g, cap = FLAT_SEGOP_MAX_PARTS, least = (int64_t) b;

  if (op->desc->protocol == FLAT_PROTO_CHUNKED)
    {
      cap = FLAT_SEGOP_MAX_ORDERED_PARTS;
      least = (int64_t) b * op->desc->ordered_run;
    }
  g = (op->total - 1) / least + 1;
  if (g > cap)
    g = cap;
  *chunk = (op->total - 1) / g + 1;
  /* Rounding the chunk up can leave the last groups without work.  */
  *n_parts = (op->total - 1) / *chunk + 1;
  *group = b;
}

void
flat_segop_segmented_shape (const flat_segop *op, size_t *group,
			    int64_t *gps, int64_t *n_parts)
{
  int64_t inner = op->total / op->segments, target;
  /* At least a warp's items, as for a work-group version (Note [Least
     group] in launch.c): PoCL 3.1 aborts building a segmented scan's
     stages for groups of one item.  */
  size_t b = flat_group_items (inner, group_limit (op));

  target = FLAT_SEGOP_FILL / (int64_t) b;
  *gps = 1;
  if (op->segments < target)
    {
      int64_t chunks = (inner - 1) / (int64_t) b + 1;

      *gps = (target - 1) / op->segments + 1;
      if (*gps > chunks)
	*gps = chunks > 0 ? chunks : 1;
    }
  *n_parts = op->segments * *gps;
  *group = b;
}

/* Chunks of whole tiles of TILE iterations over TOTAL > 0 iterations,
   at most FLAT_SEGOP_MAX_PARTS of them: *TILES and *CHUNK; returns the
   groups that have work (rounding the chunk up can leave the last ones
   without).  */
static int64_t
tile_chunks (int64_t total, int64_t tile, int64_t *tiles, int64_t *chunk)
{
  int64_t cap;

  *tiles = (total - 1) / tile + 1;
  cap = *tiles < FLAT_SEGOP_MAX_PARTS ? *tiles : FLAT_SEGOP_MAX_PARTS;
  *chunk = ((*tiles - 1) / cap + 1) * tile;
  return (total - 1) / *chunk + 1;
}

void
flat_segscan_shape (const flat_segop *op, size_t *group, int64_t *tiles,
		    int64_t *groups, int64_t *chunk)
{
  size_t b = group_limit (op);
  const flat_kernel_desc *d = op->desc;
  int64_t tile = (int64_t) b * d->scan_items, cap;

  if (flat_desc_single_pass (d))
    {
      /* Whole warps, FLAT_GROUP_SIZE notwithstanding, where the stages
	 can run them.  */
      size_t limit = stage_limit (op), min_group = (size_t) d->min_group;
      size_t least = pow2_at_most (limit < min_group ? limit : min_group);

      if (b < least)
	b = least;
      tile = (int64_t) b * d->scan_items * d->ticket_tiles;
      *tiles = (op->total - 1) / tile + 1;
      cap = FLAT_SEGOP_FILL / (int64_t) b;
      if (cap > FLAT_MAX_GROUPS)
	cap = FLAT_MAX_GROUPS;
      *groups = *tiles < cap ? *tiles : cap;
      *chunk = tile;
    }
  else
    *groups = tile_chunks (op->total, tile, tiles, chunk);
  *group = b;
}

void
flat_segop_discard (const flat_backend *b, flat_segop_buffer *buffers, int n)
{
  char err[256];
  int i;

  for (i = 0; i < n; i++)
    if (buffers[i].host)
      buffers[i].host = NULL;
    else
      (void) b->buffer_free (buffers[i].handle, err, sizeof err);
}

void
flat_segop_release (flat_pool *pool, flat_segop_buffer *buffers, int n)
{
  char err[256];
  int j;

  for (j = 0; j < n; j++)
    if (buffers[j].host)
      buffers[j].host = NULL;
    else
      (void) flat_pool_release (pool, buffers[j].handle, buffers[j].capacity,
				err, sizeof err);
}

static void
set_buffer (flat_arg *arg, const flat_segop_buffer *buffer)
{
  arg->size = 0;
  arg->value = buffer->handle;
}

/* The nest arguments into op->args; returns their number.  */
static int
nest_args (const flat_segop *op)
{
  int a;

  for (a = 0; a < op->n_nest_args; a++)
    op->args[a] = op->nest_args[a];
  return a;
}

/* Arguments of the stages that walk the iterations into op->args: the
   nest arguments, *CHUNK (a segmented segred's gps) and every
   accumulator's part, op->buffers[STRIDE * j].  Returns their number.  */
static int
walk_args (const flat_segop *op, const int64_t *chunk, int stride)
{
  int a = nest_args (op), j;

  op->args[a].size = sizeof *chunk;
  op->args[a++].value = chunk;
  for (j = 0; j < op->kernel->n_accs; j++)
    set_buffer (&op->args[a++], &op->buffers[stride * j]);
  return a;
}

/* Arguments of flat_kN_final: *N_PARTS, then part and res of every
   accumulator.  */
static int
final_args (const flat_segop *op, const int64_t *n_parts)
{
  int a = 0, j;

  op->args[a].size = sizeof *n_parts;
  op->args[a++].value = n_parts;
  for (j = 0; j < op->kernel->n_accs; j++)
    {
      set_buffer (&op->args[a++], &op->buffers[2 * j]);
      set_buffer (&op->args[a++], &op->buffers[2 * j + 1]);
    }
  return a;
}

/* Allocate op->buffers[N] of BYTES; -1 on failure.  */
static int
alloc_buffer (flat_pool *pool, const flat_segop *op, int n, size_t bytes,
	      char *err, size_t err_size)
{
  return flat_pool_alloc (pool, bytes, &op->buffers[n].handle,
			  &op->buffers[n].capacity, err, err_size);
}

/* Buffer N of OP for accumulator J's result: slot J of B's result area
   where it has one (Note [Results in host memory] in backend_cuda.c),
   else of POOL.  */
static int
alloc_result (const flat_backend *b, flat_pool *pool, const flat_segop *op,
	      int n, int j, char *err, size_t err_size)
{
  flat_segop_buffer *res = &op->buffers[n];
  size_t elem = (size_t) flat_type_table[op->kernel->accs[j].var->type].size;

  if (b->result_slot && elem <= FLAT_RESULT_BYTES)
    {
      if (b->result_slot (j, &res->handle, &res->host, err, err_size) != 0)
	return -1;
      if (res->host)
	return 0;
    }
  return flat_pool_alloc (pool, elem, &res->handle, &res->capacity, err,
			  err_size);
}

/* Accumulator J's result, in buffer RES, into VALUES: the total of a
   segscan, the value before OP the reduction for a segred.  A result in
   the result area is there once B has finished (*FINISHED, which this
   sets).  */
static int
read_result (const flat_backend *b, const flat_segop *op, int j,
	     const flat_segop_buffer *res, int *finished, flat_value *values,
	     const char **what, char *err, size_t err_size)
{
  const flat_accum *acc = &op->kernel->accs[j];
  flat_type t = acc->var->type;
  flat_value *v = &values[acc->var->id];
  size_t size = (size_t) flat_type_table[t].size;
  flat_scalar s;
  flat_value r;
  int ok = 1;

  *what = "reading a result";
  if (res->host)
    {
      if (!*finished && b->finish (err, err_size) != 0)
	return -1;
      *finished = 1;
      memcpy (&s, res->host, size);
    }
  else if (b->read (res->handle, 0, &s, size, err, err_size) != 0)
    return -1;
  r = flat_scalar_value (t, &s);
  if (flat_node_scans (op->kernel->kind))
    *v = r;
  else if (!acc->user)
    *v = flat_op_apply (acc->op, t, *v, r);
  else
    {
      *v = flat_combiner_apply (op->ir, acc->user, *v, r, &ok);
      if (!ok)
	{
	  snprintf (err, err_size, "combiner %s cannot run on the host",
		    acc->user->name);
	  return -1;
	}
    }
  return 0;
}

/* Segments a segmented segred needs before its lanes stage runs instead
   of the first (codegen.h): a warp's worth, for coalesced loads.  */
#define FLAT_SEGOP_LANES_MIN_SEGMENTS 32

/* Parts a segment may have for the final stage of one work-item per
   segment; with more, a group per segment combines them (its items a
   few parts each, FLAT_SEGOP_GROUP_FINAL_PER): one item's chain of
   dependent loads is bound by their latency.  */
#define FLAT_SEGOP_ITEM_FINAL_PARTS 8
#define FLAT_SEGOP_GROUP_FINAL_PER 4

/* Iterations a chunk of the lanes stage has at least, where the
   segments have that many: a part stored per iteration or two would
   make the final stage read as much as the first.  */
#define FLAT_SEGOP_LANES_MIN_CHUNK 16

/* The launch shape of the lanes stage of a segmented OP: *GROUP as for
   flat_segop_segmented_shape, *GPS chunks of each segment so that the
   slots (the segments over the descriptor's lane-segments, rounded up)
   times *GPS, a work-item each, come near FLAT_SEGOP_FILL, or half of
   it where an item takes several segments (its loads in flight fill
   the device with half the items, and the final stage gets half the
   parts); no chunk shorter than FLAT_SEGOP_LANES_MIN_CHUNK iterations
   where the segments have that many; *N_PARTS = segments * *GPS and
   *GROUPS the groups that hold the items.  */
static void
lanes_shape (const flat_segop *op, size_t *group, int64_t *gps,
	     int64_t *n_parts, int64_t *groups)
{
  int64_t inner = op->total / op->segments;
  int64_t per = op->desc->lane_segments > 1 ? op->desc->lane_segments : 1;
  int64_t slots = (op->segments - 1) / per + 1;
  int64_t most = inner / FLAT_SEGOP_LANES_MIN_CHUNK;

  *group = group_limit (op);
  *gps = ((per > 1 ? FLAT_SEGOP_FILL / 2 : FLAT_SEGOP_FILL) - 1) / slots + 1;
  if (*gps > most)
    *gps = most > 0 ? most : 1;
  *n_parts = op->segments * *gps;
  *groups = (slots * *gps - 1) / (int64_t) *group + 1;
}

/* The final stage of a segmented OP with GPS parts a segment: its index
   in op->stages, *GROUP and *GROUPS.  */
static int
final_shape (const flat_segop *op, int64_t gps, size_t *group,
	     int64_t *groups)
{
  const flat_stage *item = &op->stages[1];

  if (gps <= FLAT_SEGOP_ITEM_FINAL_PARTS)
    {
      *group = op->group_size < item->max_group ? op->group_size
	       : item->max_group;
      *groups = (op->segments - 1) / (int64_t) *group + 1;
      return 1;
    }
  *group = flat_group_items ((gps + FLAT_SEGOP_GROUP_FINAL_PER - 1)
			     / FLAT_SEGOP_GROUP_FINAL_PER, group_limit (op));
  *groups = op->segments;
  return 2;
}

/* A segmented OP: its parts (op->buffers[j] for accumulator j), the
   stage over the virtual groups (the lanes stage where the kernel has
   one and there are enough segments), and the final stage, which
   stores the results.  */
static int
run_segmented (const flat_backend *b, flat_pool *pool, const flat_segop *op,
	       const char **what, char *err, size_t err_size)
{
  const flat_kernel *k = op->kernel;
  size_t group;
  int64_t gps, n_parts, groups;
  int n, n_args, final;
  int lanes = op->desc->protocol == FLAT_PROTO_SEGMENTED_LANES
	      && op->segments >= FLAT_SEGOP_LANES_MIN_SEGMENTS;

  if (lanes)
    lanes_shape (op, &group, &gps, &n_parts, &groups);
  else
    {
      flat_segop_segmented_shape (op, &group, &gps, &n_parts);
      groups = n_parts;
    }
  *what = "allocating device memory";
  for (n = 0; n < k->n_accs; n++)
    if (flat_pool_alloc (pool, (size_t) flat_type_table[k->accs[n].var->type]
			 .size * (size_t) n_parts, &op->buffers[n].handle,
			 &op->buffers[n].capacity, err, err_size) != 0)
      goto fail;
  n_args = walk_args (op, &gps, 1);
  if (groups > FLAT_MAX_GROUPS)
    groups = FLAT_MAX_GROUPS;
  if (flat_stage_launch (b, op->nest, &op->stages[lanes ? 3 : 0], op->args,
			 n_args, op->total, (size_t) groups, group, what, err,
			 err_size) != 0)
    goto fail;
  final = final_shape (op, gps, &group, &groups);
  if (groups > FLAT_MAX_GROUPS)
    groups = FLAT_MAX_GROUPS;
  if (flat_stage_launch (b, op->nest, &op->stages[final], op->args, n_args,
			 op->segments, (size_t) groups, group, what, err,
			 err_size) != 0)
    goto fail;
  flat_segop_release (pool, op->buffers, n);
  return 0;

fail:
  flat_segop_discard (b, op->buffers, n);
  return -1;
}

/* A reduction OP: part and res of accumulator j in op->buffers[2 j] and
   [2 j + 1], the chunks, the final stage, the results into VALUES.  */
static int
run_segred (const flat_backend *b, flat_pool *pool, const flat_segop *op,
	    flat_value *values, const char **what, char *err,
	    size_t err_size)
{
  const flat_kernel *k = op->kernel;
  size_t group;
  int64_t n_parts, chunk;
  int n, j, n_args, finished = 0;

  flat_segop_shape (op, &group, &n_parts, &chunk);
  *what = "allocating device memory";
  for (n = 0; n < 2 * k->n_accs; n++)
    if (n % 2 ? alloc_result (b, pool, op, n, n / 2, err, err_size) != 0
	: alloc_buffer (pool, op, n, (size_t) flat_type_table
			[k->accs[n / 2].var->type].size * (size_t) n_parts,
			err, err_size) != 0)
      goto fail;
  n_args = walk_args (op, &chunk, 2);
  if (flat_stage_launch (b, op->nest, &op->stages[0], op->args, n_args,
			 op->total, (size_t) n_parts, group, what, err,
			 err_size) != 0)
    goto fail;
  n_args = final_args (op, &n_parts);
  if (flat_stage_launch (b, op->nest, &op->stages[1], op->args, n_args,
			 n_parts, 1, group, what, err, err_size) != 0)
    goto fail;
  for (j = 0; j < k->n_accs; j++)
    if (read_result (b, op, j, &op->buffers[2 * j + 1], &finished, values,
		     what, err, err_size) != 0)
      goto fail;
  flat_segop_release (pool, op->buffers, n);
  return 0;

fail:
  flat_segop_discard (b, op->buffers, n);
  return -1;
}

/* A scan OP by its protocol: op->buffers part (reduce-then-scan) or
   status (single pass: the tile counter, a word per group and the
   tiles' published values, codegen.h), then res; the total into
   VALUES.  */
static int
run_segscan (const flat_backend *b, flat_pool *pool, const flat_segop *op,
	     flat_value *values, const char **what, char *err,
	     size_t err_size)
{
  const flat_kernel *k = op->kernel;
  size_t elem = (size_t) flat_type_table[k->accs[0].var->type].size, group;
  int64_t tiles, groups, chunk, words = 0, clear_groups;
  int n, n_args, finished = 0;

  flat_segscan_shape (op, &group, &tiles, &groups, &chunk);
  if (flat_desc_single_pass (op->desc))
    {
      /* The tile numbers come from a 32-bit atomic counter.  */
      if (tiles > INT32_MAX - groups)
	{
	  *what = "launching a kernel";
	  snprintf (err, err_size, "%s has %" PRId64 " tiles, too many for "
		    "its tile counter", k->name, tiles);
	  return -1;
	}
      words = flat_desc_status_total (op->desc, groups, tiles);
    }
  *what = "allocating device memory";
  n = 0;
  if (alloc_buffer (pool, op, 0, words ? (size_t) words * sizeof (uint64_t)
		    : (size_t) groups * elem, err, err_size) != 0)
    goto fail;
  n = 1;
  if (alloc_result (b, pool, op, 1, 0, err, err_size) != 0)
    goto fail;
  n = 2;
  if (words)
    {
      clear_groups = (words - 1) / (int64_t) group + 1;
      if (clear_groups > FLAT_MAX_GROUPS)
	clear_groups = FLAT_MAX_GROUPS;
      op->args[0].size = sizeof words;
      op->args[0].value = &words;
      set_buffer (&op->args[1], &op->buffers[0]);
      if (flat_stage_launch (b, op->nest, &op->stages[0], op->args, 2, words,
			     (size_t) clear_groups, group, what, err,
			     err_size) != 0)
	goto fail;
      n_args = nest_args (op);
      set_buffer (&op->args[n_args++], &op->buffers[0]);
    }
  else
    {
      n_args = walk_args (op, &chunk, 1);
      if (flat_stage_launch (b, op->nest, &op->stages[0], op->args, n_args,
			     op->total, (size_t) groups, group, what, err,
			     err_size) != 0)
	goto fail;
    }
  set_buffer (&op->args[n_args++], &op->buffers[1]);
  if (flat_stage_launch (b, op->nest, &op->stages[1], op->args, n_args,
			 op->total, (size_t) groups, group, what, err,
			 err_size) != 0
      || read_result (b, op, 0, &op->buffers[1], &finished, values, what,
		      err, err_size) != 0)
    goto fail;
  flat_segop_release (pool, op->buffers, n);
  return 0;

fail:
  flat_segop_discard (b, op->buffers, n);
  return -1;
}

void
flat_segscan_segmented_shape (const flat_segop *op, size_t *group,
			      int64_t *gps, int64_t *n_parts)
{
  int64_t tiles;

  flat_segop_segmented_shape (op, group, gps, n_parts);
  tiles = (op->total / op->segments - 1) / ((int64_t) *group
					     * op->desc->scan_items) + 1;
  if (*gps > tiles)
    *gps = tiles > 0 ? tiles : 1;
  *n_parts = op->segments * *gps;
}

/* A segmented scan OP: the part of every chunk in op->buffers[0], then
   the stage that scans the chunks and runs the post blocks; each stage
   in launches of at most FLAT_MAX_GROUPS groups, one per virtual group,
   the first of them the kernel's last argument.  */
static int
run_segmented_scan (const flat_backend *b, flat_pool *pool,
		    const flat_segop *op, const char **what, char *err,
		    size_t err_size)
{
  size_t elem = (size_t) flat_type_table[op->kernel->accs[0].var->type].size;
  size_t group;
  int64_t gps, n_parts, base, groups;
  int s, n_args;

  flat_segscan_segmented_shape (op, &group, &gps, &n_parts);
  *what = "allocating device memory";
  if (flat_pool_alloc (pool, elem * (size_t) n_parts, &op->buffers[0].handle,
		       &op->buffers[0].capacity, err, err_size) != 0)
    return -1;
  n_args = walk_args (op, &gps, 1);
  op->args[n_args].size = sizeof base;
  op->args[n_args++].value = &base;
  for (s = 0; s < 2; s++)
    for (base = 0; base < n_parts; base += groups)
      {
	groups = n_parts - base < FLAT_MAX_GROUPS ? n_parts - base
		 : FLAT_MAX_GROUPS;
	if (flat_stage_launch (b, op->nest, &op->stages[s], op->args, n_args,
			       op->total, (size_t) groups, group, what, err,
			       err_size) != 0)
	  {
	    flat_segop_discard (b, op->buffers, 1);
	    return -1;
	  }
      }
  flat_segop_release (pool, op->buffers, 1);
  return 0;
}

/* Work-groups of the flat stage S of an irregular segred, of GROUP
   work-items: as many as the device holds at once where the backend can
   tell, so that its ranges, of equal work, run in one wave (on an H200
   the 1024 groups of FLAT_SEGOP_FILL ran a CSR SpMV's in two waves of
   528, the second not full), else enough to fill a large GPU.  */
static int64_t
irregular_flat_groups (const flat_backend *b, const flat_segop *op,
		       const flat_stage *s, size_t group)
{
  size_t resident = 0;
  char err[256];

  if (op->kernel->kind == FLAT_N_SEGRED_IRREGULAR && b->resident_groups
      && b->resident_groups (s->fn, group, &resident, err, sizeof err) == 0
      && resident > 0)
    return (int64_t) resident;
  return FLAT_SEGOP_FILL / (int64_t) group;
}

/* An irregular segmented OP (codegen/segments_irregular.c): op->buffers
   0 the offsets, 1 the chunk sums (and, for contiguous segments, each
   chunk's flag and end), 2 + 2 j and 3 + 2 j the parts (one
   per segment) and heads (one per range of the flat stage: a group, or
   a warp of one, codegen/segments_irregular_warps.c) of
   accumulator j.  The sizes and offsets stages run over chunks of whole
   tiles of segments, at most FLAT_SEGOP_MAX_PARTS of them; the flat
   stage on enough groups to fill the device (irregular_flat_groups),
   each a share of the
   iterations, which only the device counts (a segscan's runs stage,
   then its scan stage on the same groups); a segred's or segscan's
   final stage with one work-item per segment.  */
static int
run_irregular (const flat_backend *b, flat_pool *pool, const flat_segop *op,
	       const char **what, char *err, size_t err_size)
{
  const flat_kernel *k = op->kernel;
  size_t group = group_limit (op);
  int64_t n_seg = op->segments, tiles, seg_groups, chunk, groups, heads;
  int64_t final;
  int n, j, a, s, flat;

  seg_groups = tile_chunks (n_seg, (int64_t) group, &tiles, &chunk);
  groups = irregular_flat_groups (b, op, &op->stages[2], group);
  /* A segred's flat stage may take a range per warp.  */
  heads = groups * (group > FLAT_WARP_LANES
		    ? (int64_t) group / FLAT_WARP_LANES : 1);
  *what = "allocating device memory";
  n = 0;
  if (alloc_buffer (pool, op, n, (size_t) (n_seg + 1) * sizeof (int64_t),
		    err, err_size) != 0)
    goto fail;
  n = 1;
  if (alloc_buffer (pool, op, n, (size_t) (3 * seg_groups)
		    * sizeof (int64_t), err, err_size) != 0)
    goto fail;
  for (n = 2; n < 2 + 2 * k->n_accs; n++)
    {
      size_t elem = (size_t) flat_type_table[k->accs[(n - 2) / 2].var->type]
		    .size;

      if (alloc_buffer (pool, op, n, elem * (size_t) (n % 2 ? heads : n_seg),
			err, err_size) != 0)
	goto fail;
    }
  a = nest_args (op);
  op->args[a].size = sizeof chunk;
  op->args[a++].value = &chunk;
  set_buffer (&op->args[a++], &op->buffers[0]);
  set_buffer (&op->args[a++], &op->buffers[1]);
  if (flat_stage_launch (b, op->nest, &op->stages[0], op->args, a, n_seg,
			 (size_t) seg_groups, group, what, err, err_size) != 0)
    goto fail;
  op->args[0].size = sizeof n_seg;
  op->args[0].value = &n_seg;
  op->args[1].size = sizeof chunk;
  op->args[1].value = &chunk;
  set_buffer (&op->args[2], &op->buffers[0]);
  set_buffer (&op->args[3], &op->buffers[1]);
  if (flat_stage_launch (b, op->nest, &op->stages[1], op->args, 4, n_seg,
			 (size_t) seg_groups, group, what, err, err_size) != 0)
    goto fail;
  a = nest_args (op);
  set_buffer (&op->args[a++], &op->buffers[0]);
  for (j = 0; j < 2 * k->n_accs; j++)
    set_buffer (&op->args[a++], &op->buffers[2 + j]);
  flat = k->kind == FLAT_N_SEGSCAN_IRREGULAR ? 2 : 1;
  for (s = 2; s < 2 + flat; s++)
    if (flat_stage_launch (b, op->nest, &op->stages[s], op->args, a,
			   groups * (int64_t) group, (size_t) groups, group,
			   what, err, err_size) != 0)
      goto fail;
  if (k->kind == FLAT_N_SEGMAP_IRREGULAR)
    {
      flat_segop_release (pool, op->buffers, n);
      return 0;
    }
  a = nest_args (op);
  op->args[a].size = sizeof groups;
  op->args[a++].value = &groups;
  set_buffer (&op->args[a++], &op->buffers[0]);
  for (j = 0; j < 2 * k->n_accs; j++)
    set_buffer (&op->args[a++], &op->buffers[2 + j]);
  final = tiles < FLAT_MAX_GROUPS ? tiles : FLAT_MAX_GROUPS;
  if (flat_stage_launch (b, op->nest, &op->stages[s], op->args, a, n_seg,
			 (size_t) final, group, what, err, err_size) != 0)
    goto fail;
  flat_segop_release (pool, op->buffers, n);
  return 0;

fail:
  flat_segop_discard (b, op->buffers, n);
  return -1;
}

/* A partitioned segmap OP (codegen/segmap_partitioned.c): op->buffers
   0 the slots' points (one per point), 1 the counts of the flags
   stage's groups, one per arm; the flags and perm stages over chunks of whole tiles
   of points, at most FLAT_SEGOP_MAX_PARTS of them, then the body at
   every slot.  */
static int
run_partitioned (const flat_backend *b, flat_pool *pool,
		 const flat_segop *op, const char **what, char *err,
		 size_t err_size)
{
  size_t group = group_limit (op);
  int64_t tiles, groups, chunk, slots;
  int n, s, a;

  groups = tile_chunks (op->total, (int64_t) group, &tiles, &chunk);
  *what = "allocating device memory";
  n = 0;
  if (alloc_buffer (pool, op, n, (size_t) op->total * sizeof (int64_t),
		    err, err_size) != 0)
    goto fail;
  n = 1;
  if (alloc_buffer (pool, op, n, (size_t) (groups * op->kernel->arms)
		    * sizeof (int64_t), err, err_size) != 0)
    goto fail;
  n = 2;
  a = nest_args (op);
  op->args[a].size = sizeof chunk;
  op->args[a++].value = &chunk;
  set_buffer (&op->args[a++], &op->buffers[0]);
  set_buffer (&op->args[a++], &op->buffers[1]);
  for (s = 0; s < 2; s++)
    if (flat_stage_launch (b, op->nest, &op->stages[s], op->args, a,
			   op->total, (size_t) groups, group, what, err,
			   err_size) != 0)
      goto fail;
  a = nest_args (op);
  set_buffer (&op->args[a++], &op->buffers[0]);
  slots = tiles < FLAT_MAX_GROUPS ? tiles : FLAT_MAX_GROUPS;
  if (flat_stage_launch (b, op->nest, &op->stages[2], op->args, a,
			 op->total, (size_t) slots, group, what, err,
			 err_size) != 0)
    goto fail;
  flat_segop_release (pool, op->buffers, n);
  return 0;

fail:
  flat_segop_discard (b, op->buffers, n);
  return -1;
}

int
flat_segop_run (const flat_backend *b, flat_pool *pool,
		const flat_segop *op, flat_value *values, const char **what,
		char *err, size_t err_size)
{
  switch (op->kernel->kind)
    {
    case FLAT_N_SEGSCAN_SEGMENTED:
      return run_segmented_scan (b, pool, op, what, err, err_size);
    case FLAT_N_SEGRED_SEGMENTED:
      return run_segmented (b, pool, op, what, err, err_size);
    case FLAT_N_SEGRED_IRREGULAR:
    case FLAT_N_SEGMAP_IRREGULAR:
    case FLAT_N_SEGSCAN_IRREGULAR:
      return run_irregular (b, pool, op, what, err, err_size);
    case FLAT_N_SEGMAP_PARTITIONED:
      return run_partitioned (b, pool, op, what, err, err_size);
    case FLAT_N_SEGSCAN:
      return run_segscan (b, pool, op, values, what, err, err_size);
    default:
      return run_segred (b, pool, op, values, what, err, err_size);
    }
}
