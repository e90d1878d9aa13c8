/* The host side of the reduction and scan protocols (descriptor.h,
   codegen/codegen.h): one launch of a SEGRED or SEGSCAN kernel, from the
   choice of work-groups to the accumulators' new values.

     segred k0 with (add s), s = 5, x = 1 2 3 4, groups of B = 2:
       flat_k0        G = 2 groups, chunk 2     part = 3 7
       flat_k0_final  1 group                   res  = 10
       s becomes 5 add 10 = 15

     segscan k0 with (add a) on floats, a = 5, x = 1 2 3 4, two groups
     of a tile each (reduce-then-scan):
       flat_k0_pre    G = 2 groups              part = 3 7
       flat_k0        group 1 starts at 5 add 3 ex = 5 6 8 11, res = 15
       a becomes 15

   A segmented SEGRED or SEGSCAN (rule G9 in a map context) has no
   result on the host: its last stage runs each segment's post block.

     segred k1 (i, j, k) segments 2, n*m segments of p iterations:
       flat_k1        virtual groups v < n*m*gps     part[v]
       flat_k1_final  one item per segment           c[i*m + j] = ...

     segscan k2 (i, j) segments 1, n segments of m iterations:
       flat_k2_pre    virtual groups v < n*gps       part[v]
       flat_k2        virtual groups v < n*gps       the body; post in
                                                     the last chunk's

   launch.c decides when to run it; run.c writes the results to the
   host.  */

#ifndef FLAT_RUNTIME_SEGOPS_H
#define FLAT_RUNTIME_SEGOPS_H

#include "backend.h"
#include "pool.h"
#include "stages.h"

#include "../flatten/ir.h"

#include <stddef.h>
#include <stdint.h>

/* Most work-groups of the first stage: each reduces a chunk of
   ceil (total / groups) iterations.  */
#define FLAT_SEGOP_MAX_PARTS ((int64_t) 1024)

/* The same for a reduction whose operator need not commute (a declared
   one), whose groups must keep contiguous chunks: G chunks far apart
   read memory faster the more and the shorter they are (10^9 floats on
   an H100: 2.0 TB/s with 1024, 2.8 with 16384), and the final stage
   combines the G parts in order in one group, 64 per item.  */
#define FLAT_SEGOP_MAX_ORDERED_PARTS ((int64_t) 16384)

/* Work-items that a segmented segred aims at (virtual groups times
   their size) when it has few segments: about what a large GPU runs at
   once (an H100 holds 132 x 2048 resident threads).  */
#define FLAT_SEGOP_FILL ((int64_t) 4 * 65536)

/* Scratch entries of kernel arguments that a kernel with N_ACCS
   accumulators needs, when the nest has N_NEST_ARGS arguments: the most
   is an irregular or partitioned kernel's first stage (three more, with
   no accumulator) or an irregular segred's final stage (two more and
   two per accumulator).  */
#define FLAT_SEGOP_ARGS(n_nest_args, n_accs) \
  ((n_nest_args) + 3 + 2 * (n_accs))

/* Scratch buffers of a kernel with N_ACCS accumulators: an irregular
   segred's offsets, chunk sums, and a part and a head per
   accumulator.  */
#define FLAT_SEGOP_BUFFERS(n_accs) (2 + 2 * (n_accs))

/* A device buffer of part or res: the pool's, or a slot of the
   backend's result area (result_slot, backend.h), whose bytes are at
   HOST; HOST is NULL for the pool's.  */
typedef struct flat_segop_buffer
{
  void *handle;
  size_t capacity;
  void *host;
} flat_segop_buffer;

/* Give the first N of BUFFERS back to POOL (the pool's: a slot of the
   result area stays the backend's, and the entry the pool's again).  The results are in, or the
   stages that use them are queued before any later use of a buffer of
   the pool: a buffer the device fails to free is lost to the pool,
   nothing else.  */
void flat_segop_release (flat_pool *pool, flat_segop_buffer *buffers, int n);
/* Free the first N of BUFFERS on backend B after a failure: they do not
   go back to the pool, the device may be in trouble (slots of the result
   area as in flat_segop_release).  */
void flat_segop_discard (const flat_backend *b, flat_segop_buffer *buffers,
			 int n);

/* One launch of a SEGRED or SEGSCAN kernel that has work.  */
typedef struct flat_segop
{
  const char *nest;		/* the nest's name, for FLAT_LOG */
  const flat_nest *ir;		/* its combiners (declared reductions) */
  const flat_kernel *kernel;
  const flat_kernel_desc *desc;	/* its protocol (descriptor.h) */
  const flat_stage *stages;	/* in the order of its protocol's stages */
  const flat_arg *nest_args;	/* the nest arguments of the kernel ABI */
  int n_nest_args;
  int64_t total;		/* iterations of the kernel's dims, > 0
				   unless segmented */
  int64_t segments;		/* segmented: points of the segment dims,
				   > 0 (TOTAL is a multiple) */
  size_t group_size;		/* FLAT_GROUP_SIZE */
  flat_arg *args;		/* scratch: FLAT_SEGOP_ARGS entries */
  flat_segop_buffer *buffers;	/* scratch: 2 * n_accs entries */
} flat_segop;

/* The launch shape of OP: *GROUP, the largest power of two that is at
   most FLAT_GROUP_SIZE, FLAT_MAX_GROUP and every stage's max_group;
   *N_PARTS groups (at most FLAT_SEGOP_MAX_PARTS, or
   FLAT_SEGOP_MAX_ORDERED_PARTS for the chunked protocol, whose chunks
   have at least *GROUP * ordered-run iterations where there are
   that many; none empty) of *CHUNK iterations each (the last one
   fewer).  */
void flat_segop_shape (const flat_segop *op, size_t *group,
		       int64_t *n_parts, int64_t *chunk);

/* The launch shape of a SEGSCAN OP: *GROUP as for flat_segop_shape
   (for the single pass at least the descriptor's min-group where the
   stages allow), and *GROUPS groups: for the single-pass protocols
   *TILES tickets of
   *CHUNK = *GROUP * scan-items * ticket-tiles iterations
   over the total and enough groups to fill the device (FLAT_SEGOP_FILL
   work-items, at most the tickets); for reduce-then-scan *TILES of
   *GROUP * scan-items iterations and at most FLAT_SEGOP_MAX_PARTS
   groups, none of them empty, each a chunk of *CHUNK iterations (whole
   tiles; the last chunk fewer).  */
void flat_segscan_shape (const flat_segop *op, size_t *group,
			 int64_t *tiles, int64_t *groups, int64_t *chunk);

/* The launch shape of a segmented OP: *GROUP work-items per group, the
   power of two >= the iterations of a segment within the limits of
   flat_segop_shape; *GPS virtual groups per segment: 1 when there are
   enough segments to give FLAT_SEGOP_FILL work-items, else enough to
   come near it, but no more than there are chunks of *GROUP iterations
   in a segment; *N_PARTS = segments * *GPS.  */
void flat_segop_segmented_shape (const flat_segop *op, size_t *group,
				 int64_t *gps, int64_t *n_parts);

/* The launch shape of a segmented SEGSCAN OP: as for
   flat_segop_segmented_shape, with no more virtual groups per segment
   than it has tiles of *GROUP * scan-items iterations.  */
void flat_segscan_segmented_shape (const flat_segop *op, size_t *group,
				   int64_t *gps, int64_t *n_parts);

/* Run OP on backend B with part and res buffers from POOL.  VALUES holds
   the values by var id; on success the entries of the kernel's
   accumulators become their values after the kernel (segred: before OP
   the reduction; segscan: the total of the scan starting at before),
   except for a segmented kernel, which changes no value.  On failure,
   with *WHAT and ERR saying why, the buffers are freed and VALUES may
   have changed.  */
int flat_segop_run (const flat_backend *b, flat_pool *pool,
		    const flat_segop *op, flat_value *values,
		    const char **what, char *err, size_t err_size);

#endif /* FLAT_RUNTIME_SEGOPS_H */
