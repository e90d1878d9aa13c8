/* Which of the two SEGSCAN protocols of codegen.h a scan kernel follows.
   The code generator prints the kernels of one and writes it into the
   kernel's descriptor (descriptor.c), by which the runtime launches
   them.

   A single pass with decoupled look-back combines each ticket's
   aggregate with those of the tickets before it in whatever grouping the
   timing of the work-groups gives (the prefix of an earlier ticket, or
   several aggregates one by one), so a result can depend on the timing
   unless the operator is exactly associative on its type:

     integers, bool    + * & | ^ && || min max   wrap-around arithmetic and
                                                 bitwise operations are;
     f32, f64          min max                   they pick one operand
                                                 (for inputs without NaN:
                                                 a NaN makes C's a < b ? a
                                                 : b depend on the order of
                                                 the operands);
     f32, f64          + *                       not: rounding depends on
                                                 the grouping.

   For float + and * the single pass looks back over a fixed window
   instead (flat_segscan_windowed; lookback.c): ticket t's prefix is
   always the same grouping of the same values, whatever the timing.  A
   single pass reduces each ticket in any order, as every builtin
   operator commutes.

   A declared reduction need not commute, and is trusted to be
   associative, not to be exactly so (it may add floats): it keeps
   reduce-then-scan, whose grouping depends only on the launch shape.  So
   do segmented scans (rule G9), whose segments are chunked by virtual
   groups (segscan_segments.c).  The single pass needs 64-bit
   compare-and-swap (lookback.c), which CUDA and the OpenCL devices Flat
   meets (NVIDIA's, PoCL) have; on an OpenCL device without
   cl_khr_int64_base_atomics the program does not build and the nest runs
   on the host, with the runtime's warning.  */

#include "codegen.h"

int
flat_segscan_single_pass (const flat_kernel *k)
{
  return !k->accs[0].user && k->n_segments == 0;
}

int
flat_segscan_windowed (const flat_kernel *k)
{
  const flat_accum *acc = &k->accs[0];

  return flat_segscan_single_pass (k)
	 && flat_type_table[acc->var->type].is_float
	 && !flat_reduction_table[acc->op].float_exact;
}

int
flat_segscan_status_words (const flat_kernel *k)
{
  return flat_type_table[k->accs[0].var->type].size > 4 ? 2 : 1;
}
