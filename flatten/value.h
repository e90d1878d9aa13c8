/* Scalar values as C holds them, shared by the constructors (ir.c), the
   parser, the checker, the evaluator and the extent walk, so that all of
   them agree on what a constant of a type may contain.

   A flat_value of an integer type is kept in canonical form: wrapped to the
   type's width, then sign- or zero-extended to 64 bits (bool: 0 or 1).
   Floats are doubles, f32 ones rounded through float.  For example
   normalizing 300 as u8 gives 44, -1 as u16 gives 65535, 0.1 as f32 gives
   0x1.99999ap-4.  */

#ifndef FLAT_VALUE_H
#define FLAT_VALUE_H

#include "ir.h"

/* V in canonical form for TYPE: integer types read V.u (any 64 bits),
   float types read V.f.  */
flat_value flat_value_normalize (flat_type type, flat_value v);

/* The canonical integer value V of TYPE read as a signed number of the
   type's width: how a step constant's sign is decided (4294967295:u32 is a
   step of -1).  */
int64_t flat_value_signed (flat_type type, flat_value v);

/* Nonzero if X, a mathematical integer, is a value of integer TYPE.  */
int flat_value_fits (flat_type type, int64_t x);

#endif /* FLAT_VALUE_H */
