/* The CUDA dialect of the kernel printer (kernel_c.c), and the entry point
   that emits a nest's kernels as one CUDA module for NVRTC.

   CUDA is C++ with C's math library: pointers need no address space, the
   math functions have their C names (sqrtf), kernels are extern "C" so
   that the runtime finds them by name, helpers are __device__, a block's
   arrays __shared__, and 64-bit integers are long long.  __syncthreads
   also makes the block's writes to global memory visible to the block,
   so it is both of the printer's barriers.  The rows of a scan are
   scanned with warp shuffles (__shfl_up_sync; warps of 32 threads).
   NVRTC has no system headers, so infinities and NaNs are made from their
   bits with device intrinsics instead of <math.h> macros.  Contraction
   into fma is NVRTC's --fmad, which the package's CUDA options set from
   the nest's `contract' (flat_cuda_build_options).

   Note [Shared memory by 32-bit addresses]
   NVRTC's pointers into shared memory are 64 bits wide, where nvcc's
   are 32: the same tiled matmul (tile 8) took 16 bytes of spills under
   nvcc and 56 under NVRTC at its 128 registers, and 0.518 ms at 2048^3
   on the H200 against nvcc's 0.463.  So a tiled kernel reads its tiles
   with ld.shared at 32-bit addresses (the flat_lds helpers below, in
   the source of a nest with a tiled kernel): 8 bytes of spills, 0.470
   ms.  Its writes stay plain: by address too, they took 16 bytes of
   spills.  The reads are volatile, which keeps them between the
   barriers around them, as the writes are.  */

#include "codegen.h"
#include "kernel_c.h"

const char *
flat_cuda_build_options (const flat_nest *nest)
{
  return nest->contract ? "--fmad=true" : "--fmad=false";
}

/* types.def's C names, except that _Bool is not C++: bool travels as an
   unsigned char, as in memory and kernel arguments.  char is spelt signed
   because plain char is unsigned on some hosts.  */
static const char *const cuda_types[FLAT_N_TYPES] = {
  [FLAT_T_BOOL] = "unsigned char",
  [FLAT_T_I8] = "signed char",
  [FLAT_T_U8] = "unsigned char",
  [FLAT_T_I16] = "short",
  [FLAT_T_U16] = "unsigned short",
  [FLAT_T_I32] = "int",
  [FLAT_T_U32] = "unsigned int",
  [FLAT_T_I64] = "long long",
  [FLAT_T_U64] = "unsigned long long",
  [FLAT_T_F32] = "float",
  [FLAT_T_F64] = "double"
};

static const char *const cuda_math[FLAT_N_MATH] = {
#define FLAT_MATH(E, C, CL, ARITY, TYPE, ARG2) [E] = C,
#include "../flatten/mathfns.def"
#undef FLAT_MATH
};

/* CUDA's atomic functions on int and unsigned int.  */
static const char *const cuda_atomics[FLAT_N_OPS] = {
#define FLAT_REDUCTION(NAME, SPELLING, IDENTITY, FLOAT_EXACT, OPENCL_ATOMIC, \
		       CUDA_ATOMIC, GCC_CODE) [FLAT_OP_##NAME] = CUDA_ATOMIC,
#include "../flatten/ops.def"
#undef FLAT_REDUCTION
};

/* The readers of Note [Shared memory by 32-bit addresses], for the
   element types of 4 and 8 bytes.  */
#define CUDA_SHARED_READ(SUFFIX, TYPE, PTX, REG) \
  "static __device__ __forceinline__ " TYPE " flat_lds_" SUFFIX \
  " (unsigned a)\n{\n  " TYPE " v;\n\n  asm volatile (\"ld.shared." PTX \
  " %0, [%1];\" : \"=" REG "\" (v) : \"r\" (a));\n  return v;\n}\n"
#define CUDA_SHARED_READS \
  CUDA_SHARED_READ ("i32", "int", "s32", "r") \
  CUDA_SHARED_READ ("u32", "unsigned int", "u32", "r") \
  CUDA_SHARED_READ ("i64", "long long", "s64", "l") \
  CUDA_SHARED_READ ("u64", "unsigned long long", "u64", "l") \
  CUDA_SHARED_READ ("f32", "float", "f32", "f") \
  CUDA_SHARED_READ ("f64", "double", "f64", "d")

static const char *const cuda_local_reads[FLAT_N_TYPES] = {
  [FLAT_T_I32] = "flat_lds_i32",
  [FLAT_T_U32] = "flat_lds_u32",
  [FLAT_T_I64] = "flat_lds_i64",
  [FLAT_T_U64] = "flat_lds_u64",
  [FLAT_T_F32] = "flat_lds_f32",
  [FLAT_T_F64] = "flat_lds_f64"
};

static const flat_dialect cuda_dialect = {
  .name = "CUDA",
  .type_names = cuda_types,
  .math_names = cuda_math,
  .int64_suffix = "LL",
  .uint64_suffix = "ULL",
  .inf_f32 = "__int_as_float (0x7f800000)",
  .nan_f32 = "__int_as_float (0x7fc00000)",
  .inf_f64 = "__longlong_as_double (0x7ff0000000000000LL)",
  .nan_f64 = "__longlong_as_double (0x7ff8000000000000LL)",
  .prelude = { "", "" },
  .prelude_fp64 = "",
  .prelude_tiles = CUDA_SHARED_READS,
  .kernel_qualifier = "extern \"C\" __global__ ",
  .launch_bounds = "__launch_bounds__ (%d, %d) ",
  .unroll = "#pragma unroll",
  .global_qualifier = "",
  .restrict_qualifier = "__restrict__ ",
  .global_id = "((long long) blockIdx.x * blockDim.x + threadIdx.x)",
  .global_size = "((long long) gridDim.x * blockDim.x)",
  .function_qualifier = "static __device__ ",
  .local_qualifier = "__shared__ ",
  .local_address32 = "(unsigned) __cvta_generic_to_shared (%s)",
  .local_read32 = cuda_local_reads,
  .align16_before = "__align__ (16) ",
  .align16_after = "",
  .local_id = "((long long) threadIdx.x)",
  .local_size = "((long long) blockDim.x)",
  .group_id = "((long long) blockIdx.x)",
  .num_groups = "((long long) gridDim.x)",
  .barrier = "__syncthreads ()",
  .barrier_global = "__syncthreads ()",
  .atomic_qualifier = "",
  .atomic_local_qualifier = "",
  .atomic_names = cuda_atomics,
  .cas32 = "atomicCAS",
  .cas64 = "atomicCAS",
  .prelude_atomic64 = "",
  .shfl_up = "__shfl_up_sync",
  .shfl = "__shfl_sync",
  .unroll_user_code = 1,
  .f32_bits = "__float_as_uint",
  .bits_f32 = "__uint_as_float",
  .f64_bits = "(unsigned long long) __double_as_longlong",
  .bits_f64 = "__longlong_as_double"
};

char *
flat_emit_cuda (const flat_nest *nest, char *err, size_t err_size)
{
  return flat_emit_c (nest, &cuda_dialect, err, err_size);
}
