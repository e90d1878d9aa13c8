/* Scalars as kernels take them (the kernel ABI of codegen/codegen.h) and
   as the host holds them, converted to and from the canonical values of
   the IR (flatten/value.h).  Params, accumulators passed by address and
   the results that reductions read back all go through here:

     i16 value -7      <->  bytes of (short) -7, 2 of them
     bool value 1      <->  one byte 1 (an unsigned char)
     f32 value 0.1     <->  bytes of (float) 0.1, 4 of them  */

#ifndef FLAT_RUNTIME_SCALAR_H
#define FLAT_RUNTIME_SCALAR_H

#include "../flatten/ir.h"

#include <stdint.h>

/* The first flat_type_table[T].size bytes of the member of type T are
   the scalar, in the byte order of the machine.  */
typedef union flat_scalar
{
  uint8_t u8;
  int8_t i8;
  int16_t i16;
  uint16_t u16;
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
  float f32;
  double f64;
} flat_scalar;

/* The scalar of TYPE holding V (canonical or not: it is wrapped or
   rounded as a C conversion to the type would).  */
flat_scalar flat_scalar_of (flat_type type, flat_value v);

/* The canonical value of the scalar of TYPE in S.  */
flat_value flat_scalar_value (flat_type type, const flat_scalar *s);

#endif /* FLAT_RUNTIME_SCALAR_H */
