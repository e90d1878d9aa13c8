/* The OpenCL C dialect of the kernel printer (kernel_c.c), and the entry
   point that emits a nest's kernels as one OpenCL program.

   OpenCL C 1.2 is C99 with address spaces: a mem argument is a __global
   pointer, a work-group's arrays are __local, 64-bit integers are
   long/ulong, the math builtins are generic (sqrt of a float is single
   precision), and double needs cl_khr_fp64.
   Contraction of a * b + c into fma is switched off so that float results
   match the host's, unless the host compilation contracts too (the
   nest's `contract').  OpenCL C 1.2 has no warp shuffles (sub-groups are an
   extension that neither NVIDIA's driver nor every PoCL offers), so the
   rows of a scan are scanned in local memory (scan_rows.c).  */

#include "codegen.h"
#include "kernel_c.h"

const char flat_opencl_build_options[] = "-cl-std=CL1.2";

static const char *const opencl_types[FLAT_N_TYPES] = {
#define FLAT_TYPE(E, IR, C, CL, SIZE, SIGNED, FLOAT) [E] = CL,
#include "../flatten/types.def"
#undef FLAT_TYPE
};

static const char *const opencl_math[FLAT_N_MATH] = {
#define FLAT_MATH(E, C, CL, ARITY, TYPE, ARG2) [E] = CL,
#include "../flatten/mathfns.def"
#undef FLAT_MATH
};

/* OpenCL 1.1's atomic functions on 32-bit integers.  */
static const char *const opencl_atomics[FLAT_N_OPS] = {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) [FLAT_OP_##NAME] = OPENCL_ATOMIC,
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
};

static const flat_dialect opencl_dialect = {
  .name = "OpenCL",
  .type_names = opencl_types,
  .math_names = opencl_math,
  .int64_suffix = "L",
  .uint64_suffix = "UL",
  .inf_f32 = "INFINITY",
  .nan_f32 = "NAN",
  .inf_f64 = "((double) INFINITY)",
  .nan_f64 = "((double) NAN)",
  .prelude = { "#pragma OPENCL FP_CONTRACT OFF\n",
	       "#pragma OPENCL FP_CONTRACT ON\n" },
  .prelude_fp64 = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
  .kernel_qualifier = "__kernel ",
  .global_qualifier = "__global ",
  .restrict_qualifier = "restrict ",
  .global_id = "(long) get_global_id (0)",
  .global_size = "(long) get_global_size (0)",
  .function_qualifier = "static ",
  .local_qualifier = "__local ",
  .align16_before = "",
  .align16_after = " __attribute__ ((aligned (16)))",
  .local_id = "(long) get_local_id (0)",
  .local_size = "(long) get_local_size (0)",
  .group_id = "(long) get_group_id (0)",
  .num_groups = "(long) get_num_groups (0)",
  .barrier = "barrier (CLK_LOCAL_MEM_FENCE)",
  .barrier_global = "barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)",
  .atomic_qualifier = "volatile __global ",
  .atomic_local_qualifier = "volatile __local ",
  .atomic_names = opencl_atomics,
  .cas32 = "atomic_cmpxchg",
  .cas64 = "atom_cmpxchg",
  .prelude_atomic64 =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n",
  .f32_bits = "as_uint",
  .bits_f32 = "as_float",
  .f64_bits = "as_ulong",
  .bits_f64 = "as_double"
};

char *
flat_emit_opencl (const flat_nest *nest, char *err, size_t err_size)
{
  return flat_emit_c (nest, &opencl_dialect, err, err_size);
}
