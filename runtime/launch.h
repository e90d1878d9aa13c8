/* One launch of a kernel of a nest, as a `launch kN' of its plan asks
   for it: the work it has with the values of this moment (the bounds may
   depend on plan indices), whether it fits the device's local memory,
   and its shape by the protocol its descriptor names (descriptor.h):

     segmap grid    ceil (total / FLAT_GROUP_SIZE) groups (capped)
     segmap group   one group per point, B items from THREADS
     segred, segscan, segmented segred     segops.c

   plan.c decides which launches happen; run.c prepares the arrays.  */

#ifndef FLAT_RUNTIME_LAUNCH_H
#define FLAT_RUNTIME_LAUNCH_H

#include "backend.h"
#include "pool.h"
#include "scalar.h"
#include "segops.h"
#include "split.h"
#include "stages.h"

#include "../flatten/ir.h"

#include <stddef.h>
#include <stdint.h>

/* What launches of one execution of a nest share.  */
typedef struct flat_launcher
{
  const flat_backend *backend;
  flat_pool *pool;
  const char *nest;		/* the nest's name, for FLAT_LOG */
  const flat_nest *ir;
  const flat_kernel_desc *descs;	/* by kernel index */
  const flat_stage *stages;	/* FLAT_MAX_STAGES per kernel */
  const flat_arg *args;		/* the nest args of the kernel ABI, plan
				   indices included; the scalars point
				   into SCALARS */
  int n_args;
  flat_value *values;		/* by var id */
  const flat_loader *loader;	/* the host's arrays, for the estimates
				   of irregular nests (flatten/irregular.c) */
  flat_scalar *scalars;		/* by var id: VALUES as kernel arguments */
  unsigned char *acc_updated;	/* by var id: a launch gave the ACC var a
				   new value */
  size_t group_size;		/* FLAT_GROUP_SIZE */
  int tile_split;		/* FLAT_TILE_SPLIT */
  size_t local_memory;		/* bytes of local memory per work-group */
  flat_arg *seg_args;		/* scratch of segops.c and of group segmap
				   launches: FLAT_SEGOP_ARGS (n_args, ...) */
  flat_segop_buffer *seg_buffers;
  flat_slice slice;		/* of the first dim of every kernel, as
				   the args pass it (split.h) */
} flat_launcher;

/* The work-group size of a level-GROUP segmap whose inner parallelism is
   THREADS, when its stage allows MAX_GROUP items: the power of two >=
   THREADS (at least 1), at most FLAT_MAX_GROUP and MAX_GROUP rounded
   down to a power of two.  */
size_t flat_group_items (int64_t threads, size_t max_group);

/* The slices that a tiled segmap over BLOCKS blocks splits its reduce
   of TRIPS iterations in, tiles of DEPTH, FORCED the FLAT_TILE_SPLIT
   setting (Note [Slices of a tiled reduce] in launch.c): their number,
   1 for none, and *CHUNK, the iterations of each but the last.  */
int64_t flat_tiled_slices (int64_t trips, int depth, int64_t blocks,
			   int forced, int64_t *chunk);

/* Launch kernel K of L's nest with the current values.  *LAUNCHED gets
   whether it had work (a kernel over no iterations is not launched).
   The accumulators of a segred or segscan get their new values, in
   L->values and L->scalars, for later launches.  On failure *WHAT and
   ERR say why.  */
int flat_launch (const flat_launcher *l, const flat_kernel *k,
		 int *launched, const char **what, char *err,
		 size_t err_size);

#endif /* FLAT_RUNTIME_LAUNCH_H */
