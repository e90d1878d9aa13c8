/* Kernel source generation: OpenCL C and CUDA C from the kernels of one
   flattened nest (flatten/ir.h), through one C printer parameterised by a
   dialect.

   Kernel ABI, shared with runtime/ (which sets the arguments):
     * One program (OpenCL) or module (CUDA) per nest, holding one kernel
       function per flat_kernel named "flat_" + the kernel's name (flat_k0);
       CUDA kernels are extern "C" so the name is not mangled.
     * Arguments, in nest->params order: a PARAM becomes one argument of its
       scalar type (bool passed as an unsigned char, i64/u64 as 64-bit
       integers, f32 as float, f64 as double); a MEM becomes two arguments:
       a global pointer to its element type and a 64-bit signed integer
       NAME_lo such that IR element index e is buffer element (e - NAME_lo).
     * Each kernel computes its dims' trip counts from the params, linearises
       the product (innermost dim fastest) and walks it with a grid-stride
       loop over the global 1-D work-item id, so any 1-D launch size is
       correct; the runtime launches ceil(total / group) groups (capped).
     * FP contraction is off (OpenCL pragma / NVRTC --fmad=false) so float
       results match gcc's -O2 code on x86-64 up to library rounding.  */

#ifndef FLAT_CODEGEN_H
#define FLAT_CODEGEN_H

#include "../flatten/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Source of every kernel of NEST, malloc'ed; NULL (and ERR set) if a
   construct has no translation.  */
char *flat_emit_opencl (const flat_nest *nest, char *err, size_t err_size);
char *flat_emit_cuda (const flat_nest *nest, char *err, size_t err_size);


#ifdef __cplusplus
}
#endif

#endif /* FLAT_CODEGEN_H */
