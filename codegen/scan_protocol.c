/* Which of the two SEGSCAN protocols of codegen.h a scan kernel follows.
   The code generator prints the kernels of one, the runtime launches
   them, so both ask this file (it is in libflatir, which both link).

   A single pass with decoupled look-back combines each tile's aggregate
   with those of the tiles before it in whatever grouping the timing of
   the work-groups gives (the prefix of an earlier tile, or several
   aggregates one by one), so a result can depend on the timing unless
   the operator is exactly associative on its type:

     integers, bool    + * & | ^ && || min max   wrap-around arithmetic and
                                                 bitwise operations are;
     f32, f64          min max                   they pick one operand
                                                 (for inputs without NaN:
                                                 a NaN makes C's a < b ? a
                                                 : b depend on the order of
                                                 the operands);
     f32, f64          + *                       not: rounding depends on
                                                 the grouping.

   A declared reduction is trusted to be associative, not to be exactly
   so (it may add floats), and keeps reduce-then-scan too, whose grouping
   depends only on the launch shape.  So do segmented scans (rule G9),
   whose segments are chunked by virtual groups (segscan_segments.c).  The single pass needs 64-bit
   compare-and-swap (lookback.c), which CUDA and the OpenCL devices Flat
   meets (NVIDIA's, PoCL) have; on an OpenCL device without
   cl_khr_int64_base_atomics the program does not build and the nest runs
   on the host, with the runtime's warning.  */

#include "codegen.h"

int
flat_segscan_single_pass (const flat_kernel *k)
{
  const flat_accum *acc = &k->accs[0];

  if (acc->user || k->n_segments > 0)
    return 0;
  if (!flat_type_table[acc->var->type].is_float)
    return 1;
  return acc->op == FLAT_OP_MIN || acc->op == FLAT_OP_MAX;
}

int
flat_segscan_status_words (const flat_kernel *k)
{
  return flat_type_table[k->accs[0].var->type].size > 4 ? 2 : 1;
}
