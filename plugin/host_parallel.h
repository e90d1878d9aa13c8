/* The parallel host version of a marked loop (Note [Parallel host
   version] in host_parallel.cc).  */

#ifndef FLAT_HOST_PARALLEL_H
#define FLAT_HOST_PARALLEL_H

#include "glue.h"
#include "loops.h"

/* The parallel host version of the counted loop C of shape SHAPE, marked
   by D in FNDECL, whose nest has the state variable STATE; or NULL_TREE
   where the loop does not qualify (a declared scan, a section of a
   global array, a jump out of its body, ...), which then stays as it
   is.
   On success the body's statements have moved into the result, and the
   rest of the loop is the caller's to drop.  INDEX_OUTLIVES: the index is
   declared outside the loop and gets its final value after it.  */
tree flat_host_parallel_loop (tree fndecl, const flat_recorded_directive *d,
			      const loop_shape &shape, const counted_loop &c,
			      tree state, bool index_outlives);

/* FALLBACK, the statements of D's loop in FNDECL where they stay as
   they are, with D's scalar accumulators in fresh locals around them:
   flat_run has their addresses, and a variable whose address escaped
   stays in memory all through the loop.  FALLBACK itself where it may
   jump out.  */
tree flat_host_local_accumulators (tree fndecl,
				   const flat_recorded_directive *d,
				   tree fallback);

/* After lifting a translation unit: let GCC's OpenMP passes expand the
   parallel regions made for it.  */
void flat_host_parallel_finish (void);

#endif /* FLAT_HOST_PARALLEL_H */
