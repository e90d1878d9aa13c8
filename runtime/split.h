/* One nest spread over several devices (FLAT_DEVICES, SPEC section 3.1):
   which nests can be, into which slices, and how the slices' results
   come together.  The arithmetic only; run.c drives the devices
   (Note [Slices] in split.c).  */

#ifndef FLAT_RUNTIME_SPLIT_H
#define FLAT_RUNTIME_SPLIT_H

#include "backend.h"

#include "../flatten/descriptor.h"
#include "../flatten/extent.h"
#include "../flatten/ir.h"

#include <stddef.h>
#include <stdint.h>

/* A device's slice: the iterations [lo, hi) of the outer loop, counted
   from 0 (the kernels' flat_slice_lo and flat_slice_hi, codegen.h).  */
typedef struct flat_slice
{
  int64_t lo, hi;
} flat_slice;

/* The whole outer loop: what every unsplit execution passes.  */
#define FLAT_SLICE_ALL ((flat_slice) { 0, INT64_MAX })

/* The iterations of a dim of N0 iterations that slice [LO, HI) runs, as
   every kernel computes them for its first dim.  */
int64_t flat_slice_trips (int64_t n0, int64_t lo, int64_t hi);

/* Cut TRIPS outer iterations, of WORK units of work in all (the root
   host guard's parallelism, flat_plan_root_par), into at most N_DEVICES
   contiguous slices of one iteration or more and at least MIN_WORK units
   of work each (MIN_WORK < 1 counts as 1), in order, sizes differing by
   one iteration at most, into SLICES (N_DEVICES entries).  Returns the
   number of slices; 1 (the whole loop) means no split.  MIN_WORK is the
   value of the nest's threshold "<nest>.split" (thresholds.h): below it
   the launches and transfers of one more device cost more than its
   share of the work.  */
int flat_split_slices (int64_t trips, int64_t work, int n_devices,
		       int64_t min_work, flat_slice *slices);

/* Whether NEST, with the descriptors DESCS of its kernels, can be split
   by slices of its outer loop: its body is one map or reduce, every
   kernel's first dim is that loop and its protocol keeps to the
   slice, and its accumulators are that reduce's scalars.  If not, WHY
   says why, for FLAT_LOG.  */
int flat_split_nest_ok (const flat_nest *nest,
			const flat_kernel_desc *descs, char *why,
			size_t why_size);

/* Whether the write extents WRITES of one mem in the N slices of a
   nest are pairwise disjoint, so that the devices' copies out cannot
   overwrite each other's results.  */
int flat_split_writes_disjoint (const flat_interval *writes, int n);

/* The value accumulator ACC starts from on the device of slice D: the
   host variable's BEFORE on the first, the operator's identity on the
   others, so that the combination counts BEFORE once.  */
flat_value flat_split_acc_start (const flat_accum *acc, int d,
				 flat_value before);

/* The result of ACC over all slices from the N slices' results PARTS,
   combined left to right in slice order, so that it never depends on
   which device finished first.  *OK is cleared if a declared combiner
   cannot run on the host.  */
flat_value flat_split_combine (const flat_nest *nest, const flat_accum *acc,
			       const flat_value *parts, int n, int *ok);

#endif /* FLAT_RUNTIME_SPLIT_H */
